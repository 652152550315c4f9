package x86

import (
	"fmt"
	"math/bits"

	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// The kStep == 1 paths of the packers: the source rows are contiguous along
// p, so L steps of one row are one vector load, and a register transpose
// turns the rows' vectors into the sliver's steps. Rows at or past rows are
// never loaded: a chain of compares jumps to zeroing their registers
// instead, and the branch pattern is the same for every chunk of a call.

// Registers of the transpose paths (KS is 1 there, and k is read from its
// argument, so R11 and R9 are free).
var (
	RS3 = reg.R11 // 3·rowStep in bytes
	TT  = reg.R9  // scratch
	Q0  = reg.RAX // bases of rows 0, 4, 8, 12 of the current block
	Q1  = reg.RBX
	Q2  = reg.R12
	Q3  = reg.R13
	TC  = reg.RCX // trips, then the tail's step count
	PDB = reg.RDX // the current block's first destination real
)

// TransposeOps are an ISA's vector pieces of a transpose path.
type TransposeOps struct {
	// L is the steps per chunk (the lanes of a vector); Block the rows per
	// block: L for PackA (w a multiple of L), w for PackB (w < L, one block).
	L, Block int
	// Load loads row j's next L steps from addr; LoadTail the same under the
	// tail mask that TailMask set from the step count in TC.
	Load, LoadTail func(j int, addr operand.Mem)
	TailMask       func()
	// Zero clears row j's register.
	Zero func(j int)
	// Transpose turns the row registers into the sliver's vectors, and
	// StoreChunk stores them at PD: all L steps, or in the tail the TC
	// steps there are.
	Transpose  func()
	StoreChunk func(tail bool)
	// StoreZero stores a zero vector to addr (PackA's blocks past rows).
	StoreZero func(addr operand.Mem)
	// Setup, when set, runs once before the first chunk (constants into
	// registers).
	Setup func()
	// Overlap leaves the last step to the tail (1 to L steps then, never
	// 0): StoreChunk's full chunks write past their last step.
	Overlap bool
}

// RowAddr is row j of a block at the bases: Q(j/4) plus 0, 1, 2 or 3
// rowSteps.
func RowAddr(j int) operand.Mem {
	base := []reg.Register{Q0, Q1, Q2, Q3}[j/4]
	switch j % 4 {
	case 0:
		return Mem(base, 0)
	case 1:
		return operand.Mem{Base: base, Index: RS, Scale: 1}
	case 2:
		return operand.Mem{Base: base, Index: RS, Scale: 2}
	default:
		return operand.Mem{Base: base, Index: RS3, Scale: 1}
	}
}

// RowChain loads the n rows of a chunk: row j by load(j) while rows > j
// (Rows holds the rows left from the block's first), then zero(j) for the
// rest.
func (p *Packer) RowChain(prefix string, n int, load, zero func(j int)) {
	c := p.Ctx
	l := func(j int) string { return fmt.Sprintf("%sz%d", prefix, j) }
	for j := 0; j < n; j++ {
		c.CMPQ(Rows, operand.U32(j))
		c.JLE(operand.LabelRef(l(j)))
		load(j)
	}
	c.JMP(operand.LabelRef(prefix + "loaded"))
	for j := 0; j < n; j++ {
		c.Label(l(j))
		zero(j)
	}
	c.Label(prefix + "loaded")
}

// Transpose emits the kStep == 1 path under label "transpose": the w rows
// in blocks of o.Block; per block, chunks of L steps (one register
// transpose each), then the steps left under a mask; blocks wholly past
// rows are stored as zeros. It returns.
func (p *Packer) Transpose(o TransposeOps) {
	c := p.Ctx
	L := o.L
	if p.W%o.Block != 0 || o.Block > 16 {
		panic(fmt.Sprintf("%s: %d rows are not blocks of %d", p.K.Name(), p.W, o.Block))
	}
	nblocks := p.W / o.Block
	blocks := c.AllocLocal(8)
	kArg := p.Arg("k")
	step := p.W * p.Size // one step of the sliver
	c.Label("transpose")
	c.SHLQ(p.Shift(), RS)
	c.LEAQ(operand.Mem{Base: RS, Index: RS, Scale: 2}, RS3)
	c.MOVQ(PD, PDB)
	if o.Setup != nil {
		o.Setup()
	}
	if nblocks > 1 {
		c.MOVQ(operand.U32(nblocks), blocks)
	}
	c.Label("tblock")
	if nblocks > 1 {
		c.TESTQ(Rows, Rows)
		c.JLE(operand.LabelRef("tzero"))
	}
	bases := []reg.Register{Q0, Q1, Q2, Q3}[:(o.Block+3)/4]
	for i, q := range bases {
		if i == 0 {
			c.MOVQ(PS, q)
		} else {
			c.LEAQ(operand.Mem{Base: bases[i-1], Index: RS, Scale: 4}, q)
		}
	}
	chunk := func(prefix string, load func(j int, addr operand.Mem), tail bool) {
		p.RowChain(prefix, o.Block, func(j int) { load(j, RowAddr(j)) }, o.Zero)
		o.Transpose()
		o.StoreChunk(tail)
	}
	shift := operand.U8(bits.TrailingZeros(uint(L)))
	c.MOVQ(kArg, TC)
	if o.Overlap {
		c.DECQ(TC)
	}
	c.SHRQ(shift, TC)
	c.JZ(operand.LabelRef("ttail"))
	Align(c, 32)
	c.Label("tloop")
	chunk("tl", o.Load, false)
	for _, q := range bases {
		c.ADDQ(operand.U32(L*p.Size), q)
	}
	c.ADDQ(operand.U32(L*step), PD)
	c.DECQ(TC)
	c.JNZ(operand.LabelRef("tloop"))
	c.Label("ttail")
	c.MOVQ(kArg, TC)
	if o.Overlap {
		// 1 to L steps are left: k - L·floor((k-1)/L).
		c.DECQ(TC)
		c.ANDQ(operand.U32(L-1), TC)
		c.INCQ(TC)
	} else {
		c.ANDQ(operand.U32(L-1), TC)
		c.JZ(operand.LabelRef("tnext"))
	}
	o.TailMask()
	chunk("tt", o.LoadTail, true)
	c.Label("tnext")
	if nblocks == 1 {
		p.Return()
		return
	}
	// The next block: Block rows and Block reals further on.
	c.ADDQ(operand.U32(o.Block*p.Size), PDB)
	c.MOVQ(PDB, PD)
	c.MOVQ(RS, TC)
	c.SHLQ(operand.U8(bits.TrailingZeros(uint(o.Block))), TC)
	c.ADDQ(TC, PS)
	c.SUBQ(operand.U32(o.Block), Rows)
	c.DECQ(blocks)
	c.JNZ(operand.LabelRef("tblock"))
	p.Return()

	// A block wholly past rows: zeros at every step.
	c.Label("tzero")
	c.MOVQ(kArg, TC)
	c.Label("tzloop")
	o.StoreZero(Mem(PD, 0))
	c.ADDQ(operand.U32(step), PD)
	c.DECQ(TC)
	c.JNZ(operand.LabelRef("tzloop"))
	c.JMP(operand.LabelRef("tnext"))
}

// StoreSteps stores a chunk of PackA: step s's vector by store(s, addr) at
// PD + s·w reals, all L of them or, in the tail, the TC there are.
func (p *Packer) StoreSteps(L int, tail bool, store func(s int, addr operand.Mem)) {
	c := p.Ctx
	for s := 0; s < L; s++ {
		if tail && s > 0 {
			c.CMPQ(TC, operand.U32(s))
			c.JLE(operand.LabelRef("tnext"))
		}
		store(s, Mem(PD, s*p.W*p.Size))
	}
}
