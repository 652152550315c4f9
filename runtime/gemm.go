package runtime

import (
	"unsafe"

	"github.com/tcontract/tcontract/workspace"
)

// The five BLIS loops over block-scatter views. Member r of a pm×pn team
// works in column group r/pm on the group's share of N, and on its own share
// of M; the members of a group pack the group's B panel together and publish
// it with the group's barrier. Index grouping stays outside: these loops only
// see the groups' extents and strides, through Offsets and BlockStrides.

// scatter is one member's block-scatter scratch, carved out of its worker
// slot's int64 buffer.
type scatter struct {
	aRow, aRowBS []int64 // A's rows of the current MC block, per-sliver steps
	cRow, cRowBS []int64 // C's rows of the same block
	bCol, bColBS []int64 // B's columns of the current NC panel
	cCol, cColBS []int64 // C's columns of the same panel
	kA, kB       []int64 // A's and B's offsets along the current KC block
}

// scatterLen is the int64 count a member's scatter scratch needs.
func scatterLen(b blocking) int {
	mSl := ceilDiv(b.MC, b.MR)
	nSl := ceilDiv(b.NC, b.NR)
	return 2*b.MC + 2*mSl + 2*b.NC + 2*nSl + 2*b.KC
}

func carveScatter(buf *[]int64, b blocking) scatter {
	s := (*buf)[:scatterLen(b)]
	take := func(n int) []int64 {
		t := s[:n:n]
		s = s[n:]
		return t
	}
	mSl := ceilDiv(b.MC, b.MR)
	nSl := ceilDiv(b.NC, b.NR)
	return scatter{
		aRow: take(b.MC), aRowBS: take(mSl), cRow: take(b.MC), cRowBS: take(mSl),
		bCol: take(b.NC), bColBS: take(nSl), cCol: take(b.NC), cColBS: take(nSl),
		kA: take(b.KC), kB: take(b.KC),
	}
}

// member runs team member r's share of the call.
func (c *call) member(r int, bufs workspace.WorkerBufs) {
	p := c.plan
	b := c.blk
	sc := carveScatter(bufs.Scatter, b)
	mi, gi := r%c.pm, r/c.pm
	var bar *workspace.Barrier
	if c.pm > 1 {
		bar = c.lease.Barriers()[gi]
	}
	var panel []byte
	if len(c.panels) > 0 {
		panel = c.panels[gi]
	}

	b0, b1 := 0, p.Batch.Size
	n0, n1 := 0, p.N.Size
	m0, m1 := 0, p.M.Size
	if c.batchPar {
		b0, b1 = split(p.Batch.Size, c.pn, gi, 1)
	} else {
		n0, n1 = split(p.N.Size, c.pn, gi, b.NR)
		m0, m1 = split(p.M.Size, c.pm, mi, b.MR)
	}
	for bi := b0; bi < b1; bi++ {
		var off [3]int
		if len(p.Batch.Dims) > 0 {
			for o := 0; o < 3; o++ {
				off[o] = offsetAt(p.Batch.Ext, p.Batch.S[o], bi)
			}
		}
		if p.K.Size == 0 {
			c.scaleC(&sc, b, off[opC], m0, m1, n0, n1)
			continue
		}
		c.gemm(&sc, b, bufs, panel, bar, mi, off, m0, m1, n0, n1)
	}
}

