package main

import (
	"fmt"

	"github.com/mmcloughlin/avo/attr"
	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"

	"github.com/tcontract/tcontract/asm/internal/x86"
)

// Register plan, physical Y0–Y15 only (avo would hand out Y16+ for virtual
// registers, which need AVX-512VL): the MR×NR tile is MV×NR accumulators
// Y0… (column j, vector v in Y[j*MV+v]), then MV registers for the A vectors
// of a step, then the rest for broadcasts of B, used in turn. The epilogue
// reuses the A and B registers for alpha, beta, row masks and a C load.
type plan struct {
	mv, nr int
	a, b   []reg.VecPhysical
}

func newPlan(g *x86.Gen) plan {
	p := plan{mv: g.MV(), nr: g.K.NR}
	free := 16 - p.mv*p.nr
	if free < p.mv+2 {
		panic(fmt.Sprintf("%s: tile leaves %d registers, need %d", g.K.Name(), free, p.mv+2))
	}
	next := p.mv * p.nr
	for i := 0; i < p.mv; i++ {
		p.a = append(p.a, x86.Y(next))
		next++
	}
	for ; next < 16; next++ {
		p.b = append(p.b, x86.Y(next))
	}
	return p
}

func (p plan) acc(v, j int) reg.VecPhysical { return x86.Y(j*p.mv + v) }

func kernel(g *x86.Gen) {
	k := g.K
	c := g.Ctx
	p := newPlan(g)
	o := x86.OpsFor(c, g.Size)
	g.Begin(
		fmt.Sprintf("%s computes C := alpha·Ã·B̃ + beta·C on the top-left m×n of one %d×%d tile", k.Name(), k.MR, k.NR),
		fmt.Sprintf("of %s (AVX2+FMA): Ã is a packed %d×k sliver, B̃ a packed %d×k sliver, C(i,j)", k.Real, k.MR, k.NR),
		"is at c[i*rsc+j*csc]. beta == 0 never reads C.",
	)
	mask := maskTable(g, k.Name()+"_mask", k.MR)
	clearTile(p, c)
	g.PrefetchC()
	kLoop(g, p, o, g.KLoop)
	epilogue(g, p, o, mask, "done")
	c.Label("done")
	c.VZEROUPPER()
	c.RET()
}

// tiles emits the row's column kernel: the packed kernel's tile, once per
// tile of a column of tiles that share B's sliver, the strides, m and n.
// Tile t reads A's sliver t (they lie one after another, as the k loop
// leaves A at the next) and writes C at c + offs[t] bytes. At a depth of
// a few dozen, the call, its argument loads and the Go loop around it
// cost about a third of the tile's FMAs (TCCG's ccsd_t cases, depth 24).
func tiles(g *x86.Gen) {
	k := g.K
	c := g.Ctx
	p := newPlan(g)
	o := x86.OpsFor(c, g.Size)
	name := x86.TilesName(k)
	l := g.BeginTiles(
		fmt.Sprintf("%s computes, for t < tiles, C_t := alpha·Ã_t·B̃ + beta·C_t on the top-left", name),
		fmt.Sprintf("m×n of %d×%d tiles of %s (AVX2+FMA): Ã_t is the packed %d×k sliver at a + t·%d·k", k.MR, k.NR, k.Real, k.MR, k.MR*g.Size),
		fmt.Sprintf("bytes, B̃ one packed %d×k sliver, C_t(i,j) at c + offs[t] bytes, element", k.NR),
		"i*rsc+j*csc from there. beta == 0 never reads C.",
	)
	mask := maskTable(g, name+"_mask", k.MR)
	c.Label("tile")
	clearTile(p, c)
	g.LoadTileC(l)
	kLoop(g, p, o, func(step func(u, aOff, bOff int)) {
		c.MOVQ(l.A, x86.A)
		g.KLoopFromA(step)
	})
	c.MOVQ(x86.A, l.A)
	epilogue(g, p, o, mask, "next")
	c.Label("next")
	g.NextTile(l)
	c.VZEROUPPER()
	c.RET()
}

// clearTile zeroes the accumulators.
func clearTile(p plan, c *build.Context) {
	for v := 0; v < p.mv; v++ {
		for j := 0; j < p.nr; j++ {
			c.VXORPS(p.acc(v, j), p.acc(v, j), p.acc(v, j))
		}
	}
}

