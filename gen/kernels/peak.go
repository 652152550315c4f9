package main

import (
	"fmt"

	. "github.com/dave/jennifer/jen"

	"github.com/tcontract/tcontract/internal/spec"
)

// genericPeaks emits peak_<f32|f64>_generic: the pure-Go peak probe, one
// multiply and one add into each of PeakAccs() independent accumulators per
// trip, the multiplier and addend read from variables so that the compiler
// cannot fold them. The sum is published through an atomic so the loop is
// kept without a data race when probes run on several threads.
func genericPeaks() *File {
	f := newFile("")
	g := isa(spec.Generic)
	n := g.PeakAccs()
	for _, p := range peaks() {
		if p.ISA.Name != spec.Generic {
			continue
		}
		r := p.Real
		name := peakName(spec.Generic, r)
		T := title(r.Short)
		f.Commentf("peakMul%s and peakAdd%s keep the accumulators of %s near 2: no", T, T, name)
		f.Comment("overflow, no subnormals.")
		f.Var().List(Id("peakMul"+T), Id("peakAdd"+T)).Add(goType(r)).Op("=").List(Lit(0.5), Lit(1.0))
		var accs []Code
		for i := 0; i < n; i++ {
			accs = append(accs, Id(fmt.Sprintf("s%d", i)))
		}
		var step []Code
		for i := 0; i < n; i++ {
			step = append(step, Id(fmt.Sprintf("s%d", i)).Op("=").Id(fmt.Sprintf("s%d", i)).Op("*").Id("x").Op("+").Id("y"))
		}
		var sum Code = Id("s0")
		for i := 1; i < n; i++ {
			sum = Add(sum).Op("+").Id(fmt.Sprintf("s%d", i))
		}
		bits := Qual("math", "Float32bits").Call(Id("sum"))
		if r.Size == 8 {
			bits = Qual("math", "Float64bits").Call(Id("sum"))
		}
		f.Commentf("%s runs iters trips of %d independent %s multiply-adds (the generic peak probe).", name, n, r.Name)
		f.Func().Id(name).Params(Id("iters").Int()).Block(
			Id("x").Op(",").Id("y").Op(":=").List(Id("peakMul"+T), Id("peakAdd"+T)),
			Var().List(accs...).Add(goType(r)),
			For(Id("t").Op(":=").Lit(0), Id("t").Op("<").Id("iters"), Id("t").Op("++")).Block(step...),
			Id("sum").Op(":=").Add(sum),
			Id("peakSink").Dot("Store").Call(Uint64().Call(bits)),
		)
	}
	f.Comment("peakSink receives each generic probe's result so its loop is not dead code.")
	f.Var().Id("peakSink").Qual("sync/atomic", "Uint64")
	return f
}
