package x86

import (
	"fmt"
	"math/bits"

	"github.com/mmcloughlin/avo/attr"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"

	"github.com/tcontract/tcontract/internal/spec"
)

// PackSignature is the PackFunc of docs/internals.md.
const PackSignature = "func(dst *byte, src *byte, rows int, k int, rowStep int, kStep int)"

// PackName is a packer of row k: op "a" packs A slivers (w = MR), "b" B
// slivers (w = NR): "packa_f32_64x6_avx512".
func PackName(k spec.Kernel, op string) string {
	return k.Func("pack" + op)
}

// Pack1eName is the complex-A packer of row k in 1m's 1e layout:
// "pack1e_f32_64x6_avx512".
func Pack1eName(k spec.Kernel) string { return PackName(k, "1e") }

// Pack1rName is the complex-B packer of row k in 1m's 1r layout:
// "pack1r_f32_64x6_avx512".
func Pack1rName(k spec.Kernel) string { return PackName(k, "1r") }

// Pack1eLabels are the paths of a 1e packer: the vector loop for adjacent
// elements with its tail, and the element-by-element path with its zeros.
// A 1r packer has the same.
var Pack1eLabels = []string{"cloop", "cremloop", "scalar", "szero"}

// Registers of a packer.
var (
	PD   = reg.RDI // destination sliver, advancing
	PS   = reg.RSI // source element (0, p), advancing
	Rows = reg.R8  // rows to copy, clamped to [0, w]
	PK   = reg.R9  // steps left
	RS   = reg.R10 // rowStep (reals, then bytes on the paths that need it)
	KS   = reg.R11 // kStep (reals, then bytes)
	P0   = reg.RAX // scratch
	P1   = reg.RBX
	P2   = reg.RCX
	P3   = reg.RDX
	P4   = reg.R12
	P5   = reg.R13
)

// Packer emits one packer function of width W.
type Packer struct {
	*Gen
	Op string // "a" or "b"
	W  int    // sliver width in reals
}

// NewPacker starts packer op ("a" or "b") of row k with vectors of
// vecBytes bytes.
func NewPacker(k spec.Kernel, op string, vecBytes int) *Packer {
	g := New(k, vecBytes)
	w := k.MR
	if op == "b" {
		w = k.NR
	}
	return &Packer{Gen: g, Op: op, W: w}
}

// CopyAhead is how many steps ahead of the one it copies the copy path
// (rowStep == 1) prefetches the source of a sliver narrower than a line
// (Narrow). Such a sliver reads a new line every step when its steps are
// lines apart, and the neighbouring slivers that use the rest of each line
// come only later: the source streams from memory a fraction of a line
// per step, and the packer waits on every line. Sixty-four steps are
// about a DRAM latency of such a loop: on Zen 3, packing TCCG
// abcd-dbea-ec's float32 slivers of 3 (steps 384 bytes apart) from memory
// ran at 3.9 GB/s without prefetching, 4.6 with it 16 steps ahead, 5.1 at
// 32 and 6.5 at 64.
const CopyAhead = 64

// WideAhead is how many steps ahead the copy path prefetches every line of
// a step a line wide or more. The hardware prefetchers follow such a
// sliver only within a 4 KiB page, and a step a few lines wide crosses a
// page every ten or so steps: on Zen 5, TCCG abc-adec-ebd's
// slivers of 48 float32 (steps 384 bytes apart) packed at 6.8 GB/s, a
// third of a streaming read, and took 40% of the call. 8 steps ahead ran
// the contraction 1.12 (float32) and 1.17 (float64) times as fast; 16 and
// 32 gained less. From cache the fetches cost little: GEMM, whose A
// slivers take this path, ran as fast or faster. The AVX2 path gained
// 1.13 and 1.10 on the same contraction.
const WideAhead = 8

// Narrow reports whether a step of bytes bytes is narrower than a line:
// the slivers whose copy path prefetches CopyAhead steps ahead.
func Narrow(bytes int) bool { return bytes < 64 }

