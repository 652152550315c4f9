package runtime

import (
	"unsafe"

	"github.com/tcontract/tcontract/workspace"
)

// Complex products with B read in place.
//
// 1m runs a complex product on the real kernel with A packed in the 1e
// layout and B in the 1r layout (docs/internals.md). When B's elements are
// adjacent along depth, B as it lies in memory, viewed as reals, already
// is its 1r layout: real row 2p is the real parts of depth step p, row
// 2p+1 the imaginary ones, one real apart. The direct kernel then reads B
// in place (rsb 1, csb twice B's column stride) against each packed 1e
// sliver of A (lda MR), and writes C's interleaved rows directly when C's
// rows are adjacent. Nothing of B is packed, and an edge tile of fewer
// than NR columns does only its own FMAs, where the packed kernel
// computes all NR. On one thread, complex64 and complex128 GEMM ran 1.08
// and 1.07 times as fast at 64³ and 1.05 and 1.06 at 128³ (medians of 6
// alternating runs), 1.00-1.02 at 192³, and complex64 4096×64×4096
// 1.08-1.17 and complex128 1.08 (rounds of tcontract bench).

// complexSkinnyTiles is the most row tiles (of the kernel's real rows) a
// complex product beyond directMaxFlops may have and still read B in
// place: each element of B packed would serve those few rows only. At
// 4096×n×4096 on one thread, n = 64, 96 and 128 complex64 (2 to 4 tiles)
// ran 1.02-1.13 times as fast, complex128 at n = 64 (4 tiles) 1.08; with
// no bound, complex128 1024³ ran 0.93-0.94 times as fast and complex64
// 0.96-0.98.
const complexSkinnyTiles = 4

// complexDirect reports whether a complex call takes B in place: one dim
// in M, N and K, C's rows and B's depth steps adjacent; a real alpha
// (folded into B's packing otherwise) and a real beta (a tile through
// WriteBack otherwise); no larger than the real direct path
// (directMaxFlops) or at most complexSkinnyTiles row tiles. A team's
// members each take their units' columns of B in place (directSlivers),
// where they would otherwise pack them: on two threads, complex64
// 4096×64×4096 ran at 347-369 GFLOP/s instead of 264-269, 4096×96×4096
// 356 instead of 287, 128³ 306-339 instead of 259-280, and complex128
// 4096×64×4096 159-164 instead of 130-139 (medians of 3 rounds in turns);
// B's packing had taken a quarter of the call.
func (c *call) complexDirect() bool {
	p := c.plan
	if c.cf != 2 || c.kern.Direct == nil || c.alphaB != nil || !c.betaDirect {
		return false
	}
	if len(p.M.Dims) != 1 || len(p.N.Dims) != 1 || len(p.K.Dims) != 1 {
		return false
	}
	if p.M.Dims[0].S[opC] != 1 || p.K.Dims[0].S[opB] != 1 {
		return false
	}
	return p.Flops(true) <= directMaxFlops || p.M.Size*c.cf <= complexSkinnyTiles*c.kern.MR
}

// directSlivers runs the direct kernel over one packed A block of mc rows
// and B's slivers [s0, s1) of the current panel of nc columns (in place),
// depth kc from the current block's first step: one call per A sliver.
// The slivers are contiguous columns: N is one dim (complexDirect).
// pc is the block's first depth step: only the first block applies beta
// (directBeta).
func (c *call) directSlivers(sc *scatter, bufs workspace.WorkerBufs, bBase, cBase unsafe.Pointer, kB []int64, kc, mc, s0, s1, nc, pc int) {
	p := c.plan
	kdepth := kc * c.cf
	sliverA := c.mrR * kdepth * c.rsize
	beta := c.directBeta(pc)
	alpha := (*byte)(unsafe.Pointer(&c.kalpha))
	ts := int64(c.tsize)
	j0, _ := c.tileN.span(s0, nc)
	j1, n1 := c.tileN.span(s1-1, nc)
	cols := j1 + n1 - j0
	b := (*byte)(unsafe.Add(bBase, (kB[0]+sc.bCol[j0])*ts))
	csb := c.cf * p.N.Dims[0].S[opB]
	csc := c.cf * p.N.Dims[0].S[opC]
	for t := range c.tileM.count(mc) {
		i, h := c.tileM.span(t, mc)
		cp := (*byte)(unsafe.Add(cBase, (sc.cRow[i]+sc.cCol[j0])*ts))
		c.kern.Direct(kdepth, &bufs.A[t*sliverA], c.mrR, b, 1, csb, cp, 1, csc, h*c.cf, cols,
			alpha, beta, 0)
	}
}
