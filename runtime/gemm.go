package runtime

import (
	"unsafe"

	"github.com/tcontract/tcontract/generated/kernels"
	"github.com/tcontract/tcontract/workspace"
)

// The five BLIS loops over block-scatter views. Every member walks the same
// rounds (batch element, jc, pc); in each it packs its part of the round's B
// panel, then takes units (an MC block of A times a run of B slivers: the ic,
// jr and ir loops) until the round has none left (see teamSync; units.go
// weighs splitting a block's columns among members). Index
// grouping stays outside: these loops see the groups' extents and strides
// only through Offsets and BlockStrides.

// scatter is one member's block-scatter scratch, carved out of its worker
// slot's int64 buffer.
type scatter struct {
	aRow, aRowBS []int64 // A's rows of the current MC block, per-sliver steps
	cRow, cRowBS []int64 // C's rows of the same block
	bCol, bColBS []int64 // B's columns of the current NC panel
	cCol, cColBS []int64 // C's columns of the same panel
	kA, kB       []int64 // A's and B's offsets along the current KC block
	rowMap       []int64 // row maps of the block's slivers (rowmap.go)
	cColB        []int64 // cCol in bytes, for the row-map kernel, and colTail words
	// tileOff and tileEnd group the block's tiles for the column kernel
	// (tiles.go): tile t's first row of C in bytes, and the end of the run
	// of like tiles that starts at t.
	tileOff, tileEnd []int64
	// ahead and aheadK list the lines of the block to be packed next
	// (ahead.go): aheadRows row offsets and aheadSteps depth offsets, in
	// bytes from aheadBase. aheadRows is 0 when nothing is listed.
	// aheadStep is the depth offsets' common step, 0 when they have none;
	// aheadCross, whether the block was packed across slivers.
	ahead, aheadK         []int64
	aheadRows, aheadSteps int
	aheadStep             int64
	aheadCross            bool
	aheadBase             unsafe.Pointer
}

// scatterLen is the int64 count a member's scatter scratch needs: mapLen
// words of row maps besides. A sliver holds at least one row (column), so
// MC (NC) bounds the per-sliver steps and the tile runs.
func scatterLen(b blocking, mapLen int) int {
	return 7*b.MC + 5*b.NC + 3*b.KC + mapLen + colTail(b, mapLen)
}

// colTail is the words past a panel's column offsets in bytes (cColB)
// that the half-map kernel reads, as prefetch hints, from its last sliver:
// kernels.RunsAhead slivers on and one more. None without row maps.
func colTail(b blocking, mapLen int) int {
	if mapLen == 0 {
		return 0
	}
	return (kernels.RunsAhead + 1) * b.NR
}

func carveScatter(buf *[]int64, b blocking, mapLen int) scatter {
	s := (*buf)[:scatterLen(b, mapLen)]
	take := func(n int) []int64 {
		t := s[:n:n]
		s = s[n:]
		return t
	}
	mSl, nSl := b.MC, b.NC
	return scatter{
		aRow: take(b.MC), aRowBS: take(mSl), cRow: take(b.MC), cRowBS: take(mSl),
		bCol: take(b.NC), bColBS: take(nSl), cCol: take(b.NC), cColBS: take(nSl),
		kA: take(b.KC), kB: take(b.KC), rowMap: take(mapLen), cColB: take(b.NC + colTail(b, mapLen)),
		tileOff: take(b.MC), tileEnd: take(b.MC), ahead: take(b.MC), aheadK: take(b.KC),
	}
}

// memberState is what one member carries from round to round.
type memberState struct {
	id     int // index in the team (0 when solo)
	solo   bool
	sc     scatter
	bufs   workspace.WorkerBufs
	panels [2][]byte // the round's panel alternates between these
	round  int64     // rounds this member has started
	packed int       // the MC block whose A is in bufs.A this round, or -1
}

