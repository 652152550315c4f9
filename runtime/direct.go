package runtime

import (
	"sync"
	"unsafe"
)

// The direct path runs small products without packing: the direct kernels
// read A and B where they lie (A with unit row stride, B with any strides)
// and write C. Packing a product of a few microseconds costs about as much
// as computing it; reading the operands in place costs nothing when they fit
// in cache, which is when the product is that small.

// directMaxABytes bounds the A a direct product reads per step of depth:
// it is read again for every column tile, so it must stay in L2 (half of it,
// measured: at 256³ float64 the direct path beats packing by 7%, at 384³ it
// loses by as much).
// It is derived once: every call asks, and Caches returns a whole report.
var directMaxABytes = sync.OnceValue(func() int {
	if l2 := Caches().L2; l2 > 0 {
		return l2 / 2
	}
	return 512 << 10
})

// directKC is the depth of one direct step: the kernel walks B's columns and
// A's rows along it, and a longer step only adds to what must stay cached.
const directKC = 512

// directFits reports whether the call can and should run the direct path:
// a real type on a path with direct kernels, and either a matrix-vector
// product (matVecForm), or one dim per group at most, A's rows adjacent
// (unit stride along M), and a small or skinny product, or a tall one
// (tallDirect); or a complex product of a few columns the real kernel
// takes (complexFewForm).
func (c *call) directFits() bool {
	p := c.plan
	c.tall = false
	c.form = formTiles
	c.step = directKC
	if c.kern.Direct == nil || p.K.Size == 0 {
		return false
	}
	if c.cf != 1 {
		c.form = c.complexFewForm()
		return c.form != formTiles
	}
	if c.form = c.matVecForm(); c.form != formTiles {
		return true
	}
	if c.smallOrSkinny() {
		return true
	}
	c.tall = c.tallDirect()
	c.planTallAhead()
	return c.tall
}

// smallOrSkinny reports whether a product of one dim per group at most,
// A's rows adjacent, is small or skinny enough for directGemm.
func (c *call) smallOrSkinny() bool {
	p := c.plan
	if len(p.M.Dims) > 1 || len(p.K.Dims) > 1 || len(p.N.Dims) > maxGroupRank {
		return false
	}
	if len(p.M.Dims) == 1 && p.M.Dims[0].S[opA] != 1 {
		return false
	}
	kc := min(p.K.Size, directKC)
	if p.M.Size*kc*c.tsize > directMaxABytes() {
		return false
	}
	if len(p.N.Dims) > 1 {
		// Columns of several dims (directGemm by pieces): measured only on
		// skinny products.
		return c.kern.NR <= maxTileCols && c.skinnyDirect()
	}
	if p.Flops(false) <= directMaxFlops {
		return true
	}
	if !c.skinnyDirect() {
		return false
	}
	c.step = skinnyStep(p.M.Size, p.K.Size, c.tsize)
	return true
}

// skinnyStep is the depth of a skinny product's direct steps (rows of A,
// depth K, elements of size bytes): as deep as keeps A's block within
// directMaxABytes and at least directKC, the depth split evenly among the
// steps. Each step restarts the NR streams of B a
// column tile reads, and its second row tile reads them again from cache:
// longer steps make longer streams and fewer restarts. Against steps of
// directKC (Zen 4, medians of six in turns, one thread): GEMM
// 8192×32×8192 ran 1.27 times as fast at float32 and 1.15 at float64,
// 4096×64×4096 1.08 at float32 (steps of 2048, A's block 512 KiB) and
// level at float64 (1.17 in another series of five, on two threads),
// 4096×40×1500 1.16 at float32; none ran slower.
func skinnyStep(rows, K, size int) int {
	kc := max(directKC, directMaxABytes()/(max(rows, 1)*size))
	return ceilDiv(K, ceilDiv(K, kc))
}

// directSkinnyTiles is the most row tiles a product of any size takes on
// the direct path (skinnyDirect).
const directSkinnyTiles = 2

