package runtime

import (
	"fmt"
	goruntime "runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tcontract/tcontract/generated/kernels"
)

// Peak measurement: each repetition is short (so the best one is seldom hit
// by another process), and the best of several is the figure, since noise
// only ever slows a run down.
const (
	peakRepTime = time.Millisecond
	peakReps    = 20
)

// Peak measures the FMA throughput of the path in use (ISA()) for a real
// type ("float32" or "float64"), in GFLOP/s: the best of several short timed
// repetitions of the generated peak probe. With threads > 1 it runs one
// goroutine locked to its own OS thread per thread, all at once, and sums
// their rates. Speed figures are quoted as a fraction of it, measured in the
// same run, because the clock of these machines drifts with load.
func Peak(real string, threads int) float64 {
	return peakOn(ISA(), real, threads)
}

// probeOn returns the peak probe of a path and real type.
func probeOn(isa, real string) *kernels.Peak {
	if p := findProbe(isa, real); p != nil {
		return p
	}
	panic(fmt.Sprintf("tcontract: no %s peak probe for %s in this build", isa, real))
}

// findProbe is the peak probe of a path and real type that this build
// can run, or nil.
func findProbe(isa, real string) *kernels.Peak {
	for i := range kernels.Peaks {
		if p := &kernels.Peaks[i]; p.ISA == isa && p.Real == real && p.Fn != nil {
			return p
		}
	}
	return nil
}

func peakOn(isa, real string, threads int) float64 {
	p := probeOn(isa, real)
	threads = max(1, threads)
	iters := calibrate(p.Fn, peakRepTime)
	if threads > 1 {
		// A collection under way would hold a P with its mark worker for
		// the whole probe: the threads would share the rest.
		goruntime.GC()
	}
	var (
		start   = make([]chan struct{}, threads)
		wg      sync.WaitGroup
		begins  = make([]time.Time, threads)
		ends    = make([]time.Time, threads)
		ready   sync.WaitGroup
		arrived atomic.Int32
	)
	// One locked goroutine per thread, kept for all repetitions.
	for t := range threads {
		start[t] = make(chan struct{})
		ready.Add(1)
		go func() {
			goruntime.LockOSThread()
			defer goruntime.UnlockOSThread()
			ready.Done()
			for range start[t] {
				// All threads start together once all are running,
				// so that a thread woken late does not count its
				// wake-up as probe time.
				arrived.Add(1)
				for arrived.Load() < int32(threads) {
				}
				begins[t] = time.Now()
				p.Fn(iters)
				ends[t] = time.Now()
				wg.Done()
			}
		}()
	}
	ready.Wait()
	best := 0.0
	flops := float64(iters) * float64(p.FlopsPerIter)
	// A repetition lasts from the first thread's start to the last
	// thread's end, so threads that could not run at the same time do not
	// add up. With neither the start barrier nor the collection first,
	// the 2-thread probe of a 2-core AVX-512 VM read the 1-thread rate in
	// 2 of 8 runs of "tcontract peak"; with the barrier alone in 1 of 10
	// (float64), with both in none of 16.
	for range peakReps {
		arrived.Store(0)
		wg.Add(threads)
		for t := range threads {
			start[t] <- struct{}{}
		}
		wg.Wait()
		first, last := begins[0], ends[0]
		for t := range threads {
			if begins[t].Before(first) {
				first = begins[t]
			}
			if ends[t].After(last) {
				last = ends[t]
			}
		}
		best = max(best, float64(threads)*flops/last.Sub(first).Seconds())
	}
	for t := range threads {
		close(start[t])
	}
	return best / 1e9
}

// calibrate returns a trip count of fn that takes about target.
func calibrate(fn func(int), target time.Duration) int {
	iters := 1 << 8
	for {
		t0 := time.Now()
		fn(iters)
		d := time.Since(t0)
		if d >= target/4 || iters >= 1<<30 {
			return max(1, int(float64(iters)*float64(target)/float64(max(d, 1))))
		}
		iters *= 4
	}
}
