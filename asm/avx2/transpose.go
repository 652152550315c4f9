package main

import (
	"fmt"

	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"

	"github.com/tcontract/tcontract/asm/internal/x86"
)

// The kStep == 1 paths: row j's next L steps are loaded into Y(j), rows
// past rows are zeroed (the chain of x86.Transpose), and 8×8 (float32) or
// 4×4 (float64) register transposes turn them into the sliver's steps.

// rowOps are the loads, the tail mask (Y15: the first TC lanes, from a
// table) and the zeroing shared by both packers.
func rowOps(pk *x86.Packer, o x86.Ops) x86.TransposeOps {
	c := pk.Ctx
	L := pk.Lanes
	tab := maskTable(pk.Gen, x86.PackName(pk.K, pk.Op)+"_steps", L)
	mask := x86.Y(15)
	return x86.TransposeOps{
		L:        L,
		Load:     func(j int, addr operand.Mem) { o.Mov(addr, x86.Y(j)) },
		LoadTail: func(j int, addr operand.Mem) { o.MaskMov(addr, mask, x86.Y(j)) },
		TailMask: func() {
			// The mask starts L-TC entries into the table.
			c.LEAQ(tab, x86.TT)
			c.ADDQ(operand.U32(L*pk.Size), x86.TT)
			c.SHLQ(pk.Shift(), x86.TC)
			c.SUBQ(x86.TC, x86.TT)
			c.SHRQ(pk.Shift(), x86.TC)
			c.VMOVDQU(x86.Mem(x86.TT, 0), mask)
		},
		Zero: func(j int) { c.VXORPS(x86.Y(j), x86.Y(j), x86.Y(j)) },
	}
}

// transposeA is PackA's: blocks of L rows, one L×L transpose per chunk,
// the steps' vectors stored w reals apart.
func transposeA(pk *x86.Packer) x86.TransposeOps {
	c := pk.Ctx
	o := x86.OpsFor(c, pk.Size)
	t := rowOps(pk, o)
	t.Block = t.L
	var out []reg.VecPhysical
	t.Transpose = func() {
		if pk.Size == 4 {
			out = transpose8x8(c)
		} else {
			out = transpose4x4(c, 0, 4, 8)
		}
	}
	t.StoreChunk = func(tail bool) {
		pk.StoreSteps(t.L, tail, func(s int, addr operand.Mem) { o.Mov(out[s], addr) })
	}
	t.StoreZero = func(addr operand.Mem) {
		c.VXORPS(x86.Y(14), x86.Y(14), x86.Y(14))
		o.Mov(x86.Y(14), addr)
	}
	return t
}

// transpose8x8 transposes the float32 rows Y0–Y7 (lane p of Y(i) is element
// (i, p)) in three stages of 8 shuffles, and returns the registers holding
// steps 0…7.
func transpose8x8(c *build.Context) []reg.VecPhysical {
	y := x86.Y
	// Rows 2i, 2i+1 interleaved: steps 0,1 (lo) or 2,3 (hi) of each 128-bit
	// lane.
	for i := 0; i < 4; i++ {
		c.VUNPCKLPS(y(2*i+1), y(2*i), y(8+2*i))
		c.VUNPCKHPS(y(2*i+1), y(2*i), y(8+2*i+1))
	}
	// Rows 4g…4g+3 at steps s (lane 0) and 4+s (lane 1) in Y(4g+s).
	for g := 0; g < 2; g++ {
		t := 8 + 4*g
		c.VUNPCKLPD(y(t+2), y(t), y(4*g))
		c.VUNPCKHPD(y(t+2), y(t), y(4*g+1))
		c.VUNPCKLPD(y(t+3), y(t+1), y(4*g+2))
		c.VUNPCKHPD(y(t+3), y(t+1), y(4*g+3))
	}
	out := make([]reg.VecPhysical, 8)
	for s := 0; s < 4; s++ {
		c.VPERM2F128(operand.U8(0x20), y(4+s), y(s), y(8+s))   // lanes 0: step s
		c.VPERM2F128(operand.U8(0x31), y(4+s), y(s), y(8+4+s)) // lanes 1: step 4+s
		out[s], out[4+s] = y(8+s), y(8+4+s)
	}
	return out
}

