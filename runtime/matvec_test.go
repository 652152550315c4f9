package runtime

import (
	"fmt"
	"math/cmplx"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/tcontract/tcontract/generated/typed"
)

// mvCase is a product C(i,k) = A·B over one contracted j, with A row-major
// ("ij", its depth adjacent) or column-major ("ji", its rows adjacent).
type mvCase struct {
	spec    string
	m, n, k int
}

func (mc mvCase) rowsAdjacent() bool { return mc.spec[:2] == "ji" }

func (mc mvCase) views() [3]View {
	a := View{Len: mc.m * mc.k, Shape: []int{mc.m, mc.k}}
	if mc.rowsAdjacent() {
		a.Shape = []int{mc.k, mc.m}
	}
	return [3]View{
		a,
		{Len: mc.k * mc.n, Shape: []int{mc.k, mc.n}},
		{Len: mc.m * mc.n, Shape: []int{mc.m, mc.n}},
	}
}

// TestMatVecForms: real products of a few columns take the direct path's
// matrix-vector forms where the path has direct kernels: A read once
// with its rows shared out (formRows: A's rows adjacent, N within a
// column tile), or Cᵀ = Bᵀ·Aᵀ (formSwapped: A's depth adjacent, N within
// a vector, B's columns adjacent). Others keep their paths.
func TestMatVecForms(t *testing.T) {
	pool := NewPool(2)
	defer pool.Close()
	for _, ops := range []*typed.Ops{typed.OpsOf[float32](), typed.OpsOf[float64]()} {
		tile := tileOf(ops)
		k, _ := KernelFor(ops.Type.Real)
		lanes := max(1, vecLanes(k, ops.Type.Size))
		direct := k.Direct != nil
		for _, tc := range []struct {
			spec   string
			shapes [3][]int
			form   directForm
			want   bool // the direct path in form
		}{
			{"ji,j->i", [3][]int{{2048, 2048}, {2048}, {2048}}, formRows, true},
			// x·A: the plan computes Aᵀ·x, A's rows adjacent.
			{"j,jk->k", [3][]int{{2048}, {2048, 2048}, {2048}}, formRows, true},
			{"ji,jk->ik", [3][]int{{2048, 2048}, {2048, tile.NR}, {2048, tile.NR}}, formRows, true},
			{"ij,j->i", [3][]int{{2048, 2048}, {2048}, {2048}}, formSwapped, true},
			{"ij,jk->ik", [3][]int{{2048, 2048}, {2048, lanes}, {2048, lanes}}, formSwapped, true},
			{"bij,bj->bi", [3][]int{{3, 700, 900}, {3, 900}, {3, 700}}, formSwapped, true},
			// B's columns not adjacent, or too many of them.
			{"ij,kj->ik", [3][]int{{2048, 2048}, {4, 2048}, {2048, 4}}, formSwapped, false},
			{"ij,jk->ik", [3][]int{{2048, 2048}, {2048, lanes + 1}, {2048, lanes + 1}}, formSwapped, false},
			{"ji,jk->ik", [3][]int{{2048, 2048}, {2048, tile.NR + 1}, {2048, tile.NR + 1}}, formRows, false},
			// A's depth not adjacent (a diagonal's step).
			{"ijj,j->i", [3][]int{{300, 40, 40}, {40}, {300}}, formSwapped, false},
		} {
			plan := densePlan(t, tc.spec, tc.shapes, tile)
			c := choosePlan(pool, 2, ops.Type.Real, plan)
			got := c.direct && c.form == tc.form
			if want := tc.want && direct; got != want {
				t.Errorf("%s %s %v: direct %v in form %d, want form %d: %v", ops.Type.Name, tc.spec, tc.shapes, c.direct, c.form, tc.form, want)
			}
		}
	}
}

// TestMatVecProducts: the matrix-vector forms against the reference, on
// teams of 1 to 3, with alpha and beta cases, long depths (several steps,
// beta applied once) and rows that are no whole number of tiles; formRows
// both in long steps and in the short ones of an A streamed from memory.
func TestMatVecProducts(t *testing.T) {
	checkMatVec[float32](t, 2e-5)
	checkMatVec[float64](t, 1e-13)
}

