package main

import (
	"errors"
	goruntime "runtime"
	"slices"
	"testing"
	"time"

	"github.com/tcontract/tcontract"
)

func TestParseSizes(t *testing.T) {
	got, err := parseSizes(" 64, 4096x64x4096,8×4×2")
	if err != nil {
		t.Fatal(err)
	}
	if want := []mnk{{64, 64, 64}, {4096, 64, 4096}, {8, 4, 2}}; !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	if got, err := parseSizes("none"); err != nil || got != nil {
		t.Errorf("none: %v %v", got, err)
	}
	for _, bad := range []string{"", "x", "4x4", "1x2x3x4", "-3", "8x0x8", "1e3"} {
		if _, err := parseSizes(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestParseTypes(t *testing.T) {
	got, err := parseTypes("c64,float64,C64")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Name != "complex64" || got[1].Name != "float64" {
		t.Errorf("got %v", got)
	}
	if all, _ := parseTypes("all"); len(all) != 4 {
		t.Errorf("all: %v", all)
	}
}

func TestParseThreads(t *testing.T) {
	got, err := parseThreads("1,max,1")
	if err != nil {
		t.Fatal(err)
	}
	want := []int{1, goruntime.GOMAXPROCS(0)}
	if goruntime.GOMAXPROCS(0) == 1 {
		want = want[:1]
	}
	if !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

func TestParseCases(t *testing.T) {
	got, err := parseCases("13, ab-acd-dbc,acd,db->abc")
	if err == nil {
		t.Errorf("a spec with a comma split in two should not parse: %v", got)
	}
	got, err = parseCases("13,ab-acd-dbc,31")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].ID != 13 || got[1].ID != 31 {
		t.Errorf("got %v", got)
	}
	if all, _ := parseCases("all"); len(all) != 24 {
		t.Errorf("all: %d cases", len(all))
	}
	if none, err := parseCases("none"); none != nil || err != nil {
		t.Errorf("none: %v %v", none, err)
	}
}

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
// repetition, the calibration batch counting as the first; a short call is
// repeated until a repetition lasts minTime.
func TestMeasureCalls(t *testing.T) {
	p := tcontract.NewPool(1)
	defer p.Close()
	calls := 0
	slow := func(*tcontract.Pool) error { calls++; time.Sleep(3 * time.Millisecond); return nil }
	s, err := measure(slow, p, timing{reps: 4, minTime: time.Millisecond, stat: "best"})
	if err != nil {
		t.Fatal(err)
	}
	if s.calls != 1 || calls != 1+4 || s.secs < 3e-3 {
		t.Errorf("slow call: %+v after %d calls; want 1 call per repetition, 5 calls, >= 3 ms", s, calls)
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
