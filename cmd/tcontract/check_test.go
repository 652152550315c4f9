package main

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/tcontract/tcontract"
)

// TestSpotCheck: the check passes what Contract computed, for every role of
// a label (batch, free, contracted, summed out of one input) and every
// element type, and catches a C that is off by more than rounding, NaN, or
// the right values in the wrong places.
func TestSpotCheck(t *testing.T) {
	testSpotCheck[float32](t)
	testSpotCheck[float64](t)
	testSpotCheck[complex64](t)
	testSpotCheck[complex128](t)
}

func testSpotCheck[T tcontract.Scalar](t *testing.T) {
	const sp = "bikx,bkjy->bji" // b batch, i and j free, k contracted, x and y summed out of one input
	a := tcontract.Dense(random(make([]T, 3*5*7*2), newRand()), 3, 5, 7, 2)
	b := tcontract.Dense(random(make([]T, 3*7*4*3), rand.New(rand.NewPCG(5, 6))), 3, 7, 4, 3)
	c := tcontract.Dense(make([]T, 3*4*5), 3, 4, 5)
	if err := tcontract.Contract(sp, 1, a, b, 0, c); err != nil {
		t.Fatal(err)
	}
	worst, err := spotCheck(sp, a, b, c, rand.New(rand.NewPCG(3, 4)))
	if err != nil || worst > 1e-6 || worst < 0 {
		t.Fatalf("%T: check of Contract's result: worst %g, %v", *new(T), worst, err)
	}
	wrong := func(name string, edit func(s []T)) {
		t.Helper()
		bad := tcontract.Dense(append([]T(nil), c.Data...), c.Shape...)
		edit(bad.Data)
		if _, err := spotCheck(sp, a, b, bad, rand.New(rand.NewPCG(3, 4))); err == nil || !strings.Contains(err.Error(), "wrong answer") {
			t.Errorf("%T, %s: check gave %v, want a wrong answer", *new(T), name, err)
		}
	}
	// Every element moved by a thousandth of its magnitude: far beyond
	// rounding at 42 terms, for float32 too.
	wrong("off by 1e-3", func(s []T) {
		for i := range s {
			s[i] += s[i]/1000 + T(1e-3)
		}
	})
	wrong("NaN", func(s []T) {
		nan := T(0)
		switch p := any(&nan).(type) {
		case *float32:
			*p = float32(math.NaN())
		case *float64:
			*p = math.NaN()
		case *complex64:
			*p = complex(float32(math.NaN()), 0)
		case *complex128:
			*p = complex(math.NaN(), 0)
		}
		for i := range s {
			s[i] = nan
		}
	})
	// C's two free dims exchanged: the right values, in the wrong places.
	wrong("transposed", func(s []T) {
		for bt := range 3 {
			for j := range 4 {
				for i := range 5 {
					s[bt*20+j*5+i] = c.Data[bt*20+(i%4)*5+j%5]
				}
			}
		}
	})
}

// TestSpotCheckBadSpec: a spec that does not fit the operands is an
// error, not a pass.
func TestSpotCheckBadSpec(t *testing.T) {
	a := tcontract.Dense(make([]float64, 4), 2, 2)
	if _, err := spotCheck("ij,jk", a, a, a, newRand()); err == nil {
		t.Error("a spec without an arrow passed")
	}
	if _, err := spotCheck("ijk,jk->ik", a, a, a, newRand()); err == nil {
		t.Error("a spec of the wrong rank passed")
	}
}
