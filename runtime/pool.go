package runtime

import (
	goruntime "runtime"
	"sync"
	"sync/atomic"

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

	mu       sync.Mutex
	idle     []*poolWorker       // workers free to join a call
	handles  []*workspace.Worker // worker slots for calling goroutines
	calls    []*call             // reusable call records
	inflight int                 // calls between entry and return
	closed   bool
	drained  *sync.Cond // signalled when inflight drops to 0 after Close
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

// spinRounds bounds how long an idle worker and a waiting caller poll before
// blocking: long enough to cover the gap between back-to-back calls, short
// enough not to steal a core from other goroutines for long.
const spinRounds = 20000

// NewPool starts a pool of threads threads (GOMAXPROCS when threads <= 0).
func NewPool(threads int) *Pool {
	if threads <= 0 {
		threads = goruntime.GOMAXPROCS(0)
	}
	p := &Pool{threads: threads, arena: workspace.NewArena()}
	p.drained = sync.NewCond(&p.mu)
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
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil
	}
	p.closed = true
	for p.inflight > 0 {
		p.drained.Wait()
	}
	p.mu.Unlock()
	for _, w := range p.workers {
		close(w.quit)
		<-w.done
	}
	return nil
}

// enter registers a call and hands it a call record and a worker slot for
// its calling goroutine.
func (p *Pool) enter() (*call, *workspace.Worker, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return nil, nil, ErrClosed
	}
	p.inflight++
	var c *call
	if n := len(p.calls); n > 0 {
		c, p.calls = p.calls[n-1], p.calls[:n-1]
	} else {
		c = newCall(p.threads)
	}
	var h *workspace.Worker
	if n := len(p.handles); n > 0 {
		h, p.handles = p.handles[n-1], p.handles[:n-1]
	} else {
		h = p.arena.NewWorker()
	}
	return c, h, nil
}

// leave returns what enter handed out.
func (p *Pool) leave(c *call, h *workspace.Worker) {
	c.reset()
	p.mu.Lock()
	p.calls = append(p.calls, c)
	p.handles = append(p.handles, h)
	p.inflight--
	if p.closed && p.inflight == 0 {
		p.drained.Broadcast()
	}
	p.mu.Unlock()
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
		c := w.task.Load()
		for i := 0; c == nil && i < spinRounds; i++ {
			c = w.task.Load()
		}
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
