package workspace

import (
	"fmt"
	"runtime"
	"sync"
	"testing"
	"time"
)

// condBarrier is the plain blocking barrier, the reference the spinning one
// is measured against.
type condBarrier struct {
	mu         sync.Mutex
	cond       sync.Cond
	n, arrived int
	round      uint64
}

func newCondBarrier(n int) *condBarrier {
	c := &condBarrier{n: n}
	c.cond.L = &c.mu
	return c
}

func (c *condBarrier) Wait() {
	c.mu.Lock()
	r := c.round
	if c.arrived++; c.arrived == c.n {
		c.arrived = 0
		c.round++
		c.cond.Broadcast()
	} else {
		for r == c.round {
			c.cond.Wait()
		}
	}
	c.mu.Unlock()
}

// busy spins for about d, standing in for packing work.
func busy(d time.Duration) {
	if d == 0 {
		return
	}
	for t := time.Now(); time.Since(t) < d; {
	}
}

// benchRounds times b.N rounds of two participants, each locked to its OS
// thread as pool workers are. The two take turns arriving skew late, so every
// round one of them waits about skew for the other.
func benchRounds(b *testing.B, wait func(), skew time.Duration) {
	var wg sync.WaitGroup
	wg.Add(1)
	n := b.N
	go func() {
		defer wg.Done()
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		for i := range n {
			if i%2 == 1 {
				busy(skew)
			}
			wait()
		}
	}()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	b.ResetTimer()
	for i := range n {
		if i%2 == 0 {
			busy(skew)
		}
		wait()
	}
	wg.Wait()
}

// BenchmarkBarrierRound2 is one round of two locked threads arriving
// together: the figure a KC block pays when packing is balanced.
func BenchmarkBarrierRound2(b *testing.B) { benchRounds(b, NewBarrier(2).Wait, 0) }

// BenchmarkBarrierRound2Cond is the same round on a plain blocking barrier.
func BenchmarkBarrierRound2Cond(b *testing.B) { benchRounds(b, newCondBarrier(2).Wait, 0) }

// BenchmarkBarrierSpin sweeps the spin budget against how late the partner
// is; ns/op minus the skew is what waiting cost. It is how spinLoads was
// chosen, and how to re-check the choice on a machine with idle cores, where
// longer spins should win.
func BenchmarkBarrierSpin(b *testing.B) {
	defer func(s int) { spinLoads = s }(spinLoads)
	// Two participants need two Ps for the spin budget to apply at all.
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(max(2, runtime.GOMAXPROCS(0))))
	for _, skew := range []time.Duration{0, time.Microsecond, 10 * time.Microsecond, 100 * time.Microsecond} {
		for _, spin := range []int{0, 1 << 8, 1 << 12, 1 << 15, 1 << 18} {
			b.Run(fmt.Sprintf("skew=%v/spin=%d", skew, spin), func(b *testing.B) {
				spinLoads = spin
				benchRounds(b, NewBarrier(2).Wait, skew)
			})
		}
		b.Run(fmt.Sprintf("skew=%v/cond", skew), func(b *testing.B) {
			benchRounds(b, newCondBarrier(2).Wait, skew)
		})
	}
}
