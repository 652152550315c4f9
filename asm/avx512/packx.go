package main

import (
	"fmt"

	"github.com/mmcloughlin/avo/attr"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"

	"github.com/tcontract/tcontract/asm/internal/x86"
)

// Registers of the cross-sliver packer besides the packer's PD, PS, Rows,
// PK, RS and KS (steps in bytes once past the prologue).
var (
	xNS  = reg.RCX // slivers, clamped to [0, L]
	xSS  = reg.RDX // sliverStep in bytes
	xSS3 = reg.R12 // 3·sliverStep
	xRS3 = reg.R13 // 3·rowStep
	xQ   = reg.RAX // the next four rows of the step
	xD   = reg.RBX // the next four slivers' destination
)

// packx emits the row's cross-sliver packer (w = MR), as asm/avx2's: L
// slivers (L the lanes of a vector) whose rows lie one real apart from
// sliver to sliver, packed together. At each step the L slivers' elements
// of row i are one vector load (under K1, which zeroes and never reads
// the lanes of slivers there are not, when there are fewer), and an L×L
// register transpose per block of L rows turns the rows' vectors into the
// slivers' steps. With 64-byte vectors a float32 load is a whole line of
// A: TCCG's abcd-dbea-ec and abcde-ecbfa-fd read A a line per row and
// step this way, where the typed packer gathers it a real at a time.
func packx(pk *x86.Packer) {
	c := pk.Ctx
	o := x86.OpsFor(c, pk.Size)
	L, w := pk.Lanes, pk.W
	if w%L != 0 {
		panic(fmt.Sprintf("%s: MR %d is not blocks of %d", pk.K.Name(), w, L))
	}
	name := x86.PackXName(pk.K)
	c.ConstraintExpr("!purego")
	c.Function(name)
	c.Attributes(attr.NOSPLIT)
	c.Pragma("noescape")
	c.SignatureExpr(x86.PackXSignature)
	c.Doc(
		fmt.Sprintf("%s packs slivers j < slivers <= %d of %s (AVX-512), each %d wide, sliverStep bytes apart:", name, L, pk.K.Real, w),
		fmt.Sprintf("dst[j*sliverStep/%d + p*%d + i] = src[j + i*rowStep + p*kStep] for i < rows, p < k, and 0", pk.Size, w),
		fmt.Sprintf("for rows <= i < %d: a step's %d slivers of one row are one vector, transposed %dx%d.", w, L, L, L),
	)
	c.Load(c.Param("dst"), x86.PD)
	c.Load(c.Param("src"), x86.PS)
	c.Load(c.Param("slivers"), xNS)
	c.Load(c.Param("rows"), x86.Rows)
	c.Load(c.Param("k"), x86.PK)
	c.Load(c.Param("rowStep"), x86.RS)
	c.Load(c.Param("kStep"), x86.KS)
	c.Load(c.Param("sliverStep"), xSS)
	// Nothing to do for k <= 0 or no sliver; rows and slivers clamped.
	c.TESTQ(x86.PK, x86.PK)
	c.JLE(operand.LabelRef("none"))
	c.TESTQ(xNS, xNS)
	c.JLE(operand.LabelRef("none"))
	c.MOVL(operand.U32(L), xQ.As32())
	c.CMPQ(xNS, xQ)
	c.CMOVQGT(xQ, xNS)
	c.XORL(xQ.As32(), xQ.As32())
	c.TESTQ(x86.Rows, x86.Rows)
	c.CMOVQLT(xQ, x86.Rows)
	c.MOVL(operand.U32(w), xQ.As32())
	c.CMPQ(x86.Rows, xQ)
	c.CMOVQGT(xQ, x86.Rows)
	c.SHLQ(pk.Shift(), x86.RS)
	c.SHLQ(pk.Shift(), x86.KS)
	c.LEAQ(operand.Mem{Base: x86.RS, Index: x86.RS, Scale: 2}, xRS3)
	c.LEAQ(operand.Mem{Base: xSS, Index: xSS, Scale: 2}, xSS3)
	// K1: the lanes of the slivers there are.
	c.MOVQ(operand.I32(-1), xQ)
	c.BZHIQ(xNS, xQ, xQ)
	c.KMOVW(xQ.As32(), x86.Opmask(1))
	// Each block of L rows runs all k steps before the next block starts
	// from the saved arguments: L rows read at once, not MR. Each row of
	// a step is its own line, often its own page; with the step loop
	// outside (all MR rows per step, as asm/avx2's) TCCG abcd-dbea-ec and
	// abcde-ecbfa-fd ran 1.24-1.29 times slower at float32 (48 rows, on
	// 1 and 2 threads), and as fast at float64 (24 rows).
	args := pk.SavePackXArgs(xQ)
	c.CMPQ(xNS, operand.U32(L))
	c.JNE(operand.LabelRef("part"))
	packxLoop(pk, o, "f", true, args)
	c.Label("part")
	packxLoop(pk, o, "p", false, args)
	c.Label("none")
	pk.Return()
}

