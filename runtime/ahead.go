package runtime

import "unsafe"

// Fetching the next MC block of A while the kernel runs on this one.
//
// The cross-sliver packer (crosspack.go) reads its block a line per row and
// step from hundreds of places far apart (TCCG's abcde-ecbfa-fd: 24 rows of
// e, each its own 18 MiB-apart run of A). Packing then waits on memory a
// line at a time, and the kernel that follows, running from cache, leaves
// memory idle. So after packing such a block, a member lists the lines of
// the block it will pack next (its next unit's), and while the kernel runs
// it asks for them into L2, a tile's share before each tile: the packer
// then finds them in L2. A share per tile, not the whole block at once:
// a burst of prefetches holds the core's miss buffers until memory answers,
// and the kernel's own loads wait behind them.

// aheadMinDepth is the least depth of a KC block whose successor is fetched
// ahead. Fetching makes each tile its own call, which at a small depth
// costs more than the fetch saves: TCCG's ccsd_t cases (depth 24, float64,
// beta 1) ran at 0.90–0.92 of GEMM with it and 0.93–0.95 without, while
// abcde-ecbfa-fd (48) went from 0.58 to 0.64 and abcd-dbea-ec (72) from
// 1.10 to 1.31–1.34.
const aheadMinDepth = 32

// planAhead lists, in sc, the lines of A that the MC block at row ic will
// need over depth offsets kA (the offsets of rows that start a line, and
// the depth offsets, in bytes). Nothing is listed when the CPU has no
// prefetch or ic is past the last row.
func (c *call) planAhead(sc *scatter, aBase unsafe.Pointer, ic int, kA []int64) {
	sc.aheadRows, sc.aheadSteps = 0, 0
	p := c.plan
	if !canPrefetch || ic < 0 || ic >= p.M.Size {
		return
	}
	mc := min(c.blk.MC, p.M.Size-ic)
	rows := sc.ahead[:mc]
	Offsets(rows, p.M.Ext, p.M.S[opA], ic)
	ts := int64(c.tsize)
	base := int64(uintptr(aBase))
	n := 0
	for _, r := range rows {
		// A row is listed when its element starts a line: each line once,
		// however the block's order visits it (TCCG 7: 24 rows of e, far
		// apart, between neighbours in a line). Listed in place: n never
		// passes the row being read.
		if b := r * ts; (base+b)%lineBytes < ts {
			rows[n] = b
			n++
		}
	}
	for i, k := range kA {
		sc.aheadK[i] = k * ts
	}
	sc.aheadBase = aBase
	sc.aheadRows, sc.aheadSteps = n, len(kA)
	if testAhead != nil {
		testAhead(n)
	}
}

// testAhead, when set by a test, sees the rows each planAhead lists.
var testAhead func(rows int)

// fetchAhead asks for share i of parts of the listed lines (a share of the
// rows, every depth offset of each).
func (sc *scatter) fetchAhead(i, parts int) {
	r0, r1 := i*sc.aheadRows/parts, (i+1)*sc.aheadRows/parts
	if r0 < r1 {
		prefetchL2(sc.aheadBase, sc.ahead[r0:r1], sc.aheadK[:sc.aheadSteps])
	}
}
