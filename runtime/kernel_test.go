package runtime

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	goruntime "runtime"
	"slices"
	"testing"
	"unsafe"

	"github.com/tcontract/tcontract/generated/kernels"
	"github.com/tcontract/tcontract/internal/spec"
)

// The micro-kernel suite. Every kernel this machine and build can run (all
// available paths in one run) is checked against its pure-Go twin, and every
// twin against the naive triple loop below, over depths around the unroll
// and a few hundred, every tile shape m ≤ MR, n ≤ NR, alpha and beta in
// {0, 1, −1, random}, NaN in C when beta is 0, C in several layouts
// (column- and row-major, padded, negative and general strides), packed
// slivers abutting PROT_NONE pages, and canaries around C.

type real interface{ float32 | float64 }

func TestKernels(t *testing.T) {
	avail := Available()
	for i := range kernels.Kernels {
		k := &kernels.Kernels[i]
		runs := slices.Contains(avail, k.ISA)
		t.Run(k.Name, func(t *testing.T) {
			t.Parallel()
			asm := k.Asm
			if !runs {
				asm = nil // present in the build, but this CPU lacks the ISA
			}
			if k.Real == "float32" {
				checkKernel[float32](t, k, asm)
			} else {
				checkKernel[float64](t, k, asm)
			}
		})
	}
}

// TestRegistry checks the registry against the table and the build: every
// row is there once under its name, and a path's assembly is present
// exactly when this build carries assembly for its architecture.
func TestRegistry(t *testing.T) {
	if len(kernels.Kernels) != len(spec.Kernels) {
		t.Fatalf("registry has %d rows, table %d", len(kernels.Kernels), len(spec.Kernels))
	}
	for i, row := range spec.Kernels {
		k := &kernels.Kernels[i]
		if k.Kernel != row || k.Name != row.Name() {
			t.Errorf("row %d: registry %+v %s, table %+v", i, k.Kernel, k.Name, row)
		}
		// Lookup gives an ISA's kernel for a real type: its first row.
		first, _ := spec.KernelFor(row.ISA, row.Real)
		if got := kernels.Lookup(row.ISA, row.Real); got == nil || got.Kernel != first {
			t.Errorf("Lookup(%s, %s) = %p, want the first row", row.ISA, row.Real, got)
		}
		isa, _ := spec.ISAByName(row.ISA)
		wantAsm := asmBuild && isa.Arch == goruntime.GOARCH
		if (k.Asm != nil) != wantAsm {
			t.Errorf("%s: assembly present %v, want %v", k.Name, k.Asm != nil, wantAsm)
		}
		if k.Go == nil || k.DirectGo == nil || k.PackAGo == nil || k.PackBGo == nil || k.Pack1eGo == nil || k.Pack1rGo == nil {
			t.Errorf("%s: a twin is missing", k.Name)
		}
		// Direct kernels and packers are x86 assembly only.
		wantDirect := wantAsm && isa.Arch == "amd64"
		if (k.Direct != nil) != wantDirect || (k.PackA != nil) != wantDirect || (k.PackB != nil) != wantDirect {
			t.Errorf("%s: direct %v, packers %v %v present, want %v", k.Name, k.Direct != nil, k.PackA != nil, k.PackB != nil, wantDirect)
		}
		// So are the 1e and 1r packers.
		if (k.Pack1e != nil) != wantDirect || (k.Pack1r != nil) != wantDirect {
			t.Errorf("%s: 1e, 1r packers present %v %v, want %v", k.Name, k.Pack1e != nil, k.Pack1r != nil, wantDirect)
		}
		// Row-map kernels are AVX-512 assembly, with a twin on every build.
		if wantRuns := wantAsm && row.ISA == spec.AVX512; (k.Runs != nil) != wantRuns || (k.RunsGo != nil) != (row.ISA == spec.AVX512) {
			t.Errorf("%s: row-map kernel present %v, twin %v, want %v", k.Name, k.Runs != nil, k.RunsGo != nil, wantRuns)
		}
		// Streaming column kernels are AVX-512 assembly, with the column
		// kernel's twin as their reference.
		if wantStream := wantAsm && row.ISA == spec.AVX512; (k.Stream != nil) != wantStream || (row.ISA == spec.AVX512 && k.TilesGo == nil) {
			t.Errorf("%s: streaming kernel present %v, want %v; column twin %v", k.Name, k.Stream != nil, wantStream, k.TilesGo != nil)
		}
		// Half-map column kernels are AVX2 assembly, with a twin on every build.
		if wantMaps := wantAsm && row.ISA == spec.AVX2; (k.Maps != nil) != wantMaps || (k.MapsGo != nil) != (row.ISA == spec.AVX2) {
			t.Errorf("%s: half-map kernel present %v, twin %v, want %v", k.Name, k.Maps != nil, k.MapsGo != nil, wantMaps)
		}
	}
	if kernels.Lookup(spec.Generic, "complex64") != nil {
		t.Error("Lookup of a type without kernels is not nil")
	}
	for _, p := range kernels.Peaks {
		isa, _ := spec.ISAByName(p.ISA)
		wantFn := isa.Arch == "" || (asmBuild && isa.Arch == goruntime.GOARCH)
		if (p.Fn != nil) != wantFn || p.FlopsPerIter <= 0 {
			t.Errorf("peak %s/%s: fn present %v (want %v), %d flops per trip", p.ISA, p.Real, p.Fn != nil, wantFn, p.FlopsPerIter)
		}
	}
}

