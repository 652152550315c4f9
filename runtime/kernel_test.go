package runtime

import (
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
		if got := kernels.Lookup(row.ISA, row.Real); got != k {
			t.Errorf("Lookup(%s, %s) = %p, want row %d", row.ISA, row.Real, got, i)
		}
		isa, _ := spec.ISAByName(row.ISA)
		wantAsm := asmBuild && isa.Arch == goruntime.GOARCH
		if (k.Asm != nil) != wantAsm {
			t.Errorf("%s: assembly present %v, want %v", k.Name, k.Asm != nil, wantAsm)
		}
		if k.Go == nil {
			t.Errorf("%s: no twin", k.Name)
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
	fn(cs.k, ptr(cs.a), ptr(cs.b), (*byte)(unsafe.Pointer(&buf[origin])), cs.rsc, cs.csc, cs.m, cs.n,
		(*byte)(unsafe.Pointer(&alpha)), (*byte)(unsafe.Pointer(&beta)))
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
