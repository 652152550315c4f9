package workspace

import (
	"runtime"
	"sync"
	"testing"
)

func TestWithWorkerBuffers(t *testing.T) {
	a := NewArena()
	w := a.NewWorker()
	req := Req{ABytes: 5000, TileBytes: 100, WorkerScatter: 10}
	var first WorkerBufs
	a.WithWorker(w, req, func(b WorkerBufs) {
		if len(b.A) != 5000 || len(b.Tile) != 100 {
			t.Fatalf("lengths A %d tile %d", len(b.A), len(b.Tile))
		}
		if addr(b.A)%pageSize != 0 || addr(b.Tile)%pageSize != 0 {
			t.Fatalf("A at %#x, tile at %#x: not page-aligned", addr(b.A), addr(b.Tile))
		}
		if len(*b.Scatter) != 0 || cap(*b.Scatter) < 10 {
			t.Fatalf("scatter len %d cap %d", len(*b.Scatter), cap(*b.Scatter))
		}
		fill(b.A, 1)
		fill(b.Tile, 2)
		*b.Scatter = append(*b.Scatter, 1, 2, 3)
		first = b
	})
	want := roundCap(5000) + roundCap(100) + 8*10
	if s := a.Stats(); s != (Stats{RetainedBytes: want}) {
		t.Fatalf("stats %+v, want retained %d", s, want)
	}
	// The next call reuses the same storage, unzeroed, with an empty scatter.
	a.WithWorker(w, Req{ABytes: 4000, TileBytes: 100, WorkerScatter: 4}, func(b WorkerBufs) {
		if addr(b.A) != addr(first.A) || addr(b.Tile) != addr(first.Tile) {
			t.Fatal("steady-state call did not reuse the slot's storage")
		}
		if !holds(b.A, 1) || !holds(b.Tile, 2) {
			t.Fatal("storage was rewritten between calls")
		}
		if len(*b.Scatter) != 0 {
			t.Fatal("scatter not emptied")
		}
	})
	// A zero request never allocates, and leaves what the slot holds.
	a.WithWorker(w, Req{}, func(b WorkerBufs) {
		if b.A != nil || b.Tile != nil || len(*b.Scatter) != 0 {
			t.Fatal("zero request handed out storage")
		}
	})
	if s := a.Stats(); s.RetainedBytes != want || s.LeasedBytes != 0 {
		t.Fatalf("stats %+v after reuse, want retained %d", s, want)
	}
	if err := audit(a); err != nil {
		t.Fatal(err)
	}
}

func TestStatsCountCheckoutCapacity(t *testing.T) {
	a := NewArena()
	w := a.NewWorker()
	a.WithWorker(w, Req{ABytes: 8192}, func(WorkerBufs) {
		// The slot held nothing when it was checked out.
		if s := a.Stats(); s != (Stats{}) {
			t.Fatalf("in flight, first call: %+v", s)
		}
	})
	if s := a.Stats(); s != (Stats{RetainedBytes: roundCap(8192)}) {
		t.Fatalf("after first call: %+v", s)
	}
	a.WithWorker(w, Req{ABytes: 20000, TileBytes: 1}, func(WorkerBufs) {
		// Counted at the capacity it had at checkout, not at what it grew to.
		if s := a.Stats(); s != (Stats{RetainedBytes: roundCap(8192), LeasedBytes: roundCap(8192)}) {
			t.Fatalf("in flight, growing call: %+v", s)
		}
	})
	if s := a.Stats(); s != (Stats{RetainedBytes: roundCap(20000) + roundCap(1)}) {
		t.Fatalf("after growing call: %+v", s)
	}
}