// transpose4x4 transposes the float64 rows Y(in)…Y(in+3) through Y(tmp)…
// into Y(dst)… and returns the registers holding steps 0…3.
func transpose4x4(c *build.Context, in, tmp, dst int) []reg.VecPhysical {
	y := x86.Y
	// Rows 2i, 2i+1 at steps 0 (lane 0) and 2 (lane 1), or 1 and 3.
	for i := 0; i < 2; i++ {
		c.VUNPCKLPD(y(in+2*i+1), y(in+2*i), y(tmp+2*i))
		c.VUNPCKHPD(y(in+2*i+1), y(in+2*i), y(tmp+2*i+1))
	}
	out := make([]reg.VecPhysical, 4)
	for s := 0; s < 2; s++ {
		c.VPERM2F128(operand.U8(0x20), y(tmp+2+s), y(tmp+s), y(dst+s))   // step s
		c.VPERM2F128(operand.U8(0x31), y(tmp+2+s), y(tmp+s), y(dst+2+s)) // step 2+s
		out[s], out[2+s] = y(dst+s), y(dst+2+s)
	}
	return out
}

// transposeB is PackB's for w = 6 (or, float32, fewer): float32 as one 8×8
// transpose with 8-w zero rows, each step of six stored as a whole vector
// over the next step's first reals (the tail stores exactly), narrower
// ones exactly; float64 as a 4×4 transpose of rows 0–3 and the two-row
// half of one for rows 4 and 5.
func transposeB(pk *x86.Packer) x86.TransposeOps {
	c := pk.Ctx
	o := x86.OpsFor(c, pk.Size)
	t := rowOps(pk, o)
	w, L := pk.W, pk.Lanes
	t.Block = w
	S := w * pk.Size
	if pk.Size == 4 && w < 6 {
		// Narrower float32 slivers: the same transpose with more zero
		// rows, each step stored exactly (storePart).
		var out []reg.VecPhysical
		t.Transpose = func() {
			for j := w; j < 8; j++ {
				c.VXORPS(x86.Y(j), x86.Y(j), x86.Y(j))
			}
			out = transpose8x8(c)
		}
		t.StoreChunk = func(tail bool) {
			pk.StoreSteps(L, tail, func(s int, addr operand.Mem) { storePart(pk, out[s], x86.Y(0), addr, w) })
		}
		return t
	}
	if w != 6 {
		panic(fmt.Sprintf("%s: AVX2 PackB transposes 6 rows or (float32) fewer, not %d", pk.K.Name(), w))
	}
	if pk.Size == 4 {
		var out []reg.VecPhysical
		t.Overlap = true
		t.Transpose = func() {
			c.VXORPS(x86.Y(6), x86.Y(6), x86.Y(6))
			c.VXORPS(x86.Y(7), x86.Y(7), x86.Y(7))
			out = transpose8x8(c)
		}
		t.StoreChunk = func(tail bool) {
			if !tail {
				for s := 0; s < L; s++ {
					o.Mov(out[s], x86.Mem(x86.PD, s*S))
				}
				return
			}
			for s := 0; s < L; s++ {
				if s > 0 {
					c.CMPQ(x86.TC, operand.U32(s))
					c.JLE(operand.LabelRef("tnext"))
				}
				o.Mov(out[s].AsX(), x86.Mem(x86.PD, s*S))
				c.VEXTRACTF128(operand.U8(1), out[s], x86.X(0))
				c.VMOVSD(x86.X(0), x86.Mem(x86.PD, s*S+16))
			}
		}
		return t
	}
	var lo []reg.VecPhysical
	t.Transpose = func() {
		lo = transpose4x4(c, 0, 8, 12)
		// Rows 4, 5: steps 0 and 2 in Y6's lanes, 1 and 3 in Y7's.
		c.VUNPCKLPD(x86.Y(5), x86.Y(4), x86.Y(6))
		c.VUNPCKHPD(x86.Y(5), x86.Y(4), x86.Y(7))
		c.VEXTRACTF128(operand.U8(1), x86.Y(6), x86.X(4))
		c.VEXTRACTF128(operand.U8(1), x86.Y(7), x86.X(5))
	}
	hi := []reg.VecPhysical{x86.X(6), x86.X(7), x86.X(4), x86.X(5)}
	t.StoreChunk = func(tail bool) {
		pk.StoreSteps(L, tail, func(s int, addr operand.Mem) {
			o.Mov(lo[s], addr)
			o.Mov(hi[s], addr.Offset(32))
		})
	}
	return t
}
