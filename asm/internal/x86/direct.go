package x86

import (
	"fmt"
	"math/bits"

	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"

	"github.com/tcontract/tcontract/internal/spec"
)

// DirectSignature is the DirectFunc of docs/internals.md.
const DirectSignature = "func(k int, a *byte, lda int, b *byte, rsb int, csb int, c *byte, rsc int, csc int, m int, n int, alpha *byte, beta *byte, ahead int)"

// DirectName is the direct kernel of row k: "direct_f32_64x6_avx512".
func DirectName(k spec.Kernel) string { return k.Func("direct") }

// Registers of a direct kernel's k loop. The loop needs more pointers than
// a packed kernel's (A advances by lda, B by rsb, and B's columns sit csb
// apart), so it borrows the epilogue's registers, which are reloaded from
// the arguments after the loop. C and its strides stay put: they are loaded
// once, before the loop, to prefetch or preload C.
var (
	LDA  = M  // A's column step in bytes
	RSB  = N  // B's row step in bytes
	CSB  = T0 // B's column step in bytes
	B1   = T1 // B + 3·csb: the base of columns 3, 4, 5
	Mode = T2 // nonzero when the accumulators started from beta·C
	// Ahead is the argument ahead: the far loops also ask, into L2, for
	// A's lines that far on from the ones they load (PrefetchDirectA).
	// R15 is free in ABI0 code that reads no global variable.
	Ahead = reg.R15
)

// BeginDirect declares the direct kernel of the row.
func (g *Gen) BeginDirect(doc ...string) {
	c := g.Ctx
	c.ConstraintExpr("!purego")
	c.Function(DirectName(g.K))
	// Not NOSPLIT: the strided path spills a whole tile, a frame over
	// the nosplit limit, so the function checks its stack like Go code.
	c.Pragma("noescape")
	c.SignatureExpr(DirectSignature)
	c.Doc(doc...)
}

// EmptyTile begins each tile (label "tile", which NextDirectTile jumps back
// to) and returns at once when m <= 0 or n <= 0 (nothing is read or
// written), leaving m in M and n in N.
func (g *Gen) EmptyTile() {
	c := g.Ctx
	c.Label("tile")
	c.Load(c.Param("m"), M)
	c.Load(c.Param("n"), N)
	c.TESTQ(M, M)
	c.JLE(operand.LabelRef("empty"))
	c.TESTQ(N, N)
	c.JG(operand.LabelRef("nonempty"))
	c.Label("empty")
	c.RET()
	c.Label("nonempty")
}

// DirectLocals are the frame words with which a direct kernel walks its
// tiles: A's and C's first rows (of the whole block, of the column tile),
// the block's rows, and the rows left from the current tile on.
type DirectLocals struct{ A0, CCol, Rows, Left operand.Mem }

// BeginDirectTiles, emitted before EmptyTile, saves the block's first a, c
// and its rows m for NextDirectTile, and clamps the argument m to MR: each
// tile reads its own m, b and c (and a) from the argument slots, which
// NextDirectTile moves on.
func (g *Gen) BeginDirectTiles() DirectLocals {
	c := g.Ctx
	l := DirectLocals{A0: c.AllocLocal(8), CCol: c.AllocLocal(8), Rows: c.AllocLocal(8), Left: c.AllocLocal(8)}
	for _, x := range []struct {
		arg   string
		local operand.Mem
	}{{"a", l.A0}, {"c", l.CCol}, {"m", l.Rows}, {"m", l.Left}} {
		c.MOVQ(g.Arg(x.arg), T0)
		c.MOVQ(T0, x.local)
	}
	g.clampRows(T0)
	return l
}

// clampRows stores min(rows, MR) into the argument m.
func (g *Gen) clampRows(rows reg.Register) {
	c := g.Ctx
	c.MOVQ(operand.U32(g.K.MR), T1)
	c.CMPQ(rows, T1)
	c.CMOVQGT(T1, rows)
	c.MOVQ(rows, g.Arg("m"))
}

