//go:build !unix

package runtime

import "testing"

// guarded: without mmap the slivers are plain memory; the canaries around C
// still catch stray writes, and unix targets catch stray reads.
func guarded(_ testing.TB, n int, _ bool) []byte {
	return make([]byte, n)
}
