package main

import (
	"slices"
	"time"

	"github.com/tcontract/tcontract"
)

// timing says how a measurement is taken: reps repetitions, each of enough
// back-to-back calls to last at least minTime (so between minTime and about
// twice that, unless one call alone is longer), summarised by stat. When
// budget is positive, a measurement stops repeating once its timed calls
// have taken that long, so a product that takes seconds per call is timed
// once or twice, not reps times.
type timing struct {
	reps    int
	minTime time.Duration
	budget  time.Duration
	stat    string // "best" or "median"
	// warm is how long untimed calls run before a run's first
	// measurement (warmUp).
	warm time.Duration
}

// warmUp calls call untimed for d. On these machines the first few
// hundred milliseconds of a process run slower: float32 GEMM 256³ as the
// run's first measurement gave 157 GFLOP/s, after 300 ms of calls 214,
// as it does later in a run.
func warmUp(call callFunc, p *tcontract.Pool, d time.Duration) error {
	for t0 := time.Now(); time.Since(t0) < d; {
		if err := call(p); err != nil {
			return err
		}
	}
	return nil
}

// sample is one measurement: seconds per call, calls per repetition and
// the repetitions it summarises.
type sample struct {
	secs  float64
	calls int
	reps  int
}

// measure times call on p. The first call plans, grows the workspace and
// warms the caches; then a calibration finds how many calls fill minTime,
// and each repetition times that many. The best repetition is the default
// figure because noise on a shared machine only ever slows a run down; the
// median is there for a typical figure.
//
// A call that alone outlasts a repetition is timed one call per
// repetition, and every timed batch counts: the calibration batch, and for
// "best" also the first call (its one-off costs, a few milliseconds, can
// only lose against the later repetitions).
func measure(call callFunc, p *tcontract.Pool, tm timing) (sample, error) {
	var spent time.Duration
	timeCalls := func(n int) (time.Duration, error) {
		t0 := time.Now()
		for range n {
			if err := call(p); err != nil {
				return 0, err
			}
		}
		d := time.Since(t0)
		spent += d
		return d, nil
	}
	secs := make([]float64, 0, tm.reps)
	first, err := timeCalls(1)
	if err != nil {
		return sample{}, err
	}
	if first >= tm.minTime && tm.stat == "best" {
		secs = append(secs, first.Seconds())
	}
	// Calibrate: grow n until a batch takes a quarter of minTime, then
	// scale it to minTime.
	n := 1
	for len(secs) == 0 {
		d, err := timeCalls(n)
		if err != nil {
			return sample{}, err
		}
		if d >= tm.minTime {
			// This batch is a full repetition already: keep it.
			secs = append(secs, d.Seconds()/float64(n))
			break
		}
		if d >= tm.minTime/4 {
			n = int(float64(n)*float64(tm.minTime)/float64(d)) + 1
			break
		}
		n *= 4
	}
	// At least one repetition, even when the calibration spent the budget.
	for len(secs) == 0 || len(secs) < tm.reps && (tm.budget <= 0 || spent < tm.budget) {
		d, err := timeCalls(n)
		if err != nil {
			return sample{}, err
		}
		secs = append(secs, d.Seconds()/float64(n))
	}
	return sample{secs: summarise(secs, tm.stat), calls: n, reps: len(secs)}, nil
}

// summarise is the best (smallest) or the median of per-call times.
func summarise(secs []float64, stat string) float64 {
	s := slices.Clone(secs)
	slices.Sort(s)
	if stat == "median" {
		if len(s)%2 == 1 {
			return s[len(s)/2]
		}
		return (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	return s[0]
}
