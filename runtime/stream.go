package runtime

import "unsafe"

// Streaming C's tiles (kernels' Stream, AVX-512 rows).
//
// A block the cross packer took whole (ahead.go) is TCCG abcde-ecbfa-fd's
// kind: C, far larger than the caches, is written once at beta 0, its
// tiles scattered over it (each tile's rows are a run of C's unit dim, its
// blocks the other dims), so the hardware does not fetch its lines ahead
// and each store first reads its line from memory. The streaming column
// kernel writes whole lines with non-temporal stores instead, which read
// nothing. It runs where nothing reads C back before the call ends: beta
// 0 and the whole depth in one KC block; and only on whole tiles of
// adjacent rows whose columns start on a line, each its own call. Blocks
// fetched ahead stream (fetchesAhead), and so do shallow products whose C
// is beyond the cache (cacheBytes), at least aheadMinDepth deep: GEMM
// 4096×4096×64 (C of 64 MB written in order) ran 1.03–1.06 times as fast
// at float32 and float64. The kernel's stores are its only change there:
// fetching its blocks ahead too changed nothing.
// The stores are weakly ordered: macroKernel fences once after a unit that
// streamed any, before the unit is published done; a fence in the kernel,
// once per tile with fetches, ran TCCG's ccsd_t cases at 0.75 of the
// speed without.

// streaming reports whether the macro-kernel's tiles over kc of the depth
// may be streamed (fetch: the next block is being fetched ahead; first: the
// call's first KC block, so beta applies).
func (c *call) streaming(fetch, first bool, kc int) bool {
	p := c.plan
	if !first || c.kern.Stream == nil || c.cf != 1 || kc != p.K.Size || !allZero(c.kbeta[:c.rsize]) {
		return false
	}
	return fetch || kc >= aheadMinDepth && p.M.Size*p.N.Size*c.tsize >= cacheBytes()
}

// streamTile reports whether sliver t's tile of m rows and n columns, at cp
// plus its offset with columns cbs elements apart, can be streamed: whole,
// rows adjacent, every column's start on a line.
func (c *call) streamTile(sc *scatter, t, m, n int, cp unsafe.Pointer, cbs int64) bool {
	at := uintptr(cp) + uintptr(sc.tileOff[t])
	return m == c.mrR && sc.cRowBS[t] == 1 && at%lineBytes == 0 && (n == 1 || cbs*int64(c.tsize)%lineBytes == 0)
}

// testStream, when set by a test, is called for each streamed tile, with
// whether the tile requested a row of the next block (ahead.go).
var testStream func(requests bool)
