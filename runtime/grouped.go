package runtime

import (
	"unsafe"

	"github.com/tcontract/tcontract/workspace"
)

// Grouped tiles (AVX-512 row maps at a short depth).
//
// TCCG's ccsd_t contractions write a C far larger than the caches once, at
// depth 24, in runs of 20 rows that every tile straddles; C's next dim
// often lies in the tile's columns (abcdef-geab-dfgc: rows f, columns e,
// 20 reals apart), so C's contiguous planes are a few runs' rows times a
// few slivers' columns. In BLIS's order (each sliver of B down all the
// block's tiles) a sliver's pass writes a piece of each plane, 480 bytes
// of every 1600 at float32, and every plane is visited by four passes:
// a model of those stores alone (no FMAs, one thread) took 30–33 ms a
// call where GEMM's whole columns took 18–21. Here the block's tiles run
// in groups of slivers instead: each row of tiles across the group's
// slivers before the next row, so that a row's planes are written whole
// and in order, and the row-map kernel requests into L2 the next row's
// lines in its columns (prefetchRuns, asm/avx512), wanted once the
// group's other slivers are done. In the model: 25–26 ms.
//
// A group's B slivers and a row's A sliver fill at most half of L1: deep
// blocks, whose A sliver alone fills it, keep BLIS's order, which their
// few C writes do not mind. So do the products whose tiles mostly fit
// their runs (runs of 480: one 64-row tile in 7.5 straddles), whose other
// tiles the column kernel writes a run of tiles a call. Groups of 8
// float32 slivers with the requests into L1 ran the ccsd_t cases (the
// five grouped at float32) at 0.79–0.84 of GEMM's rate on one thread,
// groups of 16 and 32 into L2 at 0.81–0.85 (geometric means, in turns).

// groupedSlivers is how many slivers of B a group holds for blocks of kc
// steps (0: BLIS's order): the row-map kernel writes most tiles (M's runs
// shorter than two tiles) and at least two slivers fit in L1 beside one of
// A.
func (c *call) groupedSlivers(kc int) int {
	p := c.plan
	if kc <= 0 || !c.rowMaps || c.runsFn == nil || !straddles(&p.M, c.tileM) || p.M.Dims[0].Ext >= 2*c.tileM.r {
		return 0
	}
	l1 := Caches().L1d
	depth := kc * c.cf * c.rsize // bytes a sliver row of packed reals takes
	g := (l1/2 - c.mrR*depth) / (c.nrR * depth)
	if g < 2 {
		return 0
	}
	return g
}

// testGroup, when a test sets it, is called for each group of slivers
// groupedTiles runs, with its slivers.
var testGroup func(slivers int)

// groupedTiles is macroKernel's loops for grouped tiles (c.groupSl slivers
// a group): the same tiles, kernels and prefetches of the next block
// (fetch, parts) as macroKernel's, in another order; none streams. The
// choice among a tile's three ways is macroKernel's, written again here:
// as a function called per tile, shared by both, TCCG abcdef-geab-dfgc
// at float32 ran 0.92 times as fast on 1 and 2 threads (in turns).
func (c *call) groupedTiles(sc *scatter, bufs workspace.WorkerBufs, panel []byte, cBase unsafe.Pointer,
	kc, mc, s0, s1, nc int, beta, kbeta *scalar, direct, fetch bool, parts int) {
	kdepth := kc * c.cf
	sliverA := c.mrR * kdepth * c.rsize
	sliverB := c.nrR * kdepth * c.rsize
	mSl := c.tileM.count(mc)
	alpha := (*byte)(unsafe.Pointer(&c.kalpha))
	tile := &bufs.Tile[0]
	for g0 := s0; g0 < s1; g0 += c.groupSl {
		g1 := min(g0+c.groupSl, s1)
		if testGroup != nil {
			testGroup(g1 - g0)
		}
		for t := 0; t < mSl; t++ {
			i, m := c.tileM.span(t, mc)
			ap := &bufs.A[t*sliverA]
			rbs := sc.cRowBS[t]
			usable := c.mapUsable(sc, t)
			for s := g0; s < g1; s++ {
				if fetch {
					sc.fetchAhead((s-s0)*mSl+t, parts, false)
				}
				j, n := c.tileN.span(s, nc)
				bp := &panel[s*sliverB]
				cbs := sc.cColBS[s]
				switch {
				case direct && rbs != 0 && cbs != 0 && (c.cf == 1 || rbs == 1):
					cp := (*byte)(unsafe.Add(cBase, (sc.cRow[i]+sc.cCol[j])*int64(c.tsize)))
					c.fn(kdepth, ap, bp, cp, int(rbs), int(cbs)*c.cf, m*c.cf, n, alpha, (*byte)(unsafe.Pointer(kbeta)))
				case direct && usable:
					c.runsFn(kdepth, ap, bp, (*byte)(cBase), &sc.rowMap[t*c.mapWords], &sc.cColB[j], n,
						alpha, (*byte)(unsafe.Pointer(kbeta)))
				default:
					c.fn(kdepth, ap, bp, tile, 1, c.mrR, m*c.cf, n, alpha, (*byte)(unsafe.Pointer(&c.kzero)))
					c.writeTile(cBase, sc.cRow[i:i+m], rbs, sc.cCol[j:j+n], cbs, bufs.Tile, beta)
				}
			}
		}
	}
}
