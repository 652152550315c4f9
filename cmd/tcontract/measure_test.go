package main

import (
	"errors"
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

// TestMeasureCalls: a call longer than a repetition is timed once per
// repetition, the calibration batch counting as one and, for "best", the
// first call too; a short call is repeated until a repetition lasts minTime.
func TestMeasureCalls(t *testing.T) {
	p := tcontract.NewPool(1)
	defer p.Close()
	calls := 0
	slow := func(*tcontract.Pool) error { calls++; time.Sleep(3 * time.Millisecond); return nil }
	for stat, want := range map[string]int{"best": 4, "median": 1 + 4} {
		calls = 0
		s, err := measure(slow, p, timing{reps: 4, minTime: time.Millisecond, stat: stat})
		if err != nil {
			t.Fatal(err)
		}
		if s.calls != 1 || calls != want || s.reps != 4 || s.secs < 3e-3 {
			t.Errorf("slow call, %s: %+v after %d calls; want 1 call per repetition, %d calls, >= 3 ms", stat, s, calls, want)
		}
	}
	// A budget stops the repetitions early, never before one is timed.
	calls = 0
	s, err := measure(slow, p, timing{reps: 10, minTime: time.Millisecond, budget: 5 * time.Millisecond, stat: "best"})
	if err != nil {
		t.Fatal(err)
	}
	if s.reps < 1 || s.reps > 2 || calls != s.reps {
		t.Errorf("slow call with a budget of 5 ms: %d repetitions in %d calls; want 1 or 2, the first call counting", s.reps, calls)
	}
	// A budget the calibration already spent still leaves one repetition
	// of the calibrated length.
	calls = 0
	short := func(*tcontract.Pool) error { calls++; time.Sleep(200 * time.Microsecond); return nil }
	s, err = measure(short, p, timing{reps: 3, minTime: 2 * time.Millisecond, budget: time.Microsecond, stat: "median"})
	if err != nil {
		t.Fatal(err)
	}
	if s.reps != 1 || s.calls < 2 || s.secs < 2e-4 {
		t.Errorf("budget spent by the calibration: %+v; want one repetition of several calls, >= 0.2 ms each", s)
	}
	calls = 0
	fast := func(*tcontract.Pool) error { calls++; return nil }
	tm := timing{reps: 2, minTime: 2 * time.Millisecond, stat: "median"}
	s, err = measure(fast, p, tm)
	if err != nil {
		t.Fatal(err)
	}
	if s.calls < 100 || calls < 1+2*s.calls || float64(s.calls)*s.secs < 0.25*tm.minTime.Seconds() {
		t.Errorf("fast call: %+v after %d calls", s, calls)
	}
	boom := errors.New("boom")
	calls = 0
	failing := func(*tcontract.Pool) error {
		if calls++; calls > 3 {
			return boom
		}
		return nil
	}
	if _, err := measure(failing, p, tm); err != boom {
		t.Errorf("a failing call gives %v, want its error", err)
	}
}

// TestWarmUp: the warm-up calls for its whole duration and stops at an
// error.
func TestWarmUp(t *testing.T) {
	p := tcontract.NewPool(1)
	defer p.Close()
	calls := 0
	call := func(*tcontract.Pool) error { calls++; time.Sleep(time.Millisecond); return nil }
	t0 := time.Now()
	if err := warmUp(call, p, 10*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(t0); d < 10*time.Millisecond || calls < 2 {
		t.Errorf("warm-up of 10 ms: %d calls in %v", calls, d)
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
	p := tcontract.NewPool(1)
	defer p.Close()
	var order []byte
	slow := func(name byte, d time.Duration) callFunc {
		return func(*tcontract.Pool) error { order = append(order, name); time.Sleep(d); return nil }
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
	if sa.reps != 3 || sb.reps != 3 || sa.calls != 1 || sb.calls != 1 || sa.secs < 3e-3 || sb.secs < 2e-3 || sb.secs >= sa.secs {
		t.Errorf("samples %+v and %+v; want 3 repetitions of one call each, about 3 ms and 2 ms", sa, sb)
	}
	// A side out of budget stops while the other goes on.
	order = order[:0]
	short := func(*tcontract.Pool) error { order = append(order, 's'); return nil }
	tm = timing{reps: 4, minTime: time.Millisecond, budget: 4 * time.Millisecond, stat: "median"}
	_, sl, err := measurePair(short, slow('l', 3*time.Millisecond), p, tm)
	if err != nil {
		t.Fatal(err)
	}
	if sl.reps < 1 || sl.reps > 2 {
		t.Errorf("slow side with a 4 ms budget: %d repetitions, want 1 or 2", sl.reps)
	}
	boom := errors.New("boom")
	failing := func(*tcontract.Pool) error { return boom }
	if _, _, err := measurePair(short, failing, p, tm); !errors.Is(err, boom) {
		t.Errorf("failing second call: error %v, want %v", err, boom)
	}
}
