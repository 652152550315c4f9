package runtime

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/tcontract/tcontract/generated/kernels"
	"github.com/tcontract/tcontract/internal/spec"
)

// The row-map kernel suite: every row-map kernel this machine can run
// against its twin, and every twin against the naive loop, with C's rows
// in runs of every length a vector can meet (a vector, a few rows more,
// TCCG's 20, one run for the whole tile), runs ascending and descending,
// tiles starting inside a run, m and n up to the tile, columns evenly
// spaced, reversed and scattered, alpha and beta in {0, 1, −1, random},
// NaN in C when beta is 0, and canaries on every element it must not
// write. The maps come from buildRowMap, which is checked here too.

func TestRunsKernels(t *testing.T) {
	n := eachKernel(t, func(k *kernels.Kernel) (kernels.RunsFunc, bool) { return k.Runs, k.RunsGo != nil },
		checkRuns[float32], checkRuns[float64])
	if n == 0 {
		t.Fatal("no row-map kernel in the registry")
	}
}

func checkRuns[T real](t *testing.T, k *kernels.Kernel, asm kernels.RunsFunc) {
	typ, _ := spec.TypeByName(k.Real)
	isa, _ := spec.ISAByName(k.ISA)
	size := int(unsafe.Sizeof(T(0)))
	lanes := isa.Lanes(size)
	mr, nr := k.MR, k.NR
	rng := rand.New(rand.NewPCG(uint64(mr), 7))
	rnd := func() T { return T(rng.Float64()*2 - 1) }
	scalars := []T{0, 1, -1, T(0.6180339887498949)}
	runLens := []int{lanes, lanes + 4, 20, 3*lanes + 1, mr}
	pick := 0
	for _, kk := range []int{0, 1, k.Unroll + 1, 37} {
		a, b := make([]T, mr*kk), make([]T, nr*kk)
		for i := range a {
			a[i] = rnd()
		}
		for i := range b {
			b[i] = rnd()
		}
		ref, mag := make([]float64, mr*nr), make([]float64, mr*nr)
		for j := 0; j < nr; j++ {
			for i := 0; i < mr; i++ {
				for p := 0; p < kk; p++ {
					x := float64(a[p*mr+i]) * float64(b[p*nr+j])
					ref[j*mr+i] += x
					mag[j*mr+i] += math.Abs(x)
				}
			}
		}
		for _, e0 := range runLens {
			if e0 < lanes {
				continue
			}
			for _, gap := range []int{3, 50, -2*e0 - 7} {
				pick++
				s0 := rng.IntN(e0)
				m := []int{mr, mr - 1, 1 + rng.IntN(mr)}[pick%3]
				nn := []int{nr, 1 + rng.IntN(nr)}[pick%2]
				rows, cols := runLayout(rng, m, m, nr, s0, e0, gap, pick%3)
				// The map, then the next sliver's, which the kernel reads
				// for prefetch hints only: offsets far outside C.
				words := rowMapWords(mr, lanes)
				rm := make([]int64, 2*words)
				if !buildRowMap(rm[:words], rows, mr, lanes, 1, size, size) {
					t.Fatalf("e0=%d gap=%d s0=%d: no row map", e0, gap, s0)
				}
				for w := words; w < len(rm); w++ {
					rm[w] = int64(w-words+1) << 40 * int64(1-2*(pick%2))
				}
				for combo := 0; combo < 4; combo++ {
					alpha := scalars[(pick+combo)%4]
					beta := scalars[(pick/4+combo)%4]
					cs := kcase[T]{k: kk, mr: mr, nr: nr, alpha: alpha, beta: beta, ref: ref, mag: mag, tol: typ.Tol}
					name := fmt.Sprintf("k=%d e0=%d gap=%d s0=%d m=%d n=%d alpha=%v beta=%v cols%d", kk, e0, gap, s0, m, nn, alpha, beta, pick%3)
					c0 := make([]T, mr*nr)
					for i := range c0 {
						c0[i] = rnd()
						if beta == 0 {
							c0[i] = T(math.NaN())
						}
					}
					var got, want []T
					if asm != nil {
						got = runRuns(t, "asm "+name, &cs, asm, a, b, rows, cols, rm, nn, c0)
					}
					want = runRuns(t, "twin "+name, &cs, k.RunsGo, a, b, rows, cols, rm, nn, c0)
					for i := range got {
						if !cs.close(i, float64(got[i]), float64(want[i]), 2) {
							t.Fatalf("asm %s: C[%d] = %v, twin %v", name, i, got[i], want[i])
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

// runLayout lays out a tile of m rows (rows holds at least n, the rest at
// offset 0) and nr columns, as C's runs put them: row i is element s0+i of
// runs of e0 whose starts are e0+gap apart; the columns are evenly spaced
// (cols 0), reversed (1) or scattered (2), never overlapping the rows of
// another column.
func runLayout(rng *rand.Rand, m, n, nr, s0, e0, gap, cols int) (rowOffs, colOffs []int64) {
	rowOffs = make([]int64, n)
	lo, hi := int64(0), int64(0)
	for i := range m {
		g := s0 + i
		rowOffs[i] = int64(g/e0*(e0+gap) + g%e0)
		lo, hi = min(lo, rowOffs[i]), max(hi, rowOffs[i])
	}
	span := hi - lo + 1
	colOffs = make([]int64, nr)
	order := rng.Perm(nr)
	for j := range colOffs {
		switch cols {
		case 0:
			colOffs[j] = int64(j) * (span + 5)
		case 1:
			colOffs[j] = -int64(j) * (span + 1)
		default:
			colOffs[j] = int64(order[j])*(span+4) + int64(rng.IntN(3))
		}
	}
	return rowOffs, colOffs
}

// runRuns calls fn on a fresh C with canaries everywhere but the m×n tile
// at rows × cols, checks the tile against the naive loop and returns it
// column-major.
func runRuns[T real](t *testing.T, name string, cs *kcase[T], fn kernels.RunsFunc, a, b []T, rows, cols, rm []int64, n int, c0 []T) []T {
	t.Helper()
	var ap, bp *byte
	if len(a) > 0 {
		ap, bp = ptr(a), ptr(b)
	}
	alpha, beta := cs.alpha, cs.beta
	return scattered(t, name, rows, cols, cs.nr, n, cs.mr, c0,
		func(c *byte, colBytes *int64) {
			fn(cs.k, ap, bp, c, &rm[0], colBytes, n, (*byte)(unsafe.Pointer(&alpha)), (*byte)(unsafe.Pointer(&beta)))
		},
		func(i, j int) float64 {
			w := float64(cs.alpha) * cs.ref[j*cs.mr+i]
			if cs.beta != 0 {
				w += float64(cs.beta) * float64(c0[j*cs.mr+i])
			}
			return w
		},
		func(idx int, got, want float64) bool { return cs.close(idx, got, want, 1) })
}

// scattered runs call on a fresh C that holds c0 (element (i, j) at
// j·ld + i) at rows × cols for the first n columns and canaries everywhere
// else. call gets C and the columns' byte offsets, followed by the
// kernels.RunsAhead slivers of prefetch hints a row-map kernel reads
// (columns far outside the buffer). It checks every (i, j), j < n, against
// want(i, j) with ok(j·ld + i, got, want), that nothing else changed, and
// returns the elements at j·ld + i.
func scattered[T real](t *testing.T, name string, rows, cols []int64, nr, n, ld int, c0 []T,
	call func(c *byte, colBytes *int64), want func(i, j int) float64, ok func(idx int, got, want float64) bool) []T {
	t.Helper()
	size := int64(unsafe.Sizeof(T(0)))
	lo, hi := int64(0), int64(0)
	for _, r := range rows {
		for _, c := range cols {
			lo, hi = min(lo, r+c), max(hi, r+c)
		}
	}
	const margin = 67
	buf := make([]T, hi-lo+1+2*margin)
	origin := margin - lo
	cn := canary[T]()
	for i := range buf {
		buf[i] = cn
	}
	colBytes := make([]int64, (kernels.RunsAhead+1)*nr)
	for j := range colBytes {
		colBytes[j] = int64(j) << 40
	}
	for j, c := range cols {
		colBytes[j] = c * size
	}
	for j := 0; j < n; j++ {
		for i, r := range rows {
			buf[origin+r+cols[j]] = c0[j*ld+i]
		}
	}
	call((*byte)(unsafe.Pointer(&buf[origin])), &colBytes[0])
	out := make([]T, ld*nr)
	written := make([]bool, len(buf))
	for j := 0; j < n; j++ {
		for i, r := range rows {
			idx := j*ld + i
			at := origin + r + cols[j]
			written[at] = true
			got := buf[at]
			out[idx] = got
			if w := want(i, j); !ok(idx, float64(got), w) {
				t.Errorf("%s: C(%d,%d) = %v, want %v", name, i, j, got, w)
				return out
			}
		}
	}
	for i, v := range buf {
		if !written[i] && bitsOf(v) != bitsOf(cn) {
			t.Errorf("%s: wrote %v at offset %d from the origin, outside the tile", name, v, int64(i)-origin)
			return out
		}
	}
	return out
}

// TestBuildRowMap checks the maps of complex rows (a real pair per row)
// and the layouts a map cannot describe.
func TestBuildRowMap(t *testing.T) {
	// complex64 rows in runs of 9 elements, 100 apart: real row r of
	// element i is at byte 8·off[i] + 4·(r%2).
	var off []int64
	for i := 0; i < 16; i++ {
		off = append(off, int64(i/9*100+i%9))
	}
	rm := make([]int64, rowMapWords(32, 16))
	if !buildRowMap(rm, off, 32, 16, 2, 8, 4) {
		t.Fatal("complex runs of 18 reals: no map")
	}
	for r := 0; r < 32; r++ {
		v, l := r/16, int64(r%16)
		w := rm[v*4 : v*4+4]
		want := off[r/2]*8 + int64(r%2*4)
		var got int64
		switch {
		case w[2]>>l&1 == 1:
			got = w[0] + 4*l
		case w[3]>>l&1 == 1:
			got = w[1] + 4*l
		default:
			t.Fatalf("real row %d: in no run", r)
		}
		if got != want {
			t.Fatalf("real row %d at byte %d, want %d", r, got, want)
		}
	}
	for _, bad := range []struct {
		name string
		off  []int64
	}{
		{"three runs in a vector", []int64{0, 1, 2, 10, 11, 12, 20, 21}},
		{"descending rows", []int64{7, 6, 5, 4}},
		{"a run that steps back", []int64{0, 1, 5, 6, 2, 3}},
	} {
		rm := make([]int64, rowMapWords(8, 8))
		if buildRowMap(rm, bad.off, 8, 8, 1, 8, 8) || rm[len(rm)-1] != 0 {
			t.Errorf("%s: map marked usable", bad.name)
		}
	}
}
