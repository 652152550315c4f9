package main

import (
	"fmt"
	"math/rand/v2"

	"github.com/tcontract/tcontract"
	"github.com/tcontract/tcontract/internal/spec"
)

// callFunc runs one product on a pool: the thing a measurement times.
type callFunc func(p *tcontract.Pool) error

// product is one product laid out: the call a measurement times, and the
// check of what the last call left in C (spotCheck): the largest relative
// error it saw, or an error for a wrong answer.
type product struct {
	call  callFunc
	check func() (float64, error)
}

// benchable reports whether the command can lay out operands of a type:
// the types the switches below know, each a row of the type table.
func benchable(name string) bool {
	switch name {
	case "float32", "float64", "complex64", "complex128":
		return true
	}
	return false
}

// newGemm lays out the dense row-major operands of one GEMM of type t in
// st, A (m×k) and B (k×n) random, and returns the call C = A·B on them.
// The operands are set up once and reused by every call of the unit.
func newGemm(st *store, t spec.Type, s mnk) (product, error) {
	switch t.Name {
	case "float32":
		return gemmOperands[float32](st, s).product(gemmSpec), nil
	case "float64":
		return gemmOperands[float64](st, s).product(gemmSpec), nil
	case "complex64":
		return gemmOperands[complex64](st, s).product(gemmSpec), nil
	case "complex128":
		return gemmOperands[complex128](st, s).product(gemmSpec), nil
	}
	return product{}, fmt.Errorf("the command has no operands for type %s", t.Name)
}

// newContraction lays out dense row-major tensors for a spec ("A,B->C"
// labels) at the given shapes in st, A and B random, and returns the call
// C = A·B with alpha 1 and beta 0.
func newContraction(st *store, t spec.Type, sp string, a, b, c []int) (product, error) {
	switch t.Name {
	case "float32":
		return contractionOperands[float32](st, sp, a, b, c).product(sp), nil
	case "float64":
		return contractionOperands[float64](st, sp, a, b, c).product(sp), nil
	case "complex64":
		return contractionOperands[complex64](st, sp, a, b, c).product(sp), nil
	case "complex128":
		return contractionOperands[complex128](st, sp, a, b, c).product(sp), nil
	}
	return product{}, fmt.Errorf("the command has no operands for type %s", t.Name)
}

// operands are one product's tensors and the call that computes it.
type operands[T tcontract.Scalar] struct {
	a, b, c tcontract.Tensor[T]
	call    callFunc
}

// gemmSpec is a GEMM's labels, for its check.
const gemmSpec = "ik,kj->ij"

// product is o's call and its check against the labels sp, which samples
// the same elements every time.
func (o operands[T]) product(sp string) product {
	return product{call: o.call, check: func() (float64, error) {
		return spotCheck(sp, o.a, o.b, o.c, rand.New(rand.NewPCG(3, 4)))
	}}
}

func gemmOperands[T tcontract.Scalar](st *store, s mnk) operands[T] {
	r := newRand()
	o := operands[T]{
		a: tcontract.Dense(random(slab[T](st, 0, s.M*s.K), r), s.M, s.K),
		b: tcontract.Dense(random(slab[T](st, 1, s.K*s.N), r), s.K, s.N),
		c: tcontract.Dense(zeros(slab[T](st, 2, s.M*s.N)), s.M, s.N),
	}
	var one, zero T = 1, 0
	o.call = func(p *tcontract.Pool) error {
		return tcontract.Gemm(one, o.a, o.b, zero, o.c, tcontract.WithPool(p))
	}
	return o
}

func contractionOperands[T tcontract.Scalar](st *store, sp string, as, bs, cs []int) operands[T] {
	r := newRand()
	o := operands[T]{
		a: tcontract.Dense(random(slab[T](st, 0, volume(as)), r), as...),
		b: tcontract.Dense(random(slab[T](st, 1, volume(bs)), r), bs...),
		c: tcontract.Dense(zeros(slab[T](st, 2, volume(cs))), cs...),
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
// operand of a gigabyte many times faster than drawing every element. It
// is a prime, so that an element read from the wrong place holds the right
// value (and passes the check) only when the two places lie a multiple of
// it apart, which no single stride of the suite (a product of smaller
// extents) is.
const pattern = 16381

// random fills s with random values, its first elements drawn and the rest
// a repeat of them, and returns it. Every element is written, so a first
// timed call never pays page faults on it.
func random[T tcontract.Scalar](s []T, r *rand.Rand) []T {
	head := s[:min(len(s), pattern)]
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
	for done := len(head); done < len(s); {
		done += copy(s[done:], s[:done])
	}
	return s
}

// zeros clears s, writing every element, and returns it.
func zeros[T tcontract.Scalar](s []T) []T {
	clear(s)
	return s
}
