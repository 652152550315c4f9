package tcontract_test

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"

	tc "github.com/tcontract/tcontract"
)

// Gemm against the plain triple loop, for every element type: random
// shapes, every stride layout, transposed views, alpha/beta cases, NaN in C
// with beta = 0, canaries around C, and a few shapes above MC, KC and NC.

func TestGemmFloat32(t *testing.T)    { testGemm[float32](t) }
func TestGemmFloat64(t *testing.T)    { testGemm[float64](t) }
func TestGemmComplex64(t *testing.T)  { testGemm[complex64](t) }
func TestGemmComplex128(t *testing.T) { testGemm[complex128](t) }

// gemmView is an m×n operand in layout l, or the transpose of an n×m one.
func gemmView[T tc.Scalar](rng *rand.Rand, m, n int, l layout, transposed bool, fill func() T) tc.Tensor[T] {
	if !transposed {
		return makeView(rng, []int{m, n}, l, fill)
	}
	v := makeView(rng, []int{n, m}, l, fill)
	return v.T()
}

func runGemmCase[T tc.Scalar](t *testing.T, rng *rand.Rand, m, n, k int, pool *tc.Pool) {
	t.Helper()
	la, lb := layout(rng.IntN(int(numLayouts))), layout(rng.IntN(int(numLayouts)))
	lc := layout(rng.IntN(int(numLayouts)))
	ta, tb := rng.IntN(3) == 0, rng.IntN(3) == 0
	alpha, beta := scalarCase[T](rng, rng.IntN(4)), scalarCase[T](rng, rng.IntN(4))
	rnd := func() T { return randValue[T](rng) }
	a := gemmView(rng, m, k, la, ta, rnd)
	b := gemmView(rng, k, n, lb, tb, rnd)
	nanC := toC(beta) == 0 && rng.IntN(2) == 0
	c := outputView[T](rng, []int{m, n}, lc, nanC)
	what := fmt.Sprintf("%s gemm %dx%dx%d layouts=%v%s/%v%s/%v alpha=%v beta=%v nanC=%v",
		typeName[T](), m, n, k, la, tMark(ta), lb, tMark(tb), lc, alpha, beta, nanC)
	ref := reference("ik,kj->ij", alpha, a, b, beta, c)
	var opts []tc.Option
	if pool != nil {
		opts = append(opts, tc.WithPool(pool))
	}
	if err := tc.Gemm(alpha, a, b, beta, c, opts...); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	checkResult(t, what, c, ref)
	if i := outsideUntouched(c); i >= 0 {
		t.Fatalf("%s: wrote C.Data[%d], outside C's view", what, i)
	}
}

func tMark(b bool) string {
	if b {
		return "ᵀ"
	}
	return ""
}

func testGemm[T tc.Scalar](t *testing.T) {
	rng := rand.New(rand.NewPCG(3, uint64(len(typeName[T]()))))
	small := 60
	if testing.Short() {
		small = 20
	}
	for i := 0; i < small; i++ {
		runGemmCase[T](t, rng, rng.IntN(40), rng.IntN(40), rng.IntN(40), nil)
	}
	for i := 0; i < 6; i++ {
		runGemmCase[T](t, rng, rng.IntN(301), rng.IntN(301), rng.IntN(301), nil)
	}
	// Above the blocksizes: M over MC, K over KC, N over NC.
	runGemmCase[T](t, rng, 700, 9, 30, nil)
	runGemmCase[T](t, rng, 20, 11, 1500, nil)
	runGemmCase[T](t, rng, 5, 4500, 7, nil)
	runGemmCase[T](t, rng, 333, 257, 400, nil)
}

// Pools of 1, 2 and 3 threads give the same answers, leave nothing leased
// after the calls, and Trim releases everything.
func TestGemmPools(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	for _, threads := range []int{1, 2, 3} {
		p := tc.NewPool(threads)
		if p.Threads() != threads {
			t.Fatalf("Threads() = %d, want %d", p.Threads(), threads)
		}
		for _, s := range [][3]int{{1, 1, 1}, {64, 64, 64}, {300, 200, 250}, {17, 700, 90}, {700, 17, 90}} {
			runGemmCase[float64](t, rng, s[0], s[1], s[2], p)
			runGemmCase[complex64](t, rng, s[0], s[1], s[2], p)
		}
		st := p.Stats()
		if st.LeasedBytes != 0 {
			t.Errorf("%d threads: %d bytes leased after the calls returned", threads, st.LeasedBytes)
		}
		if st.RetainedBytes == 0 {
			t.Errorf("%d threads: the pool retains no workspace after calls", threads)
		}
		p.Trim()
		if st := p.Stats(); st.RetainedBytes != 0 || st.LeasedBytes != 0 {
			t.Errorf("%d threads: after Trim, stats = %+v, want zero", threads, st)
		}
		if err := p.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// Concurrent calls from 8 goroutines on one pool (run it under -race).
func TestGemmConcurrent(t *testing.T) {
	p := tc.NewPool(3)
	defer p.Close()
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(5, uint64(g)))
			for i := 0; i < 6; i++ {
				s := 1 + rng.IntN(200)
				runGemmCase[float32](t, rng, s, 1+rng.IntN(200), 1+rng.IntN(200), p)
			}
		}(g)
	}
	wg.Wait()
	if st := p.Stats(); st.LeasedBytes != 0 {
		t.Errorf("%d bytes leased after all calls returned", st.LeasedBytes)
	}
}

func TestPoolClosed(t *testing.T) {
	p := tc.NewPool(2)
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	c := tc.Dense([]float64{7}, 1, 1)
	err := tc.Gemm(1, tc.Dense([]float64{1}, 1, 1), tc.Dense([]float64{1}, 1, 1), 0, c, tc.WithPool(p))
	if !errorIs(err, tc.ErrClosed) || c.Data[0] != 7 {
		t.Fatalf("call on a closed pool: err = %v, C = %v", err, c.Data[0])
	}
	if err := p.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
}

// Repeating a call of the same shapes allocates nothing, on the default
// pool and on a given one, small (the caller alone) and large (a team).
func TestGemmNoAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	p := tc.NewPool(2)
	defer p.Close()
	for _, n := range []int{16, 64, 300} {
		a := tc.Dense(make([]float32, n*n), n, n)
		b := tc.Dense(make([]float32, n*n), n, n)
		c := tc.Dense(make([]float32, n*n), n, n)
		for _, opts := range [][]tc.Option{nil, {tc.WithPool(p)}} {
			run := func() {
				if err := tc.Gemm(1, a, b, 0, c, opts...); err != nil {
					t.Fatal(err)
				}
			}
			run()
			if allocs := testing.AllocsPerRun(20, run); allocs != 0 {
				t.Errorf("n=%d pool=%v: %v allocations per call", n, opts != nil, allocs)
			}
		}
		zc := tc.Dense(make([]complex128, n*n), n, n)
		za := tc.Dense(make([]complex128, n*n), n, n)
		zat := za.T()
		zrun := func() {
			if err := tc.Contract("ik,kj->ij", complex(1, 2), za, zat, complex(0, 1), zc); err != nil {
				t.Fatal(err)
			}
		}
		zrun()
		if allocs := testing.AllocsPerRun(20, zrun); allocs != 0 {
			t.Errorf("n=%d complex128 contraction: %v allocations per call", n, allocs)
		}
	}
}
