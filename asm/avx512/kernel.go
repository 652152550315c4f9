package main

import (
	"fmt"

	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"

	"github.com/tcontract/tcontract/asm/internal/x86"
)

// Register plan: the MR×NR tile is MV×NR accumulators Z0… (column j, vector
// v in Z[j*MV+v]), then one or two sets of MV registers for the A vectors of
// a step (two sets let the next step's loads start while this step's FMAs
// still read the last set), and the rest for broadcasts of B, used in turn.
type plan struct {
	mv, nr int
	aSets  int
	a, b   []reg.VecPhysical
}

func newPlan(g *x86.Gen) plan {
	p := plan{mv: g.MV(), nr: g.K.NR}
	free := 32 - p.mv*p.nr
	// The loop needs the A vectors and a broadcast; the epilogue needs
	// three (alpha, beta, a C load).
	if free < max(p.mv+1, 3) {
		panic(fmt.Sprintf("%s: tile leaves %d registers for %d A vectors and a broadcast", g.K.Name(), free, p.mv))
	}
	p.aSets = 1
	if free >= 2*p.mv+2 {
		p.aSets = 2
	}
	next := p.mv * p.nr
	for i := 0; i < p.aSets*p.mv; i++ {
		p.a = append(p.a, x86.Z(next))
		next++
	}
	for ; next < 32; next++ {
		p.b = append(p.b, x86.Z(next))
	}
	return p
}

func (p plan) acc(v, j int) reg.VecPhysical { return x86.Z(j*p.mv + v) }

func kernel(g *x86.Gen) {
	k := g.K
	c := g.Ctx
	p := newPlan(g)
	o := x86.OpsFor(c, g.Size)
	if p.mv > 7 || k.MR > 64 {
		panic(k.Name() + ": MR too large for one opmask per vector")
	}
	g.Begin(
		fmt.Sprintf("%s computes C := alpha·Ã·B̃ + beta·C on the top-left m×n of one %d×%d tile", k.Name(), k.MR, k.NR),
		fmt.Sprintf("of %s (AVX-512): Ã is a packed %d×k sliver, B̃ a packed %d×k sliver, C(i,j)", k.Real, k.MR, k.NR),
		"is at c[i*rsc+j*csc]. beta == 0 never reads C.",
	)
	clearTile(g, p)
	g.PrefetchC()
	body(g, p, o, g.KLoop)
	epilogue(g, p, o, nil)
}

// tiles emits the row's column kernel: the packed kernel's tile, once per
// tile of a column of tiles that share B's sliver, the strides, m and n.
// Tile t reads A's sliver t (they lie one after another, as the k loop
// leaves A at the next) and writes C at c + offs[t] bytes. At TCCG's
// ccsd_t depth of 24 a 64×6 float32 tile is 576 FMA cycles (AVX2's 24×3
// is 108), so a call per tile costs less here than on AVX2: one call per
// run ran GEMM 4096×4096×64 1.02 times as fast, the ccsd_t cases as fast.
func tiles(g *x86.Gen) {
	k := g.K
	c := g.Ctx
	p := newPlan(g)
	o := x86.OpsFor(c, g.Size)
	name := x86.TilesName(k)
	l := g.BeginTiles(
		fmt.Sprintf("%s computes, for t < tiles, C_t := alpha·Ã_t·B̃ + beta·C_t on the top-left", name),
		fmt.Sprintf("m×n of %d×%d tiles of %s (AVX-512): Ã_t is the packed %d×k sliver at a + t·%d·k", k.MR, k.NR, k.Real, k.MR, k.MR*g.Size),
		fmt.Sprintf("bytes, B̃ one packed %d×k sliver, C_t(i,j) at c + offs[t] bytes, element", k.NR),
		"i*rsc+j*csc from there. beta == 0 never reads C.",
	)
	c.Label("tile")
	clearTile(g, p)
	g.LoadTileC(l)
	body(g, p, o, func(step func(u, aOff, bOff int)) {
		c.MOVQ(l.A, x86.A)
		g.KLoopFromA(step)
	})
	c.MOVQ(x86.A, l.A)
	epilogue(g, p, o, func() { g.NextTile(l) })
}

// clearTile zeroes the accumulators.
func clearTile(g *x86.Gen, p plan) {
	for v := 0; v < p.mv; v++ {
		for j := 0; j < p.nr; j++ {
			g.Ctx.VPXORD(p.acc(v, j), p.acc(v, j), p.acc(v, j))
		}
	}
}

// body emits the k loop through loop (x86.Gen's KLoop or a variant): each
// step's A vectors loaded and multiplied by B's broadcasts into the
// accumulators.
func body(g *x86.Gen, p plan, o x86.Ops, loop func(step func(u, aOff, bOff int))) {
	bi := 0
	loop(func(u, aOff, bOff int) {
		set := 0
		if u > 0 {
			set = u % p.aSets
		}
		a := p.a[set*p.mv : (set+1)*p.mv]
		for v := range a {
			o.Mov(x86.Mem(x86.A, aOff+64*v), a[v])
		}
		for j := 0; j < p.nr; j++ {
			multiply(o, p, a, j, x86.Mem(x86.B, bOff+j*g.Size), &bi, false)
			if j == p.nr/2 {
				g.Prefetch(u)
			}
		}
	})
}