// TestDispatch checks that the path in use is the forced one when
// TCONTRACT_ISA is set (the suite runs once per path that way), else the
// best available, and that KernelFor hands out that path's functions.
func TestDispatch(t *testing.T) {
	avail := Available()
	if len(avail) == 0 || avail[len(avail)-1] != spec.Generic {
		t.Fatalf("Available() = %v, want generic last", avail)
	}
	want := avail[0]
	if env := os.Getenv(isaEnv); env != "" {
		want = env
	}
	if err := ISAError(); err != nil {
		t.Fatalf("ISAError: %v", err)
	}
	if ISA() != want {
		t.Fatalf("ISA() = %q, want %q (available %v)", ISA(), want, avail)
	}
	if asmBuild && goruntime.GOARCH == "arm64" && avail[0] != spec.NEON {
		t.Errorf("arm64 build: best path %q, want neon", avail[0])
	}
	for _, r := range spec.Reals {
		k, fn := KernelFor(r.Name)
		if k.ISA != ISA() || k.Real != r.Name {
			t.Errorf("KernelFor(%s) = row %s", r.Name, k.Name)
		}
		wantFn := k.Asm
		if wantFn == nil {
			wantFn = k.Go
		}
		if fn == nil || funcPC(fn) != funcPC(wantFn) {
			t.Errorf("KernelFor(%s): not the row's %s function", r.Name, map[bool]string{true: "assembly", false: "Go"}[k.Asm != nil])
		}
		if ISA() != spec.Generic && k.Asm == nil {
			t.Errorf("KernelFor(%s) on %s has no assembly", r.Name, ISA())
		}
	}
}

// funcPC identifies a func value by its code pointer.
func funcPC(f kernels.Func) uintptr { return **(**uintptr)(unsafe.Pointer(&f)) }

func TestChooseISA(t *testing.T) {
	avail := []string{spec.AVX2, spec.Generic}
	for _, tc := range []struct {
		env, want string
		err       bool
	}{
		{"", spec.AVX2, false},
		{"avx2", spec.AVX2, false},
		{" generic ", spec.Generic, false},
		{"avx512", spec.AVX2, true}, // the CPU lacks it: reported, best path kept
		{"neon", spec.AVX2, true},
		{"sse9", spec.AVX2, true},
	} {
		c := chooseISA(tc.env, avail)
		if c.name != tc.want || (c.err != nil) != tc.err {
			t.Errorf("chooseISA(%q) = %q, %v; want %q, error %v", tc.env, c.name, c.err, tc.want, tc.err)
		}
	}
}

// layout places C: C(i,j) at element i*rsc + j*csc from the tile origin.
type layout struct {
	name     string
	rsc, csc func(mr, nr int) int
}