// NextDirectTile, emitted where a direct kernel returns, moves on to the
// next tile of the m×n block, column tile by column tile and, within one,
// row tile by row tile (A's rows past MR at a + MR, C's at c + MR·rsc; the
// next column tile at b + NR·csb and c + NR·csc, from A's and C's first
// rows again), and jumps back to label "tile". After the last tile it falls
// through to the return. One call covers the whole block, so the driver
// pays the call and its argument copies once rather than once per tile, and
// the tiles' order is the one the driver used: a column tile's B stays in
// L1 while A's row tiles stream past it.
func (g *Gen) NextDirectTile(l DirectLocals) {
	c := g.Ctx
	mr, nr := g.K.MR, g.K.NR
	advance := func(ptr operand.Mem, stride string, by int) {
		c.Load(c.Param(stride), T1)
		c.IMUL3Q(operand.I32(int32(by*g.Size)), T1, T1)
		c.ADDQ(T1, ptr)
	}
	// The next row tile of this column tile.
	c.MOVQ(l.Left, T0)
	c.SUBQ(operand.U32(mr), T0)
	c.JLE(operand.LabelRef("nextcol"))
	c.MOVQ(T0, l.Left)
	g.clampRows(T0)
	c.ADDQ(operand.U32(mr*g.Size), g.Arg("a"))
	advance(g.Arg("c"), "rsc", mr)
	c.JMP(operand.LabelRef("tile"))

	// The first row tile of the next column tile.
	c.Label("nextcol")
	c.MOVQ(g.Arg("n"), T0)
	c.SUBQ(operand.U32(nr), T0)
	c.JLE(operand.LabelRef("lasttile"))
	c.MOVQ(T0, g.Arg("n"))
	c.MOVQ(l.Rows, T0)
	c.MOVQ(T0, l.Left)
	g.clampRows(T0)
	c.MOVQ(l.A0, T0)
	c.MOVQ(T0, g.Arg("a"))
	advance(g.Arg("b"), "csb", nr)
	advance(l.CCol, "csc", nr)
	c.MOVQ(l.CCol, T0)
	c.MOVQ(T0, g.Arg("c"))
	c.JMP(operand.LabelRef("tile"))
	c.Label("lasttile")
}

// LoadC loads c, rsc and csc (in bytes) for the preload test.
func (g *Gen) LoadC() {
	c := g.Ctx
	c.Load(c.Param("c"), C)
	c.Load(c.Param("rsc"), RSC)
	c.Load(c.Param("csc"), CSC)
	c.SHLQ(operand.U8(bits.TrailingZeros(uint(g.Size))), CSC)
}

// ScalarIs jumps to label when the real at addr is exactly the bits of v
// (compared as integers, so no NaN is taken for it). It clobbers T2 for
// float64.
func (g *Gen) ScalarIs(addr operand.Mem, bitsOf uint64, label string) {
	c := g.Ctx
	if g.Size == 4 {
		c.CMPL(addr, operand.U32(uint32(bitsOf)))
	} else {
		c.MOVQ(operand.U64(bitsOf), T2)
		c.CMPQ(addr, T2)
	}
	c.JE(operand.LabelRef(label))
}

// BAddr is the address of B(p, j) for the loop's current p: columns 0–2
// from B, 3–5 from B1, each at 0, 1 or 2 times csb (SIB addressing), so no
// register moves per column.
func (g *Gen) BAddr(j int) operand.Mem {
	base := B
	if j >= 3 {
		base = B1
	}
	switch j % 3 {
	case 0:
		return Mem(base, 0)
	case 1:
		return operand.Mem{Base: base, Index: CSB, Scale: 1}
	default:
		return operand.Mem{Base: base, Index: CSB, Scale: 2}
	}
}

// DirectLoopRegs loads k (split into trips and remainder), a, lda, b, rsb
// and csb (strides in bytes) into the loop registers, and B1.
func (g *Gen) DirectLoopRegs() {
	c := g.Ctx
	k := g.K
	if k.NR > 6 {
		panic(fmt.Sprintf("%s: direct kernels address at most 6 columns of B", k.Name()))
	}
	shift := operand.U8(bits.TrailingZeros(uint(g.Size)))
	c.Load(c.Param("k"), Rem)
	c.Load(c.Param("a"), A)
	c.Load(c.Param("lda"), LDA)
	c.Load(c.Param("b"), B)
	c.Load(c.Param("rsb"), RSB)
	c.Load(c.Param("csb"), CSB)
	c.Load(c.Param("ahead"), Ahead)
	c.SHLQ(shift, LDA)
	c.SHLQ(shift, RSB)
	c.SHLQ(shift, CSB)
	c.LEAQ(operand.Mem{Base: B, Index: CSB, Scale: 2}, B1)
	c.ADDQ(CSB, B1)
	c.MOVQ(Rem, Trips)
	c.SHRQ(operand.U8(bits.TrailingZeros(uint(k.Unroll))), Trips)
	c.ANDQ(operand.U32(k.Unroll-1), Rem)
}