// member runs team member r's share of the call.
func (c *call) member(r int, bufs workspace.WorkerBufs) {
	if c.dots {
		c.dotsOf(r, c.members)
		return
	}
	p := c.plan
	ms := memberState{id: r, bufs: bufs}
	if !c.direct {
		ms.sc = carveScatter(bufs.Scatter, c.blk, c.mapLen())
	}
	b0, b1 := 0, p.Batch.Size
	if c.batchPar {
		// A team of one per member, each with its own batch elements and
		// its own panel.
		b0, b1 = split(p.Batch.Size, c.members, r, 1)
		ms.id, ms.solo = 0, true
		if !c.direct {
			ms.panels = [2][]byte{c.panels[r], c.panels[r]}
		}
	} else {
		ms.solo = c.members == 1
		if !c.direct {
			ms.panels = [2][]byte{c.panels[0], c.panels[len(c.panels)-1]}
		}
	}
	if b0 >= b1 {
		return
	}
	var cur batchCursor
	cur.start(&p.Batch, b0)
	for bi := b0; bi < b1; bi++ {
		if bi > b0 {
			cur.next()
		}
		off := &cur.off // not copied (directSolo says why)
		switch {
		case p.K.Size == 0:
			c.scaleC(&ms, off[opC])
		case c.direct && c.tall && ms.solo:
			c.directTall(0, 1, off)
		case c.direct && c.tall:
			c.directTall(r, c.members, off)
		case c.direct && ms.solo:
			c.directGemm(0, 1, off)
		case c.direct:
			c.directGemm(r, c.members, off)
		default:
			c.gemm(&ms, off)
		}
	}
}

// gemm is one batch element's product: the jc and pc loops, one round each.
func (c *call) gemm(ms *memberState, off *[3]int) {
	p := c.plan
	b := c.blk
	sc := &ms.sc
	aBase, bBase, cBase := c.bases(off)
	N, K := p.N.Size, p.K.Size
	members := c.members
	if ms.solo {
		members = 1
	}
	for jc := 0; jc < N; jc += b.NC {
		nc := min(b.NC, N-jc)
		nSl := c.tileN.count(nc)
		Offsets(sc.bCol[:nc], p.N.Ext, p.N.S[opB], jc)
		c.tileN.stepsOf(sc.bColBS[:nSl], sc.bCol[:nc], &p.N, opB, jc)
		Offsets(sc.cCol[:nc], p.N.Ext, p.N.S[opC], jc)
		c.tileN.stepsOf(sc.cColBS[:nSl], sc.cCol[:nc], &p.N, opC, jc)
		if c.rowMaps {
			for j, o := range sc.cCol[:nc] {
				sc.cColB[j] = o * int64(c.tsize)
			}
			// The hints past the last column: a line already in cache.
			tail := sc.cColB[nc : nc+colTail(b, c.mapLen())]
			for j := range tail {
				tail[j] = sc.cColB[nc-1]
			}
		}
		for pc := 0; pc < K; pc += b.KC {
			kc := min(b.KC, K-pc)
			round := ms.round
			ms.round++
			kA, kB := sc.kA[:kc], sc.kB[:kc]
			Offsets(kA, p.K.Ext, p.K.S[opA], pc)
			Offsets(kB, p.K.Ext, p.K.S[opB], pc)
			kStrideA := uniformStep(kA)
			panel := ms.panels[round%2]

			// Pack this member's part of the panel, once no member still
			// reads what the buffer held two rounds ago (unless each
			// unit packs its own slivers, below).
			own := c.ownSlivers && !ms.solo
			if !ms.solo {
				t := &c.sync
				t.waitUntil(func() bool { return t.minDone() >= round-1 })
			}
			if s0, s1 := split(nSl, members, ms.id, 1); s0 < s1 && !own && !c.bInPlace {
				c.packB(panel, bBase, sc, kB, s0, s1, nc, kc)
			}
			if !ms.solo {
				c.sync.publish(&c.sync.ready[ms.id], round+1)
			}

			// Take units until the round has none left.
			ms.packed = -1
			for u := 0; ; u++ {
				if !ms.solo {
					u = int(c.sync.counter[round].Add(1)) - 1
				}
				if u >= c.units {
					break
				}
				ic := u / c.unitCols * b.MC
				s0, s1 := split(nSl, c.unitCols, u%c.unitCols, c.unitAlign)
				if ic >= p.M.Size || s0 >= s1 {
					continue
				}
				if !ms.solo {
					if testUnitDelay != nil {
						testUnitDelay(ms.id)
					}
					c.waitUnit(u, round, pc > 0, s0, s1, nSl, own)
				}
				if own && !c.bInPlace {
					c.packB(panel, bBase, sc, kB, s0, s1, nc, kc)
				}
				mc := min(b.MC, p.M.Size-ic)
				if ms.packed != ic {
					mSl := c.tileM.count(mc)
					Offsets(sc.aRow[:mc], p.M.Ext, p.M.S[opA], ic)
					c.tileM.stepsOf(sc.aRowBS[:mSl], sc.aRow[:mc], &p.M, opA, ic)
					Offsets(sc.cRow[:mc], p.M.Ext, p.M.S[opC], ic)
					c.tileM.stepsOf(sc.cRowBS[:mSl], sc.cRow[:mc], &p.M, opC, ic)
					c.rowMapsOf(sc, mc, mSl)
					c.tileRuns(sc, mc, mSl)
					cross := c.packA(ms.bufs.A, aBase, sc, kA, kStrideA, mc, kc)
					ms.packed = ic
					sc.aheadRows = 0
					if next := (u + members) / c.unitCols * b.MC; next != ic && c.fetchesAhead(cross, kStrideA, kc) {
						// The block this member most likely packs next.
						c.planAhead(sc, aBase, next, kA)
						sc.aheadCross = cross
					}
				}
				if c.bInPlace {
					c.directSlivers(sc, ms.bufs, bBase, cBase, kB, kc, mc, s0, s1, nc, pc)
				} else {
					c.macroKernel(sc, ms.bufs, panel, cBase, kc, mc, s0, s1, nc, pc == 0)
				}
				if !ms.solo {
					c.sync.publishMax(&c.sync.unitDone[u], round+1)
				}
			}
			if !ms.solo {
				c.sync.publish(&c.sync.done[ms.id], round+1)
			}
		}
	}
}

