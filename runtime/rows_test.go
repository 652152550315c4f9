package runtime

import (
	"slices"
	"testing"

	"github.com/tcontract/tcontract/generated/kernels"
)

// eachKernel runs a kernel family's check on every row of the registry that
// has the family (pick reports it, with the row's assembly), as a parallel
// subtest in the row's real type: f32 or f64 gets the assembly where this
// machine runs the row's ISA, nil elsewhere, so the twin is still checked
// against the reference. It returns how many rows it ran.
func eachKernel[F any](t *testing.T, pick func(k *kernels.Kernel) (asm F, ok bool),
	f32, f64 func(*testing.T, *kernels.Kernel, F)) int {
	avail := Available()
	n := 0
	for i := range kernels.Kernels {
		k := &kernels.Kernels[i]
		asm, ok := pick(k)
		if !ok {
			continue
		}
		n++
		if !slices.Contains(avail, k.ISA) {
			var none F
			asm = none
		}
		check := f64
		if k.Real == "float32" {
			check = f32
		}
		t.Run(k.Name, func(t *testing.T) {
			t.Parallel()
			check(t, k, asm)
		})
	}
	return n
}
