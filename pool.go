package tcontract

import (
	"sync"

	"github.com/tcontract/tcontract/runtime"
	"github.com/tcontract/tcontract/workspace"
)

// Pool is a team of threads and the workspace arena they share. A pool of n
// threads runs each large call on up to n threads: n-1 worker goroutines
// locked to their OS threads for life, and the calling goroutine. Small
// calls run on the calling goroutine alone. A pool is safe for concurrent
// use; concurrent calls never share workspace.
type Pool struct {
	p *runtime.Pool
}

// NewPool starts a pool of threads threads (GOMAXPROCS when threads <= 0).
func NewPool(threads int) *Pool { return &Pool{p: runtime.NewPool(threads)} }

// Threads is the most threads one call uses.
func (p *Pool) Threads() int { return p.p.Threads() }

// Stats reports the workspace the pool retains and the part lent to calls
// in flight (exact when none is).
func (p *Pool) Stats() workspace.Stats { return p.p.Stats() }

// Trim frees the pool's idle workspace.
func (p *Pool) Trim() { p.p.Trim() }

// Close waits for calls in flight and stops the workers; later calls return
// ErrClosed.
func (p *Pool) Close() error { return p.p.Close() }

var (
	defaultOnce sync.Once
	defaultP    *Pool
)

// defaultPool is the package's pool of GOMAXPROCS threads.
func defaultPool() *Pool {
	defaultOnce.Do(func() { defaultP = &Pool{p: runtime.Default()} })
	return defaultP
}
