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

// The half-map column-kernel suite: every half-map kernel this machine can
// run against the naive loop and against its twin, which is checked
// against the naive loop too, on 0 to 5 tiles whose rows follow runs of C
// of every length a half vector allows (half a vector, a vector and a half,
// TCCG's 20, several tiles), the first run entered at any half, runs
// ascending with gaps and descending, columns evenly spaced, reversed and
// scattered, n up to the tile, depths around the unroll, alpha and beta in
// {0, 1, −1, random}, NaN in C when beta is 0, and canaries on every
// element outside the tiles. The maps come from buildHalfMap, checked here
// too.

func TestMapsKernels(t *testing.T) {
	n := eachKernel(t, func(k *kernels.Kernel) (kernels.MapsFunc, bool) {
		if k.MapsGo == nil && k.Maps != nil {
			t.Errorf("%s: Maps without a twin", k.Name)
		}
		return k.Maps, k.MapsGo != nil
	}, checkMaps[float32], checkMaps[float64])
	if n == 0 {
		t.Fatal("no half-map kernel in the registry")
	}
}

func checkMaps[T real](t *testing.T, k *kernels.Kernel, asm kernels.MapsFunc) {
	typ, _ := spec.TypeByName(k.Real)
	isa, _ := spec.ISAByName(k.ISA)
	size := int(unsafe.Sizeof(T(0)))
	lanes := isa.Lanes(size)
	half := lanes / 2
	mr, nr := k.MR, k.NR
	words := rowMapWords(mr, lanes)
	rng := rand.New(rand.NewPCG(uint64(mr), 11))
	rnd := func() T { return T(rng.Float64()*2 - 1) }
	scalars := []T{0, 1, -1, T(0.6180339887498949)}
	pick := 0
	for _, kk := range []int{0, 1, k.Unroll + 1, 24, 37} {
		for _, tiles := range []int{0, 1, 2, 5} {
			a, b := make([]T, max(1, tiles*mr*kk)), make([]T, max(1, nr*kk))
			for i := range a {
				a[i] = rnd()
			}
			for i := range b {
				b[i] = rnd()
			}
			for _, e0 := range []int{half, 3 * half, 20, 2*mr + half} {
				for _, gap := range []int{0, 3, 50, -2*e0 - 7} {
					pick++
					s0 := rng.IntN(e0/half) * half
					nn := []int{nr, 1 + rng.IntN(nr), 0}[pick%3]
					m := tiles * mr
					rows, cols := runLayout(rng, m, max(m, 1), nr, s0, e0, gap, pick%3)
					rm := make([]int64, max(tiles, 1)*words)
					for tt := range tiles {
						if !buildHalfMap(rm[tt*words:(tt+1)*words], rows[tt*mr:(tt+1)*mr], mr, lanes, 1, size, size) {
							t.Fatalf("e0=%d gap=%d s0=%d tile %d: no half map", e0, gap, s0, tt)
						}
					}
					for combo := 0; combo < 2; combo++ {
						alpha := scalars[(pick+combo)%4]
						beta := scalars[(pick/4+combo)%4]
						name := fmt.Sprintf("k=%d tiles=%d e0=%d gap=%d s0=%d n=%d alpha=%v beta=%v cols%d", kk, tiles, e0, gap, s0, nn, alpha, beta, pick%3)
						mc := &mapCase[T]{k: kk, mr: mr, nr: nr, tiles: tiles, n: nn, a: a, b: b, rows: rows[:m], cols: cols, rm: rm,
							alpha: alpha, beta: beta, tol: typ.Tol}
						mc.c0 = make([]T, m*nr)
						for i := range mc.c0 {
							mc.c0[i] = rnd()
							if beta == 0 {
								mc.c0[i] = T(math.NaN())
							}
						}
						want := mc.run(t, "twin "+name, k.MapsGo)
						if asm != nil {
							got := mc.run(t, "asm "+name, asm)
							for i := range got {
								if !mc.close(i, float64(got[i]), float64(want[i]), 2) {
									t.Fatalf("asm %s: element %d = %v, twin %v", name, i, got[i], want[i])
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
}

// mapCase is one call of a half-map kernel: tiles tiles of mr rows at
// rows (tile t has rows[t·mr:]), n columns at cols.
type mapCase[T real] struct {
	k, mr, nr, tiles, n int
	a, b                []T
	rows, cols, rm      []int64
	alpha, beta         T
	c0                  []T // C's tile rows before the call, column-major over all tiles' rows
	tol                 float64
}

// sum is element (i, j) of Ã·B̃ over all tiles' rows, and its magnitude.
func (mc *mapCase[T]) sum(i, j int) (float64, float64) {
	t, r := i/mc.mr, i%mc.mr
	s, mag := 0.0, 0.0
	for p := 0; p < mc.k; p++ {
		x := float64(mc.a[(t*mc.k+p)*mc.mr+r]) * float64(mc.b[p*mc.nr+j])
		s += x
		mag += math.Abs(x)
	}
	return s, mag
}

// close reports whether x and y agree for element idx within the
// tolerance of its sum, times slack.
func (mc *mapCase[T]) close(idx int, x, y, slack float64) bool {
	if math.IsNaN(x) || math.IsNaN(y) {
		return false
	}
	m := len(mc.rows)
	_, mag := mc.sum(idx%m, idx/m)
	scale := math.Abs(float64(mc.alpha))*mag + math.Abs(float64(mc.beta))
	return math.Abs(x-y) <= slack*mc.tol*float64(mc.k+2)*scale
}

// run calls fn on a fresh C with canaries everywhere but the tiles' rows
// of the first n columns, checks them against the naive loop and returns
// them column-major.
func (mc *mapCase[T]) run(t *testing.T, name string, fn kernels.MapsFunc) []T {
	t.Helper()
	m := len(mc.rows)
	alpha, beta := mc.alpha, mc.beta
	return scattered(t, name, mc.rows, mc.cols, mc.nr, mc.n, m, mc.c0,
		func(c *byte, colBytes *int64) {
			fn(mc.k, ptr(mc.a), ptr(mc.b), c, &mc.rm[0], colBytes, mc.tiles, mc.n,
				(*byte)(unsafe.Pointer(&alpha)), (*byte)(unsafe.Pointer(&beta)))
		},
		func(i, j int) float64 {
			s, _ := mc.sum(i, j)
			w := float64(mc.alpha) * s
			if mc.beta != 0 {
				w += float64(mc.beta) * float64(mc.c0[j*m+i])
			}
			return w
		},
		func(idx int, got, want float64) bool { return mc.close(idx, got, want, 1) })
}

// TestBuildHalfMap checks the half maps of complex rows and the layouts a
// half map cannot describe.
func TestBuildHalfMap(t *testing.T) {
	// complex64 rows (a real pair each) in runs of 6 elements, 100 apart,
	// halves of 4 reals: real row r of element i at byte 8·off[i] + 4·(r%2).
	var off []int64
	for i := 0; i < 8; i++ {
		off = append(off, int64(i/6*100+i%6))
	}
	rm := make([]int64, rowMapWords(16, 8))
	if !buildHalfMap(rm, off, 16, 8, 2, 8, 4) || rm[len(rm)-1] != 1 {
		t.Fatal("complex runs of 12 reals: no half map")
	}
	for r := 0; r < 16; r++ {
		v, h, l := r/8, r%8/4, int64(r%4)
		if got, want := rm[4*v+h]+4*l, off[r/2]*8+int64(r%2*4); got != want {
			t.Fatalf("real row %d at byte %d, want %d", r, got, want)
		}
	}
	for _, bad := range []struct {
		name string
		off  []int64
	}{
		{"a run ending inside a half", []int64{0, 1, 2, 10, 11, 12, 13, 14}},
		{"descending rows", []int64{7, 6, 5, 4, 3, 2, 1, 0}},
		{"fewer rows than the tile", []int64{0, 1, 2, 3}},
	} {
		rm := make([]int64, rowMapWords(8, 8))
		rm[len(rm)-1] = 1
		if buildHalfMap(rm, bad.off, 8, 8, 1, 4, 4) || rm[len(rm)-1] != 0 {
			t.Errorf("%s: half map marked usable", bad.name)
		}
	}
}

// TestHalfMapsChosen: on the AVX2 path, TCCG's abcdef-dfgb-geac and
// abcdef-degc-gfab at float32 (runs of 20 in C, 1.6 KB and 750 KB apart)
// run the 16-row tile straddling runs through half maps, not the 24-row
// tile restarting at every run; runs of 18, which end inside a half, get
// no half maps.
func TestHalfMapsChosen(t *testing.T) {
	kern, _ := KernelFor("float32")
	if kern == nil || kern.Maps == nil {
		t.Skip("the path in use has no half-map kernel")
	}
	p := NewPool(1)
	defer p.Close()
	for _, tc := range []struct {
		name string
		m    Group
		want bool
	}{
		{"dfgb-geac", groupOf(Dim{Ext: 20, S: [3]int{480, 0, 1}}, Dim{Ext: 24, S: [3]int{9600, 0, 400}}, Dim{Ext: 20, S: [3]int{1, 0, 192000}}), true},
		{"degc-gfab", groupOf(Dim{Ext: 20, S: [3]int{1, 0, 1}}, Dim{Ext: 480, S: [3]int{480, 0, 192000}}), true},
		{"runs of 18", groupOf(Dim{Ext: 18, S: [3]int{480, 0, 1}}, Dim{Ext: 24, S: [3]int{9600, 0, 400}}, Dim{Ext: 20, S: [3]int{1, 0, 192000}}), false},
	} {
		c := newCall(p, 1)
		c.kern, c.fn, c.tilesFn = kern, funcOf(kern), kern.Tiles
		c.mrR, c.nrR = kern.MR, kern.NR
		c.cf, c.tsize, c.rsize = 1, 4, 4
		c.plan = &Plan{Batch: Group{Size: 1}, M: tc.m,
			N: groupOf(Dim{Ext: 20, S: [3]int{0, 480, 20}}, Dim{Ext: 480, S: [3]int{0, 1, 9600}}),
			K: groupOf(Dim{Ext: 24, S: [3]int{9600 * 20, 20, 0}})}
		c.chooseTeam()
		p.release(c)
		if got := c.mapsFn != nil; got != tc.want || (tc.want && (!c.rowMaps || c.mrR != kern.MR || c.tileM.aligned())) {
			t.Errorf("%s: half maps %v (row maps %v, %d-row tile, aligned %v), want %v on the %d-row tile straddling runs",
				tc.name, got, c.rowMaps, c.mrR, c.tileM.aligned(), tc.want, kern.MR)
		}
	}
}
