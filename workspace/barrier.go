package workspace

import (
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"
)

// A barrier sits on the hot path of every KC block: a column group's members
// meet at it once the shared B panel is packed. They usually arrive within a
// short time of each other, so a waiter first polls the round counter
// (spinLoads plain loads, then spinYields yields to let a descheduled member
// run) and only then blocks on a condition variable, which costs a futex
// round-trip on both sides.
const (
	spinLoads  = 256
	spinYields = 8
)

// barrierState is what a Barrier holds; Barrier pads it.
type barrierState struct {
	n        int32        // participants; changed only while nobody waits
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

// reset re-arms the barrier for n participants. Nobody may be waiting.
func (b *Barrier) reset(n int) {
	if n < 1 || n > 1<<30 {
		panic("workspace: barrier size out of range")
	}
	b.n = int32(n)
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
			b.mu.Unlock() //nolint:staticcheck // an empty critical section is the point
			b.cond.Broadcast()
		}
		return
	}
	for range spinLoads {
		if b.round.Load() != r {
			return
		}
	}
	for range spinYields {
		runtime.Gosched()
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
