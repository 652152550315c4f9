package bench

import (
	"fmt"
	"math"
	"math/rand/v2"
	goruntime "runtime"
	"testing"
	"time"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"

	tc "github.com/tcontract/tcontract"
	"github.com/tcontract/tcontract/runtime"
)

var impl gonum.Implementation

// The two libraries agree on row-major products with transposes.
func TestAgreesWithGonum(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, s := range [][3]int{{1, 1, 1}, {7, 5, 3}, {64, 64, 64}, {130, 70, 90}} {
		m, n, k := s[0], s[1], s[2]
		a, b := randSlice(rng, m*k), randSlice(rng, k*n)
		want, got := randSlice(rng, m*n), make([]float64, m*n)
		copy(got, want)
		// C := 1.5·Aᵀᵀ·B + 0.5·C with A stored transposed (k×m).
		impl.Dgemm(blas.Trans, blas.NoTrans, m, n, k, 1.5, a, m, b, n, 0.5, want, n)
		at := tc.Dense(a, k, m).T()
		if err := tc.Gemm(1.5, at, tc.Dense(b, k, n), 0.5, tc.Dense(got, m, n)); err != nil {
			t.Fatal(err)
		}
		for i := range got {
			if math.Abs(got[i]-want[i]) > 1e-12*float64(k+1) {
				t.Fatalf("%dx%dx%d: C[%d] = %v, gonum %v", m, n, k, i, got[i], want[i])
			}
		}
	}
}

func randSlice(rng *rand.Rand, n int) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = rng.Float64() - 0.5
	}
	return s
}

// BenchmarkVsGonum times tcontract's Gemm and gonum's pure-Go Sgemm/Dgemm on
// the same row-major operands, alternating, on one thread each, and reports
// both rates, their ratio and tcontract's fraction of the peak measured in
// the same process.
//
// gonum's default build runs its amd64 assembly (SSE) for the inner loops;
// -tags noasm times its Go code alone.
func BenchmarkVsGonum(b *testing.B) {
	pool := tc.NewPool(1)
	defer pool.Close()
	for _, n := range []int{64, 256, 1024} {
		b.Run(fmt.Sprintf("float32/%d", n), func(b *testing.B) {
			a, x, c := make([]float32, n*n), make([]float32, n*n), make([]float32, n*n)
			for i := range a {
				a[i], x[i] = float32(i%7)/7, float32(i%5)/5
			}
			ours := func() {
				if err := tc.Gemm(1, tc.Dense(a, n, n), tc.Dense(x, n, n), 0, tc.Dense(c, n, n), tc.WithPool(pool)); err != nil {
					b.Fatal(err)
				}
			}
			theirs := func() { impl.Sgemm(blas.NoTrans, blas.NoTrans, n, n, n, 1, a, n, x, n, 0, c, n) }
			compare(b, n, "float32", ours, theirs)
		})
		b.Run(fmt.Sprintf("float64/%d", n), func(b *testing.B) {
			a, x, c := make([]float64, n*n), make([]float64, n*n), make([]float64, n*n)
			for i := range a {
				a[i], x[i] = float64(i%7)/7, float64(i%5)/5
			}
			ours := func() {
				if err := tc.Gemm(1, tc.Dense(a, n, n), tc.Dense(x, n, n), 0, tc.Dense(c, n, n), tc.WithPool(pool)); err != nil {
					b.Fatal(err)
				}
			}
			theirs := func() { impl.Dgemm(blas.NoTrans, blas.NoTrans, n, n, n, 1, a, n, x, n, 0, c, n) }
			compare(b, n, "float64", ours, theirs)
		})
	}
}

// compare runs each side b.N times, alternating, and reports the rates.
// gonum splits a product among GOMAXPROCS goroutines, so compare runs with
// GOMAXPROCS 1 and restores it after: at 2, gonum used both cores against
// tcontract's one, and the ratio came out half the thread-for-thread one.
// It is set here, in every run of a sub-benchmark, because the testing
// package sets GOMAXPROCS to -cpu's value before a sub-benchmark's timed
// runs, after its parent has run.
func compare(b *testing.B, n int, real string, ours, theirs func()) {
	defer goruntime.GOMAXPROCS(goruntime.GOMAXPROCS(1))
	ours()
	theirs()
	peak := runtime.Peak(real, 1)
	var tOurs, tTheirs time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		ours()
		t1 := time.Now()
		theirs()
		tOurs += t1.Sub(t0)
		tTheirs += time.Since(t1)
	}
	flops := 2 * float64(n) * float64(n) * float64(n) * float64(b.N)
	b.ReportMetric(flops/tOurs.Seconds()/1e9, "GFLOP/s")
	b.ReportMetric(flops/tTheirs.Seconds()/1e9, "gonum-GFLOP/s")
	b.ReportMetric(tTheirs.Seconds()/tOurs.Seconds(), "x-gonum")
	b.ReportMetric(flops/tOurs.Seconds()/1e9/peak, "peak")
}
