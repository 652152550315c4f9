//go:build arm64 && !purego

package runtime

import (
	"testing"

	"github.com/tcontract/tcontract/generated/kernels"
	"github.com/tcontract/tcontract/internal/spec"
)

// The NEON peak probes run only when measured (tcontract peak, benchmarks);
// this calls them under the test runner too: each is present, returns for
// any trip count (none for iters <= 0), and the registry's flop count matches
// the probe the table describes.
func TestNeonPeakProbes(t *testing.T) {
	isa, _ := spec.ISAByName(spec.NEON)
	found := 0
	for _, p := range kernels.Peaks {
		if p.ISA != spec.NEON {
			continue
		}
		found++
		r, _ := spec.RealByName(p.Real)
		if p.Fn == nil {
			t.Fatalf("peak %s/%s: no assembly in an arm64 build", p.ISA, p.Real)
		}
		if want := 2 * isa.PeakAccs() * isa.Lanes(r.Size); p.FlopsPerIter != want {
			t.Errorf("peak %s/%s: %d flops per trip, the probe does %d", p.ISA, p.Real, p.FlopsPerIter, want)
		}
		for _, iters := range []int{-1, 0, 1, 2, 1000} {
			p.Fn(iters)
		}
	}
	if want := len(spec.KernelsFor(spec.NEON)); found != want {
		t.Errorf("%d NEON peak probes, want one per NEON kernel row (%d)", found, want)
	}
}
