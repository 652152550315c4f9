package workspace

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"
)

func TestNewBarrier(t *testing.T) {
	for _, n := range []int{1, 2, 7} {
		if b := NewBarrier(n); b.Size() != n {
			t.Fatalf("NewBarrier(%d).Size() = %d", n, b.Size())
		}
	}
	mustPanic(t, "NewBarrier(0)", func() { NewBarrier(0) })
	mustPanic(t, "NewBarrier(-1)", func() { NewBarrier(-1) })
	if unsafe.Sizeof(Barrier{})%128 != 0 {
		t.Fatalf("Barrier is %d bytes, not a multiple of two cache lines", unsafe.Sizeof(Barrier{}))
	}
	b := NewBarrier(1)
	for range 1000 {
		b.Wait() // a team of one never waits
	}
}

// TestBarrierPublishesRounds checks the barrier's promise round after round:
// what each participant wrote before Wait is what every participant reads
// after it. The values are plain Go memory, so the race detector also checks
// that the barrier orders them.
func TestBarrierPublishesRounds(t *testing.T) {
	for _, n := range []int{2, 3, 5} {
		b := NewBarrier(n)
		vals := make([]int, n)
		const rounds = 300
		var wg sync.WaitGroup
		for id := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for r := 1; r <= rounds; r++ {
					vals[id] = r
					b.Wait()
					for j, v := range vals {
						if v != r {
							t.Errorf("n=%d round %d: participant %d sees %d from %d", n, r, id, v, j)
							return
						}
					}
					b.Wait() // nobody writes the next round before all have read
				}
			}()
		}
		wg.Wait()
	}
}

// TestBarrierBlocksAndWakes holds one participant back long enough that the
// other must be past its spinning and blocked, then checks that the late
// arrival wakes it and that it did not leave early.
func TestBarrierBlocksAndWakes(t *testing.T) {
	b := NewBarrier(2)
	var late atomic.Bool
	done := make(chan bool)
	for range 3 {
		go func() {
			b.Wait()
			done <- late.Load()
		}()
		deadline := time.Now().Add(5 * time.Second)
		for b.sleepers.Load() == 0 {
			if time.Now().After(deadline) {
				t.Fatal("waiter never blocked")
			}
			time.Sleep(time.Millisecond)
		}
		late.Store(true)
		b.Wait()
		if !<-done {
			t.Fatal("waiter left before the round was complete")
		}
		late.Store(false)
	}
	if b.sleepers.Load() != 0 || b.arrived.Load() != 0 {
		t.Fatalf("barrier not clean: %d sleepers, %d arrived", b.sleepers.Load(), b.arrived.Load())
	}
}

// TestBarrierSpinFitsScheduler checks a barrier spins only when every
// participant can run at once, and works either way.
func TestBarrierSpinFitsScheduler(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	b := NewBarrier(2)
	if b.spin != 0 {
		t.Fatalf("one P, two participants: spin budget %d, want 0", b.spin)
	}
	runTeam(t, b, 2, 100)
	runtime.GOMAXPROCS(2)
	b.reset(2)
	if b.spin != int32(spinLoads) {
		t.Fatalf("two Ps, two participants: spin budget %d, want %d", b.spin, spinLoads)
	}
	runTeam(t, b, 2, 100)
}