func TestWorkerScatterGrowthSettled(t *testing.T) {
	a := NewArena()
	w := a.NewWorker()
	a.WithWorker(w, Req{WorkerScatter: 4}, func(b WorkerBufs) {
		*b.Scatter = append(*b.Scatter, make([]int64, 1000)...)
	})
	a.mu.Lock()
	c := cap(w.scatter)
	a.mu.Unlock()
	if c < 1000 {
		t.Fatalf("appended scatter not kept: cap %d", c)
	}
	if s := a.Stats(); s != (Stats{RetainedBytes: 8 * c}) {
		t.Fatalf("stats %+v, want retained %d", s, 8*c)
	}
}

func TestWithWorkerReentrantGetsFreshBuffers(t *testing.T) {
	a := NewTracedArena()
	w := a.NewWorker()
	req := Req{ABytes: 8192, TileBytes: 4096, WorkerScatter: 8}
	a.WithWorker(w, req, func(outer WorkerBufs) {
		fill(outer.A, 0x11)
		fill(outer.Tile, 0x22)
		*outer.Scatter = append(*outer.Scatter, 42)
		before := a.Stats()
		if n := len(a.TraceTake()); n != 2 {
			t.Fatalf("outer call traced %d growths, want 2", n)
		}
		a.WithWorker(w, Req{ABytes: 3 * 8192, TileBytes: 4096, WorkerScatter: 100}, func(inner WorkerBufs) {
			if len(inner.A) != 3*8192 || len(inner.Tile) != 4096 || cap(*inner.Scatter) < 100 {
				t.Fatal("re-entrant buffers of the wrong size")
			}
			if addr(inner.A)%pageSize != 0 || addr(inner.Tile)%pageSize != 0 {
				t.Fatal("re-entrant buffers not page-aligned")
			}
			for _, o := range [][]byte{outer.A, outer.Tile} {
				for _, i := range [][]byte{inner.A, inner.Tile} {
					if addr(i) < addr(o)+uintptr(len(o)) && addr(o) < addr(i)+uintptr(len(i)) {
						t.Fatal("re-entrant call aliases its outer call's buffers")
					}
				}
			}
			if inner.Scatter == outer.Scatter {
				t.Fatal("re-entrant call shares the outer scatter")
			}
			fill(inner.A, 0x33)
			fill(inner.Tile, 0x44)
			*inner.Scatter = append(*inner.Scatter, make([]int64, 500)...)
			if s := a.Stats(); s != before {
				t.Fatalf("re-entrant buffers were counted: %+v, was %+v", s, before)
			}
		})
		if n := len(a.TraceTake()); n != 0 {
			t.Fatalf("re-entrant buffers were traced (%d records)", n)
		}
		if !holds(outer.A, 0x11) || !holds(outer.Tile, 0x22) || (*outer.Scatter)[0] != 42 {
			t.Fatal("re-entrant call disturbed the outer buffers")
		}
	})
	if s := a.Stats(); s != (Stats{RetainedBytes: roundCap(8192) + roundCap(4096) + 64}) {
		t.Fatalf("stats %+v after re-entrant call", s)
	}
}

func TestWithWorkerPanicInCallback(t *testing.T) {
	a := NewArena()
	w := a.NewWorker()
	var kept uintptr
	func() {
		defer func() {
			if r := recover(); r != "boom" {
				t.Fatalf("recovered %v, want the callback's panic", r)
			}
		}()
		a.WithWorker(w, Req{ABytes: 8192, WorkerScatter: 3}, func(b WorkerBufs) {
			kept = addr(b.A)
			*b.Scatter = append(*b.Scatter, make([]int64, 64)...)
			panic("boom")
		})
	}()
	if err := audit(a); err != nil {
		t.Fatal(err)
	}
	if s := a.Stats(); s.LeasedBytes != 0 || s.RetainedBytes < roundCap(8192)+8*64 {
		t.Fatalf("stats %+v after a panicking callback", s)
	}
	// The slot came back: the next call gets its storage, not a fresh buffer.
	a.WithWorker(w, Req{ABytes: 8192}, func(b WorkerBufs) {
		if addr(b.A) != kept {
			t.Fatal("slot not returned after a panic")
		}
	})
}

