//go:build purego || !amd64

package runtime

import "unsafe"

// canPrefetch: no prefetch instruction is generated for this build, so
// planAhead lists nothing and the kernel's runs of tiles stay whole.
const canPrefetch = false

func prefetchL2(base unsafe.Pointer, rows, steps []int64) {}

// storeFence: no streaming kernel runs without assembly.
func storeFence() {}
