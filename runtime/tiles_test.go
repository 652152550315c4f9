package runtime

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"

	"github.com/tcontract/tcontract/generated/kernels"
)

// The column-kernel suite: a row's Tiles must write, bit for bit, what its
// kernel writes called once per tile (the kernel suite checks that one
// against the naive loop), and TilesGo what the kernel's twin writes: for
// 0 to 5 tiles, depths around the unroll and a few hundred, every m ≤ MR
// and n ≤ NR in turn, the kernel suite's C layouts, alpha and beta in
// {0, 1, −1, random}, NaN in C when beta is 0, tiles scattered in one
// buffer in both orders (offsets of either sign), A's slivers ending at a
// PROT_NONE page, and the rest of the buffer compared too.

func TestTilesKernels(t *testing.T) {
	eachKernel(t, func(k *kernels.Kernel) (kernels.TilesFunc, bool) {
		if k.TilesGo == nil && k.Tiles != nil {
			t.Errorf("%s: Tiles without a twin", k.Name)
		}
		return k.Tiles, k.TilesGo != nil
	}, checkTiles[float32], checkTiles[float64])
}

func checkTiles[T real](t *testing.T, k *kernels.Kernel, asm kernels.TilesFunc) {
	mr, nr := k.MR, k.NR
	size := int(unsafe.Sizeof(T(0)))
	rng := rand.New(rand.NewPCG(uint64(mr), 7))
	rnd := func() T { return T(rng.Float64()*2 - 1) }
	scalars := []T{0, 1, -1, T(0.6180339887498949)}
	pick := 0
	for _, kk := range depths(k.Unroll) {
		for _, tiles := range []int{0, 1, 2, 5} {
			a := guardedRandom(t, tiles*mr*kk, rnd)
			b := guardedRandom(t, nr*kk, rnd)
			for _, lay := range layouts {
				pick++
				m, n := pick%(mr+1), pick%(nr+1)
				if pick%3 == 0 {
					m, n = mr, nr
				}
				alpha, beta := scalars[pick%4], scalars[pick/4%4]
				rsc, csc := lay.rsc(mr, nr), lay.csc(mr, nr)
				// One tile's reach, then the tiles a reach and a gap apart,
				// in reverse order every other case.
				lo, hi := 0, 0
				for _, o := range []int{(mr - 1) * rsc, (nr - 1) * csc, (mr-1)*rsc + (nr-1)*csc} {
					lo, hi = min(lo, o), max(hi, o)
				}
				span := hi - lo + 1 + 3
				buf := make([]T, (tiles+2)*span)
				origin := span - lo + tiles/2*span // c: tiles lie below and above it
				offs := make([]int64, max(tiles, 1))
				for i := range tiles {
					slot := i
					if pick%2 == 1 {
						slot = tiles - 1 - i
					}
					offs[i] = int64((slot - tiles/2) * span * size)
				}
				for i := range buf {
					buf[i] = rnd()
					if beta == 0 && rng.IntN(2) == 0 {
						buf[i] = T(math.NaN())
					}
				}
				name := fmt.Sprintf("k=%d tiles=%d m=%d n=%d alpha=%v beta=%v %s", kk, tiles, m, n, alpha, beta, lay.name)
				run := func(f func(c *byte)) []T {
					out := slices.Clone(buf)
					f((*byte)(unsafe.Pointer(&out[origin])))
					return out
				}
				each := func(fn kernels.Func) func(c *byte) {
					return func(c *byte) {
						for i := range tiles {
							fn(kk, ptr(a[i*mr*kk:]), ptr(b), (*byte)(unsafe.Add(unsafe.Pointer(c), offs[i])), rsc, csc, m, n,
								(*byte)(unsafe.Pointer(&alpha)), (*byte)(unsafe.Pointer(&beta)))
						}
					}
				}
				column := func(fn kernels.TilesFunc) func(c *byte) {
					return func(c *byte) {
						fn(kk, ptr(a), ptr(b), c, &offs[0], tiles, rsc, csc, m, n,
							(*byte)(unsafe.Pointer(&alpha)), (*byte)(unsafe.Pointer(&beta)))
					}
				}
				same := func(what string, got, want []T) {
					t.Helper()
					for i := range got {
						if bitsOf(got[i]) != bitsOf(want[i]) {
							t.Fatalf("%s %s: element %d from c is %v, per tile %v", what, name, i-origin, got[i], want[i])
						}
					}
				}
				same("twin", run(column(k.TilesGo)), run(each(k.Go)))
				if asm != nil {
					same("asm", run(column(asm)), run(each(k.Asm)))
				}
			}
		}
	}
}

