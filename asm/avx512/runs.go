package main

import (
	"fmt"

	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"

	"github.com/tcontract/tcontract/asm/internal/x86"
)

// runsKernel emits the row-map twin of kernel: the same k loop, but C's
// rows are not evenly spaced. A group whose fastest dim has runs of e0 rows
// (TCCG's ccsd_t contractions: 20) leaves most of a 32- or 64-row tile
// empty when tiles restart at every run; with a row map the tile straddles
// runs. Vector v of a column writes its lanes to two runs at most, each by
// one masked store: the low run from rows[4v] bytes past c, the high run
// from rows[4v+1], lanes chosen by the opmasks rows[4v+2] and rows[4v+3]
// (disjoint; a lane in neither is not written). Column j adds cols[j]
// bytes, so columns need not be evenly spaced either. The map after this
// one (the next sliver's) is only read for prefetches (prefetchRuns).
// A masked load or store touches no lane outside its mask, so the base of a
// high run may lie before the run's first row. beta == 0 never reads C.
func runsKernel(g *x86.Gen) {
	rows, cols := x86.RSC, x86.CSC // the row map and the column offsets
	k := g.K
	c := g.Ctx
	p := newPlan(g)
	o := x86.OpsFor(c, g.Size)
	g.BeginRuns(
		fmt.Sprintf("%s computes C := alpha·Ã·B̃ + beta·C on the first n columns of one %d×%d", x86.RunsName(k), k.MR, k.NR),
		fmt.Sprintf("tile of %s (AVX-512) whose rows are placed by a row map (docs/internals.md):", k.Real),
		"each vector of a column goes to at most two runs of C by masked stores.",
	)
	clearTile(g, p)
	c.Load(c.Param("c"), x86.C)
	c.Load(c.Param("rows"), rows)
	c.Load(c.Param("cols"), cols)
	c.Load(c.Param("n"), x86.N)
	body(g, p, o, g.KLoop)
	prefetchRuns(g, p, rows, cols)

	scratch := append(append([]reg.VecPhysical{}, p.a...), p.b...)
	alpha, beta, tmp := scratch[0], scratch[1], scratch[2]
	g.LoadEpilogueN()
	o.Bcast(x86.Mem(x86.T0, 0), alpha)
	g.BetaIsZero("beta0")
	g.BetaIsOne("beta1")
	o.Bcast(x86.Mem(x86.T1, 0), beta)
	lo, hi := x86.A, x86.B // the vector's two run pointers
	klo, khi := x86.Opmask(1), x86.Opmask(2)
	// Each vector's columns are emitted twice: for a vector that straddles
	// two runs, and for one within a run (its high mask empty), which
	// skips the high run's masked store (and load): an empty masked store
	// still costs a store slot, about a tenth of a tile at k = 24.
	vectors := func(label string, each func(acc reg.VecPhysical, lo, hi operand.Mem, straddles bool)) {
		if label != "" {
			c.Label(label)
		}
		for v := 0; v < p.mv; v++ {
			next := "done"
			if v+1 < p.mv {
				next = fmt.Sprintf("%s_v%d", label, v+1)
			}
			within := fmt.Sprintf("%s_w%d", label, v)
			w := x86.RowMapWords * 8 * v
			c.MOVQ(x86.Mem(rows, w), lo)
			c.ADDQ(x86.C, lo)
			c.MOVQ(x86.Mem(rows, w+8), hi)
			c.ADDQ(x86.C, hi)
			c.KMOVW(x86.Mem(rows, w+16), klo)
			c.KMOVW(x86.Mem(rows, w+24), khi)
			// A vector with no lane in either run (rows past the tile's
			// m) is skipped whole (x86.Gen.ShortColumns says why).
			c.KORTESTW(khi, klo)
			c.JZ(operand.LabelRef(next))
			c.KORTESTW(khi, khi)
			c.JZ(operand.LabelRef(within))
			for _, straddles := range []bool{true, false} {
				if !straddles {
					c.Label(within)
				}
				for j := 0; j < p.nr; j++ {
					g.ColumnGuard(j, next)
					acc := p.acc(v, j)
					c.MOVQ(x86.Mem(cols, 8*j), x86.T2)
					l, h := x86.Mem(lo, 0).Idx(x86.T2, 1), x86.Mem(hi, 0).Idx(x86.T2, 1)
					each(acc, l, h, straddles)
					o.Mov(acc, klo, l)
					if straddles {
						o.Mov(acc, khi, h)
					}
				}
				if straddles {
					c.JMP(operand.LabelRef(next))
				}
			}
			if v+1 < p.mv {
				c.Label(next)
			}
		}
		c.JMP(operand.LabelRef("done"))
	}
	vectors("general", func(acc reg.VecPhysical, l, h operand.Mem, straddles bool) {
		o.MulZ(l, beta, klo, tmp) // masked: lanes of other runs are not read
		if straddles {
			o.Mul(h, beta, khi, tmp)
		}
		o.FMA213(tmp, alpha, acc)
	})
	vectors("beta1", func(acc reg.VecPhysical, l, h operand.Mem, straddles bool) {
		o.MovZ(l, klo, tmp)
		if straddles {
			o.Mov(h, khi, tmp)
		}
		o.FMA213(tmp, alpha, acc)
	})
	vectors("beta0", func(acc reg.VecPhysical, _, _ operand.Mem, _ bool) {
		o.Mul(alpha, acc, acc)
	})
	c.Label("done")
	c.VZEROUPPER()
	c.RET()
}

// prefetchRuns requests C's lines of the next sliver's rows in the tile's
// own columns (x86.Gen.PrefetchNextRows): the driver writes them once the
// rest of its group of slivers is done (runtime/grouped.go). Lines
// requested for the tile itself would arrive too late at a short depth
// (TCCG's ccsd_t, k = 24). Only the low run's lines are requested: a
// vector's high run is the next vector's low one. The kernel requests
// them after its k loop: 48 requests before it held up its first loads,
// and TCCG 33 at float32 ran 1.06 times as fast with them after (43 and
// 45 1.02, in turns, Zen 4).
func prefetchRuns(g *x86.Gen, p plan, rows, cols reg.Register) {
	next := x86.RowMapWords*p.mv + 1 // one sliver's map (runtime.rowMapWords)
	for v := 0; v < p.mv; v++ {
		g.PrefetchNextRows(rows, cols, next, x86.RowMapWords*v, 0, 63)
	}
}