// bcstVectors is the most A vectors a column of B is read into by the
// FMAs themselves (embedded broadcast) rather than broadcast into a
// register first. On Zen 4 a step of one A vector with a 512-bit broadcast
// from memory for each FMA ran a third slower: the direct kernel's
// one-vector tiles reached 0.67 of the peak probe with broadcasts and
// 0.97 with embedded ones. Two vectors gained less there (0.93 → 0.97 in
// the direct kernel, up to 1% in the packed 32×6 float32 and 16×6 float64
// kernels), and on Zen 5 a hand-scheduled two-vector kernel (32×12
// float32) ran at 0.81 of the peak with embedded broadcasts against 0.96
// without, so two vectors and more keep the broadcast.
const bcstVectors = 1

// multiply emits acc(v, j) += a[v]·B(p, j) for the step's A vectors a,
// B(p, j) at mem, broadcast into the next of p.b (counted by bi) or, for
// at most bcstVectors vectors, embedded in the FMAs. With half, the last
// vector and its accumulator are taken at half width (halfWidth).
func multiply(o x86.Ops, p plan, a []reg.VecPhysical, j int, mem operand.Mem, bi *int, half bool) {
	width := func(v int, r reg.VecPhysical) reg.VecPhysical {
		if half && v == len(a)-1 {
			return halfWidth(r)
		}
		return r
	}
	if len(a) <= bcstVectors {
		for v := range a {
			o.FMABcast(mem, width(v, a[v]), width(v, p.acc(v, j)))
		}
		return
	}
	b := p.b[*bi%len(p.b)]
	*bi++
	o.Bcast(mem, b)
	for v := range a {
		o.FMA(width(v, a[v]), width(v, b), width(v, p.acc(v, j)))
	}
}

// halfWidth is the 256-bit half of a vector register. An FMA on it costs
// Zen 4, whose vector pipes are 256 bits wide, half of a 512-bit one (on
// 512-bit pipes the same), and writing it zeroes the upper half, which no
// masked store of a tile whose rows fit the half reads.
func halfWidth(r reg.VecPhysical) reg.VecPhysical { return r.AsY().(reg.VecPhysical) }

// rowMasks sets K(v+1) to the rows of vector v that are below m (in M): bit
// i when row v*Lanes+i < m. It clobbers T0.
func rowMasks(g *x86.Gen, p plan) {
	c := g.Ctx
	c.MOVQ(operand.I32(-1), x86.T0)
	c.BZHIQ(x86.M, x86.T0, x86.T0)
	for v := 0; v < p.mv; v++ {
		c.KMOVW(x86.T0.As32(), x86.Opmask(v+1))
		if v+1 < p.mv {
			c.SHRQ(operand.U8(g.Lanes), x86.T0)
		}
	}
}

// epilogue emits C := alpha·acc + beta·C on the rows the opmasks select,
// with beta 0 (C never read), 1 (one FMA per vector) and general, and the
// strided path for rsc != 1. It expects c, rsc and csc loaded and ends at
// label "done" with the return, which next (when not nil) may jump past.
func epilogue(g *x86.Gen, p plan, o x86.Ops, next func()) {
	c := g.Ctx
	g.LoadEpilogueArgs()
	scratch := append(append([]reg.VecPhysical{}, p.a...), p.b...)
	alpha, beta, tmp := scratch[0], scratch[1], scratch[2]
	o.Bcast(x86.Mem(x86.T0, 0), alpha)
	rowMasks(g, p)
	c.CMPQ(x86.RSC, operand.U32(1))
	c.JNE(operand.LabelRef("strided"))
	g.BetaIsZero("beta0")
	g.BetaIsOne("beta1")
	o.Bcast(x86.Mem(x86.T1, 0), beta)
	columns := func(label string, each func(v, j int, mem operand.Mem, k reg.Physical)) {
		prefix := label
		if label != "" {
			c.Label(label)
		} else {
			prefix = "betan"
		}
		g.ShortColumns(prefix, x86.C, "done", true, func(j int, skip func(v int)) {
			g.ColumnGuard(j, "done")
			for v := 0; v < p.mv; v++ {
				skip(v)
				mem := x86.Mem(x86.C, 64*v)
				each(v, j, mem, x86.Opmask(v+1))
				o.Mov(p.acc(v, j), x86.Opmask(v+1), mem)
			}
		})
	}
	columns("", func(v, j int, mem operand.Mem, k reg.Physical) {
		o.Mul(mem, beta, k, tmp) // masked: no fault on rows past m
		o.FMA213(tmp, alpha, p.acc(v, j))
	})
	columns("beta1", func(v, j int, mem operand.Mem, k reg.Physical) {
		o.FMA213(mem, alpha, k, p.acc(v, j))
	})
	columns("beta0", func(v, j int, _ operand.Mem, _ reg.Physical) {
		o.Mul(alpha, p.acc(v, j), p.acc(v, j))
	})
	x := scratch[len(scratch)-1].AsX().(reg.VecPhysical)
	bx := scratch[len(scratch)-2].AsX().(reg.VecPhysical)
	g.Strided("strided", "done", x, bx, func() {
		for j := 0; j < p.nr; j++ {
			for v := 0; v < p.mv; v++ {
				o.Mul(alpha, p.acc(v, j), p.acc(v, j))
			}
		}
	}, func(j int, buf operand.Mem) {
		for v := 0; v < p.mv; v++ {
			o.Mov(p.acc(v, j), buf.Offset(64*v))
		}
	})
	c.Label("done")
	if next != nil {
		next()
	}
	c.VZEROUPPER()
	c.RET()
}