// DirectLoops runs one k loop per column count nv = 1…NR, chosen by the
// argument n (n > NR runs NR; n >= 1 was checked on entry): a tile of fewer
// columns does only its own FMAs, so a narrow edge tile costs its share and
// no more. step(u, nv) emits one k step (u < 0 in the remainder loop),
// reading A at Mem(A, ·) and B(p, j) at BAddr(j); the loop then advances A
// by lda and B by rsb. Labels start with prefix; every loop ends with a jump
// to label "kdone", which the caller emits.
func (g *Gen) DirectLoops(prefix string, step func(u, nv int)) {
	c := g.Ctx
	k := g.K
	// N holds rsb by now: compare against the argument.
	nAddr := g.Arg("n")
	label := func(nv int, s string) string { return fmt.Sprintf("%s%d%s", prefix, nv, s) }
	for nv := k.NR; nv > 1; nv-- {
		c.CMPQ(nAddr, operand.U32(nv))
		if nv == k.NR {
			c.JGE(operand.LabelRef(label(nv, "")))
		} else {
			c.JE(operand.LabelRef(label(nv, "")))
		}
	}
	for nv := 1; nv <= k.NR; nv++ {
		l := func(s string) string { return label(nv, s) }
		c.Label(l(""))
		c.TESTQ(Trips, Trips)
		c.JZ(operand.LabelRef(l("rem")))
		Align(c, 64)
		c.Label(l("loop"))
		for u := 0; u < k.Unroll; u++ {
			g.directStep(step, u, nv)
		}
		c.DECQ(Trips)
		c.JNZ(operand.LabelRef(l("loop")))
		c.Label(l("rem"))
		c.TESTQ(Rem, Rem)
		c.JZ(operand.LabelRef("kdone"))
		c.Label(l("remloop"))
		g.directStep(step, -1, nv)
		c.DECQ(Rem)
		c.JNZ(operand.LabelRef(l("remloop")))
		c.JMP(operand.LabelRef("kdone"))
	}
}

func (g *Gen) directStep(step func(u, nv int), u, nv int) {
	c := g.Ctx
	step(u, nv)
	c.ADDQ(LDA, A)
	c.ADDQ(RSB, B)
	if nv > 3 {
		c.ADDQ(RSB, B1)
	}
}

// DirectAhead is how many steps ahead a direct kernel prefetches A: the
// farthest [A + LDA·scale] reaches, as the k loop has no register left for
// a cursor.
const DirectAhead = 8

// DirectFarBytes is the step of A (lda, in bytes) from which a direct
// kernel prefetches: each step then lies on a page of its own, and the
// hardware prefetchers, which stay within a page, did not fetch ahead.
// That is the tall path of TCCG abcd-ebad-ce, whose depth is A's slowest
// dim (2.7 MB a step at float32): prefetching ran it 1.2 times as fast at
// float32 and float64. Nearer steps run loops without the prefetches,
// which cost products in cache 2–5% at float64.
const DirectFarBytes = 4096

// DirectFarBBytes is the step of B (rsb, in bytes) from which a direct
// kernel prefetches B (PrefetchDirectB): B's NR columns then take a line
// or two a step, a page every few steps. That is TCCG abc-bda-dc's large
// input read in place (N of two dims, columns adjacent, steps 1.5 KB apart
// at float32 and 2.5 KB at float64). GEMM's steps of B here are an
// element (B read along its unit stride) or a column of a product in
// cache (512 bytes at 64³ float64): the near loops.
const DirectFarBBytes = 1024

// Fetch says which operands a set of direct loops prefetches.
type Fetch struct{ A, B bool }

// NearFar emits a direct kernel's loops three times, chosen by A's and
// B's steps (as unsigned, so a negative step counts as far): far
// (loops(Fetch{A: true, B: true}, prefix+"f")) when lda is DirectFarBytes
// or more; else far in B only (loops(Fetch{B: true}, prefix+"b")) when rsb
// is DirectFarBBytes or more; else near (loops(Fetch{}, prefix+"n")). A
// set prefetches A through PrefetchDirectA and B through PrefetchDirectB
// as its Fetch says: requests for an A in cache (TCCG abc-bda-dc's) cost
// more than B's gain them. Every loop ends with a jump to "kdone", so no
// set falls into the next.
func (g *Gen) NearFar(prefix string, loops func(f Fetch, prefix string)) {
	c := g.Ctx
	c.CMPQ(LDA, operand.U32(DirectFarBytes))
	c.JAE(operand.LabelRef(prefix + "far"))
	c.CMPQ(RSB, operand.U32(DirectFarBBytes))
	c.JAE(operand.LabelRef(prefix + "bfar"))
	loops(Fetch{}, prefix+"n")
	c.Label(prefix + "bfar")
	loops(Fetch{B: true}, prefix+"b")
	c.Label(prefix + "far")
	loops(Fetch{A: true, B: true}, prefix+"f")
}