// gemm is one batch element's product on this member's share.
func (c *call) gemm(sc *scatter, b blocking, bufs workspace.WorkerBufs, panel []byte, bar *workspace.Barrier,
	mi int, off [3]int, m0, m1, n0, n1 int) {
	p := c.plan
	ops := c.ops
	aBase := unsafe.Add(c.base[opA], off[opA]*c.tsize)
	bBase := unsafe.Add(c.base[opB], off[opB]*c.tsize)
	cBase := unsafe.Add(c.base[opC], off[opC]*c.tsize)
	K := p.K.Size
	for jc := n0; jc < n1; jc += b.NC {
		nc := min(b.NC, n1-jc)
		nSl := ceilDiv(nc, b.NR)
		Offsets(sc.bCol[:nc], p.N.Ext, p.N.S[opB], jc)
		BlockStrides(sc.bColBS[:nSl], sc.bCol[:nc], b.NR)
		Offsets(sc.cCol[:nc], p.N.Ext, p.N.S[opC], jc)
		BlockStrides(sc.cColBS[:nSl], sc.cCol[:nc], b.NR)
		for pc := 0; pc < K; pc += b.KC {
			kc := min(b.KC, K-pc)
			kA, kB := sc.kA[:kc], sc.kB[:kc]
			Offsets(kA, p.K.Ext, p.K.S[opA], pc)
			Offsets(kB, p.K.Ext, p.K.S[opB], pc)
			kStrideA, kStrideB := uniformStep(kA), uniformStep(kB)

			// This member's share of the group's panel: a run of whole
			// slivers, packed in one call so the packer can stream along B.
			if s0, s1 := split(nSl, c.pm, mi, 1); s0 < s1 {
				j0, j1 := s0*b.NR, min(s1*b.NR, nc)
				ops.PackB(&panel[s0*b.NR*kc*c.cf*c.rsize], (*byte)(bBase), b.NR, j1-j0, kc,
					sc.bCol[j0:j1], sc.bColBS[s0:s1], kB, kStrideB, c.alphaB)
			}
			if bar != nil {
				bar.Wait()
			}
			first := pc == 0
			for ic := m0; ic < m1; ic += b.MC {
				mc := min(b.MC, m1-ic)
				mSl := ceilDiv(mc, b.MR)
				Offsets(sc.aRow[:mc], p.M.Ext, p.M.S[opA], ic)
				BlockStrides(sc.aRowBS[:mSl], sc.aRow[:mc], b.MR)
				Offsets(sc.cRow[:mc], p.M.Ext, p.M.S[opC], ic)
				BlockStrides(sc.cRowBS[:mSl], sc.cRow[:mc], b.MR)
				ops.PackA(&bufs.A[0], (*byte)(aBase), b.MR, mc, kc,
					sc.aRow[:mc], sc.aRowBS[:mSl], kA, kStrideA, nil)
				c.macroKernel(sc, b, bufs, panel, cBase, kc, mc, nc, first)
			}
			if bar != nil {
				// The panel is repacked for the next KC block only after
				// every member has finished reading it.
				bar.Wait()
			}
		}
	}
}

// macroKernel runs the micro-kernel over every tile of one packed A block
// and the packed B panel (the jr and ir loops).
func (c *call) macroKernel(sc *scatter, b blocking, bufs workspace.WorkerBufs, panel []byte, cBase unsafe.Pointer,
	kc, mc, nc int, first bool) {
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
	for s, j := 0, 0; j < nc; s, j = s+1, j+b.NR {
		n := min(b.NR, nc-j)
		bp := &panel[s*sliverB]
		cbs := sc.cColBS[s]
		cCol := sc.cCol[j]
		for t, i := 0, 0; i < mc; t, i = t+1, i+b.MR {
			m := min(b.MR, mc-i)
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
			c.fn(kdepth, ap, bp, tile, 1, c.mrR, m*c.cf, n,
				(*byte)(unsafe.Pointer(&c.kalpha)), (*byte)(unsafe.Pointer(&c.kzero)))
			c.ops.WriteBack((*byte)(cBase), sc.cRow[i:i+m], rbs, sc.cCol[j:j+n], cbs, m, n,
				tile, c.mrR, (*byte)(unsafe.Pointer(&c.one)), (*byte)(unsafe.Pointer(beta)))
		}
	}
}

// scaleC sets C := beta·C on this member's share, for products with nothing
// to sum (an extent of 0 among the contracted labels).
func (c *call) scaleC(sc *scatter, b blocking, cOff int, m0, m1, n0, n1 int) {
	p := c.plan
	cBase := (*byte)(unsafe.Add(c.base[opC], cOff*c.tsize))
	for jc := n0; jc < n1; jc += b.NC {
		nc := min(b.NC, n1-jc)
		Offsets(sc.cCol[:nc], p.N.Ext, p.N.S[opC], jc)
		for ic := m0; ic < m1; ic += b.MC {
			mc := min(b.MC, m1-ic)
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
