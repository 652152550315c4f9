package main

import (
	"fmt"

	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"

	"github.com/tcontract/tcontract/asm/internal/x86"
)

// maps emits the row's half-map column kernel: the column kernel (tiles)
// for tiles whose rows are not evenly spaced in C. A group whose fastest
// dim has runs of e0 rows, e0 not a multiple of MR (TCCG's ccsd_t: 20),
// leaves rows of every tile empty when tiles restart at each run (a 24×3
// float32 tile holding 20 rows ran at 0.64 of the peak, a full one at
// 0.90); with a row map the tiles straddle runs. AVX2 has no cheap masked
// store (VMASKMOV costs about 20 cycles on Zen 2 and 3), but when e0 is a
// multiple of half a vector no half is split between runs: each vector
// goes to C as two 128-bit stores, at the offsets of its low and high
// half (rows[4v] and rows[4v+1] bytes past c); with those two stores
// per vector, TCCG's ccsd_t cases ran 1.36 to 2.10 times as fast on one
// Zen 3 thread as with the 24-row tile restarting at every run. Tile t reads A's sliver
// t and its map at rows + t·(4·MR/lanes + 1) words (the driver's maps lie
// one after another, each with a word it does not read here); column j
// adds cols[j] bytes. Every half of the first n columns is written.
// beta == 0 never reads C.
func maps(g *x86.Gen) {
	rows, cols := x86.RSC, x86.CSC // the row maps and the column offsets
	k := g.K
	c := g.Ctx
	p := newPlan(g)
	o := x86.OpsFor(c, g.Size)
	name := x86.MapsName(k)
	g.BeginMaps(
		fmt.Sprintf("%s computes, for t < tiles, C_t := alpha·Ã_t·B̃ + beta·C_t on the first n", name),
		fmt.Sprintf("columns of %d×%d tiles of %s (AVX2+FMA) whose rows are placed by half-vector row", k.MR, k.NR, k.Real),
		fmt.Sprintf("maps (docs/internals.md): Ã_t is the packed sliver at a + t·%d·k bytes, tile t's", k.MR*g.Size),
		fmt.Sprintf("map at rows + t·%d words; each half vector goes to one run of C.", x86.RowMapWords*p.mv+1),
	)
	c.Load(c.Param("a"), x86.A)
	c.Load(c.Param("c"), x86.C)
	c.Load(c.Param("rows"), rows)
	c.Load(c.Param("cols"), cols)
	c.Label("tile")
	clearTile(p, c)
	prefetchMaps(g, p, rows, cols)
	kLoop(g, p, o, g.KLoopFromA)

	scratch := append(append([]reg.VecPhysical{}, p.a...), p.b...)
	alpha, beta, tmp := scratch[0], scratch[1], scratch[2]
	g.LoadEpilogueN()
	o.Bcast(x86.Mem(x86.T0, 0), alpha)
	g.BetaIsZero("beta0")
	g.BetaIsOne("beta1")
	o.Bcast(x86.Mem(x86.T1, 0), beta)
	lo, hi := x86.Trips, x86.Rem // the halves' addresses in C, past the k loop
	vectors := func(label string, each func(acc reg.VecPhysical, lo, hi operand.Mem)) {
		if label != "" {
			c.Label(label)
		}
		for v := 0; v < p.mv; v++ {
			next := "next"
			if v+1 < p.mv {
				next = fmt.Sprintf("%s_v%d", label, v+1)
			}
			w := x86.RowMapWords * 8 * v
			c.MOVQ(x86.Mem(rows, w), lo)
			c.ADDQ(x86.C, lo)
			c.MOVQ(x86.Mem(rows, w+8), hi)
			c.ADDQ(x86.C, hi)
			for j := 0; j < p.nr; j++ {
				g.ColumnGuard(j, next)
				acc := p.acc(v, j)
				c.MOVQ(x86.Mem(cols, 8*j), x86.T2)
				l, h := x86.Mem(lo, 0).Idx(x86.T2, 1), x86.Mem(hi, 0).Idx(x86.T2, 1)
				each(acc, l, h)
				c.VMOVUPS(acc.AsX(), l)
				c.VEXTRACTF128(operand.U8(1), acc, tmp.AsX())
				c.VMOVUPS(tmp.AsX(), h)
			}
			if v+1 < p.mv {
				c.Label(next)
			}
		}
		c.JMP(operand.LabelRef("next"))
	}
	load := func(l, h operand.Mem) {
		c.VMOVUPS(l, tmp.AsX())
		c.VINSERTF128(operand.U8(1), h, tmp, tmp)
	}
	vectors("general", func(acc reg.VecPhysical, l, h operand.Mem) {
		load(l, h)
		o.Mul(tmp, beta, tmp)
		o.FMA213(tmp, alpha, acc)
	})
	vectors("beta1", func(acc reg.VecPhysical, l, h operand.Mem) {
		load(l, h)
		o.FMA213(tmp, alpha, acc)
	})
	vectors("beta0", func(acc reg.VecPhysical, _, _ operand.Mem) {
		o.Mul(alpha, acc, acc)
	})
	c.Label("next")
	c.ADDQ(operand.U32(8*(x86.RowMapWords*p.mv+1)), rows)
	c.DECQ(x86.M)
	c.JNZ(operand.LabelRef("tile"))
	c.VZEROUPPER()
	c.RET()
}

// prefetchMaps requests, for the tile's rows, C's lines of the columns
// x86.RunsAhead slivers on (x86.Gen.PrefetchRowAhead): at a depth of 24,
// lines requested for the tile's own columns arrive too late. A vector's
// high half mostly lies in the line of its low half or of the next
// vector's, so the low halves and the last high half are requested.
func prefetchMaps(g *x86.Gen, p plan, rows, cols reg.Register) {
	for v := 0; v < p.mv; v++ {
		g.PrefetchRowAhead(rows, cols, x86.RowMapWords*v, 0)
	}
	g.PrefetchRowAhead(rows, cols, x86.RowMapWords*(p.mv-1)+1, 15)
}
