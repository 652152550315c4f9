package runtime

import (
	"errors"
	"math"
	"reflect"
	"testing"
)

func mustPlan(t *testing.T, spec string, a, b, c View) *Plan {
	t.Helper()
	sp, err := ParseSpec(spec)
	if err != nil {
		t.Fatal(err)
	}
	p, err := NewPlan(sp, a, b, c, Tile{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func dense(shape ...int) View {
	n := 1
	for _, e := range shape {
		n *= e
	}
	return View{Len: n, Shape: shape}
}

// A row-major contraction shaped like a GEMM merges into exactly one dim
// per group, so it runs the GEMM path.
func TestPlanMergesGemmShape(t *testing.T) {
	p := mustPlan(t, "abcd,cdef->abef", dense(3, 4, 5, 6), dense(5, 6, 7, 8), dense(3, 4, 7, 8))
	g := mustPlan(t, "ik,kj->ij", dense(12, 30), dense(30, 56), dense(12, 56))
	for _, pair := range [][2]*Group{{&p.M, &g.M}, {&p.N, &g.N}, {&p.K, &g.K}} {
		if !reflect.DeepEqual(pair[0].Dims, pair[1].Dims) {
			t.Errorf("contraction group %+v, GEMM group %+v", pair[0].Dims, pair[1].Dims)
		}
	}
	if p.Swapped != g.Swapped || len(p.Batch.Dims) != 0 {
		t.Errorf("swapped %v/%v, batch %v", p.Swapped, g.Swapped, p.Batch.Dims)
	}
	// Row-major C has its unit stride along N: the plan computes Cᵀ.
	if !g.Swapped || g.M.Size != 56 || g.N.Size != 12 || g.K.Size != 30 {
		t.Errorf("GEMM plan: %s", g.describe())
	}
	if g.M.Dims[0].S[opC] != 1 {
		t.Errorf("M leads with C stride %d, want 1", g.M.Dims[0].S[opC])
	}
}

// Column-major C keeps M; dims are ordered fastest first by C's strides.
func TestPlanOrdersByStride(t *testing.T) {
	c := View{Len: 2 * 3 * 5, Shape: []int{2, 3, 5}, Strides: []int{1, 2, 6}} // "abn" column-major
	p := mustPlan(t, "abk,kn->abn", dense(2, 3, 4), dense(4, 5), c)
	if p.Swapped {
		t.Fatalf("swapped a column-major C: %s", p.describe())
	}
	// a (C stride 1) and b (C stride 2) merge in C, but not in A (b is slow there).
	if p.M.Size != 6 || len(p.M.Dims) != 2 || p.M.Dims[0].Ext != 2 || p.M.Dims[0].S[opC] != 1 {
		t.Fatalf("M group %+v", p.M.Dims)
	}
}

// Labels summed out of one input become contracted dims the other operand
// broadcasts; a diagonal's strides add.
func TestPlanRoles(t *testing.T) {
	p := mustPlan(t, "iix,ij->j", dense(3, 3, 4), dense(3, 5), dense(5))
	// i: contracted, A stride 12+4 = 16 (diagonal), B stride 5; x: A only, B stride 0.
	var gotI, gotX bool
	for _, d := range p.K.Dims {
		switch {
		case d.Ext == 3 && d.S[opA] == 16 && d.S[opB] == 5:
			gotI = true
		case d.Ext == 4 && d.S[opA] == 1 && d.S[opB] == 0:
			gotX = true
		}
	}
	if p.Swapped {
		// then the columns are exchanged
		for _, d := range p.K.Dims {
			switch {
			case d.Ext == 3 && d.S[opB] == 16 && d.S[opA] == 5:
				gotI = true
			case d.Ext == 4 && d.S[opB] == 1 && d.S[opA] == 0:
				gotX = true
			}
		}
	}
	if !gotI || !gotX || p.K.Size != 12 {
		t.Fatalf("K group %+v", p.K.Dims)
	}
	b := mustPlan(t, "bij,bjk->bik", dense(7, 2, 3), dense(7, 3, 4), dense(7, 2, 4))
	want := [3]int{6, 12, 8}
	if b.Swapped {
		want = [3]int{12, 6, 8}
	}
	if b.Batch.Size != 7 || len(b.Batch.Dims) != 1 || b.Batch.Dims[0].S != want {
		t.Fatalf("batch group %+v", b.Batch.Dims)
	}
}

func TestPlanErrors(t *testing.T) {
	cases := []struct {
		spec    string
		a, b, c View
		want    error
	}{
		{"ij,jk->ik", dense(2, 3), dense(4, 5), dense(2, 5), ErrShape},
		{"ij,jk->ik", View{Len: 6, Shape: []int{2, 3}, Strides: []int{1}}, dense(3, 5), dense(2, 5), ErrShape},
		{"ij,jk->ik", dense(2, 3), dense(3, 5), View{Len: 10, Shape: []int{2, 5}, Strides: []int{0, 1}}, ErrOverlap},
		{"ij,jk->ik", View{Len: 6, Shape: []int{2, 3}, Strides: []int{math.MaxInt / 2, math.MaxInt / 2}}, dense(3, 5), dense(2, 5), ErrBounds},
	}
	for _, k := range cases {
		sp, err := ParseSpec(k.spec)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := NewPlan(sp, k.a, k.b, k.c, Tile{}); !errors.Is(err, k.want) {
			t.Errorf("%s %v: err = %v, want %v", k.spec, k.a, err, k.want)
		}
	}
}

func TestInjective(t *testing.T) {
	cases := []struct {
		shape, strides []int
		want           bool
	}{
		{[]int{3, 4}, []int{4, 1}, true},
		{[]int{3, 4}, []int{1, 3}, true},
		{[]int{3, 4}, []int{1, 2}, false},
		{[]int{3, 2}, []int{4, 5}, true}, // interleaved, still one-to-one
		{[]int{2, 2}, []int{-1, 1}, false},
		{[]int{5, 1}, []int{1, 0}, true},
		{[]int{5, 2}, []int{1, 0}, false},
	}
	for _, k := range cases {
		if got := injective(k.shape, k.strides); got != k.want {
			t.Errorf("injective(%v, %v) = %v, want %v", k.shape, k.strides, got, k.want)
		}
	}
}

func TestSplitAndBalance(t *testing.T) {
	covered := 0
	for i := 0; i < 3; i++ {
		lo, hi := split(100, 3, i, 8)
		if lo%8 != 0 || lo != covered {
			t.Fatalf("part %d = [%d,%d)", i, lo, hi)
		}
		covered = hi
	}
	if covered != 100 {
		t.Fatalf("parts cover %d of 100", covered)
	}
	if b := balance(500, 384, 1); b != 250 {
		t.Errorf("balance(500, 384) = %d, want 250", b)
	}
	if b := balance(100, 320, 32); b != 128 {
		t.Errorf("balance(100, 320, 32) = %d, want 128", b)
	}
}

// The orientation weighs tile fill against C written element by element
// and A packed across its rows: rows a page apart (TCCG's abc-bda-dc)
// cost more than a short M wastes on a 32-row tile, rows a few elements
// apart (a GEMM with n = 24 and A's rows adjacent) do not, but they do
// when A must be packed across its rows too (A row-major), and a
// row-major GEMM of ample size puts C's rows in the vector direction.
func TestPlanOrientationWeighsTiles(t *testing.T) {
	tile := Tile{MR: 64, NR: 6, Short: [3]int{32, 48}, Lanes: 16, Size: 4}
	sp, _ := ParseSpec("bda,dc->abc")
	a, b, c := dense(312, 312, 312), dense(312, 24), dense(312, 312, 24)
	p, err := NewPlan(sp, a, b, c, tile)
	if err != nil {
		t.Fatal(err)
	}
	if !p.Swapped || p.M.Size != 24 || p.N.Size != 312*312 {
		t.Errorf("abc-bda-dc: %s, want M = c swapped", p.describe())
	}
	colA, _ := ParseSpec("ki,kj->ij")
	q, err := NewPlan(colA, dense(300, 20000), dense(300, 24), dense(20000, 24), tile)
	if err != nil {
		t.Fatal(err)
	}
	if q.Swapped {
		t.Errorf("GEMM 20000x24x300, A column-major: %s, want unswapped", q.describe())
	}
	g, _ := ParseSpec("ik,kj->ij")
	q, err = NewPlan(g, dense(20000, 300), dense(300, 24), dense(20000, 24), tile)
	if err != nil {
		t.Fatal(err)
	}
	if !q.Swapped {
		t.Errorf("GEMM 20000x24x300, A row-major: %s, want swapped", q.describe())
	}
	// A complex type's packing across rows is weighed below a vector of
	// columns: 1m packs it, and no matrix-vector form reads A in place.
	ctile := Tile{MR: 32, NR: 6, Short: [3]int{16, 24}, Lanes: 8, Size: 8, Complex: true}
	for _, cplx := range []bool{false, true} {
		ctile.Complex = cplx
		q, err = NewPlan(g, dense(1000, 1000), dense(1000, 7), dense(1000, 7), ctile)
		if err != nil {
			t.Fatal(err)
		}
		if q.Swapped != cplx {
			t.Errorf("GEMM 1000x7x1000, A row-major, complex %v: %s, want swapped %v", cplx, q.describe(), cplx)
		}
	}
	q, err = NewPlan(g, dense(500, 300), dense(300, 400), dense(500, 400), tile)
	if err != nil {
		t.Fatal(err)
	}
	if !q.Swapped {
		t.Errorf("row-major GEMM: %s, want swapped", q.describe())
	}
}

// An interleave for an input's lines in M or N keeps a block of shared
// lines within one packed block at a depth where packing matters (TCCG's
// abcd-aebf-fdec: C's run d cut so that d·c_lo <= 64), and one for C's
// lines keeps the longer block (abcde-ecbfa-fd: all 48 a beside 16 e).
func TestPlanInterleaveBlocks(t *testing.T) {
	tile := Tile{MR: 24, NR: 6, Short: [3]int{32, 16}, Lanes: 8, Size: 8}
	sp, _ := ParseSpec("aebf,fdec->abcd")
	p, err := NewPlan(sp, dense(72, 72, 72, 72), dense(72, 72, 72, 72), dense(72, 72, 72, 72), tile)
	if err != nil {
		t.Fatal(err)
	}
	g := &p.N
	if p.Swapped {
		g = &p.M
	}
	if len(g.Ext) < 3 || g.Ext[0]*g.Ext[1] > interleavePackRows {
		t.Errorf("abcd-aebf-fdec: %s, want the C-run group cut to %d rows", p.describe(), interleavePackRows)
	}
	sp, _ = ParseSpec("ecbfa,fd->abcde")
	q, err := NewPlan(sp, dense(48, 32, 32, 48, 48), dense(48, 24), dense(48, 32, 32, 24, 48), tile)
	if err != nil {
		t.Fatal(err)
	}
	if g := &q.N; !q.Swapped || g.Ext[0] != 48 || g.Ext[1] != 8 {
		t.Errorf("abcde-ecbfa-fd: %s, want N = [48 8 ...] swapped", q.describe())
	}
}