// TestTileRuns checks the grouping of an MC block's tiles: runs of tiles
// with one row step and one row count, broken where either changes, where
// a tile's rows are not evenly spaced (step 0), and, for complex types,
// where the step is not 1; offsets in bytes of each tile's first row.
func TestTileRuns(t *testing.T) {
	fn := kernels.TilesFunc(func(int, *byte, *byte, *byte, *int64, int, int, int, int, int, *byte, *byte) {})
	cases := []struct {
		name    string
		tiling  tiling
		mc, cf  int
		steps   []int64 // per sliver
		wantEnd []int64
	}{
		// Runs of 20 rows in tiles of 8: 8, 8, 4 per run.
		{"aligned", alignedTiling(8, 20), 40, 1, []int64{1, 1, 1, 1, 1, 1}, []int64{2, 2, 3, 5, 5, 6}},
		// Plain tiles of 4 over 14 rows, the last of 2; a strided pair and
		// an irregular tile between.
		{"plain", plainTiling(4), 14, 1, []int64{7, 7, 0, 1}, []int64{2, 2, 3, 4}},
		{"steps", plainTiling(4), 20, 1, []int64{1, 1, 3, 3, 3}, []int64{2, 2, 5, 5, 5}},
		// Complex tiles run only with adjacent rows.
		{"complex", plainTiling(4), 16, 2, []int64{2, 2, 1, 1}, []int64{1, 2, 4, 4}},
	}
	for _, tc := range cases {
		c := &call{choice: choice{tilesFn: fn, tileM: tc.tiling}, cf: tc.cf, tsize: 4 * tc.cf}
		mSl := tc.tiling.count(tc.mc)
		if mSl != len(tc.steps) {
			t.Fatalf("%s: %d slivers, the case gives %d steps", tc.name, mSl, len(tc.steps))
		}
		sc := &scatter{cRow: make([]int64, tc.mc), cRowBS: tc.steps, tileOff: make([]int64, mSl), tileEnd: make([]int64, mSl)}
		for i := range sc.cRow {
			sc.cRow[i] = int64(3*i + 1)
		}
		c.tileRuns(sc, tc.mc, mSl)
		if !slices.Equal(sc.tileEnd, tc.wantEnd) {
			t.Errorf("%s: tileEnd %v, want %v", tc.name, sc.tileEnd, tc.wantEnd)
		}
		for s := range mSl {
			if i, _ := tc.tiling.span(s, tc.mc); sc.tileOff[s] != sc.cRow[i]*int64(c.tsize) {
				t.Errorf("%s: tileOff[%d] = %d, want %d", tc.name, s, sc.tileOff[s], sc.cRow[i]*int64(c.tsize))
			}
		}
		c.tilesFn = nil
		c.tileRuns(sc, tc.mc, mSl)
		for s, e := range sc.tileEnd {
			if e != int64(s+1) {
				t.Errorf("%s without a column kernel: tileEnd[%d] = %d", tc.name, s, e)
			}
		}
	}
}

// guardedRandom is n random values of T ending at a PROT_NONE page
// (guarded), so a kernel that reads past its sliver faults.
func guardedRandom[T real](t testing.TB, n int, rnd func() T) []T {
	size := int(unsafe.Sizeof(T(0)))
	s := unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(guarded(t, max(n, 1)*size, true)))), n)
	for i := range s {
		s[i] = rnd()
	}
	return s
}