// skinnyDirect reports whether a product too large for the direct path is
// short enough in M for it anyway: at most directSkinnyTiles row tiles,
// with B's columns running along depth or C's rows adjacent. Packed, each element of B would
// be copied once to be used by those few rows only; read in place, each
// column tile streams its NR columns of B from memory once, and A's few
// rows stay in L2. GEMM 4096×64×4096 on one thread ran at 147-149 GFLOP/s
// packed and 192-204 direct in float32 (1 tile), 75-76 and 91-97 in
// float64 (2 tiles), 8192×32×8192 110 against 162-185 in float32; at 4
// tiles float32 gained nothing (M = 256: 188-192 against 175-195). With
// B's rows adjacent instead, each k step reads a line of B for NR of its
// elements (the next column tiles read the rest while it is in cache):
// measured with C's rows adjacent too, TCCG's abc-bda-dc (N of two dims,
// through per-tile offsets) went from 31-42 to 58-63 GFLOP/s in float64 and
// 69-79 to 81-89 in float32. With C's rows strided (abcd-dbea-ec,
// abcde-ecbfa-fd) the direct kernel's element-wise write-back made it no
// faster or slower, so those stay packed. Nor would a tile in L2, copied
// to C a line at a time, save abcde-ecbfa-fd: at float32 on one thread
// the direct kernel alone (A read in place, a block's 48 values of e 12 MB
// apart, C's tiles into L2 and never copied) took 105-112 ms a call, as
// long as the whole packed call (111 ms), and 84 ms with e outermost (A
// read as one run).
func (c *call) skinnyDirect() bool {
	p := c.plan
	if p.M.Size > directSkinnyTiles*c.kern.MR || len(p.K.Dims) != 1 {
		return false
	}
	cRowsAdjacent := len(p.M.Dims) == 1 && p.M.Dims[0].S[opC] == 1
	return p.K.Dims[0].S[opB] == 1 || cRowsAdjacent
}

// directMaxFlops is the largest product the direct path takes: beyond it,
// packing costs little against the product and the packed kernels' better
// cache behaviour wins.
const directMaxFlops = 64 << 20

// directTallTiles is the most column tiles a tall product takes on the
// direct path (tallDirect).
const directTallTiles = 4

// tallDirect reports whether a product whose M is too long for the direct
// path takes it anyway: N at most directTallTiles column tiles of one dim,
// K of one dim, and M of several dims whose fastest is adjacent in both A
// and C, its runs (the rows of a tile) a tile long at least and filling
// three quarters of their vectors. Packed, each element of A would be
// copied once to be used by those few column tiles only, and tiles would
// restart at every run or straddle runs; read in place, each row tile of
// A is read from memory once, by all the column tiles in turn, while B's
// few columns stay in cache. TCCG's abcd-ebad-ce (M of three dims, N = 24)
// packed A at float32 for about as long as its kernels ran; on the direct
// path it ran 1.13-1.18 times as fast on 1 and 2 threads. An M of one dim
// stays packed: column-major GEMMs of N = 12 or 24 ran from 0.7 (depth
// 4096, A's columns 16 KB apart, all in one L1 set) to 1.25 times as fast.
func (c *call) tallDirect() bool {
	p := c.plan
	if len(p.M.Dims) < 2 || len(p.K.Dims) != 1 || len(p.N.Dims) > 1 {
		return false
	}
	if p.N.Size > directTallTiles*c.kern.NR {
		return false
	}
	d := p.M.Dims[0]
	if d.S[opA] != 1 || d.S[opC] != 1 || d.Ext < c.kern.MR {
		return false
	}
	lanes := max(1, vecLanes(c.kern, c.tsize))
	if 4*d.Ext < 3*ceilDiv(d.Ext, lanes)*lanes {
		return false
	}
	return min(p.K.Size, directKC)*p.N.Size*c.tsize <= directMaxABytes()
}

