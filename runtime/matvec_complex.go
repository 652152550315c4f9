package runtime

import (
	"unsafe"

	"github.com/tcontract/tcontract/workspace"
)

// A complex product of a few columns whose A has adjacent depth (A·B with
// A row-major, B of n columns) runs on the real direct kernel as a real
// product of 2n rows. Row i of A, as reals, is A(i,0)re, A(i,0)im,
// A(i,1)re, …: 2K adjacent reals. With Y = alpha·B, and X the 2K×2n real
// matrix whose rows 2p and 2p+1 hold, in columns 2j and 2j+1,
// (Y(p,j)re, Y(p,j)im) and (−Y(p,j)im, Y(p,j)re),
//
//	C(i,j)re = Σ_q A(i)[q]·X[q][2j],  C(i,j)im = Σ_q A(i)[q]·X[q][2j+1],
//
// so Cᵀ, as the 2n×M real matrix of C's reals, is Xᵀ·Aᵀ: formSwapped's call
// with X as the kernel's A. X is what 1m's 1e packing (the typed PackA)
// makes of alpha·Bᵀ as one sliver of n rows. Packed by the 1m method
// instead, each element of A became a 2×2 block of reals for one column
// tile, and a complex64 GEMV took 15 ms at 2048² (2.2 GB/s).
//
// Cᵀ's real rows are C's columns, re and im adjacent: evenly spaced (one
// real apart) when C has one column or its columns are adjacent, and then
// the kernel writes C. Otherwise (C column-major, say) the kernel writes
// a tile of Cᵀ for a chunk of C's rows, which WriteBack adds into C.

// complexTileBytes bounds the tile of Cᵀ a member accumulates for a chunk
// of C's rows when the kernel cannot write C: a chunk runs every depth
// step before it is written back, so its tile stays in L1 beside X's
// block.
const complexTileBytes = 16 << 10

// complexFewForm is the form a complex call takes on the real direct
// kernel, or formTiles: no batch, M and K of one dim, and one column, or a
// few and a column tile of the kernel's rows; formComplex where the
// matrix's depth is a step of one element and at most complexCols
// columns, formComplexRows where its rows are and at most
// complexRowsCols. The plan may hold it either way round (complexRows).
func (c *call) complexFewForm() directForm {
	p := c.plan
	if c.cf != 2 || p.Batch.Size != 1 || len(p.K.Dims) != 1 {
		return formTiles
	}
	rows, mat, cols, _ := c.complexRows()
	if len(rows.Dims) != 1 || len(cols.Dims) > 1 {
		return formTiles
	}
	// Fewer rows than a column tile of the kernel leave its columns idle,
	// and the call's panel and X cost more than the product (2×2×2 took
	// 0.72 µs against the tiles' 0.64).
	n := cols.Size
	few := func(most int) bool { return n == 1 || n <= most && rows.Size >= c.kern.NR }
	switch {
	case p.K.Dims[0].S[mat] == 1 && few(c.complexCols(cols)):
		return formComplex
	case rows.Dims[0].S[mat] == 1 && few(c.complexRowsCols(rows.Size)):
		return formComplexRows
	}
	return formTiles
}

// complexCols is the most columns formComplex takes: 2n real rows in two
// vectors of the real kernel or, where C's few columns (cols) are not
// adjacent, in the kernel's row tile (MR reals: four vectors on AVX-512).
// C = A·B with C column-major and A row-major,
// on one thread (Zen 4, medians of 3, fraction of the peak probe, the 1m
// tiles against formComplex): complex64 2000×5×2000 0.16 and 0.44,
// 2000×12×2000 0.33 and 0.70, 2000×16×2000 0.44 and 0.79; complex128
// 2000×5×2000 0.23 and 0.50, 2000×8×2000 0.38 and 0.73. With C row-major
// the tiles do better: complex64 2000×5×2000 0.33 and 0.41, 4096×8×1024
// 0.59 and 0.76, 2000×12×2000 0.62 and 0.72, but the small 100×13×100
// and 300×16×300 ran 1.05–1.1 times as fast on the tiles. The AVX2 path
// (forced on the same machine; its vectors take half the columns) gains
// with C column-major (complex64 1000×8×1000 1.10 ms on the tiles, 0.62
// here; 2000×5×2000 5.6 and 3.7) and on the matrix-vector product (2048²
// column-major: complex64 7.6 and 2.6 ms, complex128 12.5 and 5.4); with
// C row-major the two were level within the spread (medians of six in
// turns: complex64 2000×5×2000 3.73 and 3.83 ms, 1000×7×1000 0.74 and
// 0.82, 4096×8×1024 3.99 and 3.24). Beyond two vectors (AVX-512, medians
// of 5 in turns, ms on the tiles and here) C column-major gains:
// complex64 2000×20×2000 10.4 and 6.2, 2000×32×2000 13.1 and 9.8,
// 300×24×300 0.193 and 0.179, A·Bᵀ 1000×24×1000 2.31 and 1.84;
// complex128 2000×12×2000 13.4 and 7.5. C row-major does not: complex64
// 2000×20×2000 and 2000×32×2000 were level, 300×24×300 ran 1.14 times as
// long here; there the tiles write C's adjacent columns whole.
func (c *call) complexCols(cols *Group) int {
	lanes := max(1, vecLanes(c.kern, c.rsize))
	if len(cols.Dims) == 1 && absInt(cols.Dims[0].S[opC]) != 1 {
		return max(lanes, c.kern.MR/2)
	}
	return lanes
}

