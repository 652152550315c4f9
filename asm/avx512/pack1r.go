package main

import (
	"fmt"

	"github.com/mmcloughlin/avo/attr"
	"github.com/mmcloughlin/avo/operand"

	"github.com/tcontract/tcontract/asm/internal/x86"
)

// pack1r emits the row's complex-B packer in 1m's 1r layout (w = NR reals,
// rows complex columns up to w): step 2p of the sliver holds the real part
// of each column j at src[j*rowStep+p*kStep] (steps in reals), step 2p+1
// its imaginary part; the rest of both is 0. When the columns are adjacent
// (rowStep == 2) a step's 2w reals are loaded under a mask and sorted by
// one two-table permute per vector into real parts then imaginary ones,
// exactly the two steps; other steps go element by element.
func pack1r(pk *x86.Packer) {
	c := pk.Ctx
	name := x86.Pack1rName(pk.K)
	L, w := pk.Lanes, pk.W
	nvec := (2*w + L - 1) / L
	if nvec > 2 {
		panic(pk.K.Name() + ": a 1r step wider than two vectors")
	}
	// The permute's indices: output real l of a step is input real 2l
	// (l < w) or 2(l−w)+1; bit log2(L) of an index picks the second table.
	idx := c.StaticGlobal(name + "_idx")
	c.DataAttributes(attr.RODATA | attr.NOPTR)
	for l := 0; l < nvec*L; l++ {
		src := 0
		switch {
		case l < w:
			src = 2 * l
		case l < 2*w:
			src = 2*(l-w) + 1
		}
		if pk.Size == 4 {
			c.AddDatum(4*l, operand.U32(src))
		} else {
			c.AddDatum(8*l, operand.U64(src))
		}
	}
	pk.BeginComplex(name, w,
		fmt.Sprintf("%s packs one sliver of complex %s in 1m's 1r layout (AVX-512): for j < rows <= %d", name, pk.K.Real, w),
		fmt.Sprintf("and p < k, dst[2p*%d+j] and dst[(2p+1)*%d+j] are re and im of the element at", w, w),
		fmt.Sprintf("src[j*rowStep+p*kStep] (in reals); reals rows..%d of each step are 0. rowStep == 2 is fast.", w),
	)

	o := x86.OpsFor(c, pk.Size)
	// K(v+1): the lanes of input vector v below 2·rows; K7: the lanes of
	// the last output vector below 2w.
	c.MOVQ(x86.Rows, x86.P1)
	c.SHLQ(operand.U8(1), x86.P1)
	pk.LaneMasks(x86.P1, nvec)
	last := 2*w - (nvec-1)*L
	c.MOVL(operand.U32(1<<last-1), x86.P0.As32())
	c.KMOVW(x86.P0.As32(), x86.Opmask(7))
	// Z(20+v): the indices of output vector v.
	for v := 0; v < nvec; v++ {
		c.VMOVDQU64(idx.Offset(64*v), x86.Z(20+v))
	}
	in := []int{0, 1}
	if nvec == 1 {
		in = []int{0, 0} // one table: the second index bit is never set
	}
	step := func(u int) {
		d := 2 * w * pk.Size * max(u, 0)
		base := 4 * max(u, 0)
		for v := 0; v < nvec; v++ {
			o.MovZ(x86.Mem(x86.PS, 64*v), x86.Opmask(v+1), x86.Z(base+v))
		}
		for v := 0; v < nvec; v++ {
			out := x86.Z(base + 2 + v)
			c.VMOVDQA64(x86.Z(20+v), out)
			if pk.Size == 4 {
				c.VPERMI2PS(x86.Z(base+in[1]), x86.Z(base+in[0]), out)
			} else {
				c.VPERMI2PD(x86.Z(base+in[1]), x86.Z(base+in[0]), out)
			}
			if v == nvec-1 && last < L {
				o.Mov(out, x86.Opmask(7), x86.Mem(x86.PD, d+64*v))
			} else {
				o.Mov(out, x86.Mem(x86.PD, d+64*v))
			}
		}
		c.ADDQ(x86.KS, x86.PS)
	}
	pk.Loop("c", 2, 2*w*pk.Size, step)
	c.VZEROUPPER()
	c.RET()
	pk.Pack1rScalar()
}
