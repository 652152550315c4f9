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
	xQ0  = reg.RAX // rows 0–3 of a step, then of the step fetched ahead
	xQ1  = reg.RBX // rows 4–7 of a float32 step, ahead too, then slivers 4–7's destination
)

// packx emits the row's cross-sliver packer (w = MR): L slivers (L the
// lanes of a vector) whose rows lie one real apart from sliver to sliver,
// packed together. At each step the L slivers' elements of row i are one
// vector load, and an L×L register transpose per block of L rows turns the
// rows' vectors into the slivers' steps. It is how an operand whose
// unit-stride dim is not the tile's row dim is packed whole lines at a
// time (TCCG's abcd-dbea-ec: d along the tile, a adjacent in A).
func packx(pk *x86.Packer) {
	c := pk.Ctx
	o := x86.OpsFor(c, pk.Size)
	L, w := pk.Lanes, pk.W
	if w%L != 0 {
		panic(fmt.Sprintf("%s: MR %d is not blocks of %d", pk.K.Name(), w, L))
	}
	name := x86.PackXName(pk.K)
	tab := maskTable(pk.Gen, name+"_slivers", L)
	c.ConstraintExpr("!purego")
	c.Function(name)
	c.Attributes(attr.NOSPLIT)
	c.Pragma("noescape")
	c.SignatureExpr(x86.PackXSignature)
	c.Doc(
		fmt.Sprintf("%s packs slivers j < slivers <= %d of %s (AVX2), each %d wide, sliverStep bytes apart:", name, L, pk.K.Real, w),
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
	c.MOVL(operand.U32(L), x86.P0.As32())
	c.CMPQ(xNS, x86.P0)
	c.CMOVQGT(x86.P0, xNS)
	c.XORL(x86.P0.As32(), x86.P0.As32())
	c.TESTQ(x86.Rows, x86.Rows)
	c.CMOVQLT(x86.P0, x86.Rows)
	c.MOVL(operand.U32(w), x86.P0.As32())
	c.CMPQ(x86.Rows, x86.P0)
	c.CMOVQGT(x86.P0, x86.Rows)
	c.SHLQ(pk.Shift(), x86.RS)
	c.SHLQ(pk.Shift(), x86.KS)
	c.LEAQ(operand.Mem{Base: x86.RS, Index: x86.RS, Scale: 2}, xRS3)
	c.LEAQ(operand.Mem{Base: xSS, Index: xSS, Scale: 2}, xSS3)
	// Y15: the lanes of the slivers there are.
	c.LEAQ(tab, x86.P0)
	c.ADDQ(operand.U32(L*pk.Size), x86.P0)
	c.MOVQ(xNS, x86.P1)
	c.SHLQ(pk.Shift(), x86.P1)
	c.SUBQ(x86.P1, x86.P0)
	c.VMOVDQU(x86.Mem(x86.P0, 0), x86.Y(15))
	// The float32 transpose takes Y15 too: the mask is reloaded from
	// the frame before each block's loads.
	mask := c.AllocLocal(32)
	c.VMOVDQU(x86.Y(15), mask)
	// Each block of L rows runs all k steps before the next block starts
	// from the saved arguments, fetching ahead, as asm/avx512's packer
	// does. With the step loop outside and no fetches, TCCG abcd-dbea-ec
	// and abcde-ecbfa-fd at float32 ran 0.90-0.92 times as fast on one
	// thread (abcd-dbea-ec at float64 1.03 times: its 8-row slivers are
	// two blocks of 4).
	args := pk.SavePackXArgs(xQ0)
	c.CMPQ(xNS, operand.U32(L))
	c.JNE(operand.LabelRef("part"))
	packxLoop(pk, o, "f", true, args, mask)
	c.Label("part")
	packxLoop(pk, o, "p", false, args, mask)
	c.Label("none")
	pk.Return()
}

// packxLoop is the step loop of each block of L rows: full (all L
// slivers: plain loads and stores) or partial (loads under Y15, a store
// per sliver there is); mask is Y15's copy in the frame. Labels start with
// prefix. It returns. After a step's loads it requests each row's line
// the argument ahead bytes on into L2.
func packxLoop(pk *x86.Packer, o x86.Ops, prefix string, full bool, args x86.PackXArgs, mask operand.Mem) {
	c := pk.Ctx
	L, w := pk.Lanes, pk.W
	l := func(s string, a ...any) string { return prefix + fmt.Sprintf(s, a...) }
	// Rows j < 4 of a block are Q0 plus 0–3 rowSteps, float32's rows
	// 4–7 Q1 plus them.
	rows := func(j int) operand.Mem {
		return x86.Fourth([]reg.Register{xQ0, xQ1}[j/4], x86.RS, xRS3, j%4, 0)
	}
	for b := 0; b < w/L; b++ {
		pk.StartBlock(args, b*L, xQ0)
		// No PCALIGN before the loop: with one, Go 1.26's assembler ran
		// for many minutes on this function without finishing.
		c.Label(l("step%d", b))
		c.MOVQ(x86.PS, xQ0)
		if L == 8 {
			c.LEAQ(operand.Mem{Base: xQ0, Index: x86.RS, Scale: 4}, xQ1)
			if !full {
				c.VMOVDQU(mask, x86.Y(15))
			}
		}
		for j := 0; j < L; j++ {
			c.CMPQ(x86.Rows, operand.U32(b*L+j))
			c.JLE(operand.LabelRef(l("z%d_%d", b, j)))
			if full {
				o.Mov(rows(j), x86.Y(j))
			} else {
				o.MaskMov(rows(j), x86.Y(15), x86.Y(j))
			}
		}
		c.JMP(operand.LabelRef(l("t%d", b)))
		for j := 0; j < L; j++ {
			c.Label(l("z%d_%d", b, j))
			c.VXORPS(x86.Y(j), x86.Y(j), x86.Y(j))
		}
		c.Label(l("t%d", b))
		c.MOVQ(x86.PS, xQ0)
		c.ADDQ(args.Ahead, xQ0)
		if L == 8 {
			c.LEAQ(operand.Mem{Base: xQ0, Index: x86.RS, Scale: 4}, xQ1)
		}
		for j := 0; j < L; j++ {
			c.PREFETCHT2(rows(j))
		}
		var out []reg.VecPhysical
		if L == 8 {
			out = transpose8x8(c)
		} else {
			out = transpose4x4(c, 0, 4, 8)
		}
		// Sliver s's step is out[s], at PD (s < 4) or Q1 (slivers 4–7)
		// plus s%4 sliverSteps.
		if L == 8 {
			c.LEAQ(operand.Mem{Base: x86.PD, Index: xSS, Scale: 4}, xQ1)
		}
		disp := b * L * pk.Size
		for s := 0; s < L; s++ {
			if !full && s > 0 {
				c.CMPQ(xNS, operand.U32(s))
				c.JLE(operand.LabelRef(l("s%d", b)))
			}
			o.Mov(out[s], x86.Fourth([]reg.Register{x86.PD, xQ1}[s/4], xSS, xSS3, s%4, disp))
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
