// Package x86 holds what the AVX-512 and AVX2 kernel generators share: the
// general-purpose register plan, the argument loads, the unrolled k loop with
// its remainder, the prefetches, the beta test and the strided store path.
// The vector work (register tile, loads, broadcasts, masked stores) is each
// ISA's own.
package x86

import (
	"fmt"
	"math"
	"math/bits"
	"strings"

	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/ir"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/pass"
	"github.com/mmcloughlin/avo/reg"

	"github.com/tcontract/tcontract/internal/spec"
)

// Signature is the kernel Func of docs/internals.md; avo cannot parse
// unsafe.Pointer, so pointers are *byte.
const Signature = "func(k int, a, b, c *byte, rsc, csc, m, n int, alpha, beta *byte)"

// General-purpose registers, fixed for every x86 kernel. R14 (g), R15 (GOT
// base under dynamic linking) and BP (frame pointer) are left alone.
var (
	Trips = reg.RCX // main-loop trips left
	Rem   = reg.RDX // remainder steps left
	A     = reg.RSI // packed A sliver
	B     = reg.RDI // packed B sliver
	C     = reg.R8  // current column of C
	RSC   = reg.R9  // row stride of C (reals, then bytes)
	CSC   = reg.R10 // column stride of C in bytes
	M     = reg.R11 // rows to write
	N     = reg.R12 // columns to write
	T0    = reg.RAX
	T1    = reg.RBX
	T2    = reg.R13
)

// Gen emits one kernel into a fresh context.
type Gen struct {
	Ctx *build.Context
	K   spec.Kernel
	// Size is the size of one real in bytes; Lanes the reals per vector.
	Size, Lanes int
	// S is the scalar suffix: "SS" for float32, "SD" for float64.
	S string
	// spreadC is set by SpreadC and taken by the next k loop, which then
	// requests C's columns, one a trip.
	spreadC bool
}

// New starts a kernel function for row k with vectors of vecBytes bytes.
func New(k spec.Kernel, vecBytes int) *Gen {
	r, ok := spec.RealByName(k.Real)
	if !ok {
		panic("unknown real type " + k.Real)
	}
	g := &Gen{Ctx: build.NewContext(), K: k, Size: r.Size, Lanes: vecBytes / r.Size, S: "SS"}
	if r.Size == 8 {
		g.S = "SD"
	}
	if k.MR%g.Lanes != 0 {
		panic(fmt.Sprintf("%s: MR %d is not a multiple of %d lanes", k.Name(), k.MR, g.Lanes))
	}
	if k.Unroll < 1 || bits.OnesCount(uint(k.Unroll)) != 1 {
		panic(fmt.Sprintf("%s: unroll %d is not a power of two", k.Name(), k.Unroll))
	}
	return g
}

// MV is the number of vectors that hold one column of the tile.
func (g *Gen) MV() int { return g.K.MR / g.Lanes }

// Begin declares the function with its signature and documentation.
func (g *Gen) Begin(doc ...string) {
	c := g.Ctx
	c.ConstraintExpr("!purego")
	c.Function(g.K.Name())
	// Not NOSPLIT: the strided path spills a whole tile, a frame over
	// the nosplit limit, so the function checks its stack like Go code.
	c.Pragma("noescape")
	c.SignatureExpr(Signature)
	c.Doc(doc...)
}

// Mem is disp(base).
func Mem(base reg.Register, disp int) operand.Mem { return operand.Mem{Base: base, Disp: disp} }

// Fourth is disp(base) plus i < 4 steps, with step3 holding three of them:
// four rows (or slivers) a register step apart from one base register.
func Fourth(base, step, step3 reg.Register, i, disp int) operand.Mem {
	switch i {
	case 0:
		return Mem(base, disp)
	case 1:
		return operand.Mem{Base: base, Index: step, Scale: 1, Disp: disp}
	case 2:
		return operand.Mem{Base: base, Index: step, Scale: 2, Disp: disp}
	default:
		return operand.Mem{Base: base, Index: step3, Scale: 1, Disp: disp}
	}
}

// KLoop loads k, a and b and emits the main loop of Unroll steps per trip
// followed by the remainder loop of single steps. step(u, aOff, bOff) emits
// step u of a trip, reading A at aOff(A) and B at bOff(B).
func (g *Gen) KLoop(step func(u, aOff, bOff int)) { g.kLoop(step, true) }

// KLoopFromA is KLoop with A already loaded (a column kernel's tile
// sliver).
func (g *Gen) KLoopFromA(step func(u, aOff, bOff int)) { g.kLoop(step, false) }

