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
// with A read in place (column p at a + p·lda) and B broadcast from b +
// p·rsb + j·csb, one k loop per column count up to NR. A full tile (m ==
// MR) loads A plainly; a partial one (one loop set per count of vectors
// holding rows below m) with VMASKMOV, whose mask is reloaded from the
// stack into the destination register itself (the tile leaves no register
// to hold it), so rows past m are never read.
//
// When m == MR, rsc == 1 and alpha == 1 the accumulators start as beta·C,
// so the tile ends with stores alone; every other call zeroes them and runs
// the packed kernel's epilogue.
func direct(g *x86.Gen) {
	k := g.K
	c := g.Ctx
	p := newPlan(g)
	o := x86.OpsFor(c, g.Size)
	name := x86.DirectName(k)
	g.BeginDirect(
		fmt.Sprintf("%s computes C := alpha·A·B + beta·C on m×n of %s in %d×%d tiles", name, k.Real, k.MR, k.NR),
		"(AVX2+FMA) from unpacked operands: A(i,p) at a[i+p*lda], B(p,j) at b[p*rsb+j*csb],",
		"C(i,j) at c[i*rsc+j*csc]. Rows i >= m of A and columns j >= n of B are never read;",
		"beta == 0 never reads C.",
	)
	mask := maskTable(g, name+"_mask", k.MR)
	rowMask := c.AllocLocal(k.MR * g.Size)
	tiles := g.BeginDirectTiles()
	g.EmptyTile()
	g.LoadC()
	one := uint64(math.Float64bits(1))
	if g.Size == 4 {
		one = uint64(math.Float32bits(1))
	}
	scratch := append(append([]reg.VecPhysical{}, p.a...), p.b...)
	c.CMPQ(x86.M, operand.U32(k.MR))
	c.JL(operand.LabelRef("rowmasks"))
	c.CMPQ(x86.RSC, operand.U32(1))
	c.JNE(operand.LabelRef("zeroed"))
	c.Load(c.Param("alpha"), x86.T0)
	c.Load(c.Param("beta"), x86.T1)
	g.ScalarIs(x86.Mem(x86.T0, 0), one, "preload")
	c.JMP(operand.LabelRef("zeroed"))

	// A partial tile: the VMASKMOV row masks go to the stack.
	c.Label("rowmasks")
	c.LEAQ(mask, x86.T1)
	c.MOVQ(operand.U32(k.MR), x86.T0)
	c.SUBQ(x86.M, x86.T0)
	for v := 0; v < p.mv; v++ {
		c.VMOVDQU(operand.Mem{Base: x86.T1, Index: x86.T0, Scale: uint8(g.Size), Disp: 32 * v}, scratch[0])
		c.VMOVDQU(scratch[0], rowMask.Offset(32*v))
	}
	c.Label("zeroed")
	for j := 0; j < p.nr; j++ {
		for v := 0; v < p.mv; v++ {
			c.VXORPS(p.acc(v, j), p.acc(v, j), p.acc(v, j))
		}
	}
	g.PrefetchCCols()
	c.XORL(x86.Mode.As32(), x86.Mode.As32())
	c.JMP(operand.LabelRef("kloop"))

	// Preload (full tile): column j of the accumulators is beta·C(:, j).
	c.Label("preload")
	g.BetaIsZero("pre0")
	g.ScalarIs(x86.Mem(x86.T1, 0), one, "pre1")
	beta := scratch[0]
	o.Bcast(x86.Mem(x86.T1, 0), beta)
	columns := func(each func(v, j int, mem operand.Mem)) {
		c.MOVQ(x86.C, x86.T0)
		for j := 0; j < p.nr; j++ {
			g.ColumnGuard(j, "preset")
			for v := 0; v < p.mv; v++ {
				each(v, j, x86.Mem(x86.T0, 32*v))
			}
			if j+1 < p.nr {
				c.ADDQ(x86.CSC, x86.T0)
			}
		}
		c.JMP(operand.LabelRef("preset"))
	}
	columns(func(v, j int, mem operand.Mem) { o.Mul(mem, beta, p.acc(v, j)) })
	c.Label("pre1")
	columns(func(v, j int, mem operand.Mem) { o.Mov(mem, p.acc(v, j)) })
	c.Label("pre0")
	for j := 0; j < p.nr; j++ {
		for v := 0; v < p.mv; v++ {
			c.VXORPS(p.acc(v, j), p.acc(v, j), p.acc(v, j))
		}
	}
	c.Label("preset")
	c.MOVL(operand.U32(1), x86.Mode.As32())

	c.Label("kloop")
	g.DirectLoopRegs()
	bi := 0
	body := func(fetch x86.Fetch, mv int, load func(v int, a reg.VecPhysical)) func(u, nv int) {
		return func(u, nv int) {
			a := p.a[:mv]
			for v := range a {
				load(v, a[v])
			}
			if fetch.A {
				g.PrefetchDirectA(32 * mv)
			}
			if fetch.B {
				g.PrefetchDirectB()
			}
			for j := 0; j < nv; j++ {
				b := p.b[bi%len(p.b)]
				bi++
				o.Bcast(g.BAddr(j), b)
				for v := range a {
					o.FMA(a[v], b, p.acc(v, j))
				}
			}
		}
	}
	g.NearFar("k", func(fetch x86.Fetch, prefix string) {
		c.CMPQ(g.Arg("m"), operand.U32(k.MR))
		c.JL(operand.LabelRef(prefix + "masked"))
		g.DirectLoops(prefix+"d", body(fetch, p.mv, func(v int, a reg.VecPhysical) {
			o.Mov(x86.Mem(x86.A, 32*v), a)
		}))
		c.Label(prefix + "masked")
		g.RowLoops(prefix+"m", func(mv int, prefix string) {
			g.DirectLoops(prefix, body(fetch, mv, func(v int, a reg.VecPhysical) {
				c.VMOVDQU(rowMask.Offset(32*v), a)
				o.MaskMov(x86.Mem(x86.A, 32*v), a, a)
			}))
		})
	})
	c.Label("kdone")
	c.TESTQ(x86.Mode, x86.Mode)
	c.JZ(operand.LabelRef("epilogue"))
	c.Load(c.Param("n"), x86.N)
	for j := 0; j < p.nr; j++ {
		g.ColumnGuard(j, "done")
		for v := 0; v < p.mv; v++ {
			o.Mov(p.acc(v, j), x86.Mem(x86.C, 32*v))
		}
		if j+1 < p.nr {
			c.ADDQ(x86.CSC, x86.C)
		}
	}
	c.JMP(operand.LabelRef("done"))
	c.Label("epilogue")
	epilogue(g, p, o, mask, "done")
	c.Label("done")
	g.NextDirectTile(tiles)
	c.VZEROUPPER()
	c.RET()
}
