package runtime

import (
	"slices"
	"sort"
)

// Cache-line interleaving of a group's dims.
//
// A group's dims are ordered by one operand's strides (the key), so that
// operand is read in long runs. When another operand's fastest dim y is
// not the key's fastest dim x, that operand is read one element per cache
// line, and the rest of each line is needed only once the loops come back
// to it, a whole group's worth of rows later, long after the line has left
// the cache (TCCG's abcde-ecbfa-fd: C's unit dim last in M, 16 times the
// memory traffic of C). interleave cuts y into a line-long low part placed
// right after x, so a block of x·line rows (or depths) uses every line of
// both operands whole while it is in cache; x itself is cut when x·line
// would not fit a block.

// lineBytes is the cache line the interleave fills; interleaveRows and
// interleaveDepth bound x·y_lo in M or N (a few blocks of C that stay in
// L2) and in K (about one KC block).
const (
	lineBytes       = 64
	interleaveRows  = 1024
	interleaveDepth = 512
	// interleavePackRows bounds x·y_lo for an input's lines in M or N
	// from interleavePackDepth on (rowsBlock).
	interleavePackRows  = 64
	interleavePackDepth = 256
)

// interleave reorders g's dims for operand o, with elements of size bytes;
// block bounds the rows (or depths) of x·y_lo. The group's index space is
// unchanged: only the order (and the split) of its dims is. depth asks,
// for K, that a cut x keep whole lines of the key (see below).
func (g *Group) interleave(key, o, size, block int, depth bool) {
	if len(g.Dims) < 2 || size <= 0 {
		return
	}
	y := -1
	for i, d := range g.Dims {
		if s := absInt(d.S[o]); s != 0 && (y < 0 || s < absInt(g.Dims[y].S[o])) {
			y = i
		}
	}
	if y <= 0 {
		return
	}
	x := g.Dims[0]
	sy := absInt(g.Dims[y].S[o])
	if sy > lineBytes/(2*size) || absInt(x.S[o]) < lineBytes/size {
		// y does not share lines in o, or x already reads o in lines.
		return
	}
	line := lineBytes / (sy * size)
	ey := g.Dims[y].Ext
	// The smallest cut that fills lines keeps blocks of shared lines
	// short, so a team's units can split between them.
	lo := divisorIn(ey, line, 4*line)
	if lo == 0 && ey <= 4*line {
		lo = ey
	}
	if lo == 0 {
		lo = divisorIn(ey, max(2, line/2), line)
	}
	if lo == 0 {
		return
	}
	// When x·lo exceeds a block, x is cut to what a block holds. In K
	// (depth), it is cut instead to the shortest run that still reads
	// whole lines of the key: blocks of shared lines are then shortest,
	// and each line is used up soon after it is fetched (TCCG's
	// ab-acd-dbc, K = 384·376 with c = 8·47: d cut to one line, 16 float32
	// or 8 float64, against the 8 or 64 a block of 512 held, 0.1 to 0.15
	// faster). When not even one line of x fits beside lo, y is cut
	// shorter, down to half a line of o: reading the key's lines in parts
	// from blocks far apart costs more than o's half lines (c cut to 8
	// rather than 47 for float32). In M and N the same rule was measured
	// slower (TCCG's abcd-dbea-ec, 0.07), so there x keeps the longest
	// run a block holds.
	xline := 1
	if sx := absInt(x.S[key]) * size; depth && sx > 0 && sx <= lineBytes/2 {
		xline = lineBytes / sx
	}
	xlo := x.Ext
	if x.Ext*lo > block {
		if xline > 1 && block/lo < xline {
			for d := block / xline; d >= max(2, line/2); d-- {
				if ey%d == 0 {
					lo = d
					break
				}
			}
		}
		xlo = 0
		if xline > 1 {
			xlo = divisorIn(x.Ext, xline, block/lo)
		}
		if xlo == 0 {
			// The longest run a block holds, at least half a line.
			for d := block / lo; d >= max(2, line/2); d-- {
				if x.Ext%d == 0 {
					xlo = d
					break
				}
			}
		}
		if xlo == 0 {
			return
		}
	}

	dy := g.Dims[y]
	rest := g.rest(y, xlo, lo, key)
	// In K, a y cut to part of a line leaves the rest of each of o's lines
	// in its high part: that part goes next, so a depth block still reads
	// most of a line before the loops leave it (TCCG's ab-acd-dbc at
	// float32, c = 8·47: [16 8 47 24] rather than [16 8 24 47], 107-116 to
	// 118-124 GFLOP/s on one thread). Measured in K only.
	if depth && lo < line && lo < ey {
		hi := cut(dy, lo)
		i := slices.Index(rest, hi)
		copy(rest[1:i+1], rest[:i])
		rest[0] = hi
	}
	x.Ext, dy.Ext = xlo, lo
	if o == opC {
		g.Lines = xlo * lo
	}
	g.setDims(append([]Dim{x, dy}, rest...))
}

// rest is the dims that follow x (dim 0) cut to xlo and dim y cut to lo
// when both lead the group: the others, then the high parts of the cut
// ones, ordered by their strides in operand key.
func (g *Group) rest(y, xlo, lo, key int) []Dim {
	rest := make([]Dim, 0, len(g.Dims)+1)
	for i, d := range g.Dims {
		if i != 0 && i != y {
			rest = append(rest, d)
		}
	}
	if x := g.Dims[0]; xlo < x.Ext {
		rest = append(rest, cut(x, xlo))
	}
	if dy := g.Dims[y]; lo < dy.Ext {
		rest = append(rest, cut(dy, lo))
	}
	sort.SliceStable(rest, func(i, j int) bool {
		return absInt(rest[i].S[key]) < absInt(rest[j].S[key])
	})
	return rest
}

// setDims makes dims the group's dims, in order, and Ext and S with them.
func (g *Group) setDims(dims []Dim) {
	g.Dims = dims
	g.Ext = g.Ext[:0]
	for o := range g.S {
		g.S[o] = g.S[o][:0]
	}
	for _, d := range dims {
		g.Ext = append(g.Ext, d.Ext)
		for o := range g.S {
			g.S[o] = append(g.S[o], d.S[o])
		}
	}
}

// cut is the high part of d above a low part of lo index values.
func cut(d Dim, lo int) Dim {
	h := Dim{Ext: d.Ext / lo}
	for o := range d.S {
		h.S[o] = d.S[o] * lo
	}
	return h
}

// divisorIn is the smallest divisor of n in [lo, hi], or 0.
func divisorIn(n, lo, hi int) int {
	for d := lo; d <= hi; d++ {
		if n%d == 0 {
			return d
		}
	}
	return 0
}

// largestDivisorIn is the largest divisor of n in [lo, hi], or 0.
func largestDivisorIn(n, lo, hi int) int {
	for d := hi; d >= max(lo, 1); d-- {
		if n%d == 0 {
			return d
		}
	}
	return 0
}
