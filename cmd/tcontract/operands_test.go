package main

import (
	"math"
	"testing"

	"github.com/tcontract/tcontract"
	"github.com/tcontract/tcontract/internal/spec"
)

func TestRandom(t *testing.T) {
	n := 3*pattern + 5
	s := random[complex64](n, newRand())
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
	if short := random[float64](7, newRand()); len(short) != 7 || short[0] == short[1] {
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
	g := gemmOperands[float64](mnk{m, n, k})
	c := contractionOperands[float64]("ki,kj->ij", []int{k, m}, []int{k, n}, []int{m, n})
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
		if _, err := newGemm(typ, mnk{2, 2, 2}); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		if _, err := newContraction(typ, "ab,b->a", []int{2, 3}, []int{3}, []int{2}); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, err := newGemm(spec.Type{Name: "float16"}, mnk{1, 1, 1}); err == nil {
		t.Error("no error for a type the command has no operands for")
	}
}