// complexRows is the group of C's rows of a formComplex or
// formComplexRows product, the operand (in the plan's order) of its
// matrix, the group of its few columns and the operand of those: M, A, N
// and B, or N, B, M and A where the plan computes the product as Bᵀ·Aᵀ
// (M empty or short: the orientation chosen for tiles of few complex
// rows). Of two that could fit, the one of more rows whose matrix has its
// depth or its rows adjacent.
func (c *call) complexRows() (rows *Group, mat int, cols *Group, vec int) {
	p := c.plan
	if len(p.M.Dims) == 0 {
		return &p.N, opB, &p.M, opA
	}
	if len(p.N.Dims) == 0 || len(p.K.Dims) != 1 {
		return &p.M, opA, &p.N, opB
	}
	inPlace := func(g *Group, o int) bool {
		return len(g.Dims) == 1 && (p.K.Dims[0].S[o] == 1 || g.Dims[0].S[o] == 1)
	}
	if p.M.Size > p.N.Size && inPlace(&p.M, opA) {
		return &p.M, opA, &p.N, opB
	}
	if p.N.Size > p.M.Size && inPlace(&p.N, opB) {
		return &p.N, opB, &p.M, opA
	}
	return &p.M, opA, &p.N, opB
}

// complexCStrides are the strides in C (elements) of a formComplex or
// formComplexRows product's rows and columns, and whether the kernel
// writes C itself: never in formComplexRows (R is not C); in formComplex
// with one column, or Cᵀ's real rows evenly spaced and the depth one step
// (complexStep). Every further step would read and write C's lines again,
// where a tile of Cᵀ stays in L1: C = A·B, all row-major, on one thread
// (Zen 4, medians of 3), 4096×8×1024 ran at 0.64 of the peak probe
// writing C and 0.76 through the tile at complex64, 0.65 and 0.75 at
// complex128; 64×2×64 (one step) at 0.27 and 0.23, 0.56 and 0.40.
func (c *call) complexCStrides() (rsc, csc int, direct bool) {
	rows, _, cols, _ := c.complexRows()
	rsc = rows.Dims[0].S[opC]
	if len(cols.Dims) == 1 {
		csc = cols.Dims[0].S[opC]
	}
	n := cols.Size
	if c.form == formComplexRows {
		return rsc, csc, false
	}
	return rsc, csc, n == 1 || csc == 1 && 2*c.plan.K.Size <= c.complexStep(n)
}

// complexStep is the depth, in reals, of a formComplex step of n
// columns: X's block of it (2n rows) stays in L1, as formSwapped's B.
func (c *call) complexStep(n int) int {
	return max(directKC, swappedBBytes/(2*n*c.rsize))
}

// complexTile is how many of C's rows a member's tile holds, and the
// tile's size in bytes, for a product of n columns where the kernel
// cannot write C: whole tiles of the kernel within complexTileBytes. In
// formComplex C's rows are the kernel's columns (NR a tile) and the tile
// of Cᵀ holds 2n reals for each; in formComplexRows they are half the
// kernel's rows (MR/2 a tile) and R holds 4n reals for each.
func (c *call) complexTile(n int) (chunk, bytes int) {
	align, reals := c.kern.NR, 2*n
	if c.form == formComplexRows {
		align, reals = max(1, c.kern.MR/2), 4*n
	}
	chunk = max(align, complexTileBytes/(reals*c.rsize)/align*align)
	return chunk, chunk * reals * c.rsize
}

