package runtime

import (
	"unsafe"

	"github.com/tcontract/tcontract/workspace"
)

// Products with B read in place against a packed A.
//
// The direct path (direct.go) reads both inputs in place, which needs A's
// rows adjacent. When they are not (a transposed A: A·Bᵀ or Aᵀ·Bᵀ as a
// row-major GEMM, where the kernel's A is the caller's B) but C's rows
// are, the packed path packs A as usual and the direct kernel reads B in
// place against each packed sliver of A (lda MR), in any strides, writing
// C directly: nothing of B is packed, and an edge tile of fewer than NR
// columns does only its own FMAs, where the packed kernel computes all
// NR. On one thread, GEMMs with B transposed ran, against packing B:
// float32 64³ 0.67 → 0.78 of the peak probe, 100³ 0.64 → 0.84, 256³ 0.90
// → 0.94, float64 64³ 0.70 → 0.83, 100³ 0.75 → 0.89; 4096×64×4096 with
// B transposed 0.63–0.68 → 0.82 (float32) and 0.70–0.73 → 0.83–0.88
// (float64), both transposed 0.53 → 0.82–0.90 and 0.50–0.57 → 0.78–0.84;
// 2048×32×2048 both transposed 0.38 → 0.61–0.64 and 0.39–0.42 → 0.77–0.81
// (rounds in turns).
//
// 1m runs a complex product on the real kernel with A packed in the 1e
// layout and B in the 1r layout (docs/internals.md). When B's elements are
// adjacent along depth, B as it lies in memory, viewed as reals, already
// is its 1r layout: real row 2p is the real parts of depth step p, row
// 2p+1 the imaginary ones, one real apart. The direct kernel then reads B
// in place (rsb 1, csb twice B's column stride) against each packed 1e
// sliver of A, and writes C's interleaved rows directly when C's rows are
// adjacent. On one thread, complex64 and complex128 GEMM ran 1.08 and
// 1.07 times as fast at 64³ and 1.05 and 1.06 at 128³ (medians of 6
// alternating runs), 1.00-1.02 at 192³, and complex64 4096×64×4096
// 1.08-1.17 and complex128 1.08 (rounds of tcontract bench).

// skinnyInPlaceTiles is the most row tiles (of the kernel's real rows) a
// product beyond directMaxFlops may have and still read B in place: each
// element of B packed would serve those few rows only. At 4096×n×4096 on
// one thread, n = 64, 96 and 128 complex64 (2 to 4 tiles) ran 1.02-1.13
// times as fast, complex128 at n = 64 (4 tiles) 1.08; with no bound,
// complex128 1024³ ran 0.93-0.94 times as fast and complex64 0.96-0.98.
// Real products with A's rows strided gained more (above).
const skinnyInPlaceTiles = 4

// readsBInPlace reports whether a call the direct path did not take reads
// B in place: one dim in M, N and K, C's rows adjacent; a real alpha
// (folded into B's packing otherwise) and a real beta (a tile through
// WriteBack otherwise); for a complex type B's depth steps adjacent (its
// 1r layout); no larger than the direct path (directMaxFlops) or at most
// skinnyInPlaceTiles row tiles. A team's members each take their units'
// columns of B in place (directSlivers), where they would otherwise pack
// them: on two threads, complex64 4096×64×4096 ran at 347-369 GFLOP/s
// instead of 264-269, 4096×96×4096 356 instead of 287, 128³ 306-339
// instead of 259-280, and complex128 4096×64×4096 159-164 instead of
// 130-139 (medians of 3 rounds in turns); B's packing had taken a quarter
// of the call.
func (c *call) readsBInPlace() bool {
	p := c.plan
	if c.kern.Direct == nil || c.alphaB != nil || !c.betaDirect {
		return false
	}
	if len(p.M.Dims) != 1 || len(p.N.Dims) != 1 || len(p.K.Dims) != 1 {
		return false
	}
	if p.M.Dims[0].S[opC] != 1 {
		return false
	}
	if c.cf == 2 && p.K.Dims[0].S[opB] != 1 {
		return false
	}
	return p.Flops(c.cf == 2) <= directMaxFlops || p.M.Size*c.cf <= skinnyInPlaceTiles*c.kern.MR
}

// directSlivers runs the direct kernel over one packed A block of mc rows
// and B's slivers [s0, s1) of the current panel of nc columns (in place,
// depth steps rsb apart, columns csb: in reals),
// depth kc from the current block's first step: one call per A sliver.
// The slivers are contiguous columns: N is one dim (readsBInPlace).
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
	rsb := 1 // complex: B's depth steps adjacent, its reals one apart
	if c.cf == 1 {
		rsb = p.K.Dims[0].S[opB]
	}
	csc := c.cf * p.N.Dims[0].S[opC]
	for t := range c.tileM.count(mc) {
		i, h := c.tileM.span(t, mc)
		cp := (*byte)(unsafe.Add(cBase, (sc.cRow[i]+sc.cCol[j0])*ts))
		c.kern.Direct(kdepth, &bufs.A[t*sliverA], c.mrR, b, rsb, csb, cp, 1, csc, h*c.cf, cols,
			alpha, beta, 0)
	}
}