var layouts = []layout{
	{"colmajor", func(int, int) int { return 1 }, func(mr, _ int) int { return mr }},
	{"colpadded", func(int, int) int { return 1 }, func(mr, _ int) int { return mr + 5 }},
	{"colneg", func(int, int) int { return 1 }, func(mr, _ int) int { return -(mr + 3) }},
	{"rowmajor", func(_, nr int) int { return nr + 3 }, func(int, int) int { return 1 }},
	{"bothneg", func(int, int) int { return -1 }, func(mr, _ int) int { return -(mr + 2) }},
	{"general", func(int, int) int { return 3 }, func(mr, _ int) int { return -(3*mr + 7) }},
}

// canary bits: a quiet NaN with a payload no arithmetic produces.
const (
	canary32 = 0x7fc0dead
	canary64 = 0x7ff8dead0000beef
)

func bitsOf[T real](x T) uint64 {
	if unsafe.Sizeof(x) == 4 {
		return uint64(math.Float32bits(float32(x)))
	}
	return math.Float64bits(float64(x))
}

func canary[T real]() T {
	var z T
	if unsafe.Sizeof(z) == 4 {
		return T(math.Float32frombits(canary32))
	}
	return T(math.Float64frombits(canary64))
}

func ptr[T real](s []T) *byte { return (*byte)(unsafe.Pointer(unsafe.SliceData(s))) }

// depths returns k ∈ {0, 1, 2, 3, unroll−1, unroll, unroll+1, 255, 256, 257}.
func depths(unroll int) []int {
	ks := []int{0, 1, 2, 3, unroll - 1, unroll, unroll + 1, 255, 256, 257}
	slices.Sort(ks)
	return slices.Compact(slices.DeleteFunc(ks, func(k int) bool { return k < 0 }))
}

// checkKernel runs the whole matrix on one row: asm (nil when this machine
// cannot run it) and the twin, against the naive loop and each other.
func checkKernel[T real](t *testing.T, k *kernels.Kernel, asm kernels.Func) {
	typ, _ := spec.TypeByName(k.Real)
	tol := typ.Tol
	mr, nr := k.MR, k.NR
	rng := rand.New(rand.NewPCG(uint64(mr), uint64(nr)))
	rnd := func() T { return T(rng.Float64()*2 - 1) }
	scalars := []T{0, 1, -1, T(0.6180339887498949)}
	size := int(unsafe.Sizeof(T(0)))
	combos := len(scalars) * len(scalars) * len(layouts)
	pick := 0
	for _, kk := range depths(k.Unroll) {
		// Packed slivers, twice: once ending at a PROT_NONE page and once
		// starting right after one.
		sliver := func(n int, atEnd bool) []T {
			return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(guarded(t, n*size, atEnd)))), n)
		}
		slivers := [2][2][]T{
			{sliver(mr*kk, true), sliver(nr*kk, true)},
			{sliver(mr*kk, false), sliver(nr*kk, false)},
		}
		for i := range slivers[0][0] {
			slivers[0][0][i] = rnd()
		}
		for i := range slivers[0][1] {
			slivers[0][1][i] = rnd()
		}
		copy(slivers[1][0], slivers[0][0])
		copy(slivers[1][1], slivers[0][1])
		a, b := slivers[0][0], slivers[0][1]
		// The naive triple loop, in float64, with the sum of |terms| that
		// scales the tolerance.
		ref := make([]float64, mr*nr)
		mag := make([]float64, mr*nr)
		for j := 0; j < nr; j++ {
			for i := 0; i < mr; i++ {
				for p := 0; p < kk; p++ {
					x := float64(a[p*mr+i]) * float64(b[p*nr+j])
					ref[j*mr+i] += x
					mag[j*mr+i] += math.Abs(x)
				}
			}
		}
		for m := 0; m <= mr; m++ {
			for n := 0; n <= nr; n++ {
				full := m == mr && n == nr
				// The full tile runs every alpha, beta and layout; partial
				// tiles take the combinations in turn.
				first, last := pick%combos, pick%combos+1
				if full {
					first, last = 0, combos
				}
				pick++
				// The twin runs on every shape at small depths and on the full
				// tile and every fifth shape at large ones: the write-back
				// does not depend on k.
				twin := kk <= k.Unroll+1 || full || pick%5 == 0 || asm == nil
				for c := first; c < last; c++ {
					alpha := scalars[c%len(scalars)]
					beta := scalars[c/len(scalars)%len(scalars)]
					lay := layouts[c/len(scalars)/len(scalars)]
					sl := slivers[pick%2]
					cs := kcase[T]{
						k: kk, m: m, n: n, mr: mr, nr: nr, a: sl[0], b: sl[1],
						rsc: lay.rsc(mr, nr), csc: lay.csc(mr, nr), alpha: alpha, beta: beta,
						ref: ref, mag: mag, tol: tol, c0: make([]T, mr*nr),
					}
					for i := range cs.c0 {
						cs.c0[i] = rnd()
						if beta == 0 {
							cs.c0[i] = T(math.NaN()) // must not leak
						}
					}
					name := fmt.Sprintf("k=%d m=%d n=%d alpha=%v beta=%v %s", kk, m, n, alpha, beta, lay.name)
					var got, want []T
					if asm != nil {
						got = cs.run(t, "asm "+name, asm)
					}
					if twin {
						want = cs.run(t, "twin "+name, k.Go)
					}
					if got != nil && want != nil {
						for i := range got {
							if !cs.close(i, float64(got[i]), float64(want[i]), 2) {
								t.Fatalf("asm %s: C[%d] = %v, twin %v", name, i, got[i], want[i])
							}
						}
					}
					if t.Failed() {
						return
					}
				}
			}
		}
	}
}