// AheadSetup loads into dist the byte distance of steps (a power of two)
// steps of kStep (KS, in bytes by then).
func (p *Packer) AheadSetup(dist reg.Register, steps int) {
	if steps <= 0 || steps&(steps-1) != 0 {
		panic("AheadSetup: steps must be a power of two")
	}
	p.Ctx.MOVQ(KS, dist)
	p.Ctx.SHLQ(operand.U8(bits.TrailingZeros(uint(steps))), dist)
}

// PrefetchAhead prefetches the step at PS + dist, bytes long, into L1:
// every line it starts in from its first byte on, a line apart, and its
// last byte's line when the step is wide enough (32 bytes or more) to
// cross into another line often.
func (p *Packer) PrefetchAhead(dist reg.Register, bytes int) {
	at := func(off int) {
		p.Ctx.PREFETCHT0(operand.Mem{Base: PS, Index: dist, Scale: 1, Disp: off})
	}
	for off := 0; off == 0 || off < bytes-1; off += 64 {
		at(off)
	}
	if bytes >= 32 {
		at(bytes - 1)
	}
}

// Return leaves a packer once past its prologue: VZEROUPPER first (the
// element paths too, so that no exit depends on which path ran). Go code
// after the call uses legacy-SSE encodings (X15 as its zero register, the
// runtime's copies), which cores run slowly while the upper halves of the
// vector registers are dirty: on Zen 3, packing slivers of AVX2 float32
// from L1 took 4.6 times as long without it.
func (p *Packer) Return() {
	p.Ctx.VZEROUPPER()
	p.Ctx.RET()
}

// Shift is log2 of the real's size, the shift from reals to bytes.
func (p *Packer) Shift() operand.U8 { return operand.U8(bits.TrailingZeros(uint(p.Size))) }

// Begin declares the function, loads the arguments, returns at once when
// k <= 0, clamps rows to [0, w] and branches: rowStep == 1 to label "copy",
// kStep == 1 to label "transpose", anything else to the scalar loop that
// Scalar emits. The labels must be emitted by the caller.
func (p *Packer) Begin(doc ...string) {
	c := p.Ctx
	p.prologue(PackName(p.K, p.Op), p.W, doc)
	c.CMPQ(RS, operand.U32(1))
	c.JE(operand.LabelRef("copy"))
	c.CMPQ(KS, operand.U32(1))
	c.JE(operand.LabelRef("transpose"))
	c.JMP(operand.LabelRef("scalar"))
}

// BeginComplex is Begin for a 1m packer (Pack1eName, Pack1rName) of at most
// maxRows complex elements a step: after the prologue, kStep is turned into
// bytes and anything but adjacent elements (rowStep == 2 reals) branches
// to label "scalar"; the vector path follows.
func (p *Packer) BeginComplex(name string, maxRows int, doc ...string) {
	c := p.Ctx
	p.prologue(name, maxRows, doc)
	c.SHLQ(p.Shift(), KS)
	c.CMPQ(RS, operand.U32(2))
	c.JNE(operand.LabelRef("scalar"))
}

// prologue declares packer name, loads the arguments, returns at once when
// k <= 0 and clamps rows to [0, maxRows].
func (p *Packer) prologue(name string, maxRows int, doc []string) {
	c := p.Ctx
	c.ConstraintExpr("!purego")
	c.Function(name)
	c.Attributes(attr.NOSPLIT)
	c.Pragma("noescape")
	c.SignatureExpr(PackSignature)
	c.Doc(doc...)
	c.Load(c.Param("dst"), PD)
	c.Load(c.Param("src"), PS)
	c.Load(c.Param("rows"), Rows)
	c.Load(c.Param("k"), PK)
	c.Load(c.Param("rowStep"), RS)
	c.Load(c.Param("kStep"), KS)
	c.TESTQ(PK, PK)
	c.JG(operand.LabelRef("work"))
	c.RET()
	c.Label("work")
	c.XORL(P0.As32(), P0.As32())
	c.TESTQ(Rows, Rows)
	c.CMOVQLT(P0, Rows)
	c.MOVL(operand.U32(maxRows), P0.As32())
	c.CMPQ(Rows, P0)
	c.CMOVQGT(P0, Rows)
}

