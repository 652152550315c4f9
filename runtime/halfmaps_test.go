package runtime

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tcontract/tcontract/generated/kernels"
	"github.com/tcontract/tcontract/generated/typed"
	"github.com/tcontract/tcontract/internal/spec"
)

// TestHalfMapsRow: on the AVX-512 path, a float32 product shaped like
// TCCG's ccsd_t (C's rows in runs of 20, which split AVX-512's vectors and
// are whole halves of AVX2's) with C beyond the cache, at depth 24, runs
// AVX2's row and its half maps, alone and on a team of two, where the core
// runs AVX2's FMAs at the AVX-512 rate. It keeps its own row where
// 512-bit FMAs are faster, where C fits the cache, at a depth whose tiles
// are not grouped (grouped.go), where N's first dim (c) is longer than a
// group's columns, and at float64 (runs of 16, whole vectors). The answer
// is the reference's either way, on 1 and 2 threads. On other paths no
// call changes rows.
func TestHalfMapsRow(t *testing.T) {
	rate, cache := wideAtNarrowRate, cacheBytes
	defer func() { wideAtNarrowRate, cacheBytes = rate, cache }()
	k, _ := KernelFor("float32")
	narrow := kernels.Lookup(spec.AVX2, "float32")
	can := k.ISA == spec.AVX512 && k.Runs != nil && narrow != nil && narrow.Asm != nil && narrow.Maps != nil &&
		slices.Contains(dispatch.avail, spec.AVX2)
	for _, tc := range []struct {
		name  string
		wide  bool // wideAtNarrowRate
		cache int  // cacheBytes
		avx2  bool // whether float32 changes rows
	}{
		{"AVX2's FMAs at the AVX-512 rate, C beyond the cache", true, 1 << 20, can},
		{"AVX-512's FMAs faster", false, 1 << 20, false},
		{"C within the cache", true, 1 << 30, false},
	} {
		wideAtNarrowRate = func() bool { return tc.wide }
		cacheBytes = func() int { return tc.cache }
		checkHalfMaps[float32](t, tc.name, 131, 20, 20, 24, tc.avx2, 1e-5)
		checkHalfMaps[float32](t, tc.name, 131, 20, 20, 120, false, 1e-5) // BLIS's order
		checkHalfMaps[float32](t, tc.name, 11, 20, 240, 24, false, 1e-5)  // N's first dim long
		checkHalfMaps[float64](t, tc.name, 131, 16, 20, 24, false, 1e-13)
	}
}

// checkHalfMaps runs TestGroupedProduct's product (C = dacb, A×runs×Cn×14,
// of 2.9 to 3 MB at float32) with C's rows in runs of runs, at depth,
// and checks whether the call chose AVX2's row (want) and the answer.
func checkHalfMaps[T real](t *testing.T, name string, A, runs, Cn, depth int, want bool, tol float64) {
	t.Helper()
	ops := typed.OpsOf[T]()
	name = fmt.Sprintf("%s, %s, %d×%d×%d×14, depth %d", name, ops.Type.Name, A, runs, Cn, depth)
	const einsum = "abk,kcd->dacb"
	const D = 14
	rng := rand.New(rand.NewPCG(7, uint64(runs)))
	a, bm, views := dacbOperands[T](rng, [4]int{A, runs, Cn, D}, depth)
	sp, err := ParseSpec(einsum)
	if err != nil {
		t.Fatal(err)
	}
	plan, err := NewPlan(sp, views[opA], views[opB], views[opC], tileOf(ops))
	if err != nil {
		t.Fatal(err)
	}
	own, _ := KernelFor(ops.Type.Real)
	for _, threads := range []int{1, 2} {
		pool := NewPool(threads)
		c := choosePlan(pool, threads, ops.Type.Real, plan)
		pool.Close()
		if threads > 1 && c.members < 2 {
			t.Fatalf("%s: %d members on a pool of %d; the test wants a team", name, c.members, threads)
		}
		if got := c.kern.ISA == spec.AVX2 && own.ISA != spec.AVX2; got != want || got && (c.mapsFn == nil || c.runsFn != nil) {
			t.Errorf("%s, %d threads: ran %s (half maps %v, row maps %v), want AVX2's row with half maps %v",
				name, threads, c.kern.Name, c.mapsFn != nil, c.runsFn != nil, want)
		}
	}
	for _, run := range []struct {
		threads int
		beta    T
	}{{1, 0}, {2, -1}} {
		alpha := T(0.75)
		got, c0 := runOnPool(t, rng, run.threads, einsum, views, a, bm, alpha, run.beta)
		checkDacb(t, fmt.Sprintf("%s, %d threads", name, run.threads), [4]int{A, runs, Cn, D}, depth, a, bm, alpha, run.beta, got, c0, tol)
	}
}
