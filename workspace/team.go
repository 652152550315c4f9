package workspace

import "unsafe"

// leaseRing is how many lease objects a team set cycles through. Handing out
// the same object on every take would make a holder's stale second Release
// indistinguishable from the next holder's; cycling means a stale Release
// finds its own object, already released, for the next leaseRing-1 takes of
// the set, and allocating one object per take would break the promise that a
// steady-state call allocates nothing.
const leaseRing = 64

// teamSet is a team's shared storage: the packed B panel, the block-scatter
// vectors and the barriers that publish the panel between a column group's
// members. Sets are kept on a free list and lent whole.
type teamSet struct {
	panel   pageBuf
	scatter []int64
	bars    []*Barrier // what the current lease sees
	pool    []*Barrier // every barrier the set has made, reused across takes
	takes   uint64     // how many times the set has been lent
	leases  [leaseRing]TeamLease
}

// barrierBytes is what one barrier costs the arena.
const barrierBytes = int(unsafe.Sizeof(Barrier{}))

// bytes is the capacity the set holds.
func (s *teamSet) bytes() int {
	return s.panel.capBytes() + 8*cap(s.scatter) + barrierBytes*len(s.pool)
}

// prepare sizes the scatter vectors and the barriers for one call. The panel is
// left to TeamLease.Panel, because only the driver knows its size per group.
//
// Barriers are re-armed on every take, not only when the team shape changes:
// re-arming costs a store per barrier and also clears a round that an earlier
// call abandoned by panicking. Under the lease's exclusivity nobody waits on
// them now.
func (s *teamSet) prepare(req Req, pm int) {
	s.scatter = reserve(s.scatter, req.TeamScatter)
	for len(s.pool) < req.Barriers {
		s.pool = append(s.pool, NewBarrier(pm))
	}
	s.bars = s.pool[:req.Barriers:req.Barriers]
	for _, b := range s.bars {
		b.reset(pm)
	}
}

// TeamLease is an exclusive loan of one team set, from TakeTeam until Release.
// The set is opaque: the panel grows only through Panel, so every byte the
// arena hands out is accounted.
type TeamLease struct {
	// arena and set never change once the set exists; the other fields are
	// written and read under arena.mu.
	arena  *Arena
	set    *teamSet
	take   uint64 // which take of the set this lease is
	billed int    // bytes this lease added to the arena's leased figure
	live   bool
}

// TakeTeam lends a team set for a pm×pn team exclusively until Release, so two
// concurrent calls never share a panel, scatter vectors or barriers. The
// scatter vectors are empty with at least req.TeamScatter capacity; there are
// req.Barriers barriers of pm participants each (the driver asks for one per
// column group when pm > 1). A panic while preparing the set returns it to the
// free list and settles the counters.
func (a *Arena) TakeTeam(req Req, pm, pn int) *TeamLease {
	checkReq(req)
	if pm < 1 || pn < 1 {
		panic("workspace: team shape must be at least 1x1")
	}
	a.mu.Lock()
	var set *teamSet
	if n := len(a.idle); n > 0 {
		set = a.idle[n-1]
		a.idle[n-1] = nil
		a.idle = a.idle[:n-1]
	}
	a.mu.Unlock()
	if set == nil {
		// A new set holds nothing, so the counters do not move yet.
		set = &teamSet{}
		for i := range set.leases {
			set.leases[i] = TeamLease{arena: a, set: set}
		}
	}
	before := set.bytes()
	prepared := false
	defer func() {
		if !prepared {
			a.mu.Lock()
			a.owned += set.bytes() - before
			a.idle = append(a.idle, set)
			a.check()
			a.mu.Unlock()
		}
	}()
	set.prepare(req, pm)
	prepared = true
	after := set.bytes()

	a.mu.Lock()
	defer a.mu.Unlock()
	a.owned += after - before
	a.leased += after
	set.takes++
	l := &set.leases[set.takes%leaseRing]
	l.take, l.billed, l.live = set.takes, after, true
	a.check()
	return l
}

// Panel returns the first bytes bytes of the team's shared B panel, growing it
// first when it is smaller, and accounts the growth at once. It is safe to call
// from several members at the same time with the same size: the first grows,
// the others get the same storage. A growth moves the panel, so slices from an
// earlier, smaller call of the same lease must not be used after it.
func (l *TeamLease) Panel(bytes int) []byte {
	if bytes < 0 || bytes > maxBytes {
		panic("workspace: panel size out of range")
	}
	a := l.arena
	a.mu.Lock()
	defer a.mu.Unlock()
	if !l.live {
		panic("workspace: panel of a released lease")
	}
	set := l.set
	before := set.panel.capBytes()
	if bytes <= before {
		return set.panel.ensure(bytes, nil)
	}
	// Settle whatever capacity the panel ends with, even when the mapping
	// fails; deferred calls run before the unlock above.
	defer func() {
		delta := set.panel.capBytes() - before
		a.owned += delta
		a.leased += delta
		a.panel += delta
		l.billed += delta
		a.check()
	}()
	return set.panel.ensure(bytes, a.trace)
}

// Scatter is the team's block-scatter vectors, empty at the start of the
// lease. The driver may append past the reserved capacity; Release accounts
// the capacity it ends with.
func (l *TeamLease) Scatter() *[]int64 { return &l.set.scatter }

// Barriers are the team's barriers, one per column group when pm > 1, each of
// pm participants, and empty when the request asked for none.
func (l *TeamLease) Barriers() []*Barrier { return l.set.bars }

// Release returns the set to the arena. It is idempotent, and a stale lease's
// second Release finds its own lease already released and does nothing, even
// when the set has been lent again since (up to leaseRing-1 later takes of the
// same set). Everything obtained from the lease must be out of use by then.
func (l *TeamLease) Release() {
	a := l.arena
	a.mu.Lock()
	defer a.mu.Unlock()
	if !l.live {
		return
	}
	set := l.set
	if set.takes != l.take {
		panic("workspace: a live lease that is not its set's current one")
	}
	l.live = false
	// The scatter vectors may have grown by append, outside Panel's
	// accounting, so the retained figure follows the set's capacity now.
	a.owned += set.bytes() - l.billed
	a.leased -= l.billed
	a.idle = append(a.idle, set)
	a.check()
}