func (g *Gen) kLoop(step func(u, aOff, bOff int), loadA bool) {
	c := g.Ctx
	k := g.K
	c.Load(c.Param("k"), Trips)
	if loadA {
		c.Load(c.Param("a"), A)
	}
	c.Load(c.Param("b"), B)
	c.MOVQ(Trips, Rem)
	c.SHRQ(operand.U8(bits.TrailingZeros(uint(k.Unroll))), Trips)
	c.ANDQ(operand.U32(k.Unroll-1), Rem)
	c.TESTQ(Trips, Trips)
	c.JZ(operand.LabelRef("remainder"))
	Align(c, 64)
	c.Label("loop")
	if g.spreadC {
		g.spreadC = false
		c.TESTQ(M, M)
		c.JZ(operand.LabelRef("cnext"))
		g.prefetchColumn(T2)
		c.ADDQ(CSC, T2)
		c.DECQ(M)
		c.Label("cnext")
	}
	for u := 0; u < k.Unroll; u++ {
		step(u, u*k.MR*g.Size, u*k.NR*g.Size)
	}
	c.ADDQ(operand.U32(k.Unroll*k.MR*g.Size), A)
	c.ADDQ(operand.U32(k.Unroll*k.NR*g.Size), B)
	c.DECQ(Trips)
	c.JNZ(operand.LabelRef("loop"))
	c.Label("remainder")
	c.TESTQ(Rem, Rem)
	c.JZ(operand.LabelRef("epilogue"))
	c.Label("remloop")
	step(-1, 0, 0)
	c.ADDQ(operand.U32(k.MR*g.Size), A)
	c.ADDQ(operand.U32(k.NR*g.Size), B)
	c.DECQ(Rem)
	c.JNZ(operand.LabelRef("remloop"))
	c.Label("epilogue")
}

// Prefetch emits the prefetches of main-loop step u: the cache lines of A
// and B that the slivers advance by in one step, PrefetchA and PrefetchB
// bytes ahead. Lines are spread over the steps of a trip so no step carries
// them all. u < 0 (the remainder loop) prefetches nothing.
func (g *Gen) Prefetch(u int) {
	if u < 0 {
		return
	}
	k := g.K
	emit := func(base reg.Register, dist, stepBytes int) {
		if dist == 0 {
			return
		}
		tripBytes := k.Unroll * stepBytes
		lines := (tripBytes + 63) / 64
		for l := 0; l < lines; l++ {
			if l*k.Unroll/lines == u {
				g.Ctx.PREFETCHT0(Mem(base, dist+l*64))
			}
		}
	}
	emit(A, k.PrefetchA, k.MR*g.Size)
	emit(B, k.PrefetchB, k.NR*g.Size)
}

// PrefetchC loads c and the strides (csc in bytes) and sets up the
// requests of C's lines (SpreadC): C is the one operand the driver does
// not keep in cache, and its lines, requested during the k loop, arrive
// before the epilogue instead of stalling it.
func (g *Gen) PrefetchC() {
	g.LoadC()
	g.SpreadC()
}

// SpreadC, once c and the strides are loaded and when rsc == 1, has the
// next k loop (KLoop, KLoopFromA) request the lines of one column of the
// MR×NR tile at the start of each of its first NR trips: T2 walks the
// columns and M counts those left (M is loaded again for the epilogue).
// Requested all at once before the loop, as PrefetchCCols does, 30 lines
// of a 64×6 float32 tile held up the loop's first loads: the isolated
// kernel over an L2 block of Ã, against a panel of B̃ and C in memory,
// ran at 0.96–0.97 of the peak that way and 0.98 spread, at depth 24
// 0.87 and 0.90 (Zen 4; float64 alike). A loop of fewer trips than NR,
// which would leave the last columns unrequested, requests them all at
// once instead. Lines past n are requested too, which is harmless:
// prefetches never fault.
func (g *Gen) SpreadC() {
	c := g.Ctx
	c.XORL(M.As32(), M.As32())
	c.CMPQ(RSC, operand.U32(1))
	c.JNE(operand.LabelRef("cspread"))
	c.MOVQ(C, T2)
	c.MOVL(operand.U32(g.K.NR), M.As32())
	c.CMPQ(g.Arg("k"), operand.U32(g.K.NR*g.K.Unroll))
	c.JGE(operand.LabelRef("cspread"))
	c.XORL(M.As32(), M.As32())
	for j := 0; j < g.K.NR; j++ {
		g.prefetchColumn(T2)
		c.ADDQ(CSC, T2)
	}
	c.Label("cspread")
	g.spreadC = true
}

