package runtime

import (
	"unsafe"

	"github.com/tcontract/tcontract/generated/kernels"
)

// packXAhead is how many steps ahead packCross has the cross-sliver
// packer request each row's line into L2 (PREFETCHT2, its argument
// ahead), once per row and step, right after the step's loads. Measured on
// AVX-512: every load is a line of its own, often on a page of its own,
// and the packer waited on them: alone, with TCCG abcde-ecbfa-fd's
// float64 strides, it packed from memory at 9-11 GB/s where a plain read
// streams at 21. Requested into L2 8 steps ahead it packed at 12-15 GB/s,
// and TCCG abcd-dbea-ec and abcde-ecbfa-fd ran 1.09-1.21 times as fast on
// 1 and 2 threads. Into L1 (PREFETCHT0), 4 steps ahead gained at most 8%
// and 8 or 16 lost up to 16%, presumably as those requests hold the L1's
// few miss buffers as the loads do. 16 steps into L2 ran as 8 on one
// thread and less steadily on two.
const packXAhead = 8

// packCross packs the groups of an MC block's slivers that the row's
// cross-sliver packer takes (docs/internals.md, "Cross-sliver packers"):
// slivers a fixed number q apart whose rows lie one element past the
// previous one's, with the same step and row count, up to a vector's lanes
// of them a call. It returns a bit per sliver it packed; the others are
// left to the usual paths. Slivers the assembly packers are fast for on
// their own (a unit row or depth step) and irregular ones are not taken,
// nor is a block of more than 64 slivers. A depth of several dims is
// packed a run of evenly spaced offsets at a time (a call per run), when
// the runs are minRun long on average and none has a unit step.
func (c *call) packCross(dst []byte, aBase unsafe.Pointer, sc *scatter, kA []int64, kStride int64, mc, kc int) (done uint64) {
	mSl := c.tileM.count(mc)
	px := c.kern.PackX
	if px == nil || c.cf != 1 || kStride == 1 || mSl > 64 || !crossRuns(kA[:kc], kStride) {
		return 0
	}
	lanes := packXLanes(c.kern, c.rsize)
	sliver := c.mrR * kc * c.rsize
	// member reports whether sliver u continues a group that starts at
	// offset base with step st and rows rows, as its n-th sliver.
	member := func(u int, base, st int64, rows, n int) bool {
		i, r := c.tileM.span(u, mc)
		return r == rows && sc.aRowBS[u] == st && sc.aRow[i] == base+int64(n) && done&(1<<u) == 0
	}
	for t := 0; t < mSl; t++ {
		st := sc.aRowBS[t]
		if done&(1<<t) != 0 || st == 0 || st == 1 {
			continue
		}
		i0, rows := c.tileM.span(t, mc)
		base := sc.aRow[i0]
		q := 0
		for u := t + 1; u < mSl && q == 0; u++ {
			if member(u, base, st, rows, 1) {
				q = u - t
			}
		}
		if q == 0 {
			continue
		}
		n := 2
		for n < lanes && t+n*q < mSl && member(t+n*q, base, st, rows, n) {
			n++
		}
		for p0 := 0; p0 < kc; {
			p1, step := nextRun(kA[:kc], p0, kStride)
			src := unsafe.Add(aBase, (base+kA[p0])*int64(c.tsize))
			px(&dst[t*sliver+p0*c.mrR*c.rsize], (*byte)(src), n, rows, p1-p0, int(st), int(step), q*sliver,
				packXAhead*int(step)*c.tsize)
			p0 = p1
		}
		for j := 0; j < n; j++ {
			done |= 1 << (t + j*q)
		}
	}
	return done
}