// LaneMasks sets K1…K(n) to the lanes below the count in P0's place: P0
// starts as all ones cut to count lanes (BZHI), and each opmask takes the
// next Lanes of it. count may be Rows or a register holding a lane count.
func (p *Packer) LaneMasks(count reg.GPPhysical, n int) {
	c := p.Ctx
	c.MOVQ(operand.I32(-1), P0)
	c.BZHIQ(count, P0, P0)
	for v := 0; v < n; v++ {
		c.KMOVW(P0.As32(), Opmask(v+1))
		if v+1 < n {
			c.SHRQ(operand.U8(p.Lanes), P0)
		}
	}
}

// ScalarComplex emits a 1m packer's element path under label "scalar":
// per step, elem() moves element i < rows from P2 (advancing rowStep bytes)
// to P4 (advancing elemBytes), zero() stores the zeros of an element for
// rows <= i < maxRows (P0 holds 0), then PD advances stepBytes and PS
// kStep. It returns.
func (p *Packer) ScalarComplex(maxRows, elemBytes, stepBytes int, elem, zero func()) {
	c := p.Ctx
	c.Label("scalar")
	c.SHLQ(p.Shift(), RS)
	c.Label("sstep")
	c.MOVQ(PS, P2)
	c.MOVQ(PD, P4)
	c.XORL(P1.As32(), P1.As32())
	c.Label("srow")
	c.CMPQ(P1, Rows)
	c.JGE(operand.LabelRef("szero"))
	elem()
	c.ADDQ(RS, P2)
	c.ADDQ(operand.U32(elemBytes), P4)
	c.INCQ(P1)
	c.JMP(operand.LabelRef("srow"))
	c.Label("szero")
	c.XORL(P0.As32(), P0.As32())
	c.Label("szloop")
	c.CMPQ(P1, operand.U32(maxRows))
	c.JGE(operand.LabelRef("snext"))
	zero()
	c.ADDQ(operand.U32(elemBytes), P4)
	c.INCQ(P1)
	c.JMP(operand.LabelRef("szloop"))
	c.Label("snext")
	c.ADDQ(operand.U32(stepBytes), PD)
	c.ADDQ(KS, PS)
	c.DECQ(PK)
	c.JNZ(operand.LabelRef("sstep"))
	p.Return()
}

// Scalar emits the general path under label "scalar": element by element
// through a general-purpose register, then zeros for the rows past rows,
// one step p at a time. It returns.
func (p *Packer) Scalar() {
	c := p.Ctx
	c.Label("scalar")
	c.SHLQ(p.Shift(), RS)
	c.SHLQ(p.Shift(), KS)
	mov := func(src, dst operand.Op) {
		if p.Size == 4 {
			if r, ok := src.(reg.GPPhysical); ok {
				src = r.As32()
			}
			if r, ok := dst.(reg.GPPhysical); ok {
				dst = r.As32()
			}
			c.MOVL(src, dst)
		} else {
			c.MOVQ(src, dst)
		}
	}
	elem := operand.Mem{Base: PD, Index: P1, Scale: uint8(p.Size)}
	c.Label("sstep")
	c.MOVQ(PS, P2)
	c.XORL(P1.As32(), P1.As32())
	c.Label("srow")
	c.CMPQ(P1, Rows)
	c.JGE(operand.LabelRef("szero"))
	mov(Mem(P2, 0), P0)
	mov(P0, elem)
	c.ADDQ(RS, P2)
	c.INCQ(P1)
	c.JMP(operand.LabelRef("srow"))
	c.Label("szero")
	c.XORL(P0.As32(), P0.As32())
	c.Label("szloop")
	c.CMPQ(P1, operand.U32(p.W))
	c.JGE(operand.LabelRef("snext"))
	mov(P0, elem)
	c.INCQ(P1)
	c.JMP(operand.LabelRef("szloop"))
	c.Label("snext")
	c.ADDQ(operand.U32(p.W*p.Size), PD)
	c.ADDQ(KS, PS)
	c.DECQ(PK)
	c.JNZ(operand.LabelRef("sstep"))
	p.Return()
}

