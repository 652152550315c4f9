package main

import (
	"fmt"
	"math"

	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"

	"github.com/tcontract/tcontract/asm/internal/x86"
)

// direct emits the row's direct kernel: the packed kernel's register tile
// and epilogue, tile after tile over an m×n block (x86.Gen.NextDirectTile),
// with A read in place (column p at a + p·lda, rows past m masked off so
// they are never read) and B broadcast from b + p·rsb + j·csb. There is one
// k loop for each count of vectors holding rows below m and each column
// count up to NR, so an edge tile does only its own FMAs.
//
// When rsc == 1 and alpha == 1 (the common call) the accumulators start as
// beta·C instead of zero, so the tile ends with stores alone: no multiply
// or C load waits for the last FMA. Every other call zeroes them and runs
// the packed kernel's epilogue.
func direct(g *x86.Gen) {
	k := g.K
	c := g.Ctx
	p := newPlan(g)
	o := x86.OpsFor(c, g.Size)
	name := x86.DirectName(k)
	g.BeginDirect(
		fmt.Sprintf("%s computes C := alpha·A·B + beta·C on m×n of %s in %d×%d tiles", name, k.Real, k.MR, k.NR),
		"(AVX-512) from unpacked operands: A(i,p) at a[i+p*lda], B(p,j) at b[p*rsb+j*csb],",
		"C(i,j) at c[i*rsc+j*csc]. Rows i >= m of A and columns j >= n of B are never read;",
		"beta == 0 never reads C.",
	)
	tiles := g.BeginDirectTiles()
	g.EmptyTile()
	rowMasks(g, p)
	g.LoadC()
	one := uint64(math.Float64bits(1))
	if g.Size == 4 {
		one = uint64(math.Float32bits(1))
	}
	scratch := append(append([]reg.VecPhysical{}, p.a...), p.b...)
	c.CMPQ(x86.RSC, operand.U32(1))
	c.JNE(operand.LabelRef("zeroed"))
	c.Load(c.Param("alpha"), x86.T0)
	c.Load(c.Param("beta"), x86.T1)
	g.ScalarIs(x86.Mem(x86.T0, 0), one, "preload")
	c.Label("zeroed")
	for j := 0; j < p.nr; j++ {
		for v := 0; v < p.mv; v++ {
			c.VPXORD(p.acc(v, j), p.acc(v, j), p.acc(v, j))
		}
	}
	g.PrefetchCCols()
	c.XORL(x86.Mode.As32(), x86.Mode.As32())
	c.JMP(operand.LabelRef("kloop"))

	// Preload: column j of the accumulators is beta·C(:, j) for j < n.
	c.Label("preload")
	g.BetaIsZero("pre0")
	g.ScalarIs(x86.Mem(x86.T1, 0), one, "pre1")
	beta := scratch[0]
	o.Bcast(x86.Mem(x86.T1, 0), beta)
	// A short tile's vectors past m are neither loaded nor, after the
	// loop, stored (x86.Gen.ShortColumns), so their accumulators may keep
	// any value.
	columns := func(prefix string, each func(v, j int, mem operand.Mem)) {
		c.MOVQ(x86.C, x86.T0)
		g.ShortColumns(prefix, x86.T0, "preset", false, func(j int, skip func(v int)) {
			g.ColumnGuard(j, "preset")
			for v := 0; v < p.mv; v++ {
				skip(v)
				each(v, j, x86.Mem(x86.T0, 64*v))
			}
		})
	}
	columns("prebeta", func(v, j int, mem operand.Mem) { o.MulZ(mem, beta, x86.Opmask(v+1), p.acc(v, j)) })
	c.Label("pre1")
	columns("preone", func(v, j int, mem operand.Mem) { o.MovZ(mem, x86.Opmask(v+1), p.acc(v, j)) })
	c.Label("pre0")
	for j := 0; j < p.nr; j++ {
		for v := 0; v < p.mv; v++ {
			c.VPXORD(p.acc(v, j), p.acc(v, j), p.acc(v, j))
		}
	}
	c.Label("preset")
	c.MOVL(operand.U32(1), x86.Mode.As32())

	c.Label("kloop")
	bi := 0
	g.DirectLoopRegs()
	g.NearFar("d", func(fetch x86.Fetch, prefix string) {
		g.HalfRowLoops(prefix, func(mv int, half bool, prefix string) {
			g.DirectLoops(prefix, func(u, nv int) {
				set := 0
				if u > 0 {
					set = u % p.aSets
				}
				a := p.a[set*p.mv : set*p.mv+mv]
				for v := range a {
					dst := a[v]
					if half && v == mv-1 {
						dst = halfWidth(dst)
					}
					o.MovZ(x86.Mem(x86.A, 64*v), x86.Opmask(v+1), dst)
				}
				if fetch.A {
					g.PrefetchDirectA(64 * mv)
				}
				if fetch.B {
					g.PrefetchDirectB()
				}
				for j := 0; j < nv; j++ {
					multiply(o, p, a, j, g.BAddr(j), &bi, half)
				}
			})
		})
	})
	c.Label("kdone")
	c.TESTQ(x86.Mode, x86.Mode)
	c.JZ(operand.LabelRef("epilogue"))
	c.Load(c.Param("n"), x86.N)
	c.Load(c.Param("m"), x86.M)
	g.ShortColumns("stores", x86.C, "done", false, func(j int, skip func(v int)) {
		g.ColumnGuard(j, "done")
		for v := 0; v < p.mv; v++ {
			skip(v)
			o.Mov(p.acc(v, j), x86.Opmask(v+1), x86.Mem(x86.C, 64*v))
		}
	})
	c.Label("epilogue")
	epilogue(g, p, o, func() { g.NextDirectTile(tiles) })
}
