//go:build !purego

package runtime

import (
	"unsafe"

	"github.com/tcontract/tcontract/generated/cpu"
)

// canPrefetch: amd64 has PREFETCHT1 (generated/cpu).
const canPrefetch = true

// prefetchL2 asks for the lines at base+row+step, every row and step
// (bytes), in L2. rows and steps are not empty.
func prefetchL2(base unsafe.Pointer, rows, steps []int64) {
	cpu.PrefetchL2((*byte)(base), &rows[0], len(rows), &steps[0], len(steps))
}

// storeFence orders the streaming kernels' non-temporal stores before
// every later store (SFENCE).
func storeFence() { cpu.StoreFence() }