// PrefetchDirectA requests A's lines DirectAhead steps on for a step that
// loads bytes of A from its current column: one per 64 bytes from its
// start. (Also requesting the line of its last byte, which an unaligned
// column reaches, ran 64³ float32 7% slower before the near loops existed.)
// It also requests, into L2, the lines the argument ahead bytes on from
// the step's: the tall path (runtime directTall) passes the distance to
// the run of rows it computes next, so that run arrives while this one
// computes, its requests spread over the k loop; 0 requests the lines
// just loaded, which costs an instruction and no memory traffic. Every
// column tile requests them again: lines already in L2 cost a lookup, and
// requests the core dropped while its miss buffers were full are made
// good. Requesting in the first column tile only ran TCCG abcd-ebad-ce
// 0.9 times as fast at float64 (level at float32).
func (g *Gen) PrefetchDirectA(bytes int) {
	c := g.Ctx
	for off := 0; off < bytes; off += 64 {
		c.PREFETCHT0(operand.Mem{Base: A, Index: LDA, Scale: DirectAhead, Disp: off})
		c.PREFETCHT1(operand.Mem{Base: A, Index: Ahead, Scale: 1, Disp: off})
	}
}

// PrefetchDirectB requests, DirectAhead steps on, the line of B's first
// column and the line after it. With columns adjacent (csb one element) a
// tile's step lies in the first or straddles into the second, and the
// second is where the next column tile's step starts: each tile fetches
// the next one's new lines while it runs, a tile's whole depth ahead,
// where DirectAhead steps (a few nanoseconds) are too short a lead for
// memory. TCCG abc-bda-dc ran 1.22 times as fast at float32 and 1.06–1.14
// at float64; requesting the tile's first and last column's lines
// instead gained nothing.
func (g *Gen) PrefetchDirectB() {
	c := g.Ctx
	c.PREFETCHT0(operand.Mem{Base: B, Index: RSB, Scale: DirectAhead})
	c.PREFETCHT0(operand.Mem{Base: B, Index: RSB, Scale: DirectAhead, Disp: 64})
}

// RowLoops dispatches on the argument m to one set of loops per count mv of
// vectors that hold rows below m (1…MV), so a short tile does no FMAs on
// vectors that hold no rows. loops(mv, prefix) emits the set, labels
// starting with prefix.
func (g *Gen) RowLoops(prefix string, loops func(mv int, prefix string)) {
	c := g.Ctx
	label := func(mv int) string { return fmt.Sprintf("%s%d_", prefix, mv) }
	for mv := g.MV(); mv > 1; mv-- {
		c.CMPQ(g.Arg("m"), operand.U32((mv-1)*g.Lanes))
		c.JG(operand.LabelRef(label(mv)))
	}
	for mv := 1; mv <= g.MV(); mv++ {
		c.Label(label(mv))
		loops(mv, label(mv))
	}
}

// HalfRowLoops is RowLoops with each count mv of vectors split in two by
// how many rows its last vector holds: more than half its lanes
// (loops(mv, false, prefix), labels prefix+mv+"_") or at most half
// (loops(mv, true, prefix), labels prefix+mv+"h_"), so that a tile whose
// last rows fit half a vector can run that vector at half width.
func (g *Gen) HalfRowLoops(prefix string, loops func(mv int, half bool, prefix string)) {
	c := g.Ctx
	label := func(mv int, half bool) string {
		if half {
			return fmt.Sprintf("%s%dh_", prefix, mv)
		}
		return fmt.Sprintf("%s%d_", prefix, mv)
	}
	for mv := g.MV(); mv >= 1; mv-- {
		c.CMPQ(g.Arg("m"), operand.U32((mv-1)*g.Lanes+g.Lanes/2))
		c.JG(operand.LabelRef(label(mv, false)))
		if mv > 1 {
			c.CMPQ(g.Arg("m"), operand.U32((mv-1)*g.Lanes))
			c.JG(operand.LabelRef(label(mv, true)))
		}
	}
	for mv := 1; mv <= g.MV(); mv++ {
		for _, half := range []bool{true, false} {
			c.Label(label(mv, half))
			loops(mv, half, label(mv, half))
		}
	}
}

// Arg is the stack address of an argument, to compare against in place.
func (g *Gen) Arg(name string) operand.Mem {
	b, err := g.Ctx.Param(name).Resolve()
	if err != nil {
		panic(err)
	}
	return b.Addr
}