// PrefetchCCols, once c and the strides are loaded and when rsc == 1,
// requests the cache lines of every column of the MR×NR tile at once (the
// direct kernels, whose k loops are their own).
func (g *Gen) PrefetchCCols() {
	c := g.Ctx
	c.CMPQ(RSC, operand.U32(1))
	c.JNE(operand.LabelRef("cfetched"))
	c.MOVQ(C, T2)
	for j := 0; j < g.K.NR; j++ {
		g.prefetchColumn(T2)
		if j+1 < g.K.NR {
			c.ADDQ(CSC, T2)
		}
	}
	c.Label("cfetched")
}

// prefetchColumn requests the lines of one column of the tile at base.
func (g *Gen) prefetchColumn(base reg.Register) {
	c := g.Ctx
	col := g.K.MR * g.Size
	for off := 0; off < col; off += 64 {
		c.PREFETCHT0(Mem(base, off))
	}
	// An unaligned column ends in one more line (a 64-byte one too).
	c.PREFETCHT0(Mem(base, col-1))
}

// LoadEpilogueArgs loads m and n and leaves alpha's and beta's addresses in
// T0 and T1 (c and the strides are loaded by PrefetchC).
func (g *Gen) LoadEpilogueArgs() {
	c := g.Ctx
	c.Load(c.Param("m"), M)
	g.LoadEpilogueN()
}

// LoadEpilogueN loads n and leaves alpha's and beta's addresses in T0 and
// T1.
func (g *Gen) LoadEpilogueN() {
	c := g.Ctx
	c.Load(c.Param("n"), N)
	c.Load(c.Param("alpha"), T0)
	c.Load(c.Param("beta"), T1)
}

// BetaIsZero jumps to label when *beta (address in T1) is +0 or -0,
// comparing bits so that a NaN beta is not taken for zero. It clobbers T2.
func (g *Gen) BetaIsZero(label string) {
	c := g.Ctx
	if g.Size == 4 {
		c.MOVL(Mem(T1, 0), T2.As32())
		c.SHLL(operand.U8(1), T2.As32())
	} else {
		c.MOVQ(Mem(T1, 0), T2)
		c.SHLQ(operand.U8(1), T2)
	}
	c.JZ(operand.LabelRef(label))
}

// BetaIsOne jumps to label when *beta (address in T1) is exactly 1, the
// beta of every K block after the first: C := alpha·acc + C is then one
// FMA per vector. It clobbers T2.
func (g *Gen) BetaIsOne(label string) {
	c := g.Ctx
	if g.Size == 4 {
		c.CMPL(Mem(T1, 0), operand.U32(math.Float32bits(1)))
	} else {
		c.MOVQ(operand.U64(math.Float64bits(1)), T2)
		c.CMPQ(Mem(T1, 0), T2)
	}
	c.JE(operand.LabelRef(label))
}

// ColumnGuard jumps to done unless column j < n.
func (g *Gen) ColumnGuard(j int, done string) {
	c := g.Ctx
	if j == 0 {
		c.TESTQ(N, N)
	} else {
		c.CMPQ(N, operand.U32(j))
	}
	c.JLE(operand.LabelRef(done))
}

// ShortColumns emits a tile's column accesses (rsc == 1, the columns csc
// apart from ptr) twice, each copy ending in a jump to done: as they are
// for a tile of MR rows (m in M), and for a shorter one with each column's
// vectors past m skipped. An AVX-512 load or store under an all-zero mask
// touches nothing but is not free. On Zen 5, float32 GEMM 32³ (two of a
// 64-row tile's four vectors empty) ran at 78 GFLOP/s with them when A, B
// and C lay at the same offset within their 4 KiB pages, as separate
// allocations of 4 KiB do, 55 with beta 0.5, and 124–126 with C 2 KiB
// off; skipping them, 136–152 in all three; and 16 batched 8×8×8 products
// no longer took 3.2–3.7 µs a call in most runs, but 0.84–1.07 µs. A full
// tile takes the first copy, with no compares. column(j, skip) emits
// column j's guard (ColumnGuard) and vectors, calling skip(v) before
// vector v; each column but the last (all of them when stepLast) is
// followed by ptr += csc.
func (g *Gen) ShortColumns(prefix string, ptr reg.Register, done string, stepLast bool, column func(j int, skip func(v int))) {
	c := g.Ctx
	step := func(j int) {
		if stepLast || j+1 < g.K.NR {
			c.ADDQ(CSC, ptr)
		}
	}
	mv := g.K.MR / g.Lanes
	if mv > 1 {
		c.CMPQ(M, operand.U32(g.K.MR))
		c.JLT(operand.LabelRef(prefix + "short"))
	}
	for j := 0; j < g.K.NR; j++ {
		column(j, func(int) {})
		step(j)
	}
	c.JMP(operand.LabelRef(done))
	if mv == 1 {
		return
	}
	c.Label(prefix + "short")
	for j := 0; j < g.K.NR; j++ {
		next := fmt.Sprintf("%sc%d", prefix, j)
		column(j, func(v int) {
			if v > 0 {
				c.CMPQ(M, operand.U32(v*g.Lanes))
				c.JLE(operand.LabelRef(next))
			}
		})
		c.Label(next)
		step(j)
	}
	c.JMP(operand.LabelRef(done))
}

