package main

import (
	"fmt"

	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"

	"github.com/tcontract/tcontract/asm/internal/x86"
)

// pack1e emits the row's complex-A packer in 1m's 1e layout (w = MR reals,
// rows complex elements up to w/2), as asm/avx512 does with opmasks: step
// 2p of the sliver is (re, im) of each element i at src[i*rowStep+p*kStep]
// (steps in reals), step 2p+1 is (−im, re); reals from 2·rows to w of both
// are 0. When the elements are adjacent (rowStep == 2) a step is VMASKMOV
// loads (lanes past 2·rows are zero and never read), each stored as it is
// and again with its pairs swapped and the first of each pair negated by a
// sign mask that is itself cut to the loaded lanes, so padding stays +0;
// other steps go element by element.
func pack1e(pk *x86.Packer) {
	c := pk.Ctx
	o := x86.OpsFor(c, pk.Size)
	name := x86.Pack1eName(pk.K)
	L := pk.Lanes
	nvec := (pk.W + L - 1) / L
	if nvec*L != pk.W || nvec > 3 {
		panic(pk.K.Name() + ": a 1e step must be one to three whole vectors")
	}
	mask := maskTable(pk.Gen, name+"_rows", pk.W)
	pk.BeginComplex(name, pk.W/2,
		fmt.Sprintf("%s packs one sliver of complex %s in 1m's 1e layout (AVX2): for i < rows <= %d", name, pk.K.Real, pk.W/2),
		fmt.Sprintf("and p < k, dst[2p*%d+2i:] = (re, im) and dst[(2p+1)*%d+2i:] = (-im, re) of the element", pk.W, pk.W),
		fmt.Sprintf("at src[i*rowStep+p*kStep] (in reals); reals 2*rows..%d of each step are 0. rowStep == 2 is fast.", pk.W),
	)
	// Y(15-v): the lanes of vector v below 2·rows; Y(13-v): the sign bit
	// of the first real of each of those lanes' pairs. Three vectors a step
	// take the registers below them instead, and one step a trip.
	masks, signs := make([]reg.VecPhysical, nvec), make([]reg.VecPhysical, nvec)
	below, unroll := 13, 2
	if nvec > 2 {
		below, unroll = 12, 1
	}
	for v := range masks {
		masks[v], signs[v] = x86.Y(15-v), x86.Y(below-v)
	}
	rowMasks(pk, mask, pk.W, 2, masks)
	sign := x86.Y(below - max(nvec, 2))
	if pk.Size == 4 {
		c.MOVQ(operand.U32(1<<31), x86.P0)
		c.MOVQ(x86.P0, sign.AsX())
		c.VPBROADCASTQ(sign.AsX(), sign)
	} else {
		c.MOVQ(operand.U64(1<<63), x86.P0)
		c.MOVQ(x86.P0, sign.AsX())
		c.VINSERTI128(operand.U8(1), sign.AsX(), sign, sign)
	}
	for v := range signs {
		c.VPAND(masks[v], sign, signs[v])
	}
	col := pk.W * pk.Size // bytes of one step
	step := func(u int) {
		d := 2 * col * max(u, 0)
		for v := 0; v < nvec; v++ {
			r := max(u, 0)*2*nvec + 2*v
			a, b := x86.Y(r), x86.Y(r+1)
			o.MaskMov(x86.Mem(x86.PS, 32*v), masks[v], a)
			o.Mov(a, x86.Mem(x86.PD, d+32*v))
			pk.SwapPairs(a, b)
			if pk.Size == 4 {
				c.VXORPS(signs[v], b, b)
			} else {
				c.VXORPD(signs[v], b, b)
			}
			o.Mov(b, x86.Mem(x86.PD, d+col+32*v))
		}
		c.ADDQ(x86.KS, x86.PS)
	}
	pk.Loop("c", unroll, 2*col, step)
	c.VZEROUPPER()
	c.RET()
	pk.Pack1eScalar()
}