// kcase is one call of a kernel.
type kcase[T real] struct {
	k, m, n, mr, nr int
	a, b            []T
	rsc, csc        int
	alpha, beta     T
	ref, mag        []float64
	c0              []T // C before the call, column-major
	tol             float64
}

// close reports whether x and y agree for tile entry idx (column-major, mr
// rows) within the tolerance of its sum, times slack.
func (cs *kcase[T]) close(idx int, x, y, slack float64) bool {
	if math.IsNaN(x) || math.IsNaN(y) {
		return false
	}
	scale := math.Abs(float64(cs.alpha))*cs.mag[idx] + math.Abs(float64(cs.beta))
	return math.Abs(x-y) <= slack*cs.tol*float64(cs.k+2)*scale
}

// run calls fn on a fresh C with canaries around the tile and checks the
// m×n result against the naive loop; it returns the tile column-major.
func (cs *kcase[T]) run(t *testing.T, name string, fn kernels.Func) []T {
	t.Helper()
	return cs.runWith(t, name, func(c, alpha, beta *byte) {
		fn(cs.k, ptr(cs.a), ptr(cs.b), c, cs.rsc, cs.csc, cs.m, cs.n, alpha, beta)
	})
}

// runWith is run with the kernel call given as call(c, alpha, beta).
func (cs *kcase[T]) runWith(t *testing.T, name string, call func(c, alpha, beta *byte)) []T {
	t.Helper()
	mr, nr := cs.mr, cs.nr
	// The span of offsets the whole MR×NR tile could reach, plus a margin.
	lo, hi := 0, 0
	for _, o := range []int{(mr - 1) * cs.rsc, (nr - 1) * cs.csc, (mr-1)*cs.rsc + (nr-1)*cs.csc} {
		lo, hi = min(lo, o), max(hi, o)
	}
	const margin = 67
	buf := make([]T, hi-lo+1+2*margin)
	origin := margin - lo
	cn := canary[T]()
	for i := range buf {
		buf[i] = cn
	}
	c0 := cs.c0
	for j := 0; j < cs.n; j++ {
		for i := 0; i < cs.m; i++ {
			buf[origin+i*cs.rsc+j*cs.csc] = c0[j*mr+i]
		}
	}
	alpha, beta := cs.alpha, cs.beta
	call((*byte)(unsafe.Pointer(&buf[origin])), (*byte)(unsafe.Pointer(&alpha)), (*byte)(unsafe.Pointer(&beta)))
	out := make([]T, mr*nr)
	written := make([]bool, len(buf))
	for j := 0; j < cs.n; j++ {
		for i := 0; i < cs.m; i++ {
			idx := j*mr + i
			at := origin + i*cs.rsc + j*cs.csc
			written[at] = true
			got := buf[at]
			out[idx] = got
			want := float64(cs.alpha) * cs.ref[idx]
			if cs.beta != 0 {
				want += float64(cs.beta) * float64(c0[idx])
			}
			if !cs.close(idx, float64(got), want, 1) {
				t.Errorf("%s: C(%d,%d) = %v, want %v", name, i, j, got, want)
				return out
			}
		}
	}
	for i, v := range buf {
		if !written[i] && bitsOf(v) != bitsOf(cn) {
			t.Errorf("%s: wrote %v at offset %d from the tile origin, outside the m×n tile", name, v, i-origin)
			return out
		}
	}
	return out
}