// Strided emits the path for rsc != 1. The whole tile is spilled first
// (spill(j, buf) stores column j at buf, MR reals apart): a narrow load
// right after a wide store of the same bytes is not forwarded and waits for
// the store to retire, so spilling column by column stalled every column,
// while one spill of all columns waits once. Then each column j < n writes
// its first m rows one by one to C(i,j) at i*rsc, in one loop for beta 0
// (C never read) and one adding beta·C, so no row tests beta. Scalar
// registers x (value) and bx (beta) are scratch. T1 holds beta's address on
// entry; scale, emitted first, applies alpha to the tile.
func (g *Gen) Strided(label, done string, x, bx reg.VecPhysical, scale func(), spill func(j int, buf operand.Mem)) {
	c := g.Ctx
	col := g.K.MR * g.Size
	buf := c.AllocLocal(col * g.K.NR)
	c.Label(label)
	scale()
	for j := 0; j < g.K.NR; j++ {
		spill(j, buf.Offset(j*col))
	}
	c.SHLQ(operand.U8(bits.TrailingZeros(uint(g.Size))), RSC)
	movs(c, g.S, Mem(T1, 0), bx)
	// T1 := 0 when beta is zero (C is never read), else nonzero.
	if g.Size == 4 {
		c.MOVL(Mem(T1, 0), T1.As32())
		c.SHLL(operand.U8(1), T1.As32())
	} else {
		c.MOVQ(Mem(T1, 0), T1)
		c.SHLQ(operand.U8(1), T1)
	}
	for j := 0; j < g.K.NR; j++ {
		g.ColumnGuard(j, done)
		next := fmt.Sprintf("%s_next%d", label, j)
		withBeta := fmt.Sprintf("%s_beta%d", label, j)
		c.MOVQ(C, T2)
		c.XORQ(T0, T0)
		c.TESTQ(T1, T1)
		c.JNZ(operand.LabelRef(withBeta))
		g.stridedRows(fmt.Sprintf("%s_rows%d", label, j), next, buf.Offset(j*col), x, nil)
		c.JMP(operand.LabelRef(next))
		c.Label(withBeta)
		g.stridedRows(fmt.Sprintf("%s_brows%d", label, j), next, buf.Offset(j*col), x, bx)
		c.Label(next)
		c.ADDQ(CSC, C)
	}
	c.JMP(operand.LabelRef(done))
}

// stridedRows writes rows T0..m-1 of the spilled column at buf to C at T2,
// rsc bytes apart (beta·C added when bx is not nil), falling through when
// done.
func (g *Gen) stridedRows(loop, next string, buf operand.Mem, x, bx reg.VecPhysical) {
	c := g.Ctx
	elem := buf
	elem.Index = T0
	elem.Scale = uint8(g.Size)
	c.CMPQ(T0, M)
	c.JGE(operand.LabelRef(next))
	c.Label(loop)
	movs(c, g.S, elem, x)
	if bx != nil {
		fmas(c, g.S, Mem(T2, 0), bx, x)
	}
	movs(c, g.S, x, Mem(T2, 0))
	c.ADDQ(RSC, T2)
	c.INCQ(T0)
	c.CMPQ(T0, M)
	c.JL(operand.LabelRef(loop))
}

// Align pads with PCALIGN so the next instruction (a loop head) starts on
// an n-byte boundary: a loop that straddles fewer fetch blocks decodes and
// sits in the op cache better. avo has no PCALIGN, so it goes in raw.
func Align(c *build.Context, n int) {
	c.Instruction(&ir.Instruction{Opcode: "PCALIGN", Operands: []operand.Op{operand.Imm(uint64(n))}})
}

