package runtime

// Runs of like tiles for the column kernel (kernels.TilesFunc). At a small
// depth the Go loop over an MC block's tiles, the call and its argument
// loads cost about a third of what the tile's FMAs do (TCCG's ccsd_t
// contractions: depth 24, a 24×3 float32 tile of 108 FMA cycles). Tiles
// that the kernel writes directly with the same row step and row count
// differ only in their A sliver, which follows the last one, and where C
// starts: one call takes a run of them, C's starts given as offsets.

// tileRuns fills sc.tileOff and sc.tileEnd for the mSl slivers of an MC
// block of mc rows: tileEnd[t] > t+1 where a run of like tiles starts at t
// (every tile of it direct, with one row step and one row count). Without
// a column kernel every tileEnd[t] is t+1.
func (c *call) tileRuns(sc *scatter, mc, mSl int) {
	if c.mapsFn != nil {
		c.mapRuns(sc, mSl)
		return
	}
	for t := 0; t < mSl; {
		i, m := c.tileM.span(t, mc)
		sc.tileOff[t] = sc.cRow[i] * int64(c.tsize)
		e := t + 1
		if c.columnTile(sc, t) {
			bs := sc.cRowBS[t]
			for e < mSl && sc.cRowBS[e] == bs {
				ie, me := c.tileM.span(e, mc)
				if me != m {
					break
				}
				sc.tileOff[e] = sc.cRow[ie] * int64(c.tsize)
				e++
			}
		}
		for u := t; u < e; u++ {
			sc.tileEnd[u] = int64(e)
		}
		t = e
	}
}

// columnTile reports whether the column kernel can write sliver t's tile
// directly (tileRuns' runs are of such tiles).
func (c *call) columnTile(sc *scatter, t int) bool {
	bs := sc.cRowBS[t]
	return c.tilesFn != nil && bs != 0 && (c.cf == 1 || bs == 1)
}

// mapRuns is tileRuns for the column kernel with half maps
// (kernels.MapsFunc): a run is the slivers with usable maps that follow
// one another, whatever their rows; tileEnd[t] is t+1 for the others.
func (c *call) mapRuns(sc *scatter, mSl int) {
	for t := 0; t < mSl; {
		e := t + 1
		if c.mapUsable(sc, t) {
			for e < mSl && c.mapUsable(sc, e) {
				e++
			}
		}
		for u := t; u < e; u++ {
			sc.tileEnd[u] = int64(e)
		}
		t = e
	}
}

// mapUsable reports whether sliver t of the MC block has a usable row map.
func (c *call) mapUsable(sc *scatter, t int) bool { return sc.rowMap[(t+1)*c.mapWords-1] == 1 }