func checkMatVec[T real](t *testing.T, tol float64) {
	ops := typed.OpsOf[T]()
	k, _ := KernelFor(ops.Type.Real)
	lanes := max(1, vecLanes(k, ops.Type.Size))
	cases := []mvCase{
		{"ji,jk->ik", 301, 1, 1100},
		{"ji,jk->ik", 77, k.NR, 600},
		{"ij,jk->ik", 301, 1, 4500},
		{"ij,jk->ik", 130, lanes, 2100},
	}
	defer func(f func() int) { rowsStreamBytes = f }(rowsStreamBytes)
	rng := rand.New(rand.NewPCG(5, uint64(ops.Type.Size)))
	for _, mc := range cases {
		views := mc.views()
		a := randomReals[T](rng, views[opA].Len)
		b := randomReals[T](rng, views[opB].Len)
		for _, s := range []struct {
			threads     int
			alpha, beta T
			streamed    bool
		}{{1, 1, 0, false}, {2, 0.5, -1, true}, {3, -2, 0.25, false}, {1, 1, 1, true}} {
			streamBytes := 1 << 62
			if s.streamed {
				streamBytes = 0
			}
			rowsStreamBytes = func() int { return streamBytes }
			name := fmt.Sprintf("%s %s %dx%dx%d, %d threads, streamed %v", ops.Type.Name, mc.spec, mc.m, mc.n, mc.k, s.threads, s.streamed)
			c, c0 := runOnPool(t, rng, s.threads, mc.spec, views, a, b, s.alpha, s.beta)
			checkMatVecC(t, name, mc, a, b, s.alpha, s.beta, c, c0, tol)
		}
	}
}

// checkMatVecC checks C = alpha·A·B + beta·C0 for mc on dense operands.
func checkMatVecC[T real](t *testing.T, name string, mc mvCase, a, b []T, alpha, beta T, c, c0 []T, tol float64) {
	t.Helper()
	for i := 0; i < mc.m; i++ {
		for col := 0; col < mc.n; col++ {
			var s, mag float64
			for j := 0; j < mc.k; j++ {
				aij := a[i*mc.k+j]
				if mc.rowsAdjacent() {
					aij = a[j*mc.m+i]
				}
				x := float64(aij) * float64(b[j*mc.n+col])
				s += x
				mag += abs(x)
			}
			at := i*mc.n + col
			want := float64(alpha)*s + float64(beta)*float64(c0[at])
			if got := float64(c[at]); abs(got-want) > tol*(mag+1) {
				t.Fatalf("%s: C[%d,%d] = %v, want %v", name, i, col, got, want)
			}
		}
	}
}

// TestComplexFew: a complex A·B of one column or a few whose A has
// adjacent depth runs on the real direct kernel (formComplex) where the
// path has one, with alpha and beta not real and real, on teams of 1 to
// 3, over several depth steps, C written by the kernel (one column, or
// its columns adjacent and the depth one step) or through tiles of Cᵀ
// (several chunks of rows a member), either way round; a batch, an A of
// strided depth or adjacent rows, or more columns keep their paths. The
// answer is the reference's either way.
func TestComplexFew(t *testing.T) {
	checkComplexFew[complex64](t, 1e-5)
	checkComplexFew[complex128](t, 1e-12)
}