func movs(c *build.Context, s string, src, dst operand.Op) {
	if s == "SS" {
		c.VMOVSS(src, dst)
	} else {
		c.VMOVSD(src, dst)
	}
}

func fmas(c *build.Context, s string, m, b, acc operand.Op) {
	if s == "SS" {
		c.VFMADD231SS(m, b, acc)
	} else {
		c.VFMADD231SD(m, b, acc)
	}
}

// CompiledLabels compiles the context's functions (avo's register and
// operand checks run here, as when a file is written) and returns the
// labels they define, for the generators' tests.
func CompiledLabels(c *build.Context) (map[string]bool, error) {
	f, err := c.Result()
	if err != nil {
		return nil, err
	}
	if err := pass.Compile.Execute(f); err != nil {
		return nil, err
	}
	labels := map[string]bool{}
	for _, fn := range f.Functions() {
		for _, l := range fn.Labels() {
			labels[string(l)] = true
		}
	}
	return labels, nil
}

// DirectLabels are the labels every direct kernel of row k has: its preload
// paths, the epilogue, and a k loop and remainder loop per column count and
// per count mv of row vectors, named after the row family ("d" for the
// loops on full rows, "m" for masked ones).
func DirectLabels(k spec.Kernel, mvs int, family string) []string {
	want := []string{"preload", "pre0", "pre1", "kdone", "epilogue", "beta0", "strided", "done"}
	for nv := 1; nv <= k.NR; nv++ {
		for mv := 1; mv <= mvs; mv++ {
			want = append(want, fmt.Sprintf("%s%d_%dloop", family, mv, nv), fmt.Sprintf("%s%d_%dremloop", family, mv, nv))
		}
	}
	return want
}

// LoopOps counts the instructions of one opcode in c's functions by the
// prefix of the label they follow: each of prefixes, or none (the count
// under ""), up to the next label. An opcode with suffixes
// ("VFMADD231PS.BCST") counts only the instructions that carry them; one
// without counts every form.
func LoopOps(c *build.Context, opcode string, prefixes ...string) (map[string]int, error) {
	by, err := LoopInstructions(c, prefixes...)
	if err != nil {
		return nil, err
	}
	counts := map[string]int{}
	for p, ins := range by {
		for _, n := range ins {
			if n.Opcode == opcode || n.OpcodeWithSuffixes() == opcode {
				counts[p]++
			}
		}
	}
	return counts, nil
}

// LoopInstructions compiles c and groups its functions' instructions by
// the prefix of the label they follow, as LoopOps counts them.
func LoopInstructions(c *build.Context, prefixes ...string) (map[string][]*ir.Instruction, error) {
	f, err := c.Result()
	if err != nil {
		return nil, err
	}
	by := map[string][]*ir.Instruction{}
	for _, fn := range f.Functions() {
		cur := ""
		for _, n := range fn.Nodes {
			switch n := n.(type) {
			case ir.Label:
				cur = ""
				for _, p := range prefixes {
					if strings.HasPrefix(string(n), p) {
						cur = p
					}
				}
			case *ir.Instruction:
				by[cur] = append(by[cur], n)
			}
		}
	}
	return by, nil
}

// PackerLabels are the paths every packer has: copy, transpose (with its
// loop and tail) and scalar.
var PackerLabels = []string{"copy", "transpose", "tloop", "ttail", "scalar"}

// MissingLabels compiles c and returns which of want it lacks.
func MissingLabels(c *build.Context, want []string) ([]string, error) {
	labels, err := CompiledLabels(c)
	if err != nil {
		return nil, err
	}
	var missing []string
	for _, l := range want {
		if !labels[l] {
			missing = append(missing, l)
		}
	}
	return missing, nil
}

// UncleanReturns lists, per function of c, the RETs that follow 256- or
// 512-bit register use (in program order) without a VZEROUPPER just before
// them (Packer.Return says why that matters).
func UncleanReturns(c *build.Context) ([]string, error) {
	f, err := c.Result()
	if err != nil {
		return nil, err
	}
	var bad []string
	for _, fn := range f.Functions() {
		wide, prev := false, ""
		for i, in := range fn.Instructions() {
			if in.Opcode == "RET" && wide && prev != "VZEROUPPER" {
				bad = append(bad, fmt.Sprintf("%s: RET at instruction %d", fn.Name, i))
			}
			for _, op := range in.Operands {
				if r, ok := op.(reg.Register); ok && r.Size() >= 32 {
					wide = true
				}
			}
			prev = in.Opcode
		}
	}
	return bad, nil
}
