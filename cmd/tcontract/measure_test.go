package main

import (
	"errors"
	"math"
	"testing"
	"time"

	"github.com/tcontract/tcontract"
)

func TestSummarise(t *testing.T) {
	for _, tc := range []struct {
		secs []float64
		stat string
		want float64
	}{
		{[]float64{3, 1, 2}, "best", 1},
		{[]float64{3, 1, 2}, "median", 2},
		{[]float64{4, 1, 3, 2}, "median", 2.5},
		{[]float64{5}, "median", 5},
	} {
		if got := summarise(tc.secs, tc.stat); got != tc.want {
			t.Errorf("%s of %v = %v, want %v", tc.stat, tc.secs, got, tc.want)
		}
	}
}

// fakeClock stands in for now: only the calls under test move it, by
// set amounts, so the batch lengths and budgets below are exact.
type fakeClock struct{ t time.Time }

func useFakeClock(t *testing.T) *fakeClock {
	c := &fakeClock{t: time.Unix(0, 0)}
	old := now
	now = func() time.Time { return c.t }
	t.Cleanup(func() { now = old })
	return c
}

// call is a callFunc that takes d on the clock and counts itself.
func (c *fakeClock) call(d time.Duration, calls *int) callFunc {
	return func(*tcontract.Pool) error { *calls++; c.t = c.t.Add(d); return nil }
}

// TestMeasureCalls: a call longer than a repetition is timed once per
// repetition, the calibration batch counting as one and, for "best", the
// first call too; a short call is repeated until a repetition lasts minTime.
func TestMeasureCalls(t *testing.T) {
	clk := useFakeClock(t)
	p := tcontract.NewPool(1)
	defer p.Close()
	calls := 0
	slow := clk.call(3*time.Millisecond, &calls)
	for stat, want := range map[string]int{"best": 4, "median": 1 + 4} {
		calls = 0
		s, err := measure(slow, p, timing{reps: 4, minTime: time.Millisecond, stat: stat})
		if err != nil {
			t.Fatal(err)
		}
		if s.calls != 1 || calls != want || s.reps != 4 || s.secs != 3e-3 {
			t.Errorf("slow call, %s: %+v after %d calls; want 1 call per repetition, %d calls, 3 ms", stat, s, calls, want)
		}
	}
	// A budget stops the repetitions early, never before one is timed:
	// the first call (3 ms) and one more reach the 5 ms.
	calls = 0
	s, err := measure(slow, p, timing{reps: 10, minTime: time.Millisecond, budget: 5 * time.Millisecond, stat: "best"})
	if err != nil {
		t.Fatal(err)
	}
	if s.reps != 2 || calls != 2 {
		t.Errorf("slow call with a budget of 5 ms: %d repetitions in %d calls; want 2, the first call counting", s.reps, calls)
	}
	// A budget the calibration already spent still leaves one repetition
	// of the calibrated length: batches of 1 and 4 calls of 0.2 ms, the
	// second over a quarter of 2 ms, scaled to 11 calls.
	calls = 0
	short := clk.call(200*time.Microsecond, &calls)
	s, err = measure(short, p, timing{reps: 3, minTime: 2 * time.Millisecond, budget: time.Microsecond, stat: "median"})
	if err != nil {
		t.Fatal(err)
	}
	if s.reps != 1 || s.calls != 11 || calls != 1+1+4+11 || math.Abs(s.secs-2e-4) > 1e-12 {
		t.Errorf("budget spent by the calibration: %+v after %d calls; want one repetition of 11 calls of 0.2 ms, 17 calls", s, calls)
	}
	// A fast call: batches grow fourfold to 1024 calls (1 µs each), over a
	// quarter of 2 ms, then scale to 2001 calls a repetition.
	calls = 0
	fast := clk.call(time.Microsecond, &calls)
	tm := timing{reps: 2, minTime: 2 * time.Millisecond, stat: "median"}
	s, err = measure(fast, p, tm)
	if err != nil {
		t.Fatal(err)
	}
	if s.calls != 2001 || s.reps != 2 || calls != 1+1+4+16+64+256+1024+2*2001 || math.Abs(s.secs-1e-6) > 1e-12 {
		t.Errorf("fast call: %+v after %d calls", s, calls)
	}
	boom := errors.New("boom")
	calls = 0
	failing := func(p *tcontract.Pool) error {
		if calls > 2 {
			return boom
		}
		return fast(p)
	}
	if _, err := measure(failing, p, tm); err != boom || calls != 3 {
		t.Errorf("a failing call gives %v after %d calls, want its error after 3", err, calls)
	}
}