// directTall is one batch element's product on the direct path for a
// tall product (tallDirect): this member's share of the runs of M's
// fastest dim, each in one kernel call over its row and column tiles, in
// steps of directKC.
func (c *call) directTall(member, members int, off *[3]int) {
	p := c.plan
	e0 := p.M.Dims[0].Ext
	lda, rsb := p.K.Dims[0].S[opA], p.K.Dims[0].S[opB]
	csb, csc := 0, 0
	if len(p.N.Dims) == 1 {
		csb, csc = p.N.Dims[0].S[opB], p.N.Dims[0].S[opC]
	}
	sz := int64(c.tsize)
	aBase, bBase, cBase := c.bases(off)
	N, K := p.N.Size, p.K.Size
	r0, r1 := split(p.M.Size/e0, members, member, 1)
	alpha := (*byte)(unsafe.Pointer(&c.kalpha))
	dist := c.tallAhead
	for pc := 0; pc < K; pc += directKC {
		kc := min(directKC, K-pc)
		beta := c.directBeta(pc)
		for r := r0; r < r1; r++ {
			ao := offsetAt(p.M.Ext[1:], p.M.S[opA][1:], r)
			co := offsetAt(p.M.Ext[1:], p.M.S[opC][1:], r)
			bp := (*byte)(unsafe.Add(bBase, int64(pc*rsb)*sz))
			ap := (*byte)(unsafe.Add(aBase, int64(ao+pc*lda)*sz))
			cp := (*byte)(unsafe.Add(cBase, int64(co)*sz))
			// The kernel fetches the run dist on while it computes this
			// one (tallahead.go).
			ahead := 0
			if dist > 0 && r+dist < r1 {
				ahead = (offsetAt(p.M.Ext[1:], p.M.S[opA][1:], r+dist) - ao) * c.tsize
				if testTallAhead != nil {
					testTallAhead(ahead)
				}
			}
			c.kern.Direct(kc, ap, lda, bp, rsb, csb, cp, 1, csc, e0, N, alpha, beta, ahead)
		}
	}
}

// testTallAhead, when set by a test, sees the distance (in bytes) to the
// run fetched ahead, for each run computed while fetching one.
var testTallAhead func(ahead int)

// directBeta is the beta of the direct step at depth pc: the call's for
// the first step, 1 after it, as the kernel accumulates into C.
func (c *call) directBeta(pc int) *byte {
	if pc > 0 {
		return (*byte)(unsafe.Pointer(&c.kone))
	}
	return (*byte)(unsafe.Pointer(&c.kbeta))
}

// directSolo runs the whole call on the direct path on the calling
// goroutine.
func (c *call) directSolo() {
	p := c.plan
	var cur batchCursor
	cur.start(&p.Batch, 0)
	for bi := 0; bi < p.Batch.Size; bi++ {
		if bi > 0 {
			cur.next()
		}
		// The offsets are passed where the cursor keeps them: a copy
		// would load as one 16-byte word what next stored as 8-byte ones,
		// which is not forwarded and stalls.
		if c.tall {
			c.directTall(0, 1, &cur.off)
		} else {
			c.directGemm(0, 1, &cur.off)
		}
	}
}

