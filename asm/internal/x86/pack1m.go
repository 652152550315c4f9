package x86

import (
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// The 1m packers' element-by-element paths and pair swap, shared by the
// AVX-512 and AVX2 packers (asm/avx512, asm/avx2): only their vector paths
// differ.

// Pack1eScalar is a 1e packer's path under label "scalar": element by
// element through general-purpose registers, then zeros past 2·rows.
func (p *Packer) Pack1eScalar() {
	c := p.Ctx
	z := p.Size
	col := p.W * z
	elem := func() {
		if z == 4 {
			// One 8-byte word: (re, im) as stored; rotated and its low
			// half's sign flipped, (−im, re).
			c.MOVQ(Mem(P2, 0), P0)
			c.MOVQ(P0, Mem(P4, 0))
			c.RORQ(operand.U8(32), P0)
			c.BTCQ(operand.U8(31), P0)
			c.MOVQ(P0, Mem(P4, col))
			return
		}
		c.MOVQ(Mem(P2, 0), P0)
		c.MOVQ(Mem(P2, 8), P3)
		c.MOVQ(P0, Mem(P4, 0))
		c.MOVQ(P3, Mem(P4, 8))
		c.BTCQ(operand.U8(63), P3)
		c.MOVQ(P3, Mem(P4, col))
		c.MOVQ(P0, Mem(P4, col+8))
	}
	zero := func() {
		for off := 0; off < 2*z; off += 8 {
			c.MOVQ(P0, Mem(P4, off))
			c.MOVQ(P0, Mem(P4, col+off))
		}
	}
	p.ScalarComplex(p.W/2, 2*z, 2*col, elem, zero)
}

// Pack1rScalar is a 1r packer's path under label "scalar": element by
// element, then zeros from rows to w.
func (p *Packer) Pack1rScalar() {
	c := p.Ctx
	z := p.Size
	row := p.W * z
	mov := c.MOVQ
	r0, r3 := operand.Op(P0), operand.Op(P3)
	if z == 4 {
		mov = c.MOVL
		r0, r3 = P0.As32(), P3.As32()
	}
	elem := func() {
		mov(Mem(P2, 0), r0)
		mov(Mem(P2, z), r3)
		mov(r0, Mem(P4, 0))
		mov(r3, Mem(P4, row))
	}
	zero := func() {
		mov(r0, Mem(P4, 0))
		mov(r0, Mem(P4, row))
	}
	p.ScalarComplex(p.W, z, 2*row, elem, zero)
}

// SwapPairs sets b to a with the two reals of every pair swapped (within
// each 128-bit lane, so for vectors of any width).
func (p *Packer) SwapPairs(a, b reg.VecPhysical) {
	if p.Size == 4 {
		p.Ctx.VPERMILPS(operand.U8(0xb1), a, b)
	} else {
		p.Ctx.VPERMILPD(operand.U8(0x55), a, b)
	}
}
