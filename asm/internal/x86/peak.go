package x86

import (
	"fmt"

	"github.com/mmcloughlin/avo/attr"
	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/operand"

	"github.com/tcontract/tcontract/internal/spec"
)

// Peak builds the peak probe of one ISA and real type,
// peak_<f32|f64>_<isa>(iters int): iters trips of one FMA into each of
// isa.PeakAccs() independent accumulators, so the FMA pipes, not latency,
// bound it. The operands are zero, so no value ever turns subnormal.
func Peak(isaName string, r spec.Real) *build.Context {
	isa, ok := spec.ISAByName(isaName)
	if !ok {
		panic("unknown ISA " + isaName)
	}
	c := build.NewContext()
	c.ConstraintExpr("!purego")
	name := fmt.Sprintf("peak_%s_%s", r.Short, isa.Name)
	accs := isa.PeakAccs()
	c.Function(name)
	c.Attributes(attr.NOSPLIT)
	c.SignatureExpr("func(iters int)")
	c.Doc(fmt.Sprintf("%s runs iters trips of %d independent %d-byte %s FMAs (the peak probe).",
		name, accs, isa.VecBytes, r.Name))
	v := Y
	if isa.VecBytes == 64 {
		v = Z
	}
	zero := func(i int) {
		if isa.VecBytes == 64 {
			c.VPXORD(v(i), v(i), v(i))
		} else {
			c.VXORPS(v(i), v(i), v(i))
		}
	}
	c.Load(c.Param("iters"), Trips)
	for i := 0; i < accs+2; i++ {
		zero(i)
	}
	c.TESTQ(Trips, Trips)
	c.JLE(operand.LabelRef("done"))
	Align(c, 64)
	c.Label("loop")
	for i := 0; i < accs; i++ {
		if r.Size == 4 {
			c.VFMADD231PS(v(accs), v(accs+1), v(i))
		} else {
			c.VFMADD231PD(v(accs), v(accs+1), v(i))
		}
	}
	c.DECQ(Trips)
	c.JNZ(operand.LabelRef("loop"))
	c.Label("done")
	c.VZEROUPPER()
	c.RET()
	return c
}
