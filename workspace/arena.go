package workspace

import (
	"fmt"
	"sync"
)

// Arena lends packing and scatter storage: per-worker slots and a free list of
// team sets. There is one per owner (a pool, or a caller that wants reuse) and
// deliberately no process-global one, so storage handed to a team always
// returns to the arena that issued it and a second owner can never see it.
//
// One mutex covers the slot flags, the free list and the counters, so a
// snapshot and an update share one synchronization point and Stats is exact
// whenever no call is in flight. Buffers themselves are touched outside the
// lock, by whoever holds them exclusively.
type Arena struct {
	mu      sync.Mutex
	workers []*Worker  // every slot ever made, checked out or not
	idle    []*teamSet // team sets not lent to anyone
	owned   int        // bytes held, idle or lent
	leased  int        // the part of owned lent to calls now
	panel   int        // bytes of team panels alone, idle or lent
	trace   *tracer    // nil unless the arena was made traced
}

// Provider is storage a call may borrow. It is sealed: the unexported method
// means only *Arena implements it, because the kernels write through the
// pointers it hands out and an implementation must keep the arena's alignment
// and exclusivity promises. Calling through the interface hides the callee
// from escape analysis, so a hot path should hold the *Arena itself: then the
// closure given to WithWorker stays on the caller's stack.
type Provider interface {
	NewWorker() *Worker
	WithWorker(w *Worker, req Req, f func(WorkerBufs))
	TakeTeam(req Req, pm, pn int) *TeamLease
	Trim()
	sealed()
}

func (*Arena) sealed() {}

// NewArena returns an arena that holds nothing yet.
func NewArena() *Arena { return &Arena{} }

// NewTracedArena returns an arena that also records every growth of storage it
// keeps (worker A blocks and tiles, team panels), with the OS thread that grew
// it. That is how tests prove a worker's buffers were first touched by the
// worker's own thread. The call-local buffers of a re-entrant call are not
// kept, so they are not traced.
func NewTracedArena() *Arena { return &Arena{trace: new(tracer)} }

// Stats reports what the arena holds and lends. Both figures are settled at
// every checkout, return, team take, panel growth, release and trim, so they
// are exact whenever no call is in flight. While one is, a checked-out worker
// slot is counted at the capacity it had at checkout, until it returns.
func (a *Arena) Stats() Stats {
	a.mu.Lock()
	defer a.mu.Unlock()
	return Stats{RetainedBytes: a.owned, LeasedBytes: a.leased}
}

// RetainedPanelBytes is the capacity of the team panels alone, idle or lent.
// Unlike RetainedBytes it does not depend on which workers happened to take
// part in a call, so two runs of one shape can be compared by it.
func (a *Arena) RetainedPanelBytes() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.panel
}

// Trim returns idle storage to the OS: the buffers of every slot not checked
// out and every team set not lent. Storage in use is never touched, so Trim is
// safe at any time; a trimmed slot simply grows again on its next call.
func (a *Arena) Trim() {
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, w := range a.workers {
		if w.out {
			continue
		}
		a.owned -= w.bytes()
		w.a.release()
		w.tile.release()
		w.scatter = nil
	}
	for i, s := range a.idle {
		a.owned -= s.bytes()
		a.panel -= s.panel.capBytes()
		s.panel.release()
		a.idle[i] = nil
	}
	a.idle = a.idle[:0]
	a.check()
}

// TraceTake returns this arena's recorded growths, oldest first, and clears
// them. It is empty unless the arena was made by NewTracedArena.
func (a *Arena) TraceTake() []Growth {
	if a.trace == nil {
		return nil
	}
	t := a.trace
	t.mu.Lock()
	defer t.mu.Unlock()
	log := t.log
	t.log = nil
	return log
}

// check turns a bookkeeping mistake into a loud failure instead of a silently
// wrong figure. The caller holds a.mu.
func (a *Arena) check() {
	if a.owned < 0 || a.leased < 0 || a.panel < 0 || a.leased > a.owned || a.panel > a.owned {
		panic(fmt.Sprintf("workspace: accounting out of range (retained %d, leased %d, panel %d)", a.owned, a.leased, a.panel))
	}
}

// checkReq rejects a request no buffer can satisfy before anything is taken,
// so a bad request never needs unwinding.
func checkReq(r Req) {
	for _, n := range [...]int{r.ABytes, r.TileBytes, r.WorkerScatter, r.BBytes, r.TeamScatter, r.Barriers} {
		if n < 0 || n > maxBytes {
			panic(fmt.Sprintf("workspace: request out of range: %+v", r))
		}
	}
}

// tracer is a traced arena's growth log. It has its own lock because a panel
// grows while the arena lock is held.
type tracer struct {
	mu  sync.Mutex
	log []Growth
}

// record logs one growth to bytes by the calling goroutine's OS thread.
func (t *tracer) record(bytes int) {
	id := threadID()
	t.mu.Lock()
	t.log = append(t.log, Growth{Thread: id, Bytes: bytes})
	t.mu.Unlock()
}
