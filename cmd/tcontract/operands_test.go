package main

import (
	"math"
	"testing"
	"unsafe"

	"github.com/tcontract/tcontract"
	"github.com/tcontract/tcontract/internal/spec"
)

func TestRandom(t *testing.T) {
	n := 3*pattern + 5
	s := random(make([]complex64, n), newRand())
	if len(s) != n {
		t.Fatalf("len %d, want %d", len(s), n)
	}
	distinct := map[complex64]bool{}
	for i, v := range s {
		if re, im := real(v), imag(v); re < -1 || re >= 1 || im < -1 || im >= 1 {
			t.Fatalf("s[%d] = %v, outside [-1, 1)", i, v)
		}
		if v != s[i%pattern] {
			t.Fatalf("s[%d] = %v does not repeat s[%d] = %v", i, v, i%pattern, s[i%pattern])
		}
		distinct[v] = true
	}
	if len(distinct) < pattern/2 {
		t.Errorf("%d distinct values in the pattern of %d", len(distinct), pattern)
	}
	if short := random(make([]float64, 7), newRand()); len(short) != 7 || short[0] == short[1] {
		t.Errorf("short slice %v", short)
	}
}

// TestOperands: the calls the suite times compute what they say: a small
// GEMM against plain loops, and a contraction (A's labels permuted, so the
// same data reads as Aᵀ) against the same loops.
func TestOperands(t *testing.T) {
	p := tcontract.NewPool(1)
	defer p.Close()
	const m, n, k = 5, 4, 3
	var sg, sc store
	g := gemmOperands[float64](&sg, mnk{m, n, k})
	c := contractionOperands[float64](&sc, "ki,kj->ij", []int{k, m}, []int{k, n}, []int{m, n})
	for _, o := range []operands[float64]{g, c} {
		if err := o.call(p); err != nil {
			t.Fatal(err)
		}
	}
	for i := range m {
		for j := range n {
			var want, wantT float64
			for l := range k {
				want += g.a.Data[i*k+l] * g.b.Data[l*n+j]
				wantT += c.a.Data[l*m+i] * c.b.Data[l*n+j]
			}
			if got := g.c.Data[i*n+j]; math.Abs(got-want) > 1e-12 {
				t.Errorf("gemm C(%d,%d) = %v, want %v", i, j, got, want)
			}
			if got := c.c.Data[i*n+j]; math.Abs(got-wantT) > 1e-12 {
				t.Errorf("contraction C(%d,%d) = %v, want %v", i, j, got, wantT)
			}
		}
	}
	for _, name := range []string{"float32", "float64", "complex64", "complex128"} {
		typ, _ := typeNamed(name)
		if _, err := newGemm(&sg, typ, mnk{2, 2, 2}); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		if _, err := newContraction(&sg, typ, "ab,b->a", []int{2, 3}, []int{3}, []int{2}); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, err := newGemm(&sg, spec.Type{Name: "float16"}, mnk{1, 1, 1}); err == nil {
		t.Error("no error for a type the command has no operands for")
	}
}

// TestStore: a slab is reused while it is large enough, grown when not,
// and viewed as any element type.
func TestStore(t *testing.T) {
	var st store
	a := slab[float32](&st, 0, 10)   // 5 words
	b := slab[complex128](&st, 0, 2) // 4 words: fits
	if len(b) != 2 || unsafe.Pointer(&a[0]) != unsafe.Pointer(&b[0]) {
		t.Errorf("slab not reused: len %d, %p and %p", len(b), &a[0], &b[0])
	}
	c := slab[float64](&st, 0, 20) // 20 words: grows
	if len(c) != 20 || len(st.slabs[0]) != 20 || unsafe.Pointer(&c[0]) == unsafe.Pointer(&a[0]) {
		t.Errorf("slab not grown: len %d, slab %d words", len(c), len(st.slabs[0]))
	}
	if d := slab[float64](&st, 1, 3); &d[0] == &c[0] {
		t.Error("two operands share a slab")
	}
	if slab[float64](&st, 2, 0) != nil {
		t.Error("an empty operand has memory")
	}
	st.reserve(2, 100) // 13 words
	e := slab[complex64](&st, 2, 12)
	if cap(st.slabs[2]) != 13 || unsafe.Pointer(&e[0]) != unsafe.Pointer(&st.slabs[2][0]) {
		t.Errorf("reserved slab: cap %d words, not used for 96 bytes", cap(st.slabs[2]))
	}
}
