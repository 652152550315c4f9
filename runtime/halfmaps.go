package runtime

import (
	"slices"
	"sync"
	"time"

	"github.com/tcontract/tcontract/generated/kernels"
	"github.com/tcontract/tcontract/internal/spec"
)

// AVX2's half maps on the AVX-512 path.
//
// TCCG's ccsd_t contractions at float32 write C in runs of 20 rows. Such
// runs split AVX-512's vectors of 16: the row-map kernel writes each
// vector that straddles two runs with two masked stores. They are whole
// halves of AVX2's vectors of 8, which AVX2's half-map kernel
// (kernels.MapsFunc) writes with plain 128-bit stores, in BLIS's order.
// On a core whose 512-bit FMAs run at its 256-bit rate (Zen 4 runs each
// as two halves), AVX2's rows lose nothing in FMA throughput. There, with
// C far beyond the cache, AVX2's row ran the three float32 ccsd_t cases
// whose tiles are grouped and whose N starts with a short dim (20
// columns) faster than AVX-512's, against the same GEMM: on one thread
// 3–18% (abcdef-dfgb-geac 0.81 → 0.88, abcdef-geab-dfgc 0.78 → 0.85,
// abcdef-gebc-dfga 0.80 → 0.84; medians of three and four rounds in
// turns, four sets), on two threads −5% to +8% (two sets of four
// rounds, one in each order: the last two 3–5% on average, the first
// level). At float64 (runs of 16,
// whole AVX-512 vectors) AVX-512's row ran 3–20% faster, and on the
// other float32 TCCG cases 1–47% (among them runs of 84 and 376, which
// its row maps write as ungrouped tiles, 1–11%), so only calls whose
// grouped tiles split AVX-512's vectors change rows. Where 512-bit FMAs
// are twice as fast as 256-bit ones, the AVX-512 row stays.

// halfMapsRow returns the AVX2 row that a real call on the AVX-512 path
// runs instead of its own (choose), or nil: where the row-map kernel
// would write grouped tiles (M's runs shorter than two tiles, at a short
// depth: grouped.go) whose vectors straddle runs, N's first dim is
// shorter than a group's columns, AVX2's half maps fit the runs, C is
// beyond the cache and this core runs AVX2's FMAs at the AVX-512 rate
// (wideAtNarrowRate).
func (c *call) halfMapsRow() *kernels.Kernel {
	p := c.plan
	if c.direct || !c.rowMaps || c.runsFn == nil || c.cf != 1 || c.kern.ISA != spec.AVX512 || p.M.Cross != 0 {
		return nil
	}
	lanes := vecLanes(c.kern, c.rsize)
	if lanes == 0 || c.groupSl == 0 || p.M.Dims[0].Ext%lanes == 0 {
		return nil
	}
	// A group's row of tiles writes C's planes whole and in order when N's
	// first dim spans the group's columns: abcdef-dega-gfbc and
	// abcdef-degc-gfab (480 columns, 20 rows apart, after runs of 20) ran
	// 3–5% faster on AVX-512's grouped tiles, abcdef-gfac-degb level.
	if len(p.N.Dims) == 0 || p.N.Dims[0].Ext >= c.groupSl*c.nrR {
		return nil
	}
	if p.M.Size*p.N.Size*c.tsize < cacheBytes() || !slices.Contains(dispatch.avail, spec.AVX2) {
		return nil
	}
	k := kernels.Lookup(spec.AVX2, c.kern.Real)
	if k == nil || k.Asm == nil || k.Maps == nil || !rowMapsFit(&p.M, k, c.cf, c.rsize) || !wideAtNarrowRate() {
		return nil
	}
	return k
}

// wideAtNarrowRate reports whether this core's float32 FMA throughput
// on the AVX-512 path is at most a quarter above its throughput on AVX2's
// (about the same where 512-bit FMAs run as two halves, twice it where
// they have units of their own), measured once by the two peak probes. A
// variable, so that tests can set it.
var wideAtNarrowRate = sync.OnceValue(func() bool {
	wide, narrow := findProbe(spec.AVX512, "float32"), findProbe(spec.AVX2, "float32")
	if wide == nil || narrow == nil {
		return false
	}
	w, n := probeRates(wide, narrow)
	return n*1.25 >= w
})

// probeRates times two probes in turns on the calling thread, a few short
// repetitions each, and returns the best rate of each (flops per second):
// noise only slows a repetition, and taking turns lets a change of clock
// reach both.
func probeRates(a, b *kernels.Peak) (ra, rb float64) {
	const rep, reps = 200 * time.Microsecond, 5
	ia, ib := calibrate(a.Fn, rep), calibrate(b.Fn, rep)
	rate := func(p *kernels.Peak, iters int) float64 {
		t0 := time.Now()
		p.Fn(iters)
		return float64(iters) * float64(p.FlopsPerIter) / max(time.Since(t0).Seconds(), 1e-9)
	}
	for range reps {
		ra = max(ra, rate(a, ia))
		rb = max(rb, rate(b, ib))
	}
	return ra, rb
}
