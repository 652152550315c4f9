package workspace

// Worker names one worker's slot in an arena: its packed A block, its tile and
// its scatter scratch. A pool worker goroutine, locked to its OS thread for
// life, owns one, so the storage is grown (and first touched) by the thread
// that keeps using it. The handle is only a name: the storage is the arena's,
// and a slot that Trim emptied is simply grown again on its next call.
type Worker struct {
	arena *Arena
	out   bool // checked out by a call; guarded by arena.mu
	// The buffers are touched only by the call that has the slot checked out,
	// or under arena.mu while it is not.
	a, tile pageBuf
	scatter []int64
}

// bytes is the capacity the slot holds.
func (w *Worker) bytes() int {
	return w.a.capBytes() + w.tile.capBytes() + 8*cap(w.scatter)
}

// NewWorker makes a slot in the arena and returns its handle. The slot holds
// nothing until its first call. Slots live as long as the arena (Trim empties
// them but keeps them), so owners keep their handles, a pool one per worker
// and callers on a free list, rather than making one per call.
func (a *Arena) NewWorker() *Worker {
	w := &Worker{arena: a}
	a.mu.Lock()
	a.workers = append(a.workers, w)
	a.mu.Unlock()
	return w
}

// WithWorker runs f with w's buffers sized for req: A and Tile of exactly the
// requested lengths on page boundaries, Scatter empty with at least the
// requested capacity. The contents are whatever the last call left: write
// before reading.
//
// The slot is checked out while f runs, so nothing else (Trim, Stats, another
// goroutine using the same handle) sees it. A call that finds it checked out,
// such as a re-entrant call from inside f, gets fresh call-local buffers
// instead of aliasing the ones in use (waiting for itself would deadlock);
// they are freed when it returns and are neither counted nor traced, since the
// arena never holds them.
//
// A panic in f or while growing the buffers returns the slot and settles the
// counters before it propagates. f is only called, never kept, so a closure
// passed here stays on the caller's stack.
func (a *Arena) WithWorker(w *Worker, req Req, f func(WorkerBufs)) {
	checkReq(req)
	if w == nil || w.arena != a {
		panic("workspace: worker of another arena")
	}
	a.mu.Lock()
	if w.out {
		a.mu.Unlock()
		freshWorker(req, f)
		return
	}
	w.out = true
	billed := w.bytes()
	a.leased += billed
	a.mu.Unlock()
	// Deferred before any growth, so a failed mapping returns the slot too.
	defer a.giveBack(w, billed)
	w.scatter = reserve(w.scatter, req.WorkerScatter)
	f(WorkerBufs{
		A:       w.a.ensure(req.ABytes, a.trace),
		Tile:    w.tile.ensure(req.TileBytes, a.trace),
		Scatter: &w.scatter,
	})
}

// giveBack returns a checked-out slot. The retained figure follows the slot's
// capacity now (it may have grown, or shrunk if a mapping failed, or the
// caller may have appended to its scatter); the leased figure drops by exactly
// what the checkout added, since nothing else was lent meanwhile.
func (a *Arena) giveBack(w *Worker, billed int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.owned += w.bytes() - billed
	a.leased -= billed
	w.out = false
	a.check()
}

// freshWorker serves a call whose slot is already in use, with buffers that
// live only for the call. Their price is a mapping per call, which only a
// re-entrant caller pays.
func freshWorker(req Req, f func(WorkerBufs)) {
	var a, tile pageBuf
	defer a.release()
	defer tile.release()
	scratch := make([]int64, 0, req.WorkerScatter)
	f(WorkerBufs{
		A:       a.ensure(req.ABytes, nil),
		Tile:    tile.ensure(req.TileBytes, nil),
		Scatter: &scratch,
	})
}
