package runtime

import (
	"unsafe"

	"github.com/tcontract/tcontract/workspace"
)

// A complex matrix-vector product whose A has adjacent depth (A·x with A
// row-major) runs on the real direct kernel as a real product of two
// columns. Row i of A, as reals, is A(i,0)re, A(i,0)im, A(i,1)re, …: 2K
// adjacent reals. With y = alpha·x, and X the 2K×2 real matrix whose rows
// 2p and 2p+1 are (y(p)re, y(p)im) and (−y(p)im, y(p)re),
//
//	C(i)re = Σ_q A(i)[q]·X[q][0],  C(i)im = Σ_q A(i)[q]·X[q][1],
//
// so Cᵀ, as the 2×M real matrix of C's reals (re and im adjacent), is
// Xᵀ·Aᵀ: formSwapped's call with X as the kernel's A. X is what 1m's 1e
// packing (the typed PackA) makes of alpha·x as a row. Packed by the 1m
// method, each element of A became a 2×2 block of reals for one column
// tile, and a complex64 GEMV took 15 ms at 2048² (2.2 GB/s).

// complexMatVecFits reports whether a complex call is such a product:
// no batch, one column, M and K of one dim, and A's depth a step of one
// element. The plan may hold it either way round (complexRows).
func (c *call) complexMatVecFits() bool {
	p := c.plan
	if c.cf != 2 || p.Batch.Size != 1 || len(p.K.Dims) != 1 {
		return false
	}
	rows, mat, _ := c.complexRows()
	cols := p.N.Size
	if rows == &p.N {
		cols = p.M.Size
	}
	return len(rows.Dims) == 1 && cols == 1 && p.K.Dims[0].S[mat] == 1
}

// complexRows is the group of C's rows of a complex matrix-vector product
// and the operands (in the plan's order) of its matrix and its vector:
// M, A and B, or N, B and A where the plan computes the product as
// xᵀ·Aᵀ (M empty: the orientation chosen for tiles of few complex rows).
func (c *call) complexRows() (rows *Group, mat, vec int) {
	p := c.plan
	if len(p.M.Dims) == 0 {
		return &p.N, opB, opA
	}
	return &p.M, opA, opB
}

// runComplexMatVec runs a formComplex call: it builds X in a leased
// panel, applies a beta that is not real to C first (the kernel applies
// real ones), and then runs the direct path.
func (c *call) runComplexMatVec() error {
	p := c.plan
	if testComplexMatVec != nil {
		testComplexMatVec()
	}
	lease := c.pool.arena.TakeTeam(workspace.Req{}, 1, 1)
	defer lease.Release()
	// The panel holds x's depth offsets, then X.
	K := p.K.Size
	buf := lease.Panel(8*K + 4*K*c.rsize)
	kOff := unsafe.Slice((*int64)(unsafe.Pointer(&buf[0])), K)
	c.cross = unsafe.Pointer(&buf[8*K])
	defer func() { c.cross = nil }()
	rows, _, vec := c.complexRows()
	// X is the typed PackA's 1e sliver of alpha·x as one row (mr 1): its
	// column 2p is (re, im) of alpha·x(p), column 2p+1 (−im, re).
	Offsets(kOff, p.K.Ext, p.K.S[vec], 0)
	c.ops.PackA((*byte)(c.cross), (*byte)(c.base[vec]), 1, 1, K, firstOffset, unitStep, kOff,
		int64(p.K.Dims[0].S[vec]), (*byte)(unsafe.Pointer(&c.alpha)))
	if !c.betaDirect {
		// C := beta·C (beta is not 0): the kernel's beta is real.
		c.ops.Scale((*byte)(c.base[opC]), firstOffset, int64(rows.Dims[0].S[opC]), firstOffset, 0,
			rows.Size, 1, (*byte)(unsafe.Pointer(&c.beta)))
		c.kbeta = c.kone
	}
	if c.members == 1 {
		c.directSolo()
		return nil
	}
	c.req = workspace.Req{}
	return c.runTeam()
}

// testComplexMatVec, when set by a test, is called by each formComplex
// call.
var testComplexMatVec func()

// firstOffset and unitStep are one row's offset and step for the typed
// routines: offset 0, step 1.
var firstOffset, unitStep = []int64{0}, []int64{1}

// directComplex is one call's product in formComplex: this member's share
// of C's rows, each a column of the kernel's 2-row Cᵀ, against X.
func (c *call) directComplex(member, members int, off *[3]int) {
	p := c.plan
	rows, mat, _ := c.complexRows()
	M, K2 := rows.Size, 2*p.K.Size
	i0, m := tileShare(M, c.kern.NR, member, members)
	if m == 0 {
		return
	}
	rsa, rsc := rows.Dims[0].S[mat], rows.Dims[0].S[opC]
	// X's block of a step (2 rows) stays in L1, as formSwapped's B.
	step := max(directKC, swappedBBytes/(2*c.rsize))
	rs := int64(c.rsize)
	aBase := unsafe.Add(c.base[mat], int64(off[mat]+i0*rsa)*int64(c.tsize))
	cp := (*byte)(unsafe.Add(c.base[opC], int64(off[opC]+i0*rsc)*int64(c.tsize)))
	one := (*byte)(unsafe.Pointer(&c.kone))
	for q := 0; q < K2; q += step {
		kc := min(step, K2-q)
		// Strides in reals: X's rows adjacent, its depth 2 apart; A's
		// depth adjacent, its rows 2·rsa apart; Cᵀ's rows (re, im)
		// adjacent, its columns 2·rsc apart.
		xp := (*byte)(unsafe.Add(c.cross, int64(2*q)*rs))
		ap := (*byte)(unsafe.Add(aBase, int64(q)*rs))
		c.kern.Direct(kc, xp, 2, ap, 1, 2*rsa, cp, 1, 2*rsc, 2, m, one, c.directBeta(q), 0)
	}
}
