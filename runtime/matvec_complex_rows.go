package runtime

import "unsafe"

// A complex product of a few columns whose A has adjacent rows (A·B with
// A column-major, or xᵀ·A with A row-major) runs on the real direct kernel
// too, as formRows does for real types (formComplexRows). Column p of A,
// as reals, is A(0,p)re, A(0,p)im, A(1,p)re, …: 2M adjacent reals, the
// kernel's rows. Against the first row of each pair of X's (whose columns
// 2j and 2j+1 are Y(p,j)re and Y(p,j)im, Y = alpha·B; matvec_complex.go),
// the kernel makes the 2M×2n real R with
//
//	R[2i][2j]   = Σ_p A(i,p)re·Y(p,j)re,  R[2i+1][2j]   = Σ_p A(i,p)im·Y(p,j)re,
//	R[2i][2j+1] = Σ_p A(i,p)re·Y(p,j)im,  R[2i+1][2j+1] = Σ_p A(i,p)im·Y(p,j)im,
//
// so that column 2j of R, read as complex numbers, is A·Re Y(:,j), column
// 2j+1 is A·Im Y(:,j), and C(:,j) = R₂ⱼ + i·R₂ⱼ₊₁: WriteBack adds the
// first into C with the call's beta, and then i times the second. Packed
// by the 1m method instead, each element of A became a 2×2 block of reals
// for one column tile.

// complexRowsCols is the most columns formComplexRows takes for a matrix
// of rows rows: 2n real columns in four of the kernel's column tiles, or
// in complexRowsTiles when the matrix is larger than L2 (twice
// directMaxABytes). The 1m tiles pack A once for all their columns; a
// matrix in L2 leaves them only that packing to pay, which more columns
// share.
func (c *call) complexRowsCols(rows int) int {
	if float64(rows)*float64(c.plan.K.Size)*float64(c.tsize) > float64(2*directMaxABytes()) {
		return complexRowsTiles * c.kern.NR / 2
	}
	return 2 * c.kern.NR
}

// complexRowsTiles is how many column tiles of the kernel formComplexRows
// takes, each reading the step's block of A from L2. C = A·B with A
// column-major, on one thread (Zen 4, medians of 3, fraction of the peak
// probe: the 1m tiles, then up to NR columns, then up to 2·NR):
// complex64 2000×3×2000 0.13, 0.30, 0.36; 2000×6×2000 0.26, 0.40, 0.39;
// 1000×7×1000 0.25, 0.24, 0.64; 2000×12×2000 0.36, 0.35, 0.51; 200×12×200
// 0.60, 0.51, 0.69; complex128 1000×7×1000 0.26, 0.25, 0.48; 2000×12×2000
// 0.42, 0.33, 0.53. Beyond 2·NR (medians of 5 in turns, ms on the tiles
// and on this form, AVX-512, NR 6): complex64 2000×16×2000 10.4 and 7.0,
// 2000×24×2000 12.3 and 9.1, 2000×30×2000 13.7 and 10.8, 2000×36×2000
// 15.9 and 12.5, 4000×40×1000 18.4 and 13.8, 500×24×500 level, and
// 2000×48×2000 and 1000×64×1000 level too, while 300×48×300 ran 1.15 times
// as long here; complex128 1.08–1.49 times as fast up to 36 columns,
// 300×48×300 1.18 times as long. Hence 12 tiles (36 columns at NR 6), but
// only for a matrix beyond L2: complex64 200×24×200 (A of 320 KB) ran
// 1.1 times as long here, 500×24×500 (2 MB) as long; complex128
// 200×24×200 as long, 300×18×300 (1.4 MB) 0.82 times. The bound gives up
// complex64 300×18×300 (720 KB, 0.85 times). On the AVX2 path (forced on
// the same machine, medians of 3 in turns, ms on the tiles against this
// form): complex64 1000×7×1000 1.44 and 1.05, 2000×12×2000 9.8 and 7.6,
// A·Bᵀ 1000×4×1000 1.54 and 0.53; complex128 level or better
// (1000×7×1000 3.65 and 3.44, 1000×4×1000 2.93 and 2.43). Beyond 2·NR
// there (medians of 5): complex64 2000×13, 16 and 24×2000 0.75–0.84 times
// as long, 2000×36×2000 level; complex128 from 0.87 (2000×13×2000) to
// 1.14 times as long (2000×24×2000, within the spread); and complex64
// 200×24×200 1.24 times as long, which the bound leaves to the tiles.
const complexRowsTiles = 12

