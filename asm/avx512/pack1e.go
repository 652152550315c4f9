package main

import (
	"fmt"

	"github.com/mmcloughlin/avo/operand"

	"github.com/tcontract/tcontract/asm/internal/x86"
)

// pack1e emits the row's complex-A packer in 1m's 1e layout (w = MR reals,
// rows complex elements up to w/2): step 2p of the sliver is (re, im) of
// each element i at src[i*rowStep+p*kStep] (steps in reals), step 2p+1 is
// (−im, re); reals from 2·rows to w of both are 0. When the elements are
// adjacent (rowStep == 2) a step is masked vector loads, each stored as it
// is and again with its pairs swapped and the first of each pair negated
// (vpermilps/pd and a sign xor); other steps go element by element.
func pack1e(pk *x86.Packer) {
	name := x86.Pack1eName(pk.K)
	pk.BeginComplex(name, pk.W/2,
		fmt.Sprintf("%s packs one sliver of complex %s in 1m's 1e layout (AVX-512): for i < rows <= %d", name, pk.K.Real, pk.W/2),
		fmt.Sprintf("and p < k, dst[2p*%d+2i:] = (re, im) and dst[(2p+1)*%d+2i:] = (-im, re) of the element", pk.W, pk.W),
		fmt.Sprintf("at src[i*rowStep+p*kStep] (in reals); reals 2*rows..%d of each step are 0. rowStep == 2 is fast.", pk.W),
	)
	pack1eVector(pk, x86.OpsFor(pk.Ctx, pk.Size))
	pk.Pack1eScalar()
}

// pack1eVector is the rowStep == 2 path, from the branch to "scalar" on.
func pack1eVector(pk *x86.Packer, o x86.Ops) {
	c := pk.Ctx
	L := pk.Lanes
	nvec := (pk.W + L - 1) / L
	if nvec > 6 {
		panic(pk.K.Name() + ": sliver too wide for one opmask per vector")
	}
	// K(v+1): the lanes of vector v below 2·rows.
	c.MOVQ(x86.Rows, x86.P1)
	c.SHLQ(operand.U8(1), x86.P1)
	pk.LaneMasks(x86.P1, nvec)
	// sign: the sign bit of the first real of every pair.
	sign := x86.Z(31)
	if pk.Size == 4 {
		c.MOVL(operand.U32(1<<31), x86.P0.As32())
		c.VPBROADCASTQ(x86.P0, sign)
	} else {
		c.MOVQ(operand.U64(1<<63), x86.P0)
		c.VPBROADCASTQ(x86.P0, sign)
		c.MOVL(operand.U32(0x55), x86.P0.As32())
		c.KMOVW(x86.P0.As32(), x86.Opmask(7))
		c.VMOVDQA64_Z(sign, x86.Opmask(7), sign)
	}
	col := pk.W * pk.Size // bytes of one step
	step := func(u int) {
		d := 2 * col * max(u, 0)
		for v := 0; v < nvec; v++ {
			r := max(u, 0)*2*nvec + 2*v
			a, b := x86.Z(r), x86.Z(r+1)
			o.MovZ(x86.Mem(x86.PS, 64*v), x86.Opmask(v+1), a)
			o.Mov(a, x86.Mem(x86.PD, d+64*v))
			pk.SwapPairs(a, b)
			if pk.Size == 4 {
				c.VXORPS_Z(sign, b, x86.Opmask(v+1), b)
			} else {
				c.VXORPD_Z(sign, b, x86.Opmask(v+1), b)
			}
			o.Mov(b, x86.Mem(x86.PD, d+col+64*v))
		}
		c.ADDQ(x86.KS, x86.PS)
	}
	pk.Loop("c", 2, 2*col, step)
	c.VZEROUPPER()
	c.RET()
}
