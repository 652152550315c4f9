package workspace

import (
	"reflect"
	"runtime"
	"testing"
)

// TestFirstTouchByOwningThread is the reason a worker grows its own buffers:
// the trace shows each growth was made on the OS thread of the worker that
// uses the buffer, and a worker locked to its thread keeps that thread.
func TestFirstTouchByOwningThread(t *testing.T) {
	a := NewTracedArena()
	type result struct{ tid int }
	req := Req{ABytes: 3 * pageSize, TileBytes: 100, WorkerScatter: 16}
	res := make(chan result)
	hold := make(chan struct{}) // keeps both workers on their threads until both reported
	for range 2 {
		go func() {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			w := a.NewWorker()
			tid := threadID()
			a.WithWorker(w, req, func(b WorkerBufs) {
				fill(b.A, 1)
				fill(b.Tile, 1)
			})
			res <- result{tid: tid}
			<-hold
		}()
	}
	r1, r2 := <-res, <-res
	close(hold)
	if r1.tid == r2.tid {
		t.Fatalf("two locked workers report one thread %d", r1.tid)
	}
	log := a.TraceTake()
	if len(log) != 4 {
		t.Fatalf("%d growths traced, want A and tile of two workers: %+v", len(log), log)
	}
	per := map[int][]int{}
	for _, g := range log {
		per[g.Thread] = append(per[g.Thread], g.Bytes)
	}
	for _, tid := range []int{r1.tid, r2.tid} {
		got := per[tid]
		if len(got) != 2 || got[0] != roundCap(3*pageSize) || got[1] != mapGranule {
			t.Fatalf("thread %d grew %v, want its own A then tile", tid, got)
		}
	}
	if len(a.TraceTake()) != 0 {
		t.Fatal("TraceTake did not clear the log")
	}
}

func TestTracePerArena(t *testing.T) {
	a, b, plain := NewTracedArena(), NewTracedArena(), NewArena()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	tid := threadID()
	wa, wb, wp := a.NewWorker(), b.NewWorker(), plain.NewWorker()
	a.WithWorker(wa, Req{ABytes: 100}, func(WorkerBufs) {})
	a.WithWorker(wa, Req{ABytes: 100}, func(WorkerBufs) {}) // no growth, no record
	b.WithWorker(wb, Req{TileBytes: 1 << 16}, func(WorkerBufs) {})
	plain.WithWorker(wp, Req{ABytes: 100}, func(WorkerBufs) {})
	l := b.TakeTeam(Req{BBytes: 1 << 17}, 1, 1)
	l.Panel(1 << 17)
	l.Release()
	if got := a.TraceTake(); !reflect.DeepEqual(got, []Growth{{tid, mapGranule}}) {
		t.Fatalf("arena a traced %+v", got)
	}
	if got := b.TraceTake(); !reflect.DeepEqual(got, []Growth{{tid, roundCap(1 << 16)}, {tid, roundCap(1 << 17)}}) {
		t.Fatalf("arena b traced %+v", got)
	}
	if got := plain.TraceTake(); len(got) != 0 {
		t.Fatalf("untraced arena recorded %+v", got)
	}
}

// TestTrimWithLeaseOut trims while a worker slot and a team set are lent: only
// the idle storage goes, and what is lent keeps working and is counted.
func TestTrimWithLeaseOut(t *testing.T) {
	a := NewArena()
	idle, busy := a.NewWorker(), a.NewWorker()
	req := Req{ABytes: 8192, TileBytes: 4096, WorkerScatter: 8, BBytes: 16384, TeamScatter: 8}
	a.WithWorker(idle, req, func(WorkerBufs) {})
	a.WithWorker(busy, req, func(WorkerBufs) {})
	spare := a.TakeTeam(req, 1, 1)
	spare.Panel(req.BBytes)
	lent := a.TakeTeam(req, 1, 1)
	panel := lent.Panel(req.BBytes)
	spare.Release()
	slot := roundCap(8192) + roundCap(4096) + 64
	set := roundCap(16384) + 64
	if s := a.Stats(); s != (Stats{RetainedBytes: 2*slot + 2*set, LeasedBytes: set}) {
		t.Fatalf("before trim: %+v", s)
	}
	a.WithWorker(busy, req, func(b WorkerBufs) {
		fill(b.A, 9)
		fill(panel, 9)
		a.Trim()
		// The busy slot (counted at checkout) and the lent set stay.
		if s := a.Stats(); s != (Stats{RetainedBytes: slot + set, LeasedBytes: slot + set}) {
			t.Fatalf("after trim, in flight: %+v", s)
		}
		if a.RetainedPanelBytes() != roundCap(16384) {
			t.Fatalf("trim freed a lent panel: %d left", a.RetainedPanelBytes())
		}
		fill(b.Tile, 9)
		if !holds(b.A, 9) || !holds(panel, 9) {
			t.Fatal("trim disturbed lent storage")
		}
	})
	lent.Release()
	if s := a.Stats(); s != (Stats{RetainedBytes: slot + set}) {
		t.Fatalf("after returning: %+v", s)
	}
	if err := audit(a); err != nil {
		t.Fatal(err)
	}
	// A trimmed slot simply grows again.
	a.WithWorker(idle, req, func(b WorkerBufs) { fill(b.A, 1) })
	a.Trim()
	if s := a.Stats(); s != (Stats{}) || a.RetainedPanelBytes() != 0 {
		t.Fatalf("after trimming everything: %+v, panel %d", s, a.RetainedPanelBytes())
	}
}

// TestProviderSealed checks that only this package can implement Provider:
// an interface with an unexported method cannot be satisfied elsewhere.
func TestProviderSealed(t *testing.T) {
	var p Provider = NewArena()
	typ := reflect.TypeOf(&p).Elem()
	sealed := false
	for i := range typ.NumMethod() {
		if !typ.Method(i).IsExported() {
			sealed = true
		}
	}
	if !sealed {
		t.Fatal("Provider has no unexported method, so it is not sealed")
	}
	// It lends the same storage as the arena.
	w := p.NewWorker()
	p.WithWorker(w, Req{ABytes: 1}, func(b WorkerBufs) { b.A[0] = 1 })
	p.TakeTeam(Req{}, 1, 1).Release()
	p.Trim()
}