// The direct-kernel suite: every direct kernel this machine can run
// against its twin, every twin against the naive loop, over the depths of
// the packed suite, every m ≤ MR and n ≤ NR and a few m and n of several
// tiles (one call runs them in turn), A and B in tight, padded,
// negative and general layouts, alpha and beta in {0, 1, −1, random}, NaN
// in C when beta is 0, canaries around C, and A and B placed so that their
// last readable element abuts a PROT_NONE page (or their first follows
// one): a kernel that reads a row of A past m or a column of B past n
// faults.

func TestDirect(t *testing.T) {
	eachKernel(t, func(k *kernels.Kernel) (kernels.DirectFunc, bool) { return k.Direct, true },
		checkDirect[float32], checkDirect[float64])
}

// region holds two guarded buffers of one operand: one ending at a
// PROT_NONE page, one starting after one.
type region[T real] struct{ end, start []T }

func newRegion[T real](t *testing.T, n int) region[T] {
	size := int(unsafe.Sizeof(T(0)))
	as := func(b []byte) []T { return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(b))), len(b)/size) }
	return region[T]{as(guarded(t, n*size, true)), as(guarded(t, n*size, false))}
}

// place positions an operand whose element offsets span [lo, hi] from its
// origin: the element at hi is the last before the guard page (atEnd), or
// the one at lo the first after it. It poisons the span with NaN and
// returns the buffer and the origin's index in it; an empty span (hi < lo)
// puts the origin right at the guard, so any read faults.
func (r region[T]) place(t *testing.T, lo, hi int, atEnd bool) ([]T, int) {
	buf := r.start
	origin := -lo
	if atEnd {
		buf = r.end
		origin = len(buf) - 1 - hi
	}
	if hi < lo {
		if atEnd {
			return buf, len(buf)
		}
		return buf, 0
	}
	if origin+lo < 0 || origin+hi >= len(buf) {
		t.Fatalf("span [%d, %d] does not fit %d elements", lo, hi, len(buf))
	}
	nan := T(math.NaN())
	for i := origin + lo; i <= origin+hi; i++ {
		buf[i] = nan
	}
	return buf, origin
}

// at is the address of element origin+off of buf, which may be one past its
// end (an empty operand at the guard page).
func at[T real](buf []T, origin int) *byte {
	return (*byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(buf)), origin*int(unsafe.Sizeof(T(0)))))
}

// span2 is the range of i*s + j*t over i < m, j < n (empty when m or n is 0).
func span2(m, s, n, t int) (lo, hi int) {
	if m <= 0 || n <= 0 {
		return 0, -1
	}
	lo = min(0, (m-1)*s) + min(0, (n-1)*t)
	hi = max(0, (m-1)*s) + max(0, (n-1)*t)
	return lo, hi
}

// aLayouts give lda for m rows; bLayouts (rsb, csb) for depth k and n
// columns.
var aLayouts = []struct {
	name string
	lda  func(m, mr int) int
}{
	{"tight", func(m, _ int) int { return m }},
	{"padded", func(_, mr int) int { return mr + 3 }},
	{"negative", func(m, _ int) int { return -(m + 2) }},
}

var bLayouts = []struct {
	name     string
	rsb, csb func(k, n int) int
}{
	{"colmajor", func(int, int) int { return 1 }, func(k, _ int) int { return k }},
	{"colpadded", func(int, int) int { return 1 }, func(k, _ int) int { return k + 5 }},
	{"rowmajor", func(_, n int) int { return n }, func(int, int) int { return 1 }},
	{"rowpadded", func(_, n int) int { return n + 2 }, func(int, int) int { return 1 }},
	{"negative", func(int, int) int { return -1 }, func(k, _ int) int { return -(k + 2) }},
	{"general", func(int, int) int { return 3 }, func(k, _ int) int { return -(3*k + 4) }},
}

