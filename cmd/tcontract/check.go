package main

import (
	"fmt"
	"math"
	"math/cmplx"
	"math/rand/v2"
	"strings"

	"github.com/tcontract/tcontract"
	"github.com/tcontract/tcontract/generated/typed"
)

// A figure is worth nothing if the call computed the wrong thing, so after
// each measurement bench compares sampled elements of its C = A·B (alpha 1,
// beta 0) with a dot product taken in float64 or complex128: the paths a
// full-size case takes (and a team of its size) are the ones it checks.

// spotSamples is how many elements of C one check compares.
const spotSamples = 256

// spotCheck compares spotSamples elements of c, drawn by r, with the
// contraction sp ("A,B->C" labels) of a and b. It returns the largest
// error relative to the sum of the products' magnitudes, and an error
// naming the element when one is beyond the bound any order of summation
// keeps to: (n+2) units of the type's epsilon times that sum, n being the
// real products each real result sums (the terms, twice for complex
// types), against n+1 units for the call's rounding and the reference's
// together.
func spotCheck[T tcontract.Scalar](sp string, a, b, c tcontract.Tensor[T], r *rand.Rand) (float64, error) {
	la, rest, ok := strings.Cut(sp, ",")
	lb, lc, ok2 := strings.Cut(rest, "->")
	if !ok || !ok2 || len(la) != len(a.Shape) || len(lb) != len(b.Shape) || len(lc) != len(c.Shape) {
		return 0, fmt.Errorf("check: spec %q does not fit the operands' ranks", sp)
	}
	var ext [128]int
	for _, t := range []struct {
		l     string
		shape []int
	}{{la, a.Shape}, {lb, b.Shape}, {lc, c.Shape}} {
		for d := range t.l {
			ext[t.l[d]] = t.shape[d]
		}
	}
	// The summed labels: in an input and not in C, in order of first use.
	var summed []byte
	for _, l := range []byte(la + lb) {
		if !strings.ContainsRune(lc, rune(l)) && !strings.ContainsRune(string(summed), rune(l)) {
			summed = append(summed, l)
		}
	}
	terms := 1
	for _, l := range summed {
		terms *= ext[l]
	}
	ops := typed.OpsOf[T]()
	n := terms
	if ops.Type.Complex {
		n *= 2
	}
	if volume(c.Shape) == 0 {
		return 0, nil
	}
	eps := epsOfReal(ops.RealSize)
	var coord [128]int
	worst := 0.0
	for range spotSamples {
		for _, l := range []byte(lc) {
			coord[l] = r.IntN(ext[l])
		}
		for _, l := range summed {
			coord[l] = 0
		}
		var want complex128
		mag := 0.0
		for range terms {
			x, y := toC128(a.Data[at(a, la, &coord)]), toC128(b.Data[at(b, lb, &coord)])
			want += x * y
			// The real products' magnitudes: each part of the result
			// sums two of the four.
			mag += (math.Abs(real(x)) + math.Abs(imag(x))) * (math.Abs(real(y)) + math.Abs(imag(y)))
			// The next assignment of the summed labels, the last fastest.
			for i := len(summed) - 1; i >= 0; i-- {
				l := summed[i]
				if coord[l]++; coord[l] < ext[l] {
					break
				}
				coord[l] = 0
			}
		}
		got := toC128(c.Data[at(c, lc, &coord)])
		diff := cmplx.Abs(got - want)
		rel := 0.0
		if mag > 0 {
			rel = diff / mag
		}
		if math.IsNaN(diff) || diff > float64(n+2)*eps*mag {
			return rel, fmt.Errorf("wrong answer: C%v = %v, want %v (%d terms)", coordsOf(lc, &coord), got, want, terms)
		}
		worst = max(worst, rel)
	}
	return worst, nil
}

// at is the index in t.Data of the element at the labels' coordinates.
func at[T tcontract.Scalar](t tcontract.Tensor[T], labels string, coord *[128]int) int {
	i, step := t.Offset, 1
	for d := len(labels) - 1; d >= 0; d-- {
		s := step
		if t.Strides != nil {
			s = t.Strides[d]
		}
		i += coord[labels[d]] * s
		step *= t.Shape[d]
	}
	return i
}

func coordsOf(labels string, coord *[128]int) []int {
	out := make([]int, len(labels))
	for d := range labels {
		out[d] = coord[labels[d]]
	}
	return out
}

func toC128[T tcontract.Scalar](v T) complex128 {
	switch x := any(v).(type) {
	case float32:
		return complex(float64(x), 0)
	case float64:
		return complex(x, 0)
	case complex64:
		return complex128(x)
	case complex128:
		return x
	}
	panic("unreachable")
}

// epsOfReal is the distance from 1 to the next value of the real type of
// size bytes (float32 or float64).
func epsOfReal(size int) float64 {
	if size == 4 {
		return 0x1p-23
	}
	return 0x1p-52
}