// packB packs slivers [s0, s1) of a panel of nc columns (tileN): through
// the kernel row's assembly packer when every sliver is strided in a way it
// is fast for (unit column or unit depth step), else through the typed
// packer.
func (c *call) packB(panel []byte, bBase unsafe.Pointer, sc *scatter, kB []int64, s0, s1, nc, kc int) {
	b := c.blk
	sliver := c.nrR * kc * c.cf * c.rsize
	kStride := uniformStep(kB)
	if pk := c.kern.PackB; pk != nil && c.cf == 1 && fastRuns(sc.bColBS[s0:s1], kB, kStride) {
		c.packRuns(pk, panel, bBase, c.tileN, nc, s0, s1, sliver, c.nrR, sc.bCol, sc.bColBS, kB, kStride)
		return
	}
	if pk := c.kern.PackB; pk != nil && c.cf == 2 && c.alphaB == nil && kStride == 1 && fastSteps(sc.bColBS[s0:s1], 1) {
		// A complex sliver whose columns run along depth, viewed as reals, is
		// nr columns of 2kc adjacent reals (re, im of each step): its 1r
		// layout (row 2p the real parts, 2p+1 the imaginary ones) is the
		// real packing of that view, which the assembly packer transposes.
		for s := s0; s < s1; s++ {
			j, w := c.tileN.span(s, nc)
			src := unsafe.Add(bBase, (sc.bCol[j]+kB[0])*int64(c.tsize))
			pk(&panel[s*sliver], (*byte)(src), w, 2*kc, 2*int(sc.bColBS[s]), 1)
		}
		return
	}
	// Otherwise complex B slivers of adjacent columns: the 1r packer.
	if pk := c.kern.Pack1r; pk != nil && c.cf == 2 && c.alphaB == nil && fastRuns(sc.bColBS[s0:s1], kB, kStride) {
		c.packRuns(pk, panel, bBase, c.tileN, nc, s0, s1, sliver, c.nrR, sc.bCol, sc.bColBS, kB, kStride)
		return
	}
	if pk := c.kern.PackB; pk != nil && c.cf == 1 {
		c.packSlivers(pk, c.ops.PackB, panel, bBase, c.tileN, nc, s0, s1, sliver, c.nrR, sc.bCol, sc.bColBS, kB, kStride, c.alphaB, func(s int) bool {
			j, w := c.tileN.span(s, nc)
			return c.alphaB == nil && c.copyPieces(panel[s*sliver:(s+1)*sliver], bBase, sc.bCol[j:j+w], kB, c.nrR)
		})
		return
	}
	if !c.tileN.aligned() {
		j0, j1 := s0*b.NR, min(s1*b.NR, nc)
		c.ops.PackB(&panel[s0*sliver], (*byte)(bBase), b.NR, j1-j0, kc,
			sc.bCol[j0:j1], sc.bColBS[s0:s1], kB, kStride, c.alphaB)
		return
	}
	for s := s0; s < s1; s++ {
		j, w := c.tileN.span(s, nc)
		c.ops.PackB(&panel[s*sliver], (*byte)(bBase), b.NR, w, kc,
			sc.bCol[j:j+w], sc.bColBS[s:s+1], kB, kStride, c.alphaB)
	}
}

