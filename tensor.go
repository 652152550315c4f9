package tcontract

import "github.com/tcontract/tcontract/generated/typed"

// Scalar is the set of element types, one per row of the type table.
type Scalar = typed.Scalar

// Tensor is a strided view of a slice: element (i0, i1, …) is
// Data[Offset + i0·Strides[0] + i1·Strides[1] + …]. Strides may be negative
// or (in inputs) zero; nil Strides mean dense row-major. A transpose is a
// view with its strides swapped; nothing is ever copied.
type Tensor[T Scalar] struct {
	Data    []T
	Shape   []int
	Strides []int // elements per step along each dim; nil means dense row-major
	Offset  int   // index in Data of the element at all-zero coordinates
}

// Dense is a dense row-major view of data with the given shape.
func Dense[T Scalar](data []T, shape ...int) Tensor[T] {
	return Tensor[T]{Data: data, Shape: shape}
}

// Rank is the number of dims.
func (t Tensor[T]) Rank() int { return len(t.Shape) }

// T is the transpose of a rank-2 view (the same data, strides swapped).
func (t Tensor[T]) T() Tensor[T] {
	if len(t.Shape) != 2 {
		return t
	}
	s := t.strides()
	return Tensor[T]{Data: t.Data, Shape: []int{t.Shape[1], t.Shape[0]}, Strides: []int{s[1], s[0]}, Offset: t.Offset}
}

// strides returns explicit strides (dense row-major when Strides is nil).
func (t Tensor[T]) strides() []int {
	if t.Strides != nil {
		return t.Strides
	}
	s := make([]int, len(t.Shape))
	step := 1
	for d := len(t.Shape) - 1; d >= 0; d-- {
		s[d] = step
		step *= max(t.Shape[d], 1)
	}
	return s
}