// packDepthCross packs one sliver of rows rows, at row offsets off (bs[0]
// apart, neither 0 nor 1), over depth offsets k, through the cross-sliver
// packer wherever a vector's lanes of runs of evenly spaced offsets follow
// one another with like length and step, each run starting one element
// past the previous one's start. That is a K group interleaved across two
// inputs' unit dims (TCCG's ab-acd-dbc: [d c ...] with d unit in one input,
// c in the other): the lanes' elements of a row and step are one vector,
// and the packer's transpose puts them L runs apart in depth, where they
// belong. Depths between such runs are gathered by the typed packer. It
// reports false, having written nothing, when k has no such runs.
func (c *call) packDepthCross(dst []byte, aBase unsafe.Pointer, off, bs, k []int64) bool {
	px := c.kern.PackX
	st := bs[0]
	if px == nil || c.cf != 1 || st == 0 || st == 1 {
		return false
	}
	lanes := packXLanes(c.kern, c.rsize)
	w := c.mrR
	rows := len(off)
	gather := func(p0, p1 int) {
		if p0 < p1 {
			c.ops.PackA(&dst[p0*w*c.rsize], (*byte)(aBase), w, rows, p1-p0, off, bs, k[p0:p1], 0, nil)
		}
	}
	packed := false
	q := 0 // depths from q on are not packed yet
	for p0 := 0; p0 < len(k); {
		p1, step := nextRun(k, p0, 0)
		n := p1 - p0
		if step == 1 || !lanesOfRuns(k, p0, n, step, lanes) {
			p0 = p1
			continue
		}
		gather(q, p0)
		src := unsafe.Add(aBase, (off[0]+k[p0])*int64(c.tsize))
		// The call's runs are n steps, fewer than packXAhead at TCCG's
		// sizes: request the next call's lines, the next lanes of A's
		// unit dim, instead.
		ahead := lanes * c.tsize
		if next := p0 + lanes*n; next < len(k) {
			ahead = int(k[next]-k[p0]) * c.tsize
		}
		px(&dst[p0*w*c.rsize], (*byte)(src), lanes, rows, n, int(st), int(step), n*w*c.rsize, ahead)
		packed = true
		p0 += lanes * n
		q = p0
	}
	if !packed {
		return false
	}
	gather(q, len(k))
	return true
}

// depthCrossSteps is the depth one PackX call of packDepthCross takes when
// K is a group interleaved across the inputs' unit dims: lanes runs of K's
// leading dim (strided in A), run j starting j elements past run 0 (the
// next dim A's unit one). 0 when K is not such a group. A KC block of a
// multiple of it packs every run through PackX: at KC = 384, TCCG's
// ab-acd-dbc at float32 (runs of 16, 16 lanes: groups of 256) gathered a
// third of every block, and with KC = 256 it ran 1.01 to 1.04 times as
// fast on one thread.
func (c *call) depthCrossSteps() int {
	p := c.plan
	if c.cf != 1 || c.kern.PackX == nil || len(p.K.Dims) < 2 {
		return 0
	}
	x, y := p.K.Dims[0], p.K.Dims[1]
	if s := absInt(x.S[opA]); s <= 1 || y.S[opA] != 1 {
		return 0
	}
	return packXLanes(c.kern, c.rsize) * x.Ext
}

// lanesOfRuns reports whether k[p0:] starts with lanes runs of n offsets
// step apart, run j starting j elements past run 0.
func lanesOfRuns(k []int64, p0, n int, step int64, lanes int) bool {
	if lanes < 2 || p0+lanes*n > len(k) {
		return false
	}
	for j := 1; j < lanes; j++ {
		r := p0 + j*n
		if k[r] != k[p0]+int64(j) {
			return false
		}
		if e, s := nextRun(k, r, 0); s != step || e < r+n {
			return false
		}
	}
	return true
}

// crossRuns reports whether the depth offsets k (kStride their common
// step, or 0) split into runs the cross-sliver packer takes: none with a
// unit step (the assembly packers' own case), minRun long on average.
func crossRuns(k []int64, kStride int64) bool {
	if kStride != 0 {
		return kStride != 1
	}
	runs := 0
	for p0 := 0; p0 < len(k); runs++ {
		p1, step := nextRun(k, p0, 0)
		if step == 1 {
			return false
		}
		p0 = p1
	}
	return runs*minRun <= len(k)
}

// packXLanes is how many slivers k's cross-sliver packer takes at once
// (the lanes of a vector of reals of size bytes), 0 without one.
func packXLanes(k *kernels.Kernel, size int) int {
	if k.PackX == nil {
		return 0
	}
	return vecLanes(k, size)
}