// packA packs an MC block of A (tileM), like packB. It reports whether the
// cross-sliver packer took every sliver (then the block was read a line per
// row and step, and the next one is worth fetching ahead: ahead.go).
func (c *call) packA(dst []byte, aBase unsafe.Pointer, sc *scatter, kA []int64, kStride int64, mc, kc int) (cross bool) {
	b := c.blk
	mSl := c.tileM.count(mc)
	sliver := c.mrR * kc * c.cf * c.rsize // complex slivers double rows and depth
	if pk := c.kern.PackA; pk != nil && c.cf == 1 && fastRuns(sc.aRowBS[:mSl], kA, kStride) {
		c.packRuns(pk, dst, aBase, c.tileM, mc, 0, mSl, sliver, c.mrR, sc.aRow, sc.aRowBS, kA, kStride)
		return false
	}
	// Complex A in the 1e layout: the assembly packer takes slivers of
	// adjacent elements with vectors, and transposed ones element by
	// element, which still beats the typed packer's transpose.
	if pk := c.kern.Pack1e; pk != nil && c.cf == 2 && fastRuns(sc.aRowBS[:mSl], kA, kStride) {
		c.packRuns(pk, dst, aBase, c.tileM, mc, 0, mSl, sliver, c.mrR, sc.aRow, sc.aRowBS, kA, kStride)
		return false
	}
	if pk := c.kern.PackA; pk != nil && c.cf == 1 {
		done := c.packCross(dst, aBase, sc, kA, kStride, mc, kc)
		c.packSlivers(pk, c.ops.PackA, dst, aBase, c.tileM, mc, 0, mSl, sliver, c.mrR, sc.aRow, sc.aRowBS, kA, kStride, nil, func(t int) bool {
			if done&(1<<t) != 0 {
				return true
			}
			i, h := c.tileM.span(t, mc)
			return c.copyPieces(dst[t*sliver:(t+1)*sliver], aBase, sc.aRow[i:i+h], kA, c.mrR) ||
				kStride == 0 && c.packDepthCross(dst[t*sliver:(t+1)*sliver], aBase, sc.aRow[i:i+h], sc.aRowBS[t:t+1], kA)
		})
		return done == 1<<mSl-1
	}
	if !c.tileM.aligned() {
		c.ops.PackA(&dst[0], (*byte)(aBase), b.MR, mc, kc,
			sc.aRow[:mc], sc.aRowBS[:mSl], kA, kStride, nil)
		return false
	}
	for t := 0; t < mSl; t++ {
		i, h := c.tileM.span(t, mc)
		c.ops.PackA(&dst[t*sliver], (*byte)(aBase), b.MR, h, kc,
			sc.aRow[i:i+h], sc.aRowBS[t:t+1], kA, kStride, nil)
	}
	return false
}

// packRuns packs slivers [s0, s1) of n rows (tiling t, sliver bytes apart,
// w reals to a step) through the row kernel's assembly packer pk, one call
// per sliver and run of evenly spaced depth offsets k (all of k when
// kStride is their common step): row offsets off, sliver steps bs. The
// packers count in reals: a complex element is cf of them, and (1e) a
// depth step fills cf steps of the sliver.
func (c *call) packRuns(pk kernels.PackFunc, dst []byte, base unsafe.Pointer, t tiling, n, s0, s1, sliver, w int, off, bs, k []int64, kStride int64) {
	cf := int64(c.cf)
	for p0 := 0; p0 < len(k); {
		p1, step := nextRun(k, p0, kStride)
		for s := s0; s < s1; s++ {
			i, rows := t.span(s, n)
			src := unsafe.Add(base, (off[i]+k[p0])*int64(c.tsize))
			pk(&dst[s*sliver+p0*c.cf*w*c.rsize], (*byte)(src), rows, p1-p0, int(cf*bs[s]), int(cf*step))
		}
		p0 = p1
	}
}