// Doc is the packer's documentation.
func (p *Packer) Doc(isa, fast string) []string {
	name := PackName(p.K, p.Op)
	return []string{
		fmt.Sprintf("%s packs one %d-wide sliver of %s (%s): dst[p*%d+i] = src[i*rowStep+p*kStep]", name, p.W, p.K.Real, isa, p.W),
		fmt.Sprintf("for i < rows, p < k, and 0 for rows <= i < %d. %s", p.W, fast),
	}
}

// Loop runs step over the k steps: unroll (a power of two) steps per trip
// of the main loop, step(u) for u = 0…unroll-1 addressing the destination
// at Mem(PD, u·dstStep), then one at a time with step(-1); PD advances by
// dstStep per step. Labels start with prefix. P2 and P3 count.
func (p *Packer) Loop(prefix string, unroll, dstStep int, step func(u int)) {
	c := p.Ctx
	l := func(s string) string { return prefix + s }
	c.MOVQ(PK, P2)
	c.MOVQ(PK, P3)
	c.SHRQ(operand.U8(bits.TrailingZeros(uint(unroll))), P2)
	c.ANDQ(operand.U32(unroll-1), P3)
	c.TESTQ(P2, P2)
	c.JZ(operand.LabelRef(l("rem")))
	Align(c, 32)
	c.Label(l("loop"))
	for u := 0; u < unroll; u++ {
		step(u)
	}
	c.ADDQ(operand.U32(unroll*dstStep), PD)
	c.DECQ(P2)
	c.JNZ(operand.LabelRef(l("loop")))
	c.Label(l("rem"))
	c.TESTQ(P3, P3)
	c.JZ(operand.LabelRef(l("done")))
	c.Label(l("remloop"))
	step(-1)
	c.ADDQ(operand.U32(dstStep), PD)
	c.DECQ(P3)
	c.JNZ(operand.LabelRef(l("remloop")))
	c.Label(l("done"))
}

// PackXSignature is the PackXFunc of docs/internals.md.
const PackXSignature = "func(dst *byte, src *byte, slivers int, rows int, k int, rowStep int, kStep int, sliverStep int, ahead int)"

// PackXName is the cross-sliver packer of row k (A slivers, w = MR):
// "packx_f32_16x6_avx2".
func PackXName(k spec.Kernel) string { return PackName(k, "x") }

// The cross-sliver packers (AVX2 and AVX-512) request, into L2
// (PREFETCHT2), the line their argument ahead bytes on from each row's line
// of a step, right after the step's loads: the runtime passes 8 steps
// (runtime crosspack.go has the figures), or the next call's lines.

// PackXArgs are a cross-sliver packer's source, destination and depth as
// passed, kept in the frame for each block of rows' pass over the steps,
// and the argument ahead.
type PackXArgs struct{ Src, Dst, K, Ahead operand.Mem }

// SavePackXArgs keeps PS, PD and PK, and the argument ahead, in the frame
// (tmp scratch).
func (pk *Packer) SavePackXArgs(tmp reg.Register) PackXArgs {
	c := pk.Ctx
	a := PackXArgs{Src: c.AllocLocal(8), Dst: c.AllocLocal(8), K: c.AllocLocal(8), Ahead: c.AllocLocal(8)}
	c.Load(c.Param("ahead"), tmp)
	c.MOVQ(tmp, a.Ahead)
	c.MOVQ(PS, a.Src)
	c.MOVQ(PD, a.Dst)
	c.MOVQ(PK, a.K)
	return a
}

// StartBlock restores PS, PD and PK for the pass of the block of rows
// from row0, PS moved on to it (tmp scratch).
func (pk *Packer) StartBlock(a PackXArgs, row0 int, tmp reg.Register) {
	c := pk.Ctx
	c.MOVQ(a.Src, PS)
	if row0 > 0 {
		c.IMUL3Q(operand.U32(row0), RS, tmp)
		c.ADDQ(tmp, PS)
	}
	c.MOVQ(a.Dst, PD)
	c.MOVQ(a.K, PK)
}
