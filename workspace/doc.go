// Package workspace is the arena that lends packing and scatter storage to the
// GEMM and contraction driver: page-aligned, grow-only, never-zeroed buffers
// from the OS, per-worker slots checked out while in use, exclusive team
// leases, exact accounting and a reusable barrier.
//
// # Ownership
//
// An Arena belongs to one owner (a thread pool, or a caller that wants reuse)
// and lends its storage to one call at a time. There is no process-global
// arena: what a team borrows goes back to the arena that lent it, and a second
// owner never sees it.
//
// # Two kinds of storage
//
// Worker buffers (a packed A block, an accumulator tile, a scatter scratch)
// belong to one worker. They are grown by the goroutine that uses them, inside
// WithWorker; the driver's pool workers are locked to their OS threads, and the
// OS places a page where it is first written, so the pages end up local to the
// core that keeps using them. A *Worker handle names the slot; the storage is
// the arena's.
//
// Team sets (the shared packed B panel, the team's block-scatter vectors, the
// barriers that publish the panel) are taken whole by TakeTeam and returned by
// Release, so two concurrent calls never share one.
//
// # Exclusivity
//
// A slot in use is checked out: Trim and Stats skip it, and another call with
// the same handle, including a re-entrant one from inside the callback, gets
// fresh call-local buffers instead of aliasing the ones in use. A team set on
// loan is off the free list altogether.
//
// # Storage
//
// Buffers come from anonymous mappings (a page-aligned heap slice where the
// platform has no mmap), grow by doubling, and are never zeroed: callers write
// before they read, so zeroing would double the traffic. A growth drops the
// old contents. Large buffers are aligned to, and advised for, transparent
// huge pages on Linux.
//
// # Accounting
//
// Stats is settled at every checkout, return, take, panel growth, release and
// trim under one lock, so it is exact whenever no call is in flight; a slot in
// use is counted at the capacity it had at checkout. A panic in a callback or
// in preparation returns what was taken and settles the figures (deferred
// calls do what the seed's drop guards do).
//
// # Allocation
//
// Lending is allocation-free in steady state: WithWorker keeps no reference
// to its callback, so a closure passed to it stays on the caller's stack, and
// team leases are recycled through a ring per set rather than allocated.
package workspace