// complexRowsStep is the depth of a formComplexRows step over a chunk of
// rows: as formRows', short (rowsKC) where A streams from memory and the
// columns fit one tile of the kernel, so that the step's columns of A are
// read as that many streams; else as deep as keeps the chunk's block of A
// in L2 for the second column tile, within directKC.
func (c *call) complexRowsStep(rows, chunk, n int) int {
	if 2*n <= c.kern.NR {
		if float64(rows)*float64(c.plan.K.Size)*float64(c.tsize) > float64(rowsStreamBytes()) {
			return rowsKC
		}
		return directKC
	}
	return min(directKC, max(rowsKC, directMaxABytes()/(chunk*c.tsize)))
}

// directComplexRows is one call's product in formComplexRows: this
// member's share of C's rows, a chunk at a time, every depth step into the
// member's R, then into C.
func (c *call) directComplexRows(member, members int, off *[3]int) {
	p := c.plan
	rows, mat, cols, _ := c.complexRows()
	M, K, n := rows.Size, p.K.Size, cols.Size
	i0, m := tileShare(M, max(1, c.kern.MR/2), member, members)
	if m == 0 {
		return
	}
	lda := p.K.Dims[0].S[mat]
	rsc, csc, _ := c.complexCStrides()
	chunk, bytes := c.complexTile(n)
	step := c.complexRowsStep(M, chunk, n)
	sz, rs := int64(c.tsize), int64(c.rsize)
	aBase := unsafe.Add(c.base[mat], int64(off[mat]+i0*rows.Dims[0].S[mat])*sz)
	cBase := unsafe.Add(c.base[opC], int64(off[opC]+i0*rsc)*sz)
	tile := unsafe.Add(c.crossTile, member*bytes)
	one, zero := (*byte)(unsafe.Pointer(&c.kone)), (*byte)(unsafe.Pointer(&c.kzero))
	for r := 0; r < m; r += chunk {
		mr := min(chunk, m-r)
		ar := unsafe.Add(aBase, int64(r)*sz)
		for pc := 0; pc < K; pc += step {
			kc := min(step, K-pc)
			// Strides in reals: A's rows adjacent, its depth 2·lda apart;
			// X's depth 4n apart (the first of each pair of its rows), its
			// columns adjacent; R's rows adjacent, its columns 2·chunk
			// apart.
			ap := (*byte)(unsafe.Add(ar, int64(pc*lda)*sz))
			xp := (*byte)(unsafe.Add(c.cross, int64(4*n*pc)*rs))
			beta := one
			if pc == 0 {
				beta = zero
			}
			c.kern.Direct(kc, ap, 2*lda, xp, 4*n, 1, (*byte)(tile), 1, 2*chunk, 2*mr, 2*n, one, beta, 0)
		}
		// R's columns 2j and 2j+1 as complex tiles of mr rows, 4·chunk
		// reals from one column j to the next.
		cp := (*byte)(unsafe.Add(cBase, int64(r*rsc)*sz))
		c.ops.WriteBack(cp, firstOffset, int64(rsc), firstOffset, int64(csc), mr, n, (*byte)(tile), 4*chunk,
			nil, (*byte)(unsafe.Pointer(&c.beta)))
		c.ops.WriteBack(cp, firstOffset, int64(rsc), firstOffset, int64(csc), mr, n,
			(*byte)(unsafe.Add(tile, 2*chunk*c.rsize)), 4*chunk, (*byte)(unsafe.Pointer(&c.imagUnit)), nil)
	}
}
