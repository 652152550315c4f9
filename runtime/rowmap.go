package runtime

import (
	"github.com/tcontract/tcontract/generated/kernels"
)

// Row maps (docs/internals.md). When M's fastest dim is adjacent in C but
// its runs are not whole tiles (TCCG's ccsd_t: runs of 20), tiles that
// restart at every run leave rows of every tile unused, and tiles that
// straddle runs used to go through the tile buffer and a write-back. A
// kernel with a row map (kernels.RunsFunc) writes a straddling tile
// directly: each vector of a tile column goes to at most two runs of C,
// each by one masked store. The map is built once per sliver of an MC
// block and serves every tile of that sliver.

// rowMapWords is the length of one sliver's map: four words per vector of
// the tile column, then a word that is 1 when the map is usable.
func rowMapWords(mrR, lanes int) int { return kernels.RowMapWords*mrR/lanes + 1 }

// buildRowMap fills rm (rowMapWords long) for a sliver whose m rows of T
// lie at element offsets off in C, for a tile of mrR reals with lanes reals
// per vector (complex rows are cf real rows, the real part first). It
// reports whether every vector's rows fall into at most two runs of
// adjacent reals, ascending; the map is marked usable only then.
func buildRowMap(rm []int64, off []int64, mrR, lanes, cf, tsize, rsize int) bool {
	words := kernels.RowMapWords
	mv := mrR / lanes
	valid := int64(1)
	at := func(r int) int64 { return off[r/cf]*int64(tsize) + int64(r%cf*rsize) }
	m := len(off) * cf
	for v := 0; v < mv; v++ {
		w := rm[v*words : v*words+words]
		clear(w)
		r0 := v * lanes
		if r0 >= m {
			continue
		}
		r1 := min(r0+lanes, m)
		r := r0 + 1
		for r < r1 && at(r) == at(r-1)+int64(rsize) {
			r++
		}
		w[0], w[2] = at(r0), int64(1)<<(r-r0)-1
		if r == r1 {
			continue
		}
		s := r + 1
		for s < r1 && at(s) == at(s-1)+int64(rsize) {
			s++
		}
		if s < r1 {
			valid = 0
			break
		}
		w[1] = at(r) - int64((r-r0)*rsize)
		w[3] = (int64(1)<<(r1-r0) - 1) &^ w[2]
	}
	rm[mv*words] = valid
	return valid == 1
}

// rowMapsFit reports whether every sliver of a plain tiling of M (g) has a
// usable row map under kernel k: the group's fastest dim adjacent and
// ascending in C, and its runs (if it has more dims) at least a vector
// long, so that no vector meets more than two of them (k.Runs); for the
// half-map kernel (k.Maps), whole halves of a vector, so that no half
// meets two, and every full sliver has a usable map.
func rowMapsFit(g *Group, k *kernels.Kernel, cf, realSize int) bool {
	if len(g.Dims) == 0 || g.Dims[0].S[opC] != 1 {
		return false
	}
	lanes := vecLanes(k, realSize)
	switch {
	case lanes == 0:
		return false
	case k.Runs != nil:
		return len(g.Dims) == 1 || g.Dims[0].Ext*cf >= lanes
	case k.Maps != nil:
		return lanes >= 2 && (len(g.Dims) == 1 || g.Dims[0].Ext*cf%(lanes/2) == 0)
	}
	return false
}

// mapLen is the int64 words of row maps a member's scatter scratch holds:
// one map per sliver of an MC block.
func (c *call) mapLen() int {
	if !c.rowMaps {
		return 0
	}
	slivers := c.tileM.count(c.blk.MC)
	if c.runsFn != nil {
		slivers++ // the last sliver's kernel reads a next map
	}
	return slivers * c.mapWords
}

// rowMapsOf builds the maps of the slivers of an MC block of mc rows (mSl
// slivers) whose rows in C are not evenly spaced.
func (c *call) rowMapsOf(sc *scatter, mc, mSl int) {
	if !c.rowMaps {
		return
	}
	for t := 0; t < mSl; t++ {
		rm := sc.rowMap[t*c.mapWords : (t+1)*c.mapWords]
		if bs := sc.cRowBS[t]; bs != 0 && bs != 1 {
			// Strided: the plain kernel writes it. Its words are only
			// the previous sliver's prefetch hints: C's first lines.
			clear(rm)
			continue
		}
		i, m := c.tileM.span(t, mc)
		if c.mapsFn != nil {
			buildHalfMap(rm, sc.cRow[i:i+m], c.mrR, c.mapLanes, c.cf, c.tsize, c.rsize)
		} else {
			buildRowMap(rm, sc.cRow[i:i+m], c.mrR, c.mapLanes, c.cf, c.tsize, c.rsize)
		}
	}
	if c.runsFn != nil {
		// The next map the last sliver's kernel reads, for hints only.
		clear(sc.rowMap[mSl*c.mapWords : (mSl+1)*c.mapWords])
	}
}

// straddles reports whether tiles of t cross runs of g's fastest dim.
func straddles(g *Group, t tiling) bool {
	return len(g.Dims) > 1 && !t.aligned() && g.Dims[0].Ext%t.r != 0
}

// buildHalfMap is buildRowMap for a half-map kernel (kernels.MapsFunc):
// word 4v+h of rm is the byte offset from c of the first real of half h of
// vector v (lanes/2 reals), words 4v+2 and 4v+3 are 0. It reports, and
// marks in the last word, whether the map is usable: every half of the
// tile holds rows (m·cf = mrR) adjacent and ascending in C.
func buildHalfMap(rm []int64, off []int64, mrR, lanes, cf, tsize, rsize int) bool {
	words := kernels.RowMapWords
	half := lanes / 2
	clear(rm)
	at := func(r int) int64 { return off[r/cf]*int64(tsize) + int64(r%cf*rsize) }
	if len(off)*cf != mrR {
		return false
	}
	for r0 := 0; r0 < mrR; r0 += half {
		for r := r0 + 1; r < r0+half; r++ {
			if at(r) != at(r-1)+int64(rsize) {
				return false
			}
		}
		rm[r0/lanes*words+r0%lanes/half] = at(r0)
	}
	rm[mrR/lanes*words] = 1
	return true
}
