package tcontract

import "github.com/tcontract/tcontract/runtime"

// The sentinel errors. Every error Contract and Gemm return wraps one of
// them (errors.Is), with a message naming the label, operand and numbers
// involved. On any error, nothing has been written.
var (
	// ErrSpec: the spec is not "<A>,<B>-><C>" over ASCII letters, or a
	// label of C is missing from A and B, or repeats in C.
	ErrSpec = runtime.ErrSpec
	// ErrShape: a rank differs from its labels, strides differ in length
	// from the shape, an extent is negative, or one label has two extents.
	ErrShape = runtime.ErrShape
	// ErrBounds: an element the shape and strides reach lies outside Data,
	// an offset is negative, or an index computation would overflow.
	ErrBounds = runtime.ErrBounds
	// ErrOverlap: C shares memory with A or B, or C's strides map two
	// coordinates to one element.
	ErrOverlap = runtime.ErrOverlap
	// ErrClosed: the pool has been closed.
	ErrClosed = runtime.ErrClosed
)
