package workspace

import (
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"
)

// A barrier sits on the hot path of every KC block: a column group's members
// meet at it once the shared B panel is packed. They usually arrive within a
// short time of each other, so a waiter first polls the round counter and only
// then blocks on a condition variable. Blocking is dear for a pool worker: its
// goroutine is locked to its OS thread, so parking it hands its P away and
// puts the thread to sleep, and waking it takes the reverse trip. Yielding
// with runtime.Gosched costs the same trip on a locked thread (tens of
// microseconds when measured), so the spin phase is plain loads only.
//
// spinLoads is how many times a waiter polls before it blocks: 1<<11 polls
// take about 0.65µs on the Zen 5 this was written on (0.32 ns a poll), several
// times what handing a cache line between two cores costs, so members that
// arrive together never park. Longer budgets lost on the shared two-core
// machines this project runs on: while the partner waits for a CPU, a spinning
// waiter only keeps it from getting one (BenchmarkBarrierSpin measures it).
// When the Go scheduler has fewer Ps than the barrier has participants, a
// spinning waiter would hold a P its partner needs, so such a barrier does
// not spin at all. It is a variable so the benchmarks can sweep it.
var spinLoads = 1 << 11

// barrierState is what a Barrier holds; Barrier pads it.
type barrierState struct {
	n        int32        // participants; changed only while nobody waits
	spin     int32        // polls before blocking; set with n
	arrived  atomic.Int32 // arrivals in the current round
	round    atomic.Uint32
	sleepers atomic.Int32 // waiters that may be blocked on cond
	mu       sync.Mutex
	cond     sync.Cond
}

// Barrier is a reusable meeting point for a fixed number of goroutines: each
// round ends when all of them have called Wait, and everything each of them
// wrote before its Wait is visible to all of them after. It is padded to two
// cache lines so the barriers of neighbouring column groups do not share one.
type Barrier struct {
	barrierState
	_ [(128 - unsafe.Sizeof(barrierState{})%128) % 128]byte
}

// NewBarrier returns a barrier of n participants.
func NewBarrier(n int) *Barrier {
	b := new(Barrier)
	b.cond.L = &b.mu
	b.reset(n)
	return b
}

// reset re-arms the barrier for n participants, with a spin budget that fits
// the scheduler as it is now. Nobody may be waiting.
func (b *Barrier) reset(n int) {
	if n < 1 || n > 1<<30 {
		panic("workspace: barrier size out of range")
	}
	b.n = int32(n)
	b.spin = int32(spinLoads)
	if runtime.GOMAXPROCS(0) < n {
		b.spin = 0
	}
	b.arrived.Store(0)
}

// Size is the number of participants.
func (b *Barrier) Size() int { return int(b.n) }

// Wait blocks until all participants of this round have called it.
func (b *Barrier) Wait() {
	r := b.round.Load()
	if b.arrived.Add(1) == b.n {
		// The last arrival resets the count before opening the round, so no
		// participant can arrive for the next round before the reset.
		b.arrived.Store(0)
		b.round.Add(1)
		// A waiter announces itself in sleepers before its last look at
		// round, and this side looks at sleepers after advancing round; the
		// two atomics are sequentially consistent, so at least one side sees
		// the other and no wake-up is lost. Taking the lock waits out a
		// waiter between its look and cond.Wait.
		if b.sleepers.Load() != 0 {
			b.mu.Lock()
			b.mu.Unlock()
			b.cond.Broadcast()
		}
		return
	}
	for range b.spin {
		if b.round.Load() != r {
			return
		}
	}
	b.mu.Lock()
	b.sleepers.Add(1)
	for b.round.Load() == r {
		b.cond.Wait()
	}
	b.sleepers.Add(-1)
	b.mu.Unlock()
}