func checkComplexFew[T complex64 | complex128](t *testing.T, tol float64) {
	ops := typed.OpsOf[T]()
	k, _ := KernelFor(ops.Type.Real)
	var form directForm
	testComplexFew = func(f directForm) { form = f }
	defer func() { testComplexFew = nil }()
	rng := rand.New(rand.NewPCG(7, uint64(ops.Type.Size)))
	rnd := func(n int) []T {
		x := make([]T, n)
		for i := range x {
			x[i] = T(complex(rng.Float64()-0.5, rng.Float64()-0.5))
		}
		return x
	}
	const M, K = 203, 1300
	// nFew columns fit formComplex and formComplexRows on every path with
	// a direct kernel (complexCols, complexRowsCols), nMany on none; nRows
	// are formComplexRows' most, which it takes for a matrix beyond L2
	// (kWide deep), and nWide more than it takes for one within.
	nRows, nWide := complexRowsTiles*k.NR/2, 2*k.NR+1
	kWide := 2*directMaxABytes()/(M*ops.Type.Size) + 1
	nFew, nMany := 4, nRows+1
	// formComplex takes lanes columns, or nTile where C's are not
	// adjacent.
	lanes := max(1, vecLanes(k, ops.RealSize))
	nTile := max(lanes, k.MR/2)
	for _, tc := range []struct {
		spec    string
		shapes  [3][]int
		form    directForm
		threads int
		alpha   T
		beta    T
	}{
		{"ij,j->i", [3][]int{{M, K}, {K}, {M}}, formComplex, 1, T(complex(0.5, -1.5)), 0},
		{"ij,j->i", [3][]int{{M, K}, {K}, {M}}, formComplex, 3, 1, T(complex(-0.25, 2))},
		{"ij,j->i", [3][]int{{M, K}, {K}, {M}}, formComplex, 2, T(complex(2, 0)), T(complex(0.75, 0))},
		// x·A with A column-major: the plan's A is Aᵀ, its depth adjacent.
		{"j,kj->k", [3][]int{{K}, {M, K}, {M}}, formComplex, 2, T(complex(0, 1)), 1},
		// A's rows adjacent: formComplexRows, R through WriteBack twice;
		// chunks of rows, a team's shares, A streamed in short steps, two
		// and four column tiles (11 columns where NR is 6), twelve for a
		// matrix beyond L2 (nRows), the tiles for more than four within
		// it (nWide).
		{"ji,j->i", [3][]int{{K, M}, {K}, {M}}, formComplexRows, 2, 1, 0},
		{"ji,j->i", [3][]int{{400, 3000}, {400}, {3000}}, formComplexRows, 1, T(complex(0.5, 1)), T(complex(1, -2))},
		{"j,jk->k", [3][]int{{K}, {K, M}, {M}}, formComplexRows, 3, T(complex(0, 1)), 0},
		{"ji,jk->ik", [3][]int{{K, M}, {K, nFew}, {M, nFew}}, formComplexRows, 2, T(complex(2, -1)), T(complex(0, 1))},
		{"ji,jk->ki", [3][]int{{60, 3000}, {60, 2}, {2, 3000}}, formComplexRows, 1, 1, T(complex(0.5, 0))},
		{"ji,jk->ik", [3][]int{{K, M}, {K, 11}, {M, 11}}, formComplexRows, 1, T(complex(1, 1)), 0},
		{"ji,kj->ki", [3][]int{{K, M}, {3, K}, {3, M}}, formComplexRows, 2, T(complex(-1, 0.5)), 1},
		{"ji,jk->ik", [3][]int{{kWide, M}, {kWide, nRows}, {M, nRows}}, formComplexRows, 2, T(complex(0.5, -1)), T(complex(1, 1))},
		{"ji,jk->ik", [3][]int{{60, M}, {60, nWide}, {M, nWide}}, formTiles, 1, 1, 0},
		{"ji,jk->ik", [3][]int{{K, M}, {K, nMany}, {M, nMany}}, formTiles, 1, 1, 0},
		{"bij,bj->bi", [3][]int{{2, M, 40}, {2, 40}, {2, M}}, formTiles, 1, 1, 0},
		// A few columns: C's adjacent (the kernel writes C), or not (a
		// tile of Cᵀ per chunk of rows, then WriteBack), either way round.
		{"ij,jk->ik", [3][]int{{M, K}, {K, 2}, {M, 2}}, formComplex, 1, 1, T(complex(0.5, 0.5))},
		{"ij,jk->ik", [3][]int{{M, 200}, {200, 3}, {M, 3}}, formComplex, 2, T(complex(1, -1)), T(complex(0.5, 0.5))},
		{"ij,jk->ik", [3][]int{{M, K}, {K, nFew}, {M, nFew}}, formComplex, 2, T(complex(0, -1)), 0},
		{"ij,jk->ki", [3][]int{{M, K}, {K, nFew}, {nFew, M}}, formComplex, 1, T(complex(1.5, -0.5)), T(complex(0.5, 2))},
		{"ij,jk->ki", [3][]int{{2000, 97}, {97, 3}, {3, 2000}}, formComplex, 3, 1, 0},
		{"ij,jk->ki", [3][]int{{M, 400}, {400, nTile}, {nTile, M}}, formComplex, 2, T(complex(1, 0.5)), T(complex(0, -1))},
		{"ij,jk->ki", [3][]int{{M, 400}, {400, nTile + 1}, {nTile + 1, M}}, formTiles, 1, 1, 0},
		{"ij,jk->ik", [3][]int{{M, 400}, {400, lanes + 1}, {M, lanes + 1}}, formTiles, 1, 1, 0},
		{"ij,jk->ki", [3][]int{{3000, 50}, {50, 2}, {2, 3000}}, formComplex, 1, T(complex(0.5, 1)), T(complex(0, 1))},
		{"ij,kj->ki", [3][]int{{M, K}, {nFew, K}, {nFew, M}}, formComplex, 2, 1, T(complex(-1, 0))},
		{"jk,ij->ik", [3][]int{{K, nFew}, {M, K}, {M, nFew}}, formComplex, 1, T(complex(2, 1)), 0},
		{"jk,ij->ki", [3][]int{{K, 2}, {M, K}, {2, M}}, formComplex, 2, 1, 1},
		{"ij,jk->ik", [3][]int{{M, K}, {K, nMany}, {M, nMany}}, formTiles, 1, 1, 0},
	} {
		views := [3]View{}
		data := [3][]T{}
		for o, s := range tc.shapes {
			views[o] = View{Len: max(1, volume(s)), Shape: s}
			data[o] = rnd(views[o].Len)
		}
		c0 := append([]T(nil), data[opC]...)
		pool := NewPool(tc.threads)
		form = formTiles
		opnds := [3]Operand{}
		for o := range opnds {
			opnds[o] = Operand{View: views[o], Data: unsafe.Pointer(&data[o][0])}
		}
		alpha, beta := tc.alpha, tc.beta
		if err := pool.Run(tc.spec, ops, &opnds, unsafe.Pointer(&alpha), unsafe.Pointer(&beta)); err != nil {
			t.Fatal(err)
		}
		pool.Close()
		want := tc.form
		if k.Direct == nil {
			want = formTiles
		}
		if form != want {
			t.Errorf("%s %s %v: form %d taken, want %d", ops.Type.Name, tc.spec, tc.shapes, form, want)
		}
		checkComplexC(t, ops.Type.Name+" "+tc.spec, tc.spec, tc.shapes, data, alpha, beta, c0, tol)
	}
}

