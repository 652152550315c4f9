package x86

import (
	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/operand"
)

// Ops are the packed instructions of one real type, so a kernel body is
// written once for float32 and float64.
type Ops struct {
	// FMA is VFMADD231P[SD]: the last operand += the first two multiplied.
	FMA func(...operand.Op)
	// FMABcast is VFMADD231P[SD].BCST m, a, dst: dst += a times the real
	// at m in every lane (embedded broadcast).
	FMABcast func(m, a, dst operand.Op)
	// FMA213 is VFMADD213P[SD] c, a, dst: dst = a·dst + c.
	FMA213 func(...operand.Op)
	// Mul is VMULP[SD] src1, src2, dst.
	Mul func(...operand.Op)
	// MulZ is VMULP[SD].Z src1, src2, k, dst: lanes outside k are zeroed
	// (and a masked memory operand is not read there).
	MulZ func(src1, src2, k, dst operand.Op)
	// Bcast is VBROADCASTS[SD] m, dst.
	Bcast func(m, dst operand.Op)
	// MaskMov is VMASKMOVP[SD] (AVX2 masked load or store).
	MaskMov func(a, mask, b operand.Op)
	// Mov is VMOVUP[SD]; the element size matters under an opmask, which
	// selects 32- or 64-bit lanes.
	Mov func(...operand.Op)
	// MovZ is VMOVUP[SD].Z src, k, dst: a masked load that zeroes, and
	// never touches, the lanes outside k.
	MovZ func(src, k, dst operand.Op)
	// Stream is VMOVNTP[SD] src, m: a non-temporal store to an aligned
	// vector of memory (no opmask).
	Stream func(src, m operand.Op)
}

// OpsFor returns the instructions for reals of size bytes.
func OpsFor(c *build.Context, size int) Ops {
	if size == 4 {
		return Ops{
			FMA:      c.VFMADD231PS,
			FMABcast: func(m, a, d operand.Op) { c.VFMADD231PS_BCST(m, a, d) },
			FMA213:   c.VFMADD213PS,
			Mul:      func(o ...operand.Op) { c.VMULPS(o...) },
			Bcast:    func(m, d operand.Op) { c.VBROADCASTSS(m, d) },
			MaskMov:  c.VMASKMOVPS,
			Mov:      c.VMOVUPS,
			MulZ:     c.VMULPS_Z,
			MovZ:     c.VMOVUPS_Z,
			Stream:   c.VMOVNTPS,
		}
	}
	return Ops{
		FMA:      c.VFMADD231PD,
		FMABcast: func(m, a, d operand.Op) { c.VFMADD231PD_BCST(m, a, d) },
		FMA213:   c.VFMADD213PD,
		Mul:      func(o ...operand.Op) { c.VMULPD(o...) },
		Bcast:    func(m, d operand.Op) { c.VBROADCASTSD(m, d) },
		MaskMov:  c.VMASKMOVPD,
		Mov:      c.VMOVUPD,
		MulZ:     c.VMULPD_Z,
		MovZ:     c.VMOVUPD_Z,
		Stream:   c.VMOVNTPD,
	}
}
