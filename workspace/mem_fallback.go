//go:build !(aix || darwin || dragonfly || freebsd || linux || netbsd || openbsd || solaris)

package workspace

// mapGranule is the smallest capacity a buffer has.
var mapGranule = pageSize

// osMap falls back to the Go heap where x/sys offers no mmap (windows, plan9,
// js/wasm and the like); everything above it behaves the same.
func osMap(n int) ([]byte, error) { return heapMap(n), nil }

// osUnmap leaves heap storage to the garbage collector.
func osUnmap([]byte) error { return nil }

// hugeSize is zero: the heap offers no huge-page advice.
var hugeSize = 0
