package runtime

import (
	goruntime "runtime"
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
// (unitDone), since the first round applies beta.
//
// Measured on the 2-core machines this runs on, a pair of barriers per round
// left members waiting for a tenth of the time: the two cores' speeds drift
// apart with the host's load, so equal static shares are not equal times.
type teamSync struct {
	ready    []paddedInt // per member: rounds whose part of the panel it has packed
	done     []paddedInt // per member: rounds it has finished
	counter  []paddedInt // per round: units taken
	unitDone []paddedInt // per unit: rounds of it finished
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

// spinPolls is how long a member polls before it yields its thread: long
// enough to cover the packing of a part of a panel, which is what a member
// usually waits for.
const spinPolls = 1 << 18

// waitUntil polls cond, then yields between polls. Members run on their own
// threads, so the polling normally ends within microseconds; yielding keeps
// a team that has more members than Go has Ps moving.
func waitUntil(cond func() bool) {
	for i := 0; !cond(); i++ {
		if i >= spinPolls {
			goruntime.Gosched()
		}
	}
}