// kLoop emits the k loop through loop (x86.Gen's KLoop or a variant): per
// step, the MV vectors of A, then each column's broadcast of B and its MV
// FMAs.
func kLoop(g *x86.Gen, p plan, o x86.Ops, loop func(step func(u, aOff, bOff int))) {
	bi := 0
	loop(func(u, aOff, bOff int) {
		for v := range p.a {
			o.Mov(x86.Mem(x86.A, aOff+32*v), p.a[v])
		}
		for j := 0; j < p.nr; j++ {
			b := p.b[bi%len(p.b)]
			bi++
			o.Bcast(x86.Mem(x86.B, bOff+j*g.Size), b)
			for v := range p.a {
				o.FMA(p.a[v], b, p.acc(v, j))
			}
			if j == p.nr/2 {
				g.Prefetch(u)
			}
		}
	})
}

// epilogue emits C := alpha·acc + beta·C, with beta 0 (C never read), 1
// (one FMA per vector) and general; full columns with plain loads and
// stores, partial ones (m < MR) with VMASKMOV, and the strided path for
// rsc != 1. It expects c, rsc and csc loaded and jumps to label done, which
// the caller emits.
func epilogue(g *x86.Gen, p plan, o x86.Ops, mask operand.Mem, done string) {
	k := g.K
	c := g.Ctx
	g.LoadEpilogueArgs()
	scratch := append(append([]reg.VecPhysical{}, p.a...), p.b...)
	alpha, beta, tmp := scratch[0], scratch[1], scratch[2]
	o.Bcast(x86.Mem(x86.T0, 0), alpha)
	scale := func() {
		for j := 0; j < p.nr; j++ {
			for v := 0; v < p.mv; v++ {
				o.Mul(alpha, p.acc(v, j), p.acc(v, j))
			}
		}
	}
	c.CMPQ(x86.RSC, operand.U32(1))
	c.JNE(operand.LabelRef("strided"))
	c.CMPQ(x86.M, operand.U32(k.MR))
	c.JNE(operand.LabelRef("partial"))
	g.BetaIsZero("beta0")
	g.BetaIsOne("beta1")
	o.Bcast(x86.Mem(x86.T1, 0), beta)
	columns := func(label string, each func(v, j int, mem operand.Mem), store func(v, j int, mem operand.Mem)) {
		if label != "" {
			c.Label(label)
		}
		for j := 0; j < p.nr; j++ {
			g.ColumnGuard(j, done)
			for v := 0; v < p.mv; v++ {
				mem := x86.Mem(x86.C, 32*v)
				each(v, j, mem)
				store(v, j, mem)
			}
			c.ADDQ(x86.CSC, x86.C)
		}
		c.JMP(operand.LabelRef(done))
	}
	plain := func(v, j int, mem operand.Mem) { o.Mov(p.acc(v, j), mem) }
	columns("", func(v, j int, mem operand.Mem) {
		o.Mul(mem, beta, tmp)
		o.FMA213(tmp, alpha, p.acc(v, j))
	}, plain)
	columns("beta1", func(v, j int, mem operand.Mem) {
		o.FMA213(mem, alpha, p.acc(v, j))
	}, plain)
	columns("beta0", func(v, j int, _ operand.Mem) {
		o.Mul(alpha, p.acc(v, j), p.acc(v, j))
	}, plain)

	// Partial columns (m < MR): alpha first, then VMASKMOV loads, which
	// neither touch nor fault on the masked-out rows, and stores of exactly
	// the m rows (partStore). The masks take alpha's register.
	if p.mv+2 > len(scratch) {
		panic(k.Name() + ": no registers for the row masks")
	}
	masks := scratch[:p.mv]
	pbeta, ptmp := scratch[p.mv], scratch[p.mv+1]
	c.Label("partial")
	scale()
	c.LEAQ(mask, x86.T2)
	c.MOVQ(operand.U32(k.MR), x86.T0)
	c.SUBQ(x86.M, x86.T0)
	for v := 0; v < p.mv; v++ {
		c.VMOVDQU(operand.Mem{Base: x86.T2, Index: x86.T0, Scale: uint8(g.Size), Disp: 32 * v}, masks[v])
	}
	part := 0
	masked := func(v, j int, mem operand.Mem) {
		partStore(g, p.acc(v, j), ptmp, mem, v, fmt.Sprintf("ps%d", part))
		part++
	}
	g.BetaIsZero("pbeta0")
	o.Bcast(x86.Mem(x86.T1, 0), pbeta)
	columns("", func(v, j int, mem operand.Mem) {
		o.MaskMov(mem, masks[v], ptmp)
		o.FMA(ptmp, pbeta, p.acc(v, j))
	}, masked)
	columns("pbeta0", func(int, int, operand.Mem) {}, masked)

	x := scratch[len(scratch)-1].AsX().(reg.VecPhysical)
	bx := scratch[len(scratch)-2].AsX().(reg.VecPhysical)
	g.Strided("strided", done, x, bx, scale, func(j int, buf operand.Mem) {
		for v := 0; v < p.mv; v++ {
			o.Mov(p.acc(v, j), buf.Offset(32*v))
		}
	})
}

