package runtime

import (
	"math/rand/v2"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"

	"github.com/tcontract/tcontract/generated/typed"
)

// Teams of 2 and 3 over products cut into many rounds (tiny KC), panels
// (tiny NC) and blocks (tiny MC), so members drift apart by whole rounds
// and panels: every result must match a plain loop, and no call may hang.
func TestTeamRounds(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	// Members pause now and then while holding a unit, long enough for
	// the others to run a round or a panel ahead.
	var tick, units atomic.Int64
	testUnitDelay = func(member int) {
		units.Add(1)
		if n := tick.Add(1); n%(5+int64(member)) == 0 {
			time.Sleep(time.Duration(20+n%5*20) * time.Microsecond)
		}
	}
	defer func() { testUnitDelay = nil }()
	for _, threads := range []int{2, 3} {
		pool := NewPool(threads)
		for it := 0; it < 16; it++ {
			k, _ := KernelFor("float64")
			testBlocks = &blocks{MC: k.MR * (1 + rng.IntN(3)), KC: 16 + rng.IntN(48), NC: k.NR * (1 + rng.IntN(4))}
			m, n, kk := 40+rng.IntN(150), 30+rng.IntN(100), 1+rng.IntN(150)
			if it%2 == 0 {
				// One MC block: each unit packs its own B slivers.
				testBlocks.MC = 3 * k.MR
				m = k.MR + 1 + rng.IntN(2*k.MR)
			}
			// Large enough in flops to take the whole team.
			kk += 4 * int(parallelFlops) / (2 * m * n)
			a := make([]float64, m*kk)
			b := make([]float64, kk*n)
			c := make([]float64, m*n)
			for i := range a {
				a[i] = rng.Float64() - 0.5
			}
			for i := range b {
				b[i] = rng.Float64() - 0.5
			}
			ops := [3]Operand{
				{View: View{Len: len(a), Shape: []int{m, kk}}, Data: unsafe.Pointer(&a[0])},
				{View: View{Len: len(b), Shape: []int{kk, n}}, Data: unsafe.Pointer(&b[0])},
				// C column-major and A row-major: A's rows are not
				// adjacent, so the packed path runs, not the direct one.
				{View: View{Len: len(c), Shape: []int{m, n}, Strides: []int{1, m}}, Data: unsafe.Pointer(&c[0])},
			}
			alpha, beta := 1.0, 0.0
			done := make(chan error, 1)
			go func() {
				done <- pool.Run("ik,kj->ij", typed.OpsOf[float64](), &ops, unsafe.Pointer(&alpha), unsafe.Pointer(&beta))
			}()
			select {
			case err := <-done:
				if err != nil {
					t.Fatal(err)
				}
			case <-time.After(20 * time.Second):
				t.Fatalf("%d threads, %dx%dx%d, blocks %+v: the call hangs", threads, m, n, kk, *testBlocks)
			}
			for i := 0; i < m; i++ {
				for j := 0; j < n; j++ {
					var want, mag float64
					for p := 0; p < kk; p++ {
						want += a[i*kk+p] * b[p*n+j]
						mag += abs(a[i*kk+p] * b[p*n+j])
					}
					if got := c[i+j*m]; abs(got-want) > 1e-13*(mag+1)*float64(kk) {
						t.Fatalf("%d threads, %dx%dx%d, blocks %+v: C[%d,%d] = %v, want %v", threads, m, n, kk, *testBlocks, i, j, got, want)
					}
				}
			}
		}
		testBlocks = nil
		pool.Close()
	}
	if units.Load() == 0 {
		t.Fatal("no call ran a shared team")
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}
