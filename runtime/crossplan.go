package runtime

import "github.com/tcontract/tcontract/generated/kernels"

// Groups packed across slivers.
//
// When C's unit dim x and an input's unit dim y are both in M (TCCG's
// abcd-dbea-ec: d in C, a in A), keying M by the input puts y along the
// tile, and C is written an element at a time, a line each; keying it by
// C puts x along the tile, and the typed packer gathers the input an
// element at a time instead. Keyed by C, with y cut right after a tile's
// rows of x, the slivers that follow one another lie one element apart
// in the input: the cross-sliver packer (Kernel.PackX) loads a vector's
// lanes of slivers with one load per row and step, and transposes them,
// while C's tiles are written whole columns at a time.

// crossFits reports whether dims (M with input o = opA, or N with opB)
// hold C's unit dim and a different unit dim of o.
func crossFits(dims []Dim, o int) bool {
	x, y := -1, -1
	for i, d := range dims {
		if absInt(d.S[opC]) == 1 && x < 0 {
			x = i
		}
		if absInt(d.S[o]) == 1 && y < 0 {
			y = i
		}
	}
	return x >= 0 && y >= 0 && x != y
}

// crossOrder reorders g, keyed by C, for packing input o across slivers:
// C's unit dim x first, cut to one tile's rows, then o's unit dim y cut to
// whole lines (the largest divisor from one line to four), then the high
// parts of x and y, then the rest by C's strides. A block of x_lo·y_lo
// rows then uses every line of o it touches, the blocks that follow read
// the next lines of o's runs of y and write the next lines of C's runs of
// x, and a run of either is finished before the order moves on. TCCG's
// abcd-dbea-ec on one thread ran 1.12 times as fast at float32 and at
// float64 as with the smallest cut and the high parts ordered by C;
// abcde-ecbfa-fd, whose time goes to reading A a line per row, ran as
// fast. Left as it is when x is not whole tiles of any of the path's
// heights (crossRows), or y has no such cut and is longer than four
// lines.
func (g *Group) crossOrder(o int, t Tile) {
	if len(g.Dims) < 2 || t.Size <= 0 || t.MR <= 0 {
		return
	}
	x := g.Dims[0]
	y := -1
	for i, d := range g.Dims {
		if absInt(d.S[o]) == 1 {
			y = i
			break
		}
	}
	if absInt(x.S[opC]) != 1 || y <= 0 {
		return
	}
	line := max(1, lineBytes/t.Size)
	dy := g.Dims[y]
	lo := largestDivisorIn(dy.Ext, line, 4*line)
	if lo == 0 {
		if dy.Ext > 4*line {
			return
		}
		lo = dy.Ext
	}
	xlo := crossRows(x.Ext, t)
	if xlo == 0 {
		// Tiles would restart at each run of x, short: slivers of a group
		// would lie apart, and MC blocks of a few runs would hold parts of
		// groups.
		return
	}
	var rest []Dim
	if xlo < x.Ext {
		rest = append(rest, cut(x, xlo))
	}
	if lo < dy.Ext {
		rest = append(rest, cut(dy, lo))
	}
	rest = append(rest, g.rest(y, x.Ext, dy.Ext, opC)...)
	x.Ext, dy.Ext = xlo, lo
	g.Cross = xlo
	g.setDims(append([]Dim{x, dy}, rest...))
}

// crossTile is the path's tile (k or one of its variants) as tall as M's
// cut for the cross-sliver packer (crossRows chose it), nil when M has none
// or no tile is that tall. The packer takes only slivers of that height; a
// taller tile straddles the cut, its slivers are gathered an element at a
// time from as many places far apart, and a row map writes its tiles.
// shortTile's costs see neither: float64 TCCG abcd-aebf-fdec (M's runs
// cut to 24 rows) took the 32-row tile there, whose gather took 7% of the
// call on one thread.
func crossTile(g *Group, k *kernels.Kernel, cf int) *kernels.Kernel {
	if g.Cross <= 0 || cf != 1 {
		return nil
	}
	if k.MR == g.Cross {
		return k
	}
	for _, v := range variants(k, cf) {
		if v.MR == g.Cross {
			return v
		}
	}
	return nil
}

// crossRows is the tile height a run of ext rows of C's unit dim is cut to
// for the cross-sliver packer: the kernel's own MR when it divides ext,
// else the tallest of the path's shorter tiles that does (the runtime then
// takes that tile: crossTile), else 0. AVX-512
// tiles of 64 float32 or 32 float64 rows divide neither TCCG abcd-dbea-ec's
// run of 96 (72) nor abcde-ecbfa-fd's of 48; their 48- and 24-row tiles do.
func crossRows(ext int, t Tile) int {
	if t.MR > 0 && ext%t.MR == 0 {
		return t.MR
	}
	best := 0
	for _, r := range t.Short {
		if r > best && ext%r == 0 {
			best = r
		}
	}
	return best
}
