package runtime

import "unsafe"

// Products of one element of C each.
//
// When every label of C is a batch label (a Hadamard product
// "ij,ij->ij", batched dots "bi,bi->b", a dot "i,i->"), M and N are empty
// and each batch element is a 1×1 tile of depth K. The GEMM loops ran a
// kernel call per element of C, about 50 ns each: a float32 Hadamard
// product of 2048×2048 took 213 ms on one thread. The typed Dots routine
// instead takes a run of the batch's first dim (C's fastest) at a time,
// each element's sum in a few partial sums, and a team splits the batch.
// The same product took 3.0–3.8 ms (float64: 3.8, 26 GB/s of A, B and C;
// complex64: 6.1–6.8, 812 before), and a float32 dot of 4M elements 1.4 ms
// where the direct kernel's 1×1 tiles took 5.6 (BenchmarkDots).

// dotsFit reports whether the call's products are one element of C each,
// over a depth of one dim at most (Dots takes one depth step).
func (c *call) dotsFit() bool {
	p := c.plan
	return p.M.Size == 1 && p.N.Size == 1 && p.K.Size > 0 && len(p.K.Dims) <= 1
}

// dotsOf runs member r's share, of members, of the batch through Dots.
func (c *call) dotsOf(r, members int) {
	p := c.plan
	b0, b1 := split(p.Batch.Size, members, r, 1)
	if b0 >= b1 {
		return
	}
	var ka, kb int64
	if len(p.K.Dims) == 1 {
		ka, kb = int64(p.K.Dims[0].S[opA]), int64(p.K.Dims[0].S[opB])
	}
	// A call per run of the batch's dim 0 (C's fastest).
	run := 1
	var s [3]int64
	if len(p.Batch.Dims) > 0 {
		run = p.Batch.Ext[0]
		s = [3]int64{int64(p.Batch.S[opA][0]), int64(p.Batch.S[opB][0]), int64(p.Batch.S[opC][0])}
	}
	alpha, beta := (*byte)(unsafe.Pointer(&c.alpha)), (*byte)(unsafe.Pointer(&c.beta))
	var cur batchCursor
	cur.start(&p.Batch, b0)
	for bi := b0; bi < b1; {
		n := min(run-bi%run, b1-bi)
		a, b, cc := c.bases(&cur.off)
		c.ops.Dots((*byte)(cc), (*byte)(a), (*byte)(b), n, s[opC], s[opA], s[opB], p.K.Size, ka, kb, alpha, beta)
		if bi += n; bi < b1 {
			cur.nextRun()
		}
	}
}
