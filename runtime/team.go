package runtime

import (
	goruntime "runtime"
	"sync"
	"sync/atomic"
)

// teamSync is how the members of a team share packed B panels and split the
// work of each round without a full barrier.
//
// A round is one KC×NC panel of B (one pc step of one jc step of one batch
// element). Its work is a list of units, each an MC block of rows times a
// run of B slivers; members take units from the round's counter as they
// come free, so a member slowed by the machine takes fewer of them instead
// of holding the others at a barrier. The panel of a round is packed by
// every member together, one part each, into one of two buffers: a member
// waits only for the parts its unit reads (ready), and a part is repacked
// two rounds later only when every member has left the round that read it
// (done). A unit's C block is accumulated round after round in order
// (unitDone), since the first round applies beta. When a round has a
// single MC block, no two units read one sliver, so each unit packs its
// own slivers and waits for no member's part (ownSlivers): with the
// panel packed by parts, units of a member that packed first waited on
// the other's part for a quarter of the call (TCCG's abcd-dbea-ec, whose
// packing of B weighs as much as its FMAs).
//
// Measured on the 2-core machines this runs on, a pair of barriers per round
// left members waiting for a tenth of the time: the two cores' speeds drift
// apart with the host's load, so equal static shares are not equal times.
type teamSync struct {
	ready    []paddedInt // per member: rounds whose part of the panel it has packed
	done     []paddedInt // per member: rounds it has finished
	counter  []paddedInt // per round: units taken
	unitDone []paddedInt // per unit: rounds of it finished

	poll     bool // members poll before blocking (enough Ps for all)
	mu       sync.Mutex
	cond     sync.Cond
	sleepers atomic.Int32
}

// paddedInt keeps each counter on its own cache line: members update them
// from different cores.
type paddedInt struct {
	atomic.Int64
	_ [56]byte
}

// prepare sizes and zeroes the state for members, rounds and units, reusing
// the slices of earlier calls.
func (t *teamSync) prepare(members, rounds, units int) {
	t.cond.L = &t.mu
	t.poll = goruntime.GOMAXPROCS(0) >= members
	t.ready = resize(t.ready, members)
	t.done = resize(t.done, members)
	t.counter = resize(t.counter, rounds)
	t.unitDone = resize(t.unitDone, units)
}

func resize(s []paddedInt, n int) []paddedInt {
	if cap(s) < n {
		s = make([]paddedInt, n)
	}
	s = s[:n]
	for i := range s {
		s[i].Store(0)
	}
	return s
}

// minDone is the fewest rounds any member has finished.
func (t *teamSync) minDone() int64 {
	m := t.done[0].Load()
	for i := 1; i < len(t.done); i++ {
		m = min(m, t.done[i].Load())
	}
	return m
}

// spinPolls is how long a member polls before it blocks: about the time a
// member takes to pack its part of a panel, which is what members usually
// wait for. Beyond it the partner is most likely off its CPU (the machine
// is shared), and polling would only keep it off longer.
const spinPolls = 1 << 16

// waitUntil polls cond, then blocks until a member publishes progress and
// cond holds. With fewer Ps than members it does not poll at all: the
// member it waits for may need this P.
func (t *teamSync) waitUntil(cond func() bool) {
	if t.poll {
		for range spinPolls {
			if cond() {
				return
			}
		}
	}
	if cond() {
		return
	}
	t.mu.Lock()
	t.sleepers.Add(1)
	for !cond() {
		t.cond.Wait()
	}
	t.sleepers.Add(-1)
	t.mu.Unlock()
}

// publishMax raises v to x (never lowers it) and wakes blocked members. A
// unit's rounds in two panels of C are independent, so the first round of
// the next panel may finish before the last round of this one: the counter
// must keep the larger. That cannot hide an unfinished round a waiter needs:
// a member starts round r only when every member has finished round r-2,
// so the waiter of round r (needing r-1) sees at most rounds r-1 and r+1
// finish besides its own, and r+1 itself needs r-1 finished.
func (t *teamSync) publishMax(v *paddedInt, x int64) {
	for {
		old := v.Load()
		if old >= x || v.CompareAndSwap(old, x) {
			break
		}
	}
	t.wake()
}

// publish stores progress and wakes blocked members. A waiter counts itself
// in sleepers before its last look at the flags, and publish looks at
// sleepers after its store; both are sequentially consistent, so one side
// sees the other and no wake-up is lost. Taking the lock waits out a waiter
// between its last look and cond.Wait.
func (t *teamSync) publish(v *paddedInt, x int64) {
	v.Store(x)
	t.wake()
}

func (t *teamSync) wake() {
	if t.sleepers.Load() != 0 {
		t.mu.Lock()
		t.mu.Unlock()
		t.cond.Broadcast()
	}
}
