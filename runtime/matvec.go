package runtime

import (
	"sync"
	"unsafe"
)

// Matrix-vector products (N within one column tile, or one column) on the
// direct kernels. Packed, each element of the large operand is copied once
// to be used by one column tile only; packing it costs as much as the
// product. Read in place, it is streamed from memory once, which is all a
// product bound by memory can do.

// directForm is how the direct path lays a call onto the direct kernel.
type directForm uint8

const (
	// formTiles: the kernel's A is A, its column tiles are shared out
	// (directGemm).
	formTiles directForm = iota
	// formRows: A's rows are adjacent and N fits one column tile, so A is
	// read once; the rows are shared out (directRows).
	formRows
	// formSwapped: one column, or a few whose B rows are adjacent, and A's
	// depth adjacent: the kernel computes Cᵀ = Bᵀ·Aᵀ, B's few columns its
	// A, A's rows its columns (directSwapped).
	formSwapped
	// formComplex: a complex formSwapped of a few columns n, as a real
	// product of 2n (directComplex, matvec_complex.go).
	formComplex
	// formComplexRows: a complex formRows of a few columns n, as a real
	// product of 2n (directComplexRows, matvec_complex_rows.go).
	formComplexRows
)

// rowsKC is the depth of a step of directRows for a single column whose A
// is streamed from memory: the kernel walks a tile of rows down the
// step's columns of A, and the next tile reads the next lines of the same
// columns, so the step is how many streams of A run at once. GEMV
// ji,j->i on one thread (Zen 4, medians of 3), steps of 16 against 512:
// 2048² 0.58-0.64 ms against 0.83-0.90 at float32, 1.8-2.8 against
// 2.9-3.2 at float64; 3000² 2.3-2.9 against 3.8-4.1 and 5.0-6.2 against
// 7.0-7.7 (packed, as before, 2048² took 1.5-1.9 and 4.7 ms). With A in
// cache (1024² float32) or four columns, short steps lose (C's tile is
// read and written every step): 1024×4 0.34 ms against 0.12, 2048×4 1.1-1.7
// against 1.0-1.1; those take directKC.
const rowsKC = 16

// rowsStreamBytes is the A beyond which directRows takes it as streamed
// from memory: the L3 this process can own.
var rowsStreamBytes = sync.OnceValue(func() int {
	if l3 := Caches().L3; l3 > 0 {
		return l3
	}
	return defaultL3
})

// swappedBBytes bounds the block of B's columns that directSwapped's
// kernel reads (its A) in one step: it is read again for every column
// tile of the kernel, so it stays within half of a 32 KiB L1.
const swappedBBytes = 16 << 10

// matVecForm is the form a product of one dim per group (N of one at
// most), its depth of one dim, takes on the direct path: formRows or
// formSwapped where they fit, else formTiles, the choice left to the
// direct path's other rules.
func (c *call) matVecForm() directForm {
	p := c.plan
	if len(p.M.Dims) != 1 || len(p.K.Dims) != 1 || len(p.N.Dims) > 1 {
		return formTiles
	}
	if p.M.Dims[0].S[opA] == 1 && p.N.Size <= c.kern.NR {
		return formRows
	}
	// The kernel's rows are C's columns: one vector of them at most,
	// adjacent in B unless there is one.
	nUnit := p.N.Size == 1 || p.N.Dims[0].S[opB] == 1
	if absInt(p.K.Dims[0].S[opA]) == 1 && nUnit && p.N.Size <= max(1, vecLanes(c.kern, c.tsize)) {
		return formSwapped
	}
	return formTiles
}

// directRows is one batch element's product in formRows: this member's
// share of the row tiles, in one kernel call per depth step.
func (c *call) directRows(member, members int, off *[3]int) {
	p := c.plan
	M, N, K := p.M.Size, p.N.Size, p.K.Size
	i0, m := tileShare(M, c.kern.MR, member, members)
	if m == 0 {
		return
	}
	lda, rsb, rsc := p.K.Dims[0].S[opA], p.K.Dims[0].S[opB], p.M.Dims[0].S[opC]
	csb, csc := 0, 0
	if len(p.N.Dims) == 1 {
		csb, csc = p.N.Dims[0].S[opB], p.N.Dims[0].S[opC]
	}
	step := directKC
	if N == 1 && float64(m)*float64(K)*float64(c.tsize) > float64(rowsStreamBytes()) {
		step = rowsKC
	}
	sz := int64(c.tsize)
	aBase, bBase, cBase := c.bases(off)
	aBase = unsafe.Add(aBase, int64(i0)*sz)
	cBase = unsafe.Add(cBase, int64(i0*rsc)*sz)
	alpha := (*byte)(unsafe.Pointer(&c.kalpha))
	for pc := 0; pc < K; pc += step {
		kc := min(step, K-pc)
		ap := (*byte)(unsafe.Add(aBase, int64(pc*lda)*sz))
		bp := (*byte)(unsafe.Add(bBase, int64(pc*rsb)*sz))
		c.kern.Direct(kc, ap, lda, bp, rsb, csb, (*byte)(cBase), rsc, csc, m, N, alpha, c.directBeta(pc), 0)
	}
}

// directSwapped is one batch element's product in formSwapped: this
// member's share of the kernel's column tiles (NR of C's rows each),
// against all of B's columns.
func (c *call) directSwapped(member, members int, off *[3]int) {
	p := c.plan
	M, N, K := p.M.Size, p.N.Size, p.K.Size
	i0, m := tileShare(M, c.kern.NR, member, members)
	if m == 0 {
		return
	}
	rsa, lda := p.M.Dims[0].S[opA], p.K.Dims[0].S[opA]
	rsb, rsc := p.K.Dims[0].S[opB], p.M.Dims[0].S[opC]
	csc := 0
	if len(p.N.Dims) == 1 {
		csc = p.N.Dims[0].S[opC]
	}
	step := max(directKC, swappedBBytes/(N*c.tsize))
	sz := int64(c.tsize)
	aBase, bBase, cBase := c.bases(off)
	aBase = unsafe.Add(aBase, int64(i0*rsa)*sz)
	cp := (*byte)(unsafe.Add(cBase, int64(i0*rsc)*sz))
	alpha := (*byte)(unsafe.Pointer(&c.kalpha))
	for pc := 0; pc < K; pc += step {
		kc := min(step, K-pc)
		// The kernel's A is B's block (N rows, adjacent, depth rsb
		// apart), its B is A's (depth lda apart, its columns rsa), and
		// its C is Cᵀ.
		bp := (*byte)(unsafe.Add(bBase, int64(pc*rsb)*sz))
		ap := (*byte)(unsafe.Add(aBase, int64(pc*lda)*sz))
		c.kern.Direct(kc, bp, rsb, ap, lda, rsa, cp, csc, rsc, N, m, alpha, c.directBeta(pc), 0)
	}
}

// tileShare is member's share, of members, of total rows in whole tiles of
// tile rows (the last may be short): its first row and its count, 0 for
// none.
func tileShare(total, tile, member, members int) (first, n int) {
	t0, t1 := split(ceilDiv(total, tile), members, member, 1)
	if t0 >= t1 {
		return 0, 0
	}
	return t0 * tile, min(total, t1*tile) - t0*tile
}