// packxLoop is the step loop: full (all L slivers: plain loads and
// stores) or partial (loads under K1, a store per sliver there is).
// Labels start with prefix. It returns.
func packxLoop(pk *x86.Packer, o x86.Ops, prefix string, full bool, args x86.PackXArgs) {
	c := pk.Ctx
	L, w := pk.Lanes, pk.W
	l := func(s string, a ...any) string { return prefix + fmt.Sprintf(s, a...) }
	for b := 0; b < w/L; b++ {
		pk.StartBlock(args, b*L, xQ)
		c.Label(l("step%d", b))
		c.MOVQ(x86.PS, xQ)
		// Row b·L + j of the step is xQ plus j%4 rowSteps; xQ moves on
		// four rows after every fourth.
		for j := 0; j < L; j++ {
			c.CMPQ(x86.Rows, operand.U32(b*L+j))
			c.JLE(operand.LabelRef(l("z%d_%d", b, j)))
			addr := x86.Fourth(xQ, x86.RS, xRS3, j%4, 0)
			if full {
				o.Mov(addr, x86.Z(j))
			} else {
				o.MovZ(addr, x86.Opmask(1), x86.Z(j))
			}
			if j%4 == 3 {
				c.LEAQ(operand.Mem{Base: xQ, Index: x86.RS, Scale: 4}, xQ)
			}
		}
		c.JMP(operand.LabelRef(l("t%d", b)))
		for j := 0; j < L; j++ {
			c.Label(l("z%d_%d", b, j))
			c.VPXORD(x86.Z(j), x86.Z(j), x86.Z(j))
		}
		c.Label(l("t%d", b))
		c.MOVQ(x86.PS, xQ)
		c.ADDQ(args.Ahead, xQ)
		for j := 0; j < L; j++ {
			c.PREFETCHT2(x86.Fourth(xQ, x86.RS, xRS3, j%4, 0))
			if j%4 == 3 && j+1 < L {
				c.LEAQ(operand.Mem{Base: xQ, Index: x86.RS, Scale: 4}, xQ)
			}
		}
		var out []reg.VecPhysical
		if pk.Size == 4 {
			out = transpose16x16(c)
		} else {
			out = transpose8x8(c)
		}
		// Sliver s's step is out[s], at xD plus s%4 sliverSteps; xD
		// moves on four slivers after every fourth.
		c.MOVQ(x86.PD, xD)
		disp := b * L * pk.Size
		for s := 0; s < L; s++ {
			if !full && s > 0 {
				c.CMPQ(xNS, operand.U32(s))
				c.JLE(operand.LabelRef(l("s%d", b)))
			}
			o.Mov(out[s], x86.Fourth(xD, xSS, xSS3, s%4, disp))
			if s%4 == 3 && s+1 < L {
				c.LEAQ(operand.Mem{Base: xD, Index: xSS, Scale: 4}, xD)
			}
		}
		if !full {
			c.Label(l("s%d", b))
		}
		c.ADDQ(operand.U32(w*pk.Size), x86.PD)
		c.ADDQ(x86.KS, x86.PS)
		c.DECQ(x86.PK)
		c.JNZ(operand.LabelRef(l("step%d", b)))
	}
	pk.Return()
}
