package runtime

import (
	"testing"
	"unsafe"

	"github.com/tcontract/tcontract/generated/typed"
)

// A record repeating a call reuses its choice; a call of other shapes,
// under other blocksizes or with a team of another size makes its own, and
// every result is the product's.
func TestChoiceReused(t *testing.T) {
	chosen := 0
	testChoose = func() { chosen++ }
	defer func() { testChoose = nil }()
	pool := NewPool(2)
	defer pool.Close()
	// C column-major and A row-major: the packed path, which weighs tiles
	// and blocks.
	run := func(m, n, k int, what string) {
		t.Helper()
		a, b, c := make([]float64, m*k), make([]float64, k*n), make([]float64, m*n)
		for i := range a {
			a[i] = float64(i%7) - 3
		}
		for i := range b {
			b[i] = float64(i%5) - 2
		}
		ops := [3]Operand{
			{View: View{Len: len(a), Shape: []int{m, k}}, Data: unsafe.Pointer(&a[0])},
			{View: View{Len: len(b), Shape: []int{k, n}}, Data: unsafe.Pointer(&b[0])},
			{View: View{Len: len(c), Shape: []int{m, n}, Strides: []int{1, m}}, Data: unsafe.Pointer(&c[0])},
		}
		alpha, beta := 1.0, 0.0
		if err := pool.Run("ik,kj->ij", typed.OpsOf[float64](), &ops, unsafe.Pointer(&alpha), unsafe.Pointer(&beta)); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < m; i++ {
			for j := 0; j < n; j++ {
				var want float64
				for p := 0; p < k; p++ {
					want += a[i*k+p] * b[p*n+j]
				}
				if c[i+j*m] != want {
					t.Fatalf("%s: C[%d,%d] = %v, want %v", what, i, j, c[i+j*m], want)
				}
			}
		}
	}
	// A worker held elsewhere leaves the next call a team of one.
	var held []*poolWorker
	hold := func() {
		pool.mu.Lock()
		held, pool.idle = pool.idle, nil
		pool.mu.Unlock()
	}
	unhold := func() {
		pool.mu.Lock()
		pool.idle = append(pool.idle, held...)
		pool.mu.Unlock()
	}
	steps := []struct {
		what    string
		m, n, k int
		blocks  *blocks
		busy    bool // the pool's worker is held
		chooses int  // choices made by the end of the step
	}{
		{"first call", 37, 29, 41, nil, false, 1},
		{"repeated", 37, 29, 41, nil, false, 1},
		{"repeated again", 37, 29, 41, nil, false, 1},
		{"other shapes", 38, 29, 41, nil, false, 2},
		{"back", 37, 29, 41, nil, false, 3},
		{"blocksizes set", 37, 29, 41, &blocks{MC: 16, KC: 8, NC: 12}, false, 4},
		{"same blocksizes", 37, 29, 41, &blocks{MC: 16, KC: 8, NC: 12}, false, 4},
		{"other blocksizes", 37, 29, 41, &blocks{MC: 32, KC: 8, NC: 12}, false, 5},
		{"none again", 37, 29, 41, nil, false, 6},
		// Large enough for a team of two.
		{"team", 120, 110, 100, nil, false, 7},
		{"team again", 120, 110, 100, nil, false, 7},
		{"worker busy", 120, 110, 100, nil, true, 8},
		{"worker busy again", 120, 110, 100, nil, true, 8},
		{"worker back", 120, 110, 100, nil, false, 9},
	}
	for _, s := range steps {
		testBlocks = s.blocks
		if s.busy {
			hold()
		}
		run(s.m, s.n, s.k, s.what)
		if s.busy {
			unhold()
		}
		testBlocks = nil
		if chosen != s.chooses {
			t.Fatalf("%s: %d choices made, want %d", s.what, chosen, s.chooses)
		}
	}
}