// fastSteps reports whether the assembly packers are fast for slivers with
// these steps: strided, with a unit step along the slivers or along depth.
func fastSteps(steps []int64, kStride int64) bool {
	if kStride == 0 {
		return false
	}
	for _, st := range steps {
		if st == 0 || st != 1 && kStride != 1 {
			return false
		}
	}
	return true
}

// minRun is the shortest average run of evenly spaced depth offsets the
// assembly packers take run by run: below it, a call per run costs more
// than the typed packer's gather.
const minRun = 8

// fastRuns reports whether the assembly packers are fast for slivers with
// these steps over depth offsets k (kStride their common step, or 0): the
// depth splits into runs of evenly spaced offsets (a K group of several
// dims), each of them fast (fastSteps), minRun long on average.
func fastRuns(steps, k []int64, kStride int64) bool {
	if kStride != 0 {
		return fastSteps(steps, kStride)
	}
	runs := 0
	for p0 := 0; p0 < len(k); runs++ {
		p1, step := nextRun(k, p0, 0)
		if !fastSteps(steps, step) {
			return false
		}
		p0 = p1
	}
	return runs*minRun <= len(k)
}

// nextRun returns the end of the run of evenly spaced offsets k[p0:] and
// its step (1 for a single offset); kStride, when not 0, is the step of
// all of k.
func nextRun(k []int64, p0 int, kStride int64) (p1 int, step int64) {
	if kStride != 0 {
		return len(k), kStride
	}
	if p0+1 >= len(k) {
		return len(k), 1
	}
	step = k[p0+1] - k[p0]
	p1 = p0 + 2
	for p1 < len(k) && k[p1]-k[p1-1] == step {
		p1++
	}
	return p1, step
}

// testUnitDelay, when a test sets it, runs as a member takes a unit: it
// makes members drift apart the way a shared machine does.
var testUnitDelay func(member int)

// waitUnit waits until unit u may run in round: the parts of the panel
// holding slivers [s0, s1) are packed (unless the unit packs them, own),
// and (after the first round of a panel of C) the unit's previous round
// has been accumulated.
func (c *call) waitUnit(u int, round int64, accumulate bool, s0, s1, nSl int, own bool) {
	t := &c.sync
	if accumulate {
		t.waitUntil(func() bool { return t.unitDone[u].Load() >= round })
	}
	if own {
		return
	}
	for q := 0; q < c.members; q++ {
		if lo, hi := split(nSl, c.members, q, 1); lo < s1 && s0 < hi {
			t.waitUntil(func() bool { return t.ready[q].Load() >= round+1 })
		}
	}
}