// directGemm is one batch element's product on the direct path: this
// member's share of the column tiles, every row tile, in steps of c.step,
// all in one kernel call when the columns are evenly spaced. With N of
// several dims (skinnyDirect) each column tile's offsets in B and C come
// from N's dims (Offsets), and a tile whose columns are not evenly spaced
// in both runs as pieces that are, one call each. A matrix-vector
// product runs in its own form instead (matvec.go).
func (c *call) directGemm(member, members int, off *[3]int) {
	switch c.form {
	case formRows:
		c.directRows(member, members, off)
		return
	case formSwapped:
		c.directSwapped(member, members, off)
		return
	case formComplex:
		c.directComplex(member, members, off)
		return
	case formComplexRows:
		c.directComplexRows(member, members, off)
		return
	}
	p := c.plan
	nr := c.kern.NR
	stride := func(g *Group, o int) int {
		if len(g.Dims) == 0 {
			return 0
		}
		return g.Dims[0].S[o]
	}
	lda, rsb := stride(&p.K, opA), stride(&p.K, opB)
	csb, rsc, csc := stride(&p.N, opB), stride(&p.M, opC), stride(&p.N, opC)
	scatter := len(p.N.Dims) > 1
	sz := int64(c.tsize)
	aBase, bBase, cBase := c.bases(off)
	M, N, K := p.M.Size, p.N.Size, p.K.Size
	t0, t1 := split(ceilDiv(N, nr), members, member, 1)
	if t0 >= t1 {
		return
	}
	alpha := (*byte)(unsafe.Pointer(&c.kalpha))
	for pc := 0; pc < K; pc += c.step {
		kc := min(c.step, K-pc)
		beta := c.directBeta(pc)
		// Every call takes all rows: A's block starts at row 0.
		ap := (*byte)(unsafe.Add(aBase, int64(pc*lda)*sz))
		if scatter {
			c.directScatter(t0, t1, kc, ap, lda, unsafe.Add(bBase, int64(pc*rsb)*sz), rsb, cBase, rsc, alpha, beta)
			continue
		}
		// Evenly spaced columns: one call runs this member's tiles.
		j := t0 * nr
		n := min(N, t1*nr) - j
		bp := (*byte)(unsafe.Add(bBase, int64(pc*rsb+j*csb)*sz))
		cp := (*byte)(unsafe.Add(cBase, int64(j*csc)*sz))
		c.kern.Direct(kc, ap, lda, bp, rsb, csb, cp, rsc, csc, M, n, alpha, beta, 0)
	}
}

// directScatter runs column tiles t0 to t1 of one depth block (A's at ap,
// B's rows from bBase) when N has several dims: each tile's columns in
// pieces that are evenly spaced in both B and C, their offsets computed
// for directOffsetTiles tiles at a time. It is directGemm's own function
// so that only such calls declare the offset arrays: zeroing their 4 KiB
// took a quarter of a float32 GEMM 8×8×8's time when directGemm held
// them.
func (c *call) directScatter(t0, t1, kc int, ap *byte, lda int, bBase unsafe.Pointer, rsb int, cBase unsafe.Pointer, rsc int, alpha, beta *byte) {
	p := c.plan
	nr := c.kern.NR
	M, N := p.M.Size, p.N.Size
	sz := int64(c.tsize)
	var bOff, cOff [directOffsetTiles * maxTileCols]int64
	for t := t0; t < t1; t++ {
		j := t * nr
		n := min(nr, N-j)
		at := (t - t0) % directOffsetTiles * nr // tile t's columns in bOff, cOff
		if at == 0 {
			cols := min(N, (t+directOffsetTiles)*nr, t1*nr) - j
			Offsets(bOff[:cols], p.N.Ext, p.N.S[opB], j)
			Offsets(cOff[:cols], p.N.Ext, p.N.S[opC], j)
		}
		bOff, cOff := bOff[at:at+n], cOff[at:at+n]
		for q0 := 0; q0 < n; {
			q1, bo, co, db, dc := q0+1, bOff[q0], cOff[q0], 0, 0
			if q1 < n {
				db, dc = int(bOff[q1]-bo), int(cOff[q1]-co)
			}
			for q1 < n && bOff[q1]-bOff[q1-1] == int64(db) && cOff[q1]-cOff[q1-1] == int64(dc) {
				q1++
			}
			bp := (*byte)(unsafe.Add(bBase, bo*sz))
			cp := (*byte)(unsafe.Add(cBase, co*sz))
			c.kern.Direct(kc, ap, lda, bp, rsb, db, cp, rsc, dc, M, q1-q0, alpha, beta, 0)
			q0 = q1
		}
	}
}

// directOffsetTiles is how many column tiles' offsets directGemm computes
// at once when N has several dims: Offsets starts each call with a
// division per dim, which, a call per tile of 6 columns, took 13% of TCCG
// abc-bda-dc's time at float64.
const directOffsetTiles = 16

// maxTileCols bounds the columns of a kernel tile (NR) that directGemm
// keeps offsets for when N has several dims.
const maxTileCols = 16
