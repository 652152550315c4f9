package main

import (
	"fmt"
	"math/rand/v2"

	"github.com/tcontract/tcontract"
	"github.com/tcontract/tcontract/internal/spec"
)

// callFunc runs one product on a pool: the thing a measurement times.
type callFunc func(p *tcontract.Pool) error

// newGemm allocates the dense row-major operands of one GEMM of type t,
// A (m×k) and B (k×n) random, and returns the call C = A·B on them. The
// operands are allocated once and reused by every call.
func newGemm(t spec.Type, s mnk) (callFunc, error) {
	switch t.Name {
	case "float32":
		return gemmOf[float32](s), nil
	case "float64":
		return gemmOf[float64](s), nil
	case "complex64":
		return gemmOf[complex64](s), nil
	case "complex128":
		return gemmOf[complex128](s), nil
	}
	return nil, fmt.Errorf("the command has no operands for type %s", t.Name)
}

// newContraction allocates dense row-major tensors for a spec
// ("A,B->C" labels) at the given extents, A and B random, and returns the
// call C = A·B with alpha 1 and beta 0.
func newContraction(t spec.Type, sp string, a, b, c []int) (callFunc, error) {
	switch t.Name {
	case "float32":
		return contractionOf[float32](sp, a, b, c), nil
	case "float64":
		return contractionOf[float64](sp, a, b, c), nil
	case "complex64":
		return contractionOf[complex64](sp, a, b, c), nil
	case "complex128":
		return contractionOf[complex128](sp, a, b, c), nil
	}
	return nil, fmt.Errorf("the command has no operands for type %s", t.Name)
}

// operands are one product's tensors and the call that computes it.
type operands[T tcontract.Scalar] struct {
	a, b, c tcontract.Tensor[T]
	call    callFunc
}

func gemmOf[T tcontract.Scalar](s mnk) callFunc { return gemmOperands[T](s).call }

func gemmOperands[T tcontract.Scalar](s mnk) operands[T] {
	r := newRand()
	o := operands[T]{
		a: tcontract.Dense(random[T](s.M*s.K, r), s.M, s.K),
		b: tcontract.Dense(random[T](s.K*s.N, r), s.K, s.N),
		c: tcontract.Dense(zeros[T](s.M*s.N), s.M, s.N),
	}
	var one, zero T = 1, 0
	o.call = func(p *tcontract.Pool) error {
		return tcontract.Gemm(one, o.a, o.b, zero, o.c, tcontract.WithPool(p))
	}
	return o
}

func contractionOf[T tcontract.Scalar](sp string, as, bs, cs []int) callFunc {
	return contractionOperands[T](sp, as, bs, cs).call
}

func contractionOperands[T tcontract.Scalar](sp string, as, bs, cs []int) operands[T] {
	r := newRand()
	o := operands[T]{
		a: tcontract.Dense(random[T](volume(as), r), as...),
		b: tcontract.Dense(random[T](volume(bs), r), bs...),
		c: tcontract.Dense(zeros[T](volume(cs)), cs...),
	}
	var one, zero T = 1, 0
	o.call = func(p *tcontract.Pool) error {
		return tcontract.Contract(sp, one, o.a, o.b, zero, o.c, tcontract.WithPool(p))
	}
	return o
}

func volume(shape []int) int {
	n := 1
	for _, e := range shape {
		n *= e
	}
	return n
}

// newRand is a fixed-seed source: runs are repeatable and the values are
// ordinary (uniform in [-1, 1), no subnormals that would slow the FPU).
func newRand() *rand.Rand { return rand.New(rand.NewPCG(1, 2)) }

// pattern is how many elements random draws; the rest of a slice repeats
// them. Timing does not depend on the values, and copying fills a TCCG
// operand of a gigabyte many times faster than drawing every element.
const pattern = 1 << 14

// random is a slice of n values whose first elements are random and the
// rest a repeat of them; every page is written, so the first timed call
// does not pay the page faults.
func random[T tcontract.Scalar](n int, r *rand.Rand) []T {
	s := make([]T, n)
	head := s[:min(n, pattern)]
	u := func() float64 { return 2*r.Float64() - 1 }
	switch v := any(head).(type) {
	case []float32:
		for i := range v {
			v[i] = float32(u())
		}
	case []float64:
		for i := range v {
			v[i] = u()
		}
	case []complex64:
		for i := range v {
			v[i] = complex(float32(u()), float32(u()))
		}
	case []complex128:
		for i := range v {
			v[i] = complex(u(), u())
		}
	}
	for done := len(head); done < n; {
		done += copy(s[done:], s[:done])
	}
	return s
}

// zeros is a slice of n zeros with every page written (a large make is
// fresh memory the OS maps on first touch).
func zeros[T tcontract.Scalar](n int) []T {
	s := make([]T, n)
	clear(s)
	return s
}
