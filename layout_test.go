package tcontract_test

import (
	"math/rand/v2"

	tc "github.com/tcontract/tcontract"
)

// Layouts a test tensor can take. Every one is a view into a larger slice,
// with storage before and after it.
type layout int

const (
	rowMajor   layout = iota // dense, last dim fastest (nil Strides)
	colMajor                 // dense, first dim fastest
	permuted                 // dense in a random dim order
	padded                   // a sub-tensor: every stride skips padding
	negative                 // some strides negative
	zeroStride               // some dims broadcast (inputs only)
	mixed                    // padded, permuted, some negative
	numLayouts
)

var layoutNames = [...]string{"row-major", "col-major", "permuted", "padded", "negative", "zero-stride", "mixed"}

func (l layout) String() string { return layoutNames[l] }

// makeView returns a view of shape in layout l inside a slice filled by
// fill (called for every element of the slice, view or not).
func makeView[T tc.Scalar](rng *rand.Rand, shape []int, l layout, fill func() T) tc.Tensor[T] {
	r := len(shape)
	order := make([]int, r) // order[0] is the fastest dim
	for i := range order {
		order[i] = r - 1 - i
	}
	switch l {
	case colMajor:
		for i := range order {
			order[i] = i
		}
	case permuted, mixed:
		rng.Shuffle(r, func(i, j int) { order[i], order[j] = order[j], order[i] })
	}
	strides := make([]int, r)
	step := 1
	for _, d := range order {
		strides[d] = step
		e := max(shape[d], 1)
		if l == padded || l == mixed {
			e += rng.IntN(3)
		}
		step *= e
	}
	switch l {
	case negative, mixed:
		for d := range strides {
			if rng.IntN(2) == 0 {
				strides[d] = -strides[d]
			}
		}
	case zeroStride:
		for d := range strides {
			if rng.IntN(3) == 0 {
				strides[d] = 0
			}
		}
	}
	lo, hi, empty := 0, 0, false
	for d, e := range shape {
		if e == 0 {
			empty = true
		}
		span := (max(e, 1) - 1) * strides[d]
		if span < 0 {
			lo += span
		} else {
			hi += span
		}
	}
	front, back := rng.IntN(4), rng.IntN(4)
	t := tc.Tensor[T]{Shape: shape, Strides: strides, Offset: front - lo}
	if l == rowMajor {
		t.Strides = nil
	}
	n := t.Offset + hi + 1 + back
	if empty {
		n = rng.IntN(3)
		t.Offset = 0
	}
	t.Data = make([]T, n)
	for i := range t.Data {
		t.Data[i] = fill()
	}
	return t
}

// viewIndices lists the slice indices a view reaches (with repeats for
// broadcast dims).
func viewIndices[T tc.Scalar](t tc.Tensor[T]) []int {
	n := 1
	for _, e := range t.Shape {
		n *= e
	}
	st := denseStrides(t)
	out := make([]int, 0, n)
	idx := make([]int, len(t.Shape))
	for lin := 0; lin < n; lin++ {
		r := lin
		off := t.Offset
		for d := len(t.Shape) - 1; d >= 0; d-- {
			idx[d] = r % t.Shape[d]
			r /= t.Shape[d]
			off += idx[d] * st[d]
		}
		out = append(out, off)
	}
	return out
}

// outputView builds C: the slice is all sentinel, and the view's elements
// are random (or NaN, to prove beta == 0 never reads C).
func outputView[T tc.Scalar](rng *rand.Rand, shape []int, l layout, nanInside bool) tc.Tensor[T] {
	if l == zeroStride {
		l = mixed
	}
	c := makeView(rng, shape, l, sentinel[T])
	for _, i := range viewIndices(c) {
		if nanInside {
			c.Data[i] = nan[T]()
		} else {
			c.Data[i] = randValue[T](rng)
		}
	}
	return c
}

// outsideUntouched reports the first slice index outside C's view whose
// value changed from the sentinel, or -1.
func outsideUntouched[T tc.Scalar](c tc.Tensor[T]) int {
	in := map[int]bool{}
	for _, i := range viewIndices(c) {
		in[i] = true
	}
	s := toC(sentinel[T]())
	for i, v := range c.Data {
		if !in[i] && toC(v) != s {
			return i
		}
	}
	return -1
}

func cloneTensor[T tc.Scalar](t tc.Tensor[T]) tc.Tensor[T] {
	c := t
	c.Data = append([]T(nil), t.Data...)
	return c
}