// checkComplexC checks C = alpha·A·B + beta·C0 for the specs of
// TestComplexFew, dense row-major, by summing over every label of A and
// B that C lacks.
func checkComplexC[T complex64 | complex128](t *testing.T, name, spec string, shapes [3][]int, data [3][]T, alpha, beta T, c0 []T, tol float64) {
	t.Helper()
	sp, err := ParseSpec(spec)
	if err != nil {
		t.Fatal(err)
	}
	labels := [3]string{sp.A, sp.B, sp.C}
	ext := map[byte]int{}
	for o, ls := range labels {
		for d := range len(ls) {
			ext[ls[d]] = shapes[o][d]
		}
	}
	var summed []byte
	for _, ls := range labels[:2] {
		for i := range len(ls) {
			if l := ls[i]; !strings.ContainsRune(sp.C, rune(l)) && !slices.Contains(summed, l) {
				summed = append(summed, l)
			}
		}
	}
	val := map[byte]int{}
	at := func(o int) complex128 {
		off := 0
		for d := range len(labels[o]) {
			off = off*shapes[o][d] + val[labels[o][d]]
		}
		return complex128(data[o][off])
	}
	for x := range c0 {
		for d, r := len(sp.C)-1, x; d >= 0; d-- {
			val[sp.C[d]] = r % shapes[opC][d]
			r /= shapes[opC][d]
		}
		var s complex128
		var mag float64
		var sum func(i int)
		sum = func(i int) {
			if i == len(summed) {
				v := at(opA) * at(opB)
				s += v
				mag += cmplx.Abs(v)
				return
			}
			for v := range ext[summed[i]] {
				val[summed[i]] = v
				sum(i + 1)
			}
		}
		sum(0)
		want := complex128(alpha)*s + complex128(beta)*complex128(c0[x])
		if got := complex128(data[opC][x]); cmplx.Abs(got-want) > tol*(mag+1) {
			t.Fatalf("%s: C[%d] = %v, want %v", name, x, got, want)
		}
	}
}