// runComplexFew runs a formComplex or formComplexRows call: it builds X
// in a leased panel (and the members' tiles of Cᵀ or R where the kernel
// cannot write C), applies a beta that is not real to C first where the
// kernel writes C (the kernel applies real ones), and then runs the
// direct path.
func (c *call) runComplexFew() error {
	p := c.plan
	if testComplexFew != nil {
		testComplexFew(c.form)
	}
	rows, _, cols, vec := c.complexRows()
	K, n := p.K.Size, cols.Size
	rsc, csc, direct := c.complexCStrides()
	tile := 0
	if !direct {
		_, tile = c.complexTile(n)
	}
	lease := c.pool.arena.TakeTeam(workspace.Req{}, 1, 1)
	defer lease.Release()
	// The panel holds x's depth offsets and B's column offsets, then X,
	// then the members' tiles.
	xBytes := 4 * n * K * c.rsize
	buf := lease.Panel(8*(K+n) + xBytes + c.members*tile)
	kOff := unsafe.Slice((*int64)(unsafe.Pointer(&buf[0])), K)
	colOff := unsafe.Slice((*int64)(unsafe.Pointer(&buf[8*K])), n)
	c.cross = unsafe.Pointer(&buf[8*(K+n)])
	c.crossTile = nil
	if tile > 0 {
		c.crossTile = unsafe.Pointer(&buf[8*(K+n)+xBytes])
	}
	defer func() { c.cross, c.crossTile = nil, nil }()
	// X is the typed PackA's 1e sliver of alpha·Bᵀ (n rows): its column 2p
	// holds (re, im) of alpha·B(p, j) for each j, column 2p+1 (−im, re).
	Offsets(kOff, p.K.Ext, p.K.S[vec], 0)
	Offsets(colOff, cols.Ext, cols.S[vec], 0)
	c.ops.PackA((*byte)(c.cross), (*byte)(c.base[vec]), n, n, K, colOff, firstOffset, kOff,
		int64(p.K.Dims[0].S[vec]), (*byte)(unsafe.Pointer(&c.alpha)))
	if direct && !c.betaDirect {
		// C := beta·C (beta is not 0): the kernel's beta is real.
		c.ops.Scale((*byte)(c.base[opC]), firstOffset, int64(rsc), firstOffset, int64(csc),
			rows.Size, n, (*byte)(unsafe.Pointer(&c.beta)))
		c.kbeta = c.kone
	}
	if c.members == 1 {
		c.directSolo()
		return nil
	}
	c.req = workspace.Req{}
	return c.runTeam()
}

// testComplexFew, when set by a test, is called by each formComplex or
// formComplexRows call.
var testComplexFew func(form directForm)

// firstOffset is one row's offset for the typed routines (0), or as a
// sliver's row step, an irregular one.
var firstOffset = []int64{0}

// directComplex is one call's product in formComplex: this member's share
// of C's rows, each a column of the kernel's 2n-row Cᵀ, against X.
func (c *call) directComplex(member, members int, off *[3]int) {
	p := c.plan
	rows, mat, cols, _ := c.complexRows()
	M, K2, n := rows.Size, 2*p.K.Size, cols.Size
	i0, m := tileShare(M, c.kern.NR, member, members)
	if m == 0 {
		return
	}
	rsa := rows.Dims[0].S[mat]
	rsc, csc, direct := c.complexCStrides()
	step := c.complexStep(n)
	rs := int64(c.rsize)
	aBase := unsafe.Add(c.base[mat], int64(off[mat]+i0*rsa)*int64(c.tsize))
	cBase := unsafe.Add(c.base[opC], int64(off[opC]+i0*rsc)*int64(c.tsize))
	one := (*byte)(unsafe.Pointer(&c.kone))
	if direct {
		for q := 0; q < K2; q += step {
			kc := min(step, K2-q)
			// Strides in reals: X's rows adjacent, its depth 2n apart;
			// A's depth adjacent, its rows 2·rsa apart; Cᵀ's rows (re,
			// im of each column) adjacent, its columns 2·rsc apart.
			xp := (*byte)(unsafe.Add(c.cross, int64(2*n*q)*rs))
			ap := (*byte)(unsafe.Add(aBase, int64(q)*rs))
			c.kern.Direct(kc, xp, 2*n, ap, 1, 2*rsa, (*byte)(cBase), 1, 2*rsc, 2*n, m, one, c.directBeta(q), 0)
		}
		return
	}
	// A chunk of rows at a time, every depth step into the member's tile
	// of Cᵀ (its columns 2n reals apart), then into C.
	chunk, bytes := c.complexTile(n)
	tile := unsafe.Add(c.crossTile, member*bytes)
	zero := (*byte)(unsafe.Pointer(&c.kzero))
	for r := 0; r < m; r += chunk {
		mr := min(chunk, m-r)
		ar := unsafe.Add(aBase, int64(r*rsa)*int64(c.tsize))
		for q := 0; q < K2; q += step {
			kc := min(step, K2-q)
			xp := (*byte)(unsafe.Add(c.cross, int64(2*n*q)*rs))
			ap := (*byte)(unsafe.Add(ar, int64(q)*rs))
			beta := one
			if q == 0 {
				beta = zero
			}
			c.kern.Direct(kc, xp, 2*n, ap, 1, 2*rsa, (*byte)(tile), 1, 2*n, 2*n, mr, one, beta, 0)
		}
		// The tile's rows are C's columns, its columns C's rows.
		cp := (*byte)(unsafe.Add(cBase, int64(r*rsc)*int64(c.tsize)))
		c.ops.WriteBack(cp, firstOffset, int64(csc), firstOffset, int64(rsc), n, mr, (*byte)(tile), 2*n, nil,
			(*byte)(unsafe.Pointer(&c.beta)))
	}
}