func TestWithWorkerPanicInPreparation(t *testing.T) {
	a := NewArena()
	w := a.NewWorker()
	called := false
	// A grows, then the tile mapping fails.
	mustPanic(t, "impossible tile", func() {
		a.WithWorker(w, Req{ABytes: 8192, TileBytes: impossible}, func(WorkerBufs) { called = true })
	})
	if called {
		t.Fatal("callback ran although preparation failed")
	}
	if s := a.Stats(); s != (Stats{RetainedBytes: roundCap(8192)}) {
		t.Fatalf("stats %+v after a failed preparation, want the grown A counted", s)
	}
	if err := audit(a); err != nil {
		t.Fatal(err)
	}
	a.WithWorker(w, Req{ABytes: 10}, func(WorkerBufs) { called = true })
	if !called {
		t.Fatal("slot unusable after a failed preparation")
	}
}

func TestWithWorkerRejectsBadCalls(t *testing.T) {
	a, b := NewArena(), NewArena()
	w := a.NewWorker()
	mustPanic(t, "worker of another arena", func() { b.WithWorker(w, Req{}, func(WorkerBufs) {}) })
	mustPanic(t, "nil worker", func() { a.WithWorker(nil, Req{}, func(WorkerBufs) {}) })
	mustPanic(t, "negative size", func() { a.WithWorker(w, Req{ABytes: -1}, func(WorkerBufs) {}) })
	// A rejected call took nothing: the slot is free and nothing is counted.
	ran := false
	a.WithWorker(w, Req{}, func(WorkerBufs) { ran = true })
	if !ran || a.Stats() != (Stats{}) || b.Stats() != (Stats{}) {
		t.Fatal("a rejected call changed the arena")
	}
}

// TestExclusivity runs workers, shared handles, team leases, Stats and Trim at
// once. Every holder writes its own mark into everything it was lent, yields,
// and checks the mark survived, so any aliasing between holders shows up as a
// changed byte; the scatter vectors and the arena's own state live in the Go
// heap, where the race detector watches them too.
func TestExclusivity(t *testing.T) {
	a := NewArena()
	shared := a.NewWorker()
	const goroutines, rounds = 4, 60
	var wg sync.WaitGroup
	stop := make(chan struct{})
	go func() {
		for {
			select {
			case <-stop:
				return
			default:
				_ = a.Stats()
				_ = a.RetainedPanelBytes()
				a.Trim()
				runtime.Gosched()
			}
		}
	}()
	for g := range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mark := byte(g + 1)
			own := a.NewWorker()
			use := func(b WorkerBufs) {
				fill(b.A, mark)
				fill(b.Tile, mark)
				*b.Scatter = append(*b.Scatter, int64(mark))
				runtime.Gosched()
				if !holds(b.A, mark) || !holds(b.Tile, mark) || (*b.Scatter)[0] != int64(mark) {
					t.Errorf("goroutine %d: worker buffers changed under it", g)
				}
			}
			for r := range rounds {
				req := Req{ABytes: 4096 * (1 + r%3), TileBytes: 512, WorkerScatter: 4,
					BBytes: 8192 * (1 + r%2), TeamScatter: 16}
				a.WithWorker(own, req, use)
				a.WithWorker(shared, req, use)
				l := a.TakeTeam(req, 1, 1)
				p := l.Panel(req.BBytes)
				fill(p, mark)
				*l.Scatter() = append(*l.Scatter(), int64(mark))
				runtime.Gosched()
				if !holds(p, mark) || (*l.Scatter())[0] != int64(mark) {
					t.Errorf("goroutine %d: team set changed under it", g)
				}
				l.Release()
			}
		}()
	}
	wg.Wait()
	close(stop)
	if err := audit(a); err != nil {
		t.Fatal(err)
	}
	a.Trim()
	if s := a.Stats(); s != (Stats{}) || a.RetainedPanelBytes() != 0 {
		t.Fatalf("after the final trim: %+v, panel %d", s, a.RetainedPanelBytes())
	}
}