// checkDirect runs the whole matrix on one row: asm (nil when this machine
// cannot run it) and the twin, against the naive loop and each other.
func checkDirect[T real](t *testing.T, k *kernels.Kernel, asm kernels.DirectFunc) {
	typ, _ := spec.TypeByName(k.Real)
	mr, nr := k.MR, k.NR
	// One call runs a block of tiles: up to two row tiles and a row of a
	// third, three column tiles and a column of a fourth. A, B and C are
	// that large.
	rows, cols := 2*mr+1, 3*nr+1
	var ms, ns []int
	for m := 0; m <= mr; m++ {
		ms = append(ms, m)
	}
	for n := 0; n <= nr; n++ {
		ns = append(ns, n)
	}
	ms = append(ms, mr+1, 2*mr, rows)
	ns = append(ns, nr+1, 2*nr, cols)
	rng := rand.New(rand.NewPCG(uint64(mr), uint64(nr)+1))
	rnd := func() T { return T(rng.Float64()*2 - 1) }
	scalars := []T{0, 1, -1, T(0.6180339887498949)}
	cCombos := len(scalars) * len(scalars) * len(layouts) // alpha, beta, C layout
	abCombos := len(aLayouts) * len(bLayouts)
	pick := 0
	for _, kk := range depths(k.Unroll) {
		av := make([]T, rows*kk) // A(i,p) at i + p*rows
		bv := make([]T, kk*cols) // B(p,j) at p + j*kk
		for i := range av {
			av[i] = rnd()
		}
		for i := range bv {
			bv[i] = rnd()
		}
		ref := make([]float64, rows*cols)
		mag := make([]float64, rows*cols)
		for j := 0; j < cols; j++ {
			for i := 0; i < rows; i++ {
				for p := 0; p < kk; p++ {
					x := float64(av[i+p*rows]) * float64(bv[p+j*kk])
					ref[j*rows+i] += x
					mag[j*rows+i] += math.Abs(x)
				}
			}
		}
		ra := newRegion[T](t, (rows+4)*(kk+1)+rows)
		rb := newRegion[T](t, (3*kk+8)*(cols+1)+3*kk+8)
		for _, m := range ms {
			for _, n := range ns {
				full := m == mr && n == nr
				block := m == rows && n == cols
				// A partial tile takes the next combination of alpha, beta
				// and the three layouts. The full tile runs every alpha,
				// beta and C layout (A and B layouts in turn), then every A
				// and B layout (the rest in turn).
				var cases [][2]int
				if full {
					for c := 0; c < cCombos; c++ {
						cases = append(cases, [2]int{c, c % abCombos})
					}
					for ab := 0; ab < abCombos; ab++ {
						cases = append(cases, [2]int{(ab * 5) % cCombos, ab})
					}
				} else if block {
					// Every A and B layout, so the tiles advance by
					// strides of both signs.
					for ab := 0; ab < abCombos; ab++ {
						cases = append(cases, [2]int{(ab * 7) % cCombos, ab})
					}
				} else {
					cases = append(cases, [2]int{pick % cCombos, pick % abCombos})
				}
				pick++
				twin := kk <= k.Unroll+1 || full || pick%5 == 0 || asm == nil
				for ci, cb := range cases {
					x := cb[0]
					alpha := scalars[x%len(scalars)]
					x /= len(scalars)
					beta := scalars[x%len(scalars)]
					x /= len(scalars)
					lay := layouts[x%len(layouts)]
					al := aLayouts[cb[1]%len(aLayouts)]
					bl := bLayouts[cb[1]/len(aLayouts)]
					atEnd := (pick+ci)%2 == 0

					lda := al.lda(m, rows)
					rsb, csb := bl.rsb(kk, n), bl.csb(kk, n)
					alo, ahi := span2(m, 1, kk, lda)
					abuf, aorg := ra.place(t, alo, ahi, atEnd)
					for p := 0; p < kk; p++ {
						for i := 0; i < m; i++ {
							abuf[aorg+i+p*lda] = av[i+p*rows]
						}
					}
					blo, bhi := span2(kk, rsb, n, csb)
					bbuf, borg := rb.place(t, blo, bhi, atEnd)
					for j := 0; j < n; j++ {
						for p := 0; p < kk; p++ {
							bbuf[borg+p*rsb+j*csb] = bv[p+j*kk]
						}
					}
					cs := kcase[T]{
						k: kk, m: m, n: n, mr: rows, nr: cols,
						rsc: lay.rsc(rows, cols), csc: lay.csc(rows, cols), alpha: alpha, beta: beta,
						ref: ref, mag: mag, tol: typ.Tol, c0: make([]T, rows*cols),
					}
					for i := range cs.c0 {
						cs.c0[i] = rnd()
						if beta == 0 {
							cs.c0[i] = T(math.NaN()) // must not leak
						}
					}
					// ahead only asks for lines (far loops: the negative
					// lda), wherever it points: no result may change.
					ahead := []int{0, 4096, -(1 << 20), 3 << 30}[ci%4]
					name := fmt.Sprintf("k=%d m=%d n=%d alpha=%v beta=%v C %s A %s B %s guard-at-end=%v ahead=%d",
						kk, m, n, alpha, beta, lay.name, al.name, bl.name, atEnd, ahead)
					call := func(fn kernels.DirectFunc) func(c, alpha, beta *byte) {
						return func(c, alpha, beta *byte) {
							fn(kk, at(abuf, aorg), lda, at(bbuf, borg), rsb, csb, c, cs.rsc, cs.csc, m, n, alpha, beta, ahead)
						}
					}
					var got, want []T
					if asm != nil {
						got = cs.runWith(t, "asm "+name, call(asm))
					}
					if twin {
						want = cs.runWith(t, "twin "+name, call(k.DirectGo))
					}
					if got != nil && want != nil {
						for i := range got {
							if !cs.close(i, float64(got[i]), float64(want[i]), 2) {
								t.Fatalf("asm %s: C[%d] = %v, twin %v", name, i, got[i], want[i])
							}
						}
					}
					if t.Failed() {
						return
					}
				}
			}
		}
	}
}