// macroKernel runs the micro-kernel over the tiles of one packed A block
// and B slivers [s0, s1) of the panel (the jr and ir loops).
func (c *call) macroKernel(sc *scatter, bufs workspace.WorkerBufs, panel []byte, cBase unsafe.Pointer,
	kc, mc, s0, s1, nc int, first bool) {
	kdepth := kc * c.cf
	sliverA := c.mrR * kdepth * c.rsize
	sliverB := c.nrR * kdepth * c.rsize
	beta, kbeta := &c.one, &c.kone
	direct := true
	if first {
		beta, kbeta = &c.beta, &c.kbeta
		direct = c.betaDirect
	}
	tile := &bufs.Tile[0]
	mSl := c.tileM.count(mc)
	// With the next block's lines listed, each tile is its own call, after
	// its share of the prefetches (ahead.go); streamed tiles too
	// (stream.go).
	fetch, parts := sc.aheadRows > 0, (s1-s0)*mSl
	if c.groupSl > 0 {
		c.groupedTiles(sc, bufs, panel, cBase, kc, mc, s0, s1, nc, beta, kbeta, direct, fetch, parts)
		return
	}
	stream, streamed := c.streaming(fetch, first, kc), false
	perTile := fetch || stream
	// The streaming kernel requests a listed row of the next block
	// through its k loop when the block is cross-packed and the row's
	// steps are evenly spaced and as many as the kernel's (ahead.go);
	// with none, its requests name a line of this call's scalars.
	inKernel := fetch && stream && sc.aheadCross && sc.aheadStep != 0 && sc.aheadSteps == kdepth
	var pf uintptr
	var pfStep int
	for s := s0; s < s1; s++ {
		j, n := c.tileN.span(s, nc)
		bp := &panel[s*sliverB]
		cbs := sc.cColBS[s]
		cCol := sc.cCol[j]
		for t := 0; t < mSl; t++ {
			// Whether this tile streams: a tile of its own (perTile) of the
			// column kernel, and a tile streamTile takes.
			i, m := c.tileM.span(t, mc)
			cp := (*byte)(unsafe.Add(cBase, cCol*int64(c.tsize)))
			streams := stream && c.mapsFn == nil && direct && cbs != 0 &&
				(int(sc.tileEnd[t]) > t+1 || c.columnTile(sc, t)) && c.streamTile(sc, t, m, n, unsafe.Pointer(cp), cbs)
			if fetch {
				pf, pfStep = sc.fetchAhead((s-s0)*mSl+t, parts, inKernel && streams)
			}
			// A run of tiles with half maps: one call.
			if c.mapsFn != nil && direct && c.mapUsable(sc, t) {
				e := int(sc.tileEnd[t])
				if perTile {
					e = t + 1
				}
				c.mapsFn(kdepth, &bufs.A[t*sliverA], bp, (*byte)(cBase), &sc.rowMap[t*c.mapWords], &sc.cColB[j], e-t, n,
					(*byte)(unsafe.Pointer(&c.kalpha)), (*byte)(unsafe.Pointer(kbeta)))
				t = e - 1
				continue
			}
			// A run of like tiles written directly: one column-kernel call.
			// (Tile by tile, a tile of no run too: the column kernel
			// fetches its tile of C first.)
			if e := int(sc.tileEnd[t]); c.mapsFn == nil && direct && cbs != 0 && (e > t+1 || perTile && c.columnTile(sc, t)) {
				if perTile {
					e = t + 1
				}
				if streams {
					// (Tile by tile, a run is one tile.)
					streamed = true
					if testStream != nil {
						testStream(pf != 0)
					}
					if pf == 0 {
						pf = uintptr(unsafe.Pointer(&c.kalpha))
					}
					c.kern.Stream(kdepth, &bufs.A[t*sliverA], bp, cp, &sc.tileOff[t], 1, 1, int(cbs), m, n,
						(*byte)(unsafe.Pointer(&c.kalpha)), (*byte)(unsafe.Pointer(kbeta)), pf, pfStep)
					continue
				}
				c.tilesFn(kdepth, &bufs.A[t*sliverA], bp, cp, &sc.tileOff[t], e-t, int(sc.cRowBS[t]), int(cbs)*c.cf, m*c.cf, n,
					(*byte)(unsafe.Pointer(&c.kalpha)), (*byte)(unsafe.Pointer(kbeta)))
				t = e - 1
				continue
			}
			ap := &bufs.A[t*sliverA]
			rbs := sc.cRowBS[t]
			// A full strided tile is written by the kernel itself. A complex
			// tile qualifies when its rows are adjacent: then its real rows
			// 2i, 2i+1 are too, and the kernel's real row stride is 1.
			if direct && rbs != 0 && cbs != 0 && (c.cf == 1 || rbs == 1) {
				cp := (*byte)(unsafe.Add(cBase, (sc.cRow[i]+cCol)*int64(c.tsize)))
				c.fn(kdepth, ap, bp, cp, int(rbs), int(cbs)*c.cf, m*c.cf, n,
					(*byte)(unsafe.Pointer(&c.kalpha)), (*byte)(unsafe.Pointer(kbeta)))
				continue
			}
			// A tile straddling runs of C's rows or columns, through its
			// row map and column offsets.
			if direct && c.runsFn != nil && c.mapUsable(sc, t) {
				c.runsFn(kdepth, ap, bp, (*byte)(cBase), &sc.rowMap[t*c.mapWords], &sc.cColB[j], n,
					(*byte)(unsafe.Pointer(&c.kalpha)), (*byte)(unsafe.Pointer(kbeta)))
				continue
			}
			c.fn(kdepth, ap, bp, tile, 1, c.mrR, m*c.cf, n,
				(*byte)(unsafe.Pointer(&c.kalpha)), (*byte)(unsafe.Pointer(&c.kzero)))
			c.writeTile(cBase, sc.cRow[i:i+m], rbs, sc.cCol[j:j+n], cbs, bufs.Tile, beta)
		}
	}
	if streamed {
		// The streamed tiles' stores, weakly ordered, before the unit
		// is published done (stream.go).
		storeFence()
	}
}

