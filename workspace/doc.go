// Package workspace is the arena that lends packing and scatter storage to the
// GEMM and contraction driver: page-aligned, grow-only, never-zeroed buffers
// from the OS, per-worker slots checked out while in use, exclusive team
// leases, exact accounting and a reusable barrier.
package workspace
