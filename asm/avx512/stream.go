package main

import (
	"fmt"

	"github.com/tcontract/tcontract/asm/internal/x86"
)

// stream emits the row's streaming column kernel: the column kernel
// (tiles) for whole tiles of adjacent rows with beta 0, each column of C
// written with non-temporal stores. Such a store sends a whole line to
// memory without reading it first, and leaves no copy in the cache: for C
// written once and not read again soon, scattered so that the hardware
// does not fetch it ahead (TCCG's abcde-ecbfa-fd, 453 MB of C at float64),
// half the memory traffic of a store that reads each line before writing
// it. The kernel does not prefetch C. Its stores are weakly ordered: the
// caller fences (SFENCE) once it has called it for a block, not the kernel
// on every call (a fence per call of one tile, at TCCG ccsd_t's depth of
// 24, ran those contractions at 0.75 of the speed without). rsc, m and
// beta are the column kernel's parameters, taken as 1, MR and 0 without
// being read.
//
// Each k step also requests, into L2, one line of the block the driver
// packs next (runtime ahead.go): the line at ahead, then aheadStep bytes
// on at each step, on through the tiles of the call. The driver hands
// the kernel one listed row of that block over its depth: requested one
// a step, they come while the FMAs run, where a burst of a tile's share
// before the call held the core's miss buffers while its loads waited.
func stream(g *x86.Gen) {
	k := g.K
	c := g.Ctx
	p := newPlan(g)
	o := x86.OpsFor(c, g.Size)
	if k.MR*g.Size%64 != 0 {
		panic(k.Name() + ": a column of the tile is not whole lines")
	}
	name := x86.StreamName(k)
	l := g.BeginColumn(name, x86.StreamSignature,
		fmt.Sprintf("%s computes, for t < tiles, C_t := alpha·Ã_t·B̃ on the %d×n", name, k.MR),
		fmt.Sprintf("tiles of %s (AVX-512), as the column kernel does with rsc 1, m %d and beta 0,", k.Real, k.MR),
		"through non-temporal stores: column j of tile t starts at c + offs[t] + j*csc",
		fmt.Sprintf("elements, which must be %d-byte aligned. C is never read. rsc, m and beta are not read.", 64),
		"The stores are non-temporal: weakly ordered until an SFENCE. Each k step, on",
		"through the tiles, also prefetches into L2 the line at ahead + i*aheadStep (i counting the steps).",
	)
	c.Label("tile")
	clearTile(g, p)
	g.LoadTileOffset(l)
	// The request cursor lives in M and its step in T2 through the k
	// loop (the kernel reads neither m nor beta); it waits in the argument
	// slot between tiles.
	cursor, cstep := x86.M, x86.T2
	c.Load(c.Param("ahead"), cursor)
	c.Load(c.Param("aheadStep"), cstep)
	body(g, p, o, func(step func(u, aOff, bOff int)) {
		c.MOVQ(l.A, x86.A)
		g.KLoopFromA(func(u, aOff, bOff int) {
			step(u, aOff, bOff)
			c.PREFETCHT1(x86.Mem(cursor, 0))
			c.ADDQ(cstep, cursor)
		})
	})
	c.MOVQ(x86.A, l.A)
	c.MOVQ(cursor, g.Arg("ahead"))
	g.LoadEpilogueN()
	alpha := p.b[0]
	o.Bcast(x86.Mem(x86.T0, 0), alpha)
	for j := 0; j < p.nr; j++ {
		g.ColumnGuard(j, "done")
		for v := 0; v < p.mv; v++ {
			o.Mul(alpha, p.acc(v, j), p.acc(v, j))
			o.Stream(p.acc(v, j), x86.Mem(x86.C, 64*v))
		}
		c.ADDQ(x86.CSC, x86.C)
	}
	c.Label("done")
	g.NextTile(l)
	c.VZEROUPPER()
	c.RET()
}
