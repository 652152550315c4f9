package runtime

import (
	"testing"
	"time"
)

// poll returns as soon as its condition holds, and gives up after
// spinTime, not before.
func TestPoll(t *testing.T) {
	n := 0
	if !poll(func() bool { n++; return n == 3000 }) || n != 3000 {
		t.Errorf("poll stopped after %d rounds, want true at the 3000th", n)
	}
	t0 := time.Now()
	if poll(func() bool { return false }) {
		t.Error("poll reported a condition that never held")
	}
	if d := time.Since(t0); d < spinTime {
		t.Errorf("poll gave up after %v, before spinTime (%v)", d, spinTime)
	}
}