// The packer suite: every assembly packer this machine can run against its
// twin and every twin against a plain loop, bit for bit, over rows 0…w,
// depths 0…300, unit, padded, negative and
// general steps (rowStep == 1 and kStep == 1 are the fast paths), the
// source abutting a PROT_NONE page at its last (or first) element, and
// canaries around the cache-line aligned destination. Depths 0…40 run every
// row count; deeper ones a few.

func TestPackers(t *testing.T) {
	avail := Available()
	for i := range kernels.Kernels {
		k := &kernels.Kernels[i]
		runs := slices.Contains(avail, k.ISA)
		for _, op := range []struct {
			name     string
			w        int
			asm, go_ kernels.PackFunc
		}{{"a", k.MR, k.PackA, k.PackAGo}, {"b", k.NR, k.PackB, k.PackBGo}} {
			asm := op.asm
			if !runs {
				asm = nil
			}
			t.Run(k.Name+"/pack"+op.name, func(t *testing.T) {
				t.Parallel()
				if k.Real == "float32" {
					checkPacker[float32](t, op.w, asm, op.go_)
				} else {
					checkPacker[float64](t, op.w, asm, op.go_)
				}
			})
		}
	}
}

// packSteps give (rowStep, kStep) for rows rows and depth k.
var packSteps = []struct {
	name string
	rs   func(rows, k int) int
	ks   func(rows, k int) int
}{
	{"copy", func(int, int) int { return 1 }, func(rows, _ int) int { return rows }},
	{"copypadded", func(int, int) int { return 1 }, func(rows, _ int) int { return rows + 7 }},
	{"copyneg", func(int, int) int { return 1 }, func(rows, _ int) int { return -(rows + 2) }},
	{"transpose", func(_, k int) int { return k }, func(int, int) int { return 1 }},
	{"transposepadded", func(_, k int) int { return k + 5 }, func(int, int) int { return 1 }},
	{"transposeneg", func(_, k int) int { return -(k + 1) }, func(int, int) int { return 1 }},
	{"general", func(int, int) int { return 3 }, func(rows, _ int) int { return -(3*rows + 5) }},
}

