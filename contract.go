package tcontract

import (
	"fmt"
	"unsafe"

	"github.com/tcontract/tcontract/generated/typed"
	"github.com/tcontract/tcontract/runtime"
)

// Contract computes C = alpha·Σ A·B + beta·C with the labels of spec
// ("<A labels>,<B labels>-><C labels>", ASCII letters) deciding what is
// summed, as einsum does:
//
//   - a label in A, B and C is a batch index (elementwise);
//   - in A and B only, it is contracted;
//   - in A and C only, or B and C only, it is a free index;
//   - in only one input, it is summed out of that input;
//   - twice in one input, it takes that input's diagonal.
//
// Operands are never copied or transposed. Everything is validated before
// anything is written; on error C is unchanged and the error wraps one of
// ErrSpec, ErrShape, ErrBounds, ErrOverlap, ErrClosed. With beta == 0, C is
// not read (NaN in C does not leak). Repeating a call with the same shapes
// and strides allocates nothing.
func Contract[T Scalar](spec string, alpha T, a, b Tensor[T], beta T, c Tensor[T], opts ...Option) error {
	return run(spec, alpha, &a, &b, beta, &c, opts)
}

// Gemm computes C = alpha·A·B + beta·C for rank-2 views A (m×k), B (k×n)
// and C (m×n) of any strides; a transposed operand is a view with swapped
// strides (Tensor.T).
func Gemm[T Scalar](alpha T, a, b Tensor[T], beta T, c Tensor[T], opts ...Option) error {
	for _, x := range [3]struct {
		name string
		rank int
	}{{"A", len(a.Shape)}, {"B", len(b.Shape)}, {"C", len(c.Shape)}} {
		if x.rank != 2 {
			return fmt.Errorf("%w: Gemm needs rank-2 views, %s has rank %d", ErrShape, x.name, x.rank)
		}
	}
	return run("ik,kj->ij", alpha, &a, &b, beta, &c, opts)
}

func run[T Scalar](spec string, alpha T, a, b *Tensor[T], beta T, c *Tensor[T], opts []Option) error {
	var ops [3]runtime.Operand
	setOperand(&ops[0], a)
	setOperand(&ops[1], b)
	setOperand(&ops[2], c)
	return poolOf(opts).p.Run(spec, typed.OpsOf[T](), &ops, unsafe.Pointer(&alpha), unsafe.Pointer(&beta))
}

// setOperand fills op from t one word at a time, in place. Built as a value
// and then copied, the operand would be written by 8-byte stores and read
// back at once by 16-byte loads, which are not forwarded from them and stall.
// For the same reason the shape and strides are rebuilt from pointer and
// length rather than copied as slice headers.
func setOperand[T Scalar](op *runtime.Operand, t *Tensor[T]) {
	op.Len = len(t.Data)
	op.Shape = unsafe.Slice(unsafe.SliceData(t.Shape), len(t.Shape))
	op.Strides = unsafe.Slice(unsafe.SliceData(t.Strides), len(t.Strides))
	op.Offset = t.Offset
	if len(t.Data) > 0 {
		op.Data = unsafe.Pointer(unsafe.SliceData(t.Data))
	}
}