// maskTable emits a read-only table of n all-ones lanes then n zero lanes:
// the lanes from entry n-m on have exactly the first m set (m <= n), the
// VMASKMOV mask of m rows.
func maskTable(g *x86.Gen, name string, n int) operand.Mem {
	c := g.Ctx
	mask := c.StaticGlobal(name)
	c.DataAttributes(attr.RODATA | attr.NOPTR)
	for i := 0; i < 2*n; i++ {
		ones := i < n
		switch {
		case g.Size == 4 && ones:
			c.AppendDatum(operand.U32(0xffffffff))
		case g.Size == 4:
			c.AppendDatum(operand.U32(0))
		case ones:
			c.AppendDatum(operand.U64(0xffffffffffffffff))
		default:
			c.AppendDatum(operand.U64(0))
		}
	}
	return mask
}

// partStore stores the rows of vector v of a partial column (m < MR, in
// x86.M) from acc at mem: the whole vector when m covers it, nothing when m
// ends before it, else its first m − v·lanes reals in pieces of a half,
// a quarter and an eighth of a vector through tmp and x86.T2. A VMASKMOV
// store would do it in one instruction, but AMD's Zen 2 and 3 take about
// 20 cycles for one (0.4 ns for a plain store, 5.8 ns masked, measured on
// Zen 3): at depth 24 a 24×3 tile that stored all nine of its vectors that
// way spent as long storing as computing. The branches depend only on m,
// which is the same for every column of a call.
func partStore(g *x86.Gen, acc, tmp reg.VecPhysical, mem operand.Mem, v int, label string) {
	c := g.Ctx
	o := x86.OpsFor(c, g.Size)
	lanes := 32 / g.Size
	lbl := func(s string) string { return label + s }
	c.CMPQ(x86.M, operand.U32((v+1)*lanes))
	c.JL(operand.LabelRef(lbl("part")))
	o.Mov(acc, mem)
	c.JMP(operand.LabelRef(lbl("done")))
	c.Label(lbl("part"))
	if v > 0 {
		c.CMPQ(x86.M, operand.U32(v*lanes))
		c.JLE(operand.LabelRef(lbl("done")))
	}
	// T0: the reals left to store (1 to lanes−1), T2 where they go.
	c.MOVQ(x86.M, x86.T0)
	if v > 0 {
		c.SUBQ(operand.U32(v*lanes), x86.T0)
	}
	c.LEAQ(mem, x86.T2)
	x := tmp.AsX()
	c.VMOVAPS(acc.AsX(), x)
	c.TESTQ(operand.U32(lanes/2), x86.T0)
	c.JZ(operand.LabelRef(lbl("q")))
	c.VMOVUPS(acc.AsX(), x86.Mem(x86.T2, 0))
	c.VEXTRACTF128(operand.U8(1), acc, x)
	c.ADDQ(operand.U32(16), x86.T2)
	c.Label(lbl("q"))
	if g.Size == 4 {
		c.TESTQ(operand.U32(2), x86.T0)
		c.JZ(operand.LabelRef(lbl("e")))
		c.VMOVSD(x, x86.Mem(x86.T2, 0))
		c.VMOVHLPS(x, x, x)
		c.ADDQ(operand.U32(8), x86.T2)
		c.Label(lbl("e"))
	}
	c.TESTQ(operand.U32(1), x86.T0)
	c.JZ(operand.LabelRef(lbl("done")))
	if g.Size == 4 {
		c.VMOVSS(x, x86.Mem(x86.T2, 0))
	} else {
		c.VMOVSD(x, x86.Mem(x86.T2, 0))
	}
	c.Label(lbl("done"))
}