// writeTile stores the kernel's tile (alpha already applied) into C as
// C := tile + beta·C. Rows that are not evenly spaced are written as runs
// that are: a short fastest dim makes a tile a few such runs, and each is
// written on the strided path, or copied when beta is 0.
func (c *call) writeTile(cBase unsafe.Pointer, rows []int64, rbs int64, cols []int64, cbs int64, tile []byte, beta *scalar) {
	m, n := len(rows), len(cols)
	one := (*byte)(unsafe.Pointer(&c.one))
	if rbs != 0 {
		c.ops.WriteBack((*byte)(cBase), rows, rbs, cols, cbs, m, n, &tile[0], c.mrR, one, (*byte)(unsafe.Pointer(beta)))
		return
	}
	zero := allZero(beta[:c.tsize])
	for i0 := 0; i0 < m; {
		i1, step := i0+1, int64(1)
		if i1 < m {
			step = rows[i1] - rows[i0]
		}
		for i1 < m && rows[i1]-rows[i1-1] == step {
			i1++
		}
		at := i0 * c.cf * c.rsize // row i0 of the tile, in bytes
		if zero && step == 1 && i1-i0 > 1 {
			// C := tile, one contiguous run per column.
			run := (i1 - i0) * c.tsize
			for j := 0; j < n; j++ {
				dst := unsafe.Slice((*byte)(unsafe.Add(cBase, (rows[i0]+cols[j])*int64(c.tsize))), run)
				copy(dst, tile[j*c.mrR*c.rsize+at:])
			}
		} else {
			c.ops.WriteBack((*byte)(cBase), rows[i0:i1], step, cols, cbs, i1-i0, n, &tile[at], c.mrR, one, (*byte)(unsafe.Pointer(beta)))
		}
		i0 = i1
	}
}

// scaleC sets C := beta·C on this member's share of the MC blocks, for
// products with nothing to sum (an extent of 0 among the contracted labels).
func (c *call) scaleC(ms *memberState, cOff int) {
	p := c.plan
	b := c.blk
	sc := &ms.sc
	cBase := (*byte)(unsafe.Add(c.base[opC], cOff*c.tsize))
	members := c.members
	if ms.solo {
		members = 1
	}
	blocks := ceilDiv(p.M.Size, b.MC)
	i0, i1 := split(blocks, members, ms.id, 1)
	for jc := 0; jc < p.N.Size; jc += b.NC {
		nc := min(b.NC, p.N.Size-jc)
		Offsets(sc.cCol[:nc], p.N.Ext, p.N.S[opC], jc)
		for ib := i0; ib < i1; ib++ {
			ic := ib * b.MC
			mc := min(b.MC, p.M.Size-ic)
			Offsets(sc.cRow[:mc], p.M.Ext, p.M.S[opC], ic)
			c.ops.Scale(cBase, sc.cRow[:mc], 0, sc.cCol[:nc], 0, mc, nc, (*byte)(unsafe.Pointer(&c.beta)))
		}
	}
}

// split returns part i of n parts of [0, total), with part boundaries on
// multiples of align so that tiles stay whole.
func split(total, parts, i, align int) (int, int) {
	if parts <= 1 {
		return 0, total
	}
	units := ceilDiv(total, align)
	lo := units * i / parts * align
	hi := units * (i + 1) / parts * align
	return min(lo, total), min(hi, total)
}

// bases are the addresses of A's, B's and C's elements at the offsets off
// (in elements, a batch element's) from the all-zero coordinates. off comes
// by pointer here and in the loops that pass it on: copied as a value right
// after its 8-byte stores, it was read back by 16-byte loads, which are not
// forwarded from them and stall a small call.
func (c *call) bases(off *[3]int) (a, b, cc unsafe.Pointer) {
	return unsafe.Add(c.base[opA], off[opA]*c.tsize), unsafe.Add(c.base[opB], off[opB]*c.tsize),
		unsafe.Add(c.base[opC], off[opC]*c.tsize)
}

// offsetAt is the offset of linear index idx in a group (dim 0 fastest).
func offsetAt(ext, stride []int, idx int) int {
	off := 0
	for d, e := range ext {
		off += idx % e * stride[d]
		idx /= e
	}
	return off
}

// uniformStep is the common step of offs, or 0 when the steps differ.
func uniformStep(offs []int64) int64 {
	if len(offs) < 2 {
		return 1
	}
	step := offs[1] - offs[0]
	for i := 2; i < len(offs); i++ {
		if offs[i]-offs[i-1] != step {
			return 0
		}
	}
	return step
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }
