package main

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/tcontract/tcontract"
	"github.com/tcontract/tcontract/internal/spec"
	"github.com/tcontract/tcontract/internal/tccg"
	"github.com/tcontract/tcontract/runtime"
)

// report is everything one bench run measured.
type report struct {
	ISA         string    `json:"isa"`
	Stat        string    `json:"stat"`        // "best" or "median" of the repetitions
	Reps        int       `json:"reps"`        // repetitions per measurement, at most
	MinTimeMS   float64   `json:"min_time_ms"` // least duration of one repetition
	BudgetMS    float64   `json:"budget_ms"`   // no more repetitions after this much timing (0: none)
	Scale       float64   `json:"scale"`       // factor on the TCCG extents
	Peaks       []peakRow `json:"peaks"`
	Results     []result  `json:"results"`
	Planned     int       `json:"planned"` // measurements the suite holds
	Done        int       `json:"done"`    // measurements taken
	Interrupted bool      `json:"interrupted"`
}

// peakRow is the FMA peak probe's rate for one real type and thread count:
// in bench, the best of the probes taken through the run.
type peakRow struct {
	ISA     string  `json:"isa"`
	Real    string  `json:"real"`
	Threads int     `json:"threads"`
	GFlops  float64 `json:"gflops"`
	Probes  int     `json:"probes,omitempty"` // how many probes bench took
}

// result is one row: one product, one element type, one thread count.
type result struct {
	Type    string  `json:"type"`
	Threads int     `json:"threads"`
	Kind    string  `json:"kind"`           // "gemm" or "tccg"
	ID      int     `json:"id,omitempty"`   // TCCG case id
	Name    string  `json:"name,omitempty"` // TCCG case name ("ab-acd-dbc")
	Spec    string  `json:"spec"`           // einsum form
	M       int     `json:"m"`
	N       int     `json:"n"`
	K       int     `json:"k"`
	Flops   float64 `json:"flops"`   // real flops per call: 2mnk, complex 8mnk
	Seconds float64 `json:"seconds"` // per call
	Calls   int     `json:"calls"`   // calls per timed repetition
	Reps    int     `json:"reps"`    // timed repetitions summarised
	GFlops  float64 `json:"gflops"`
	Peak    float64 `json:"peak_gflops"` // best probe, same real type and threads, this run
	OfPeak  float64 `json:"of_peak"`     // GFlops / Peak
	// For a contraction: a GEMM of the same m, n, k, type and threads
	// (dense row-major), and the contraction's rate over it.
	GemmGFlops float64 `json:"gemm_gflops,omitempty"`
	VsGemm     float64 `json:"vs_gemm,omitempty"`
	// SpotErr is the largest error, relative to the sum of the products'
	// magnitudes, among the elements of C checked after the measurement
	// (spotCheck); a wrong answer stops the run instead.
	SpotErr float64 `json:"spot_err"`
}

// afterUnit, when set (by tests), runs after each unit of the suite.
var afterUnit func()

// gemmKey names one GEMM row's measurement, so that a size listed twice
// is measured once.
type gemmKey struct {
	typ     string
	threads int
	size    mnk
}

// suite runs a benchConfig. A unit is one product for one type on every
// thread count, its operands laid out once; the context is checked between
// units, so an interrupt finishes the unit in flight and keeps what was
// measured.
type suite struct {
	cfg   benchConfig
	prog  *progress
	pools map[int]*tcontract.Pool
	store store
	peaks []peakRow // best probe per real type and thread count so far
	gemms map[gemmKey]bool
	rep   *report
	// warmed: the run's first measurement has had its warm-up.
	warmed bool
}

func runSuite(ctx context.Context, cfg benchConfig, prog *progress) (*report, error) {
	s := &suite{
		cfg:   cfg,
		prog:  prog,
		pools: map[int]*tcontract.Pool{},
		gemms: map[gemmKey]bool{},
		rep: &report{
			ISA:       tcontract.ISA(),
			Stat:      cfg.tm.stat,
			Reps:      cfg.tm.reps,
			MinTimeMS: float64(cfg.tm.minTime.Microseconds()) / 1e3,
			BudgetMS:  float64(cfg.tm.budget.Microseconds()) / 1e3,
			Scale:     cfg.scale,
			Results:   []result{},
			Peaks:     []peakRow{},
		},
	}
	for _, th := range cfg.threads {
		s.pools[th] = tcontract.NewPool(th)
	}
	defer func() {
		for _, p := range s.pools {
			p.Close()
		}
	}()
	s.rep.Planned = s.count()
	prog.start(s.rep.Planned)
	prog.show("allocating operands")
	s.reserve()
	defer s.finish()
	for _, t := range cfg.types {
		for _, size := range cfg.sizes {
			if ctx.Err() != nil {
				s.rep.Interrupted = true
				return s.rep, nil
			}
			if err := s.gemmUnit(t, size); err != nil {
				return s.rep, err
			}
		}
		for _, c := range cfg.cases {
			if ctx.Err() != nil {
				s.rep.Interrupted = true
				return s.rep, nil
			}
			if err := s.caseUnit(t, c); err != nil {
				return s.rep, err
			}
		}
	}
	return s.rep, nil
}

// extents are a case's extents for type t, scaled.
func (s *suite) extents(t spec.Type, c tccg.Case) map[byte]int {
	rt, _ := spec.RealByName(t.Real)
	ext := map[byte]int{}
	for l, e := range c.Extents(rt.Size) {
		ext[l] = max(1, int(math.Round(float64(e)*s.cfg.scale)))
	}
	return ext
}

// count is the number of measurements the suite takes: each GEMM row
// (a size listed twice is measured once), and each contraction with the
// GEMM measured beside it.
func (s *suite) count() int {
	n := 0
	for range s.cfg.types {
		seen := map[mnk]bool{}
		for _, sz := range s.cfg.sizes {
			if !seen[sz] {
				seen[sz] = true
				n++
			}
		}
		n += 2 * len(s.cfg.cases)
	}
	return n * len(s.cfg.threads)
}

// reserve sizes the operand store for the largest operands of the suite.
func (s *suite) reserve() {
	var most [3]int
	need := func(t spec.Type, a, b, c int) {
		for i, n := range [3]int{a, b, c} {
			most[i] = max(most[i], n*t.Size)
		}
	}
	for _, t := range s.cfg.types {
		for _, sz := range s.cfg.sizes {
			need(t, sz.M*sz.K, sz.K*sz.N, sz.M*sz.N)
		}
		for _, c := range s.cfg.cases {
			ext := s.extents(t, c)
			as, bs, cs := c.Shapes(ext)
			need(t, volume(as), volume(bs), volume(cs))
			m, n, k := c.MNK(ext)
			need(t, m*k, k*n, m*n)
		}
	}
	for i, n := range most {
		s.store.reserve(i, n)
	}
}

// probe runs the FMA peak probe for t's real type on every thread count
// and keeps the best rate seen. It runs before every unit: the probe is
// short, and a probe that another process disturbed (or that ran while the
// clock was low) is outdone by a later one, since noise only ever lowers
// a peak.
func (s *suite) probe(t spec.Type) {
	for _, th := range s.cfg.threads {
		g := runtime.Peak(t.Real, th)
		i := slices.IndexFunc(s.peaks, func(p peakRow) bool { return p.Real == t.Real && p.Threads == th })
		if i < 0 {
			s.peaks = append(s.peaks, peakRow{ISA: s.rep.ISA, Real: t.Real, Threads: th})
			i = len(s.peaks) - 1
		}
		s.peaks[i].GFlops = max(s.peaks[i].GFlops, g)
		s.peaks[i].Probes++
	}
}

// finish puts the run's best peaks in the report and each row's fraction
// of the peak of its real type and thread count.
func (s *suite) finish() {
	s.rep.Peaks = append(s.rep.Peaks[:0], s.peaks...)
	for i := range s.rep.Results {
		r := &s.rep.Results[i]
		t, _ := typeNamed(r.Type)
		for _, p := range s.peaks {
			if p.Real == t.Real && p.Threads == r.Threads {
				r.Peak, r.OfPeak = p.GFlops, r.GFlops/p.GFlops
			}
		}
	}
}

func flopsOf(t spec.Type, m, n, k int) float64 {
	f := 2 * float64(m) * float64(n) * float64(k)
	if t.Complex {
		f *= 4 // one complex multiply-add is four real ones
	}
	return f
}

// gemmUnit measures one GEMM row on every thread count.
func (s *suite) gemmUnit(t spec.Type, size mnk) error {
	s.probe(t)
	rows, err := s.measureGemm(t, size)
	if err != nil {
		return err
	}
	s.rep.Results = append(s.rep.Results, rows...)
	s.unitDone()
	return nil
}

// measureGemm measures GEMMs of one size not measured yet, and returns the
// rows it measured.
func (s *suite) measureGemm(t spec.Type, size mnk) ([]result, error) {
	var call product
	var rows []result
	for _, th := range s.cfg.threads {
		key := gemmKey{t.Name, th, size}
		if s.gemms[key] {
			continue
		}
		if call.call == nil {
			var err error
			if call, err = newGemm(&s.store, t, size); err != nil {
				return nil, err
			}
		}
		r := result{Type: t.Name, Threads: th, Kind: "gemm", Spec: gemmSpec, M: size.M, N: size.N, K: size.K}
		err := s.take(&r, t, call.call, "gemm "+size.String())
		if err == nil {
			r.SpotErr, err = s.check(call, th)
		}
		if err != nil {
			return nil, fmt.Errorf("%s gemm %s on %d threads: %w", t.Name, size, th, err)
		}
		s.gemms[key] = true
		rows = append(rows, r)
	}
	return rows, nil
}

// caseUnit measures one TCCG contraction on every thread count, each
// beside a GEMM of its m, n, k (measurePair) for the ratio.
func (s *suite) caseUnit(t spec.Type, c tccg.Case) error {
	s.probe(t)
	ext := s.extents(t, c)
	m, n, k := c.MNK(ext)
	as, bs, cs := c.Shapes(ext)
	call, err := newContraction(&s.store, t, c.Spec, as, bs, cs)
	if err != nil {
		return err
	}
	// The GEMM reuses the contraction's memory: its operands have the
	// same sizes.
	gemm, err := newGemm(&s.store, t, mnk{m, n, k})
	if err != nil {
		return err
	}
	var rows []result
	for _, th := range s.cfg.threads {
		r := result{Type: t.Name, Threads: th, Kind: "tccg", ID: c.ID, Name: c.Name, Spec: c.Spec, M: m, N: n, K: k}
		g := result{M: m, N: n, K: k}
		err := s.takePair(&r, &g, t, call.call, gemm.call, fmt.Sprintf("tccg %d %s", c.ID, c.Name))
		if err == nil {
			r.SpotErr, err = s.check(call, th)
		}
		if err == nil {
			_, err = s.check(gemm, th)
		}
		if err != nil {
			return fmt.Errorf("%s tccg %d %s on %d threads: %w", t.Name, c.ID, c.Name, th, err)
		}
		r.GemmGFlops = g.GFlops
		if g.GFlops > 0 {
			r.VsGemm = r.GFlops / g.GFlops
		}
		rows = append(rows, r)
	}
	s.rep.Results = append(s.rep.Results, rows...)
	s.unitDone()
	return nil
}

// take measures call on one thread count into r.
func (s *suite) take(r *result, t spec.Type, call callFunc, label string) error {
	s.prog.show(fmt.Sprintf("%s %dT %s", t.Name, r.Threads, label))
	if err := s.warm(call, r.Threads); err != nil {
		return err
	}
	smp, err := measure(call, s.pools[r.Threads], s.cfg.tm)
	if err != nil {
		return err
	}
	s.fill(r, t, smp)
	return nil
}

// takePair measures call into r and, in turns with it, gemm into g, on
// r's thread count.
func (s *suite) takePair(r, g *result, t spec.Type, call, gemm callFunc, label string) error {
	s.prog.show(fmt.Sprintf("%s %dT %s", t.Name, r.Threads, label))
	if err := s.warm(call, r.Threads); err != nil {
		return err
	}
	sc, sg, err := measurePair(call, gemm, s.pools[r.Threads], s.cfg.tm)
	if err != nil {
		return err
	}
	s.fill(r, t, sc)
	s.fill(g, t, sg)
	return nil
}

// check runs the product once more on the pool of the measurement (a
// contraction and its GEMM share C's memory, so the last call timed may
// have been the other's) and checks what it left in C.
func (s *suite) check(pr product, threads int) (float64, error) {
	if err := pr.call(s.pools[threads]); err != nil {
		return 0, err
	}
	return pr.check()
}

// warm runs the warm-up before the run's first measurement.
func (s *suite) warm(call callFunc, threads int) error {
	if s.warmed {
		return nil
	}
	s.warmed = true
	return warmUp(call, s.pools[threads], s.cfg.tm.warm)
}

// fill puts a measurement of r's product into r and counts it done.
func (s *suite) fill(r *result, t spec.Type, smp sample) {
	r.Flops = flopsOf(t, r.M, r.N, r.K)
	r.Seconds, r.Calls, r.Reps = smp.secs, smp.calls, smp.reps
	r.GFlops = r.Flops / smp.secs / 1e9
	s.rep.Done++
	s.prog.step()
}

func (s *suite) unitDone() {
	if afterUnit != nil {
		afterUnit()
	}
}
