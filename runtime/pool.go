package runtime

import (
	goruntime "runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tcontract/tcontract/workspace"
)

// Pool runs calls on a team of threads and owns the arena that lends them
// storage. A pool of n threads has n-1 worker goroutines, each locked to its
// OS thread for life, and the calling goroutine is the team's first member:
// a call never waits for a worker to wake up before it starts, and a small
// call runs on the caller alone with no hand-off at all.
//
// Concurrent calls are safe: each takes the idle workers it can get (none
// when others have them all) and its own team set, so two calls never share
// one and a call never waits for another.
type Pool struct {
	threads int
	arena   *workspace.Arena
	workers []*poolWorker

	// slots hold the call records (each with a worker slot for its calling
	// goroutine) that callers take without a lock: a small call's whole
	// overhead is a few hundred nanoseconds, and a mutex pair is a fifth
	// of it.
	slots    [callSlots]callSlot
	spareOut atomic.Int64 // records beyond the slots in use
	closed   atomic.Bool

	mu    sync.Mutex
	idle  []*poolWorker // workers free to join a call
	spare []*call       // records for callers beyond the slots
}

// callSlots is how many concurrent callers take a record without a lock.
const callSlots = 8

type callSlot struct {
	busy atomic.Bool
	c    *call
	_    [48]byte // keep slots on their own cache lines
}

// poolWorker is one worker goroutine. A call hands it work by storing the
// call in task and sending a token on wake; the worker spins on task for a
// while before it blocks on wake, so back-to-back calls pay no OS wake-up.
type poolWorker struct {
	pool   *Pool
	ws     *workspace.Worker
	task   atomic.Pointer[call]
	member int
	wake   chan struct{}
	quit   chan struct{}
	done   chan struct{}
}

// spinTime bounds how long an idle worker and a waiting caller poll before
// blocking: long enough to cover the gap between back-to-back calls and
// the members' drift within one, short enough not to steal a core from
// other goroutines for long. A worker that blocks costs the next call an
// OS wake-up, tens of microseconds on these virtual machines: when idle
// workers polled 20000 rounds (about 6 µs), 256³ GEMMs on 2 threads ran
// slower than on one (float64 81-96 GFLOP/s against 104-107).
const spinTime = 200 * time.Microsecond

// poll calls ready until it reports true, for at most spinTime, and
// reports whether it did.
func poll(ready func() bool) bool {
	var deadline time.Time
	for i := 0; ; i++ {
		if ready() {
			return true
		}
		if i%1024 == 1023 {
			now := time.Now()
			if deadline.IsZero() {
				deadline = now.Add(spinTime)
			} else if now.After(deadline) {
				return false
			}
		}
	}
}

// NewPool starts a pool of threads threads (GOMAXPROCS when threads <= 0).
func NewPool(threads int) *Pool {
	if threads <= 0 {
		threads = goruntime.GOMAXPROCS(0)
	}
	p := &Pool{threads: threads, arena: workspace.NewArena()}
	for i := range p.slots {
		p.slots[i].c = newCall(p, threads)
		p.slots[i].c.slot = &p.slots[i]
	}
	for i := 1; i < threads; i++ {
		w := &poolWorker{
			pool: p,
			ws:   p.arena.NewWorker(),
			wake: make(chan struct{}, 1),
			quit: make(chan struct{}),
			done: make(chan struct{}),
		}
		p.workers = append(p.workers, w)
		p.idle = append(p.idle, w)
		go w.loop()
	}
	return p
}

var (
	defaultOnce sync.Once
	defaultPool *Pool
)

// Default is the package's pool of GOMAXPROCS threads, started on first use.
func Default() *Pool {
	defaultOnce.Do(func() { defaultPool = NewPool(0) })
	return defaultPool
}

// Threads is the most members a call's team can have.
func (p *Pool) Threads() int { return p.threads }

// Arena is the pool's workspace.
func (p *Pool) Arena() *workspace.Arena { return p.arena }

// Stats is the pool's workspace accounting.
func (p *Pool) Stats() workspace.Stats { return p.arena.Stats() }

// Trim frees the pool's idle workspace storage.
func (p *Pool) Trim() { p.arena.Trim() }

// Close waits for calls in flight, then stops the workers. Later calls fail
// with ErrClosed. Closing twice is harmless.
func (p *Pool) Close() error {
	if p.closed.Swap(true) {
		return nil
	}
	// A call holds its record's busy flag (or counts in spareOut) from
	// before it looks at closed until it returns; closed is set before
	// these are read, so every call either saw it or is waited for here.
	for {
		busy := p.spareOut.Load() > 0
		for i := range p.slots {
			busy = busy || p.slots[i].busy.Load()
		}
		if !busy {
			break
		}
		time.Sleep(50 * time.Microsecond)
	}
	for _, w := range p.workers {
		close(w.quit)
		<-w.done
	}
	return nil
}

// enter hands a call a record, whose worker slot the calling goroutine
// uses; a closed pool hands none.
func (p *Pool) enter() (*call, error) {
	for i := range p.slots {
		s := &p.slots[i]
		if !s.busy.Load() && s.busy.CompareAndSwap(false, true) {
			if p.closed.Load() {
				s.busy.Store(false)
				return nil, ErrClosed
			}
			return s.c, nil
		}
	}
	p.spareOut.Add(1)
	if p.closed.Load() {
		p.spareOut.Add(-1)
		return nil, ErrClosed
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if n := len(p.spare); n > 0 {
		c := p.spare[n-1]
		p.spare = p.spare[:n-1]
		return c, nil
	}
	return newCall(p, p.threads), nil
}

// leave returns what enter handed out.
func (p *Pool) leave(c *call) {
	c.reset()
	if c.slot != nil {
		c.slot.busy.Store(false)
		return
	}
	p.mu.Lock()
	p.spare = append(p.spare, c)
	p.mu.Unlock()
	p.spareOut.Add(-1)
}

// acquire takes up to n idle workers into c.helpers.
func (p *Pool) acquire(c *call, n int) {
	if n <= 0 {
		return
	}
	p.mu.Lock()
	for n > 0 && len(p.idle) > 0 {
		last := len(p.idle) - 1
		c.helpers = append(c.helpers, p.idle[last])
		p.idle = p.idle[:last]
		n--
	}
	p.mu.Unlock()
}

// release gives c's workers back.
func (p *Pool) release(c *call) {
	if len(c.helpers) == 0 {
		return
	}
	p.mu.Lock()
	p.idle = append(p.idle, c.helpers...)
	p.mu.Unlock()
	c.helpers = c.helpers[:0]
}

// loop is a worker's life: locked to one OS thread, so the buffers it grows
// are first touched, and kept, where it runs.
func (w *poolWorker) loop() {
	goruntime.LockOSThread()
	defer close(w.done)
	for {
		var c *call
		poll(func() bool {
			c = w.task.Load()
			return c != nil
		})
		if c == nil {
			select {
			case <-w.wake:
				continue
			case <-w.quit:
				return
			}
		}
		w.task.Store(nil)
		c.runMember(w.member, w.ws)
		c.finish()
	}
}

// start hands member m of c to w.
func (w *poolWorker) start(c *call, m int) {
	w.member = m
	w.task.Store(c)
	select {
	case w.wake <- struct{}{}:
	default:
	}
}