// TestWarmUp: the warm-up calls for its whole duration and stops at an
// error.
func TestWarmUp(t *testing.T) {
	clk := useFakeClock(t)
	p := tcontract.NewPool(1)
	defer p.Close()
	calls := 0
	call := clk.call(time.Millisecond, &calls)
	if err := warmUp(call, p, 10*time.Millisecond); err != nil || calls != 10 {
		t.Errorf("warm-up of 10 ms with 1 ms calls: %d calls, %v", calls, err)
	}
	calls = 0
	if err := warmUp(call, p, 0); err != nil || calls != 0 {
		t.Errorf("no warm-up: %d calls, %v", calls, err)
	}
	boom := errors.New("boom")
	failing := func(*tcontract.Pool) error { calls++; return boom }
	calls = 0
	if err := warmUp(failing, p, time.Second); err != boom || calls != 1 {
		t.Errorf("a failing call: %v after %d calls, want its error after 1", err, calls)
	}
}

// TestMeasurePair: the two calls' repetitions are taken in turns after
// both are calibrated, and each side gets its own repetitions and batch.
func TestMeasurePair(t *testing.T) {
	clk := useFakeClock(t)
	p := tcontract.NewPool(1)
	defer p.Close()
	var order []byte
	slow := func(name byte, d time.Duration) callFunc {
		return func(*tcontract.Pool) error { order = append(order, name); clk.t = clk.t.Add(d); return nil }
	}
	tm := timing{reps: 3, minTime: time.Millisecond, stat: "median"}
	sa, sb, err := measurePair(slow('a', 3*time.Millisecond), slow('b', 2*time.Millisecond), p, tm)
	if err != nil {
		t.Fatal(err)
	}
	// Each: its first call, a calibration batch of one call (a whole
	// repetition), then two more repetitions in turns.
	if got, want := string(order), "aabbabab"; got != want {
		t.Errorf("calls in order %q, want %q", got, want)
	}
	if sa.reps != 3 || sb.reps != 3 || sa.calls != 1 || sb.calls != 1 || sa.secs != 3e-3 || sb.secs != 2e-3 {
		t.Errorf("samples %+v and %+v; want 3 repetitions of one call each, 3 ms and 2 ms", sa, sb)
	}
	// A side out of budget stops while the other goes on.
	order = order[:0]
	short := slow('s', 10*time.Microsecond)
	tm = timing{reps: 4, minTime: time.Millisecond, budget: 4 * time.Millisecond, stat: "median"}
	ss, sl, err := measurePair(short, slow('l', 3*time.Millisecond), p, tm)
	if err != nil {
		t.Fatal(err)
	}
	// The slow side's first call and calibration batch (6 ms) spend its
	// budget; the short one's calibration (0.86 ms) leaves room for more.
	if sl.reps != 1 || ss.reps < 2 {
		t.Errorf("with a 4 ms budget: %d repetitions of the 3 ms call, want 1; %d of the short one, want 2 or more", sl.reps, ss.reps)
	}
	boom := errors.New("boom")
	failing := func(*tcontract.Pool) error { return boom }
	if _, _, err := measurePair(short, failing, p, tm); !errors.Is(err, boom) {
		t.Errorf("failing second call: error %v, want %v", err, boom)
	}
}
