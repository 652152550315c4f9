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
// it asks for them into L2, a tile's share for each tile: the packer then
// finds them in L2. A share per tile, not the whole block at once: a burst
// of prefetches holds the core's miss buffers until memory answers, and
// the kernel's own loads wait behind them. A streamed tile of a
// cross-packed block requests its share's first row itself, a line per k
// step (fetchAhead); the rest is asked for before the call.
//
// Shallow products (the whole depth one KC block) whose A lies beyond the
// cache fetch ahead too, when A's depth steps are each a line or more
// apart (every listed line is then one of the block's): each block's
// packing waits on memory as the cross packer's does (fetchesAhead).

// aheadMinDepth is the least depth of a KC block whose successor is fetched
// ahead. Fetching makes each tile its own call, which at a small depth
// costs more than the fetch saves: TCCG's ccsd_t cases (depth 24, float64,
// beta 1) ran at 0.90–0.92 of GEMM with it and 0.93–0.95 without, while
// abcde-ecbfa-fd (48) went from 0.58 to 0.64 and abcd-dbea-ec (72) from
// 1.10 to 1.31–1.34.
const aheadMinDepth = 32

// fetchesAhead reports whether, after packing an MC block over kc of the
// depth (cross: through the cross packer, every sliver; kStride: the
// common step of A's depth offsets, 0 if none), the member fetches its
// next block ahead: a cross-packed block, or one of a product whose whole
// depth is this block, whose A is beyond the cache (cacheBytes) and has
// its steps a line apart or more; at least aheadMinDepth deep either way.
// Fetched blocks at beta 0 are also streamed (stream.go). On one thread,
// TCCG's abcd-ea-ebcd (A of 227 MB, its steps 2.4 MB apart) ran 1.08–1.11
// times as fast at float32 and float64, and abcd-ec-abed (steps 336 bytes
// apart) 1.05–1.07 and 1.10–1.16. GEMMs whose B fits the cache (1 to 3
// MB) ran 0.95–0.99 as fast when fetched ahead without streaming, hence
// the bound, and so did complex ones (1m, never streamed) whose B does not
// fit (GEMM 2048×16384×64: 0.97–0.99), hence real types only. A's
// contiguous depth (GEMM of row-major A, a unit step) is not fetched: each
// listed element would be its own request, many to a line.
func (c *call) fetchesAhead(cross bool, kStride int64, kc int) bool {
	if kc < aheadMinDepth {
		return false
	}
	if cross {
		return true
	}
	p := c.plan
	return c.cf == 1 && kc == p.K.Size && absInt(int(kStride))*c.tsize >= lineBytes && p.M.Size*p.K.Size*c.tsize >= cacheBytes()
}

// cacheBytes is the size from which an operand is taken to be read from
// (or written to) memory rather than the caches: the L3 the blocking
// uses. A variable, so that tests can lower it.
var cacheBytes = func() int { return Caches().L3 }

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
	sc.aheadStep = 0
	for i, k := range kA {
		sc.aheadK[i] = k * ts
		if i == 1 {
			sc.aheadStep = sc.aheadK[1] - sc.aheadK[0]
		} else if i > 1 && sc.aheadK[i]-sc.aheadK[i-1] != sc.aheadStep {
			sc.aheadStep = 0
		}
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
// rows, every depth offset of each). With inKernel, the share's first row
// is left to the streaming kernel: fetchAhead returns its first line and
// the step to the next (the depth offsets' common step), which the kernel
// requests one per k step while it computes; it returns 0 and 0 when
// the share has no row for it. The driver asks for that on cross-packed
// blocks, whose rows lie far apart: on TCCG abcde-ecbfa-fd and
// abcd-dbea-ec (shares of one row or none) a burst of a share's requests
// before each tile held the core's miss buffers while the kernel's loads
// waited, and requested by the kernel they ran 1.05–1.3 times as fast at
// float32 (1 and 2 threads), 1.05–1.25 at float64 but for
// abcde-ecbfa-fd on one thread (level). The shallow products' blocks
// (rows a line apart, TCCG abcd-ec-abed) stay with the bursts: there
// the kernel's requests ran 0.85 times as fast.
func (sc *scatter) fetchAhead(i, parts int, inKernel bool) (uintptr, int) {
	r0, r1 := i*sc.aheadRows/parts, (i+1)*sc.aheadRows/parts
	var first uintptr
	if inKernel && r0 < r1 {
		// An address only requested, never read: a uintptr, as the
		// kernel moves it on past the row's last line.
		first = uintptr(sc.aheadBase) + uintptr(sc.ahead[r0]+sc.aheadK[0])
		r0++
	}
	if r0 < r1 {
		prefetchL2(sc.aheadBase, sc.ahead[r0:r1], sc.aheadK[:sc.aheadSteps])
	}
	if first == 0 {
		return 0, 0
	}
	return first, int(sc.aheadStep)
}
