package main

import (
	"fmt"

	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"

	"github.com/tcontract/tcontract/asm/internal/x86"
)

// pack1r emits the row's complex-B packer in 1m's 1r layout (w = NR reals,
// rows complex columns up to w): step 2p of the sliver holds the real part
// of each column j at src[j*rowStep+p*kStep] (steps in reals), step 2p+1
// its imaginary part; the rest of both is 0. When the columns are adjacent
// (rowStep == 2) a step's 2w reals are VMASKMOV loads (lanes past 2·rows
// zero and never read), split into even and odd reals by in-lane shuffles
// and a cross-lane permute, and stored as exactly w reals each; other
// steps go element by element.
func pack1r(pk *x86.Packer) {
	c := pk.Ctx
	o := x86.OpsFor(c, pk.Size)
	name := x86.Pack1rName(pk.K)
	L, w := pk.Lanes, pk.W
	nvec := (2*w + L - 1) / L
	if pk.Size == 4 && w > L || pk.Size == 8 && (w <= L || w > 3*L/2) {
		panic(fmt.Sprintf("%s: no AVX2 1r split for %d columns", pk.K.Name(), w))
	}
	mask := maskTable(pk.Gen, name+"_rows", nvec*L)
	pk.BeginComplex(name, w,
		fmt.Sprintf("%s packs one sliver of complex %s in 1m's 1r layout (AVX2): for j < rows <= %d", name, pk.K.Real, w),
		fmt.Sprintf("and p < k, dst[2p*%d+j] and dst[(2p+1)*%d+j] are re and im of the element at", w, w),
		fmt.Sprintf("src[j*rowStep+p*kStep] (in reals); reals rows..%d of each step are 0. rowStep == 2 is fast.", w),
	)
	// Y(15-v): the lanes of input vector v below 2·rows (the table holds
	// nvec·L ones, then as many zeros).
	masks := make([]reg.VecPhysical, nvec)
	for v := range masks {
		masks[v] = x86.Y(15 - v)
	}
	rowMasks(pk, mask, nvec*L, 2, masks)
	row := w * pk.Size // bytes of the real (or imaginary) row of a step
	step := func(u int) {
		d := 2 * row * max(u, 0)
		r := 6 * max(u, 0)
		in := []reg.VecPhysical{x86.Y(r), x86.Y(r + 1), x86.Y(r + 2)}[:nvec]
		re, im, tmp := x86.Y(r+3), x86.Y(r+4), x86.Y(r+5)
		for v := range in {
			o.MaskMov(x86.Mem(x86.PS, 32*v), masks[v], in[v])
		}
		c.ADDQ(x86.KS, x86.PS)
		if pk.Size == 4 {
			// [r0 i0 r1 i1 | r2 i2 r3 i3], [r4 i4 r5 i5 | ...]: even and
			// odd reals of each lane, then the lanes' halves in order (at
			// most four columns: one vector, paired with itself).
			hi := in[nvec-1]
			c.VSHUFPS(operand.U8(0x88), hi, in[0], re)
			c.VSHUFPS(operand.U8(0xdd), hi, in[0], im)
			c.VPERMPD(operand.U8(0xd8), re, re)
			c.VPERMPD(operand.U8(0xd8), im, im)
			storePart(pk, re, tmp, x86.Mem(x86.PD, d), w)
			storePart(pk, im, tmp, x86.Mem(x86.PD, d+row), w)
			return
		}
		// [r0 i0 r1 i1], [r2 i2 r3 i3], [r4 i4 r5 i5]: the first two
		// unpack into four reals and four imaginary parts; the third is
		// put in order ([r4 r5 i4 i5]) and stored by halves.
		c.VUNPCKLPD(in[1], in[0], re)
		c.VUNPCKHPD(in[1], in[0], im)
		c.VPERMPD(operand.U8(0xd8), re, re)
		c.VPERMPD(operand.U8(0xd8), im, im)
		c.VPERMPD(operand.U8(0xd8), in[2], in[2])
		o.Mov(re, x86.Mem(x86.PD, d))
		o.Mov(im, x86.Mem(x86.PD, d+row))
		storePart(pk, in[2], tmp, x86.Mem(x86.PD, d+32), w-L)
		c.VEXTRACTF128(operand.U8(1), in[2], tmp.AsX())
		storePart(pk, tmp, tmp, x86.Mem(x86.PD, d+row+32), w-L)
	}
	pk.Loop("c", 2, 2*row, step)
	c.VZEROUPPER()
	c.RET()
	pk.Pack1rScalar()
}
