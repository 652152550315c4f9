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

// now is the measurements' clock. Tests replace it with one that their
// calls advance by set amounts, so what they check of the calibration and
// the budget does not hang on how long a sleep lasts on a loaded machine.
var now = time.Now

// warmUp calls call untimed for d. On these machines the first few
// hundred milliseconds of a process run slower: float32 GEMM 256³ as the
// run's first measurement gave 157 GFLOP/s, after 300 ms of calls 214,
// as it does later in a run.
func warmUp(call callFunc, p *tcontract.Pool, d time.Duration) error {
	for t0 := now(); now().Sub(t0) < d; {
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
	s, err := measureInTurns(p, tm, call)
	if err != nil {
		return sample{}, err
	}
	return s[0], nil
}

// measurePair times a and b as measure does each, their repetitions taken
// in turns: a, b, a, b. A contraction's ratio to its GEMM is then taken
// over one stretch of time. Measured one after the other, a neighbour's
// burst of load on the shared machine could slow either side alone for
// seconds: the same GEMM read 49 GFLOP/s in one run and 73 in the next.
func measurePair(a, b callFunc, p *tcontract.Pool, tm timing) (sa, sb sample, err error) {
	s, err := measureInTurns(p, tm, a, b)
	if err != nil {
		return sample{}, sample{}, err
	}
	return s[0], s[1], nil
}

// measureInTurns calibrates each call in order, then takes one repetition
// of each call that is still due, in turns, until none is.
func measureInTurns(p *tcontract.Pool, tm timing, calls ...callFunc) ([]sample, error) {
	ms := make([]*meter, len(calls))
	for i, call := range calls {
		ms[i] = &meter{call: call, p: p, tm: tm}
		if err := ms[i].calibrate(); err != nil {
			return nil, err
		}
	}
	for due := true; due; {
		due = false
		for _, m := range ms {
			if m.more() {
				due = true
				if err := m.rep(); err != nil {
					return nil, err
				}
			}
		}
	}
	s := make([]sample, len(ms))
	for i, m := range ms {
		s[i] = m.sample()
	}
	return s, nil
}

// meter is one measurement in progress (measureInTurns): the batch length the
// calibration found, the time spent and the repetitions so far.
type meter struct {
	call  callFunc
	p     *tcontract.Pool
	tm    timing
	n     int // calls per repetition
	spent time.Duration
	secs  []float64 // seconds per call, one per repetition
}

// timeCalls times n back-to-back calls.
func (m *meter) timeCalls(n int) (time.Duration, error) {
	t0 := now()
	for range n {
		if err := m.call(m.p); err != nil {
			return 0, err
		}
	}
	d := now().Sub(t0)
	m.spent += d
	return d, nil
}

// calibrate makes the first call and finds n: it grows n until a batch
// takes a quarter of minTime, then scales it to minTime. A batch that
// already lasts minTime is kept as a repetition.
func (m *meter) calibrate() error {
	first, err := m.timeCalls(1)
	if err != nil {
		return err
	}
	if first >= m.tm.minTime && m.tm.stat == "best" {
		m.secs = append(m.secs, first.Seconds())
	}
	m.n = 1
	for len(m.secs) == 0 {
		d, err := m.timeCalls(m.n)
		if err != nil {
			return err
		}
		if d >= m.tm.minTime {
			m.secs = append(m.secs, d.Seconds()/float64(m.n))
			break
		}
		if d >= m.tm.minTime/4 {
			m.n = int(float64(m.n)*float64(m.tm.minTime)/float64(d)) + 1
			break
		}
		m.n *= 4
	}
	return nil
}

// more reports whether another repetition is due: always while there is
// none (even when the calibration spent the budget), else up to reps
// within the budget.
func (m *meter) more() bool {
	return len(m.secs) == 0 || len(m.secs) < m.tm.reps && (m.tm.budget <= 0 || m.spent < m.tm.budget)
}

// rep times one repetition.
func (m *meter) rep() error {
	d, err := m.timeCalls(m.n)
	if err != nil {
		return err
	}
	m.secs = append(m.secs, d.Seconds()/float64(m.n))
	return nil
}

// sample summarises the repetitions.
func (m *meter) sample() sample {
	return sample{secs: summarise(m.secs, m.tm.stat), calls: m.n, reps: len(m.secs)}
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
