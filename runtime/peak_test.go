package runtime

import (
	"math"
	"testing"
	"time"

	"github.com/tcontract/tcontract/generated/kernels"
	"github.com/tcontract/tcontract/internal/spec"
)

// TestPeak runs the probe of every path this machine can run, on one thread
// and on two at once. It checks the figures are finite and positive and, as
// far as a shared machine allows, that the probe's flops per trip are right:
// one thread cannot beat the vector width times two FMA pipes at 6 GHz.
func TestPeak(t *testing.T) {
	if testing.Short() {
		t.Skip("timed")
	}
	for _, isa := range Available() {
		ir, _ := spec.ISAByName(isa)
		for _, r := range spec.Reals {
			one := peakOn(isa, r.Name, 1)
			two := peakOn(isa, r.Name, 2)
			t.Logf("%s %s: %.1f GFLOP/s on 1 thread, %.1f on 2", isa, r.Name, one, two)
			bound := 2 * 2 * float64(ir.Lanes(r.Size)) * 6 // GFLOP/s
			for _, v := range []float64{one, two / 2} {
				if !(v > 0) || math.IsInf(v, 0) || v > bound {
					t.Errorf("%s %s: peak %.1f GFLOP/s per thread outside (0, %.0f]", isa, r.Name, v, bound)
				}
			}
		}
	}
	if v := Peak("float64", 1); !(v > 0) {
		t.Errorf("Peak(float64, 1) = %v on %s", v, ISA())
	}
}

// TestPeakProbes checks each probe's FlopsPerIter against the table: two
// flops per lane per accumulator.
func TestPeakProbes(t *testing.T) {
	for _, p := range kernels.Peaks {
		isa, _ := spec.ISAByName(p.ISA)
		r, _ := spec.RealByName(p.Real)
		if want := 2 * isa.PeakAccs() * isa.Lanes(r.Size); p.FlopsPerIter != want {
			t.Errorf("%s/%s: %d flops per trip, want %d", p.ISA, p.Real, p.FlopsPerIter, want)
		}
	}
	if n := calibrate(func(int) {}, time.Millisecond); n < 1 {
		t.Errorf("calibrate of a no-op = %d", n)
	}
}
