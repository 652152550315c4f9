package main

import (
	"fmt"

	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"

	"github.com/tcontract/tcontract/asm/internal/x86"
)

// packer emits PackA (op "a", w = MR) or PackB (op "b", w = NR) of the row.
func packer(pk *x86.Packer) {
	pk.Begin(pk.Doc("AVX2", "rowStep == 1 (a masked vector copy per step) and kStep == 1 (register transposes) are fast; other steps go element by element.")...)
	packCopy(pk)
	if pk.Op == "a" {
		pk.Transpose(transposeA(pk))
	} else {
		pk.Transpose(transposeB(pk))
	}
	pk.Scalar()
}

// packCopy is the rowStep == 1 path: for each step p, the rows elements at
// src + p·kStep are one VMASKMOV load per vector (lanes past rows are zero
// and never read) and plain stores of exactly w reals. A sliver
// narrower than a line prefetches its source x86.CopyAhead steps on.
func packCopy(pk *x86.Packer) {
	c := pk.Ctx
	o := x86.OpsFor(c, pk.Size)
	L := pk.Lanes
	nvec := (pk.W + L - 1) / L
	mask := maskTable(pk.Gen, fmt.Sprintf("%s_rows", x86.PackName(pk.K, pk.Op)), pk.W)
	c.Label("copy")
	c.SHLQ(pk.Shift(), x86.KS)
	masks := make([]reg.VecPhysical, nvec)
	for v := range masks {
		masks[v] = x86.Y(15 - v)
	}
	rowMasks(pk, mask, pk.W, 1, masks)
	S := pk.W * pk.Size
	if wide := storeWidth(S); wide > 0 {
		// A step narrower than a vector (PackB): stored as a whole 16- or
		// 32-byte piece at each step but the last (the next step's store
		// overwrites the excess, which never reaches past the sliver before
		// the last step), which stores exactly. One store a step, where
		// storePart's exact pieces of 12 bytes took three µops: packing
		// float32 slivers of 3 from L1 ran at 12.8 GB/s that way.
		pk.AheadSetup(x86.P5, x86.CopyAhead)
		narrow := func(u int) {
			y := x86.Y(max(u, 0))
			pk.PrefetchAhead(x86.P5, S)
			o.MaskMov(x86.Mem(x86.PS, 0), masks[0], y)
			if wide == 16 {
				o.Mov(y.AsX(), x86.Mem(x86.PD, max(u, 0)*S))
			} else {
				o.Mov(y, x86.Mem(x86.PD, max(u, 0)*S))
			}
			c.ADDQ(x86.KS, x86.PS)
		}
		c.DECQ(x86.PK)
		pk.Loop("c", 4, S, narrow)
		o.MaskMov(x86.Mem(x86.PS, 0), masks[0], x86.Y(0))
		storePart(pk, x86.Y(0), x86.Y(14), x86.Mem(x86.PD, 0), pk.W)
		pk.Return()
		return
	}
	// Narrow steps are fetched CopyAhead steps on, wide ones (a line or
	// more) every line WideAhead steps on.
	if x86.Narrow(S) {
		pk.AheadSetup(x86.P5, x86.CopyAhead)
	} else {
		pk.AheadSetup(x86.P5, x86.WideAhead)
	}
	step := func(u int) {
		d := 0
		if u > 0 {
			d = u * S
		}
		pk.PrefetchAhead(x86.P5, S)
		for v := 0; v < nvec; v++ {
			y := x86.Y(v + nvec*max(u, 0))
			o.MaskMov(x86.Mem(x86.PS, 32*v), masks[v], y)
			storePart(pk, y, x86.Y(14), x86.Mem(x86.PD, d+32*v), min(L, pk.W-v*L))
		}
		c.ADDQ(x86.KS, x86.PS)
	}
	pk.Loop("c", 4, S, step)
	pk.Return()
}

// storeWidth is the store (16 or 32 bytes) that the copy path writes each
// step of S bytes with but the last, or 0 when it stores each step exactly:
// the store must cover a step and reach no further than the next one.
func storeWidth(S int) int {
	for _, w := range []int{16, 32} {
		if S < w && w <= 2*S {
			return w
		}
	}
	return 0
}

// storePart stores the first lanes reals of y (at most a vector) at mem
// with plain stores: a whole vector, 16, 12, 8 or 4 bytes of its low half,
// or 16 bytes of its low half and 8 of its high half through tmp.
func storePart(pk *x86.Packer, y, tmp reg.VecPhysical, mem operand.Mem, lanes int) {
	c := pk.Ctx
	o := x86.OpsFor(c, pk.Size)
	bytes := lanes * pk.Size
	switch bytes {
	case 32:
		o.Mov(y, mem)
	case 16:
		o.Mov(y.AsX(), mem)
	case 8:
		c.VMOVSD(y.AsX(), mem)
	case 4:
		c.VMOVSS(y.AsX(), mem)
	case 12:
		c.VMOVSD(y.AsX(), mem)
		c.VEXTRACTPS(operand.U8(2), y.AsX(), mem.Offset(8))
	case 24:
		o.Mov(y.AsX(), mem)
		c.VEXTRACTF128(operand.U8(1), y, tmp.AsX())
		c.VMOVSD(tmp.AsX(), mem.Offset(16))
	default:
		panic(fmt.Sprintf("%s: no store of %d bytes", pk.K.Name(), bytes))
	}
}

// rowMasks loads masks[v], the lanes of vector v of a step below
// perRow·rows reals, from table (ones all-ones lanes, then as many zeros:
// maskTable), reading it from lane ones − perRow·rows on.
func rowMasks(pk *x86.Packer, table operand.Mem, ones, perRow int, masks []reg.VecPhysical) {
	c := pk.Ctx
	c.LEAQ(table, x86.P1)
	c.MOVQ(operand.U32(ones), x86.P0)
	for range perRow {
		c.SUBQ(x86.Rows, x86.P0)
	}
	for v, m := range masks {
		c.VMOVDQU(operand.Mem{Base: x86.P1, Index: x86.P0, Scale: uint8(pk.Size), Disp: 32 * v}, m)
	}
}