// packDepths are the depths of the packer suite: 0…300.
func packDepths() []int {
	var ks []int
	for k := 0; k <= 300; k++ {
		ks = append(ks, k)
	}
	return ks
}

// packAllRows reports whether depth k runs every row count: up to 40, which
// covers every chunk and tail of up to 16 steps; deeper ones run 0, 1,
// w/2, w−1, w and one more in turn.
func packAllRows(k int) bool { return k <= 40 }

func checkPacker[T real](t *testing.T, w int, asm, twin kernels.PackFunc) {
	rng := rand.New(rand.NewPCG(uint64(w), 7))
	size := int(unsafe.Sizeof(T(0)))
	cn := canary[T]()
	pick := 0
	ks := packDepths()
	maxK := slices.Max(ks)
	src := newRegion[T](t, (maxK+8)*(w+8)*3+16)
	// The destination, cache-line aligned, with canaries on both sides.
	lead := 64 / size
	raw := make([]T, w*maxK+4*lead)
	off := (64 - int(uintptr(unsafe.Pointer(&raw[0]))%64)) % 64 / size
	vals := make([]T, w*maxK) // element (i, p) at i + p*w
	for i := range vals {
		vals[i] = T(rng.Float64()*2 - 1)
	}
	var got, want, ref []T
	canaries := make([]T, len(raw))
	for i := range canaries {
		canaries[i] = cn
	}
	for _, k := range ks {
		dst := raw[off : off+lead+w*k+lead]
		for rows := 0; rows <= w; rows++ {
			if !packAllRows(k) && !slices.Contains([]int{0, 1, w / 2, w - 1, w, k % (w + 1)}, rows) {
				continue
			}
			for si, st := range packSteps {
				pick++
				rs, ks := st.rs(rows, k), st.ks(rows, k)
				atEnd := (pick+si)%2 == 0
				lo, hi := span2(rows, rs, k, ks)
				buf, org := src.place(t, lo, hi, atEnd)
				for p := 0; p < k; p++ {
					for i := 0; i < rows; i++ {
						buf[org+i*rs+p*ks] = vals[i+p*w]
					}
				}
				name := func() string {
					return fmt.Sprintf("rows=%d k=%d %s (rowStep %d, kStep %d) guard-at-end=%v", rows, k, st.name, rs, ks, atEnd)
				}
				run := func(fn kernels.PackFunc, out []T) []T {
					copy(dst, canaries)
					fn(at(dst, lead), at(buf, org), rows, k, rs, ks)
					for i := 0; i < lead; i++ {
						if bitsOf(dst[i]) != bitsOf(cn) || bitsOf(dst[lead+w*k+i]) != bitsOf(cn) {
							t.Fatalf("%s: wrote outside the sliver", name())
						}
					}
					return append(out[:0], dst[lead:lead+w*k]...)
				}
				ref = ref[:0]
				for p := 0; p < k; p++ {
					ref = append(ref, vals[p*w:p*w+rows]...)
					for i := rows; i < w; i++ {
						ref = append(ref, 0)
					}
				}
				want = run(twin, want)
				if i := firstDiff(want, ref); i >= 0 {
					t.Fatalf("twin %s: (%d, %d) = %v, want %v", name(), i%w, i/w, want[i], ref[i])
				}
				if asm == nil {
					continue
				}
				got = run(asm, got)
				if i := firstDiff(got, want); i >= 0 {
					t.Fatalf("asm %s: (%d, %d) = %v, want %v", name(), i%w, i/w, got[i], want[i])
				}
			}
		}
	}
}

// firstDiff is the first index where a and b differ bit for bit, or -1.
func firstDiff[T real](a, b []T) int {
	if len(a) != len(b) {
		return min(len(a), len(b))
	}
	size := int(unsafe.Sizeof(T(0)))
	asBytes := func(s []T) []byte {
		return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), len(s)*size)
	}
	if bytes.Equal(asBytes(a), asBytes(b)) {
		return -1
	}
	for i := range a {
		if bitsOf(a[i]) != bitsOf(b[i]) {
			return i
		}
	}
	return -1
}
