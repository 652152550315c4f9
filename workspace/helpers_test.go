package workspace

import (
	"fmt"
	"testing"
	"unsafe"
)

// addr is the address of a buffer's first byte.
func addr(b []byte) uintptr { return uintptr(unsafe.Pointer(unsafe.SliceData(b))) }

// mustPanic runs f and reports the test failed unless f panics.
func mustPanic(t *testing.T, what string, f func()) {
	t.Helper()
	defer func() {
		if recover() == nil {
			t.Fatalf("%s: no panic", what)
		}
	}()
	f()
}

// audit recomputes the arena's figures from what it holds and compares them
// with its counters. It is only meaningful with nothing in flight.
func audit(a *Arena) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	owned, panel := 0, 0
	for _, w := range a.workers {
		if w.out {
			return fmt.Errorf("slot still checked out")
		}
		owned += w.bytes()
	}
	for _, s := range a.idle {
		owned += s.bytes()
		panel += s.panel.capBytes()
	}
	if owned != a.owned || panel != a.panel || a.leased != 0 {
		return fmt.Errorf("counters retained %d leased %d panel %d, holdings %d panel %d",
			a.owned, a.leased, a.panel, owned, panel)
	}
	return nil
}

// fill writes v to every byte of b; holds reports whether b still holds v.
func fill(b []byte, v byte) {
	for i := range b {
		b[i] = v
	}
}

func holds(b []byte, v byte) bool {
	for _, c := range b {
		if c != v {
			return false
		}
	}
	return true
}

// impossible is a valid request no system can satisfy on a 64-bit target: no
// OS maps 2^62 bytes, and no slice has 2^62 int64 elements. It makes a growth
// fail for real, after earlier growths of the same call succeeded.
const impossible = maxBytes
