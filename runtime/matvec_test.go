package runtime

import (
	"fmt"
	"math/cmplx"
	"math/rand/v2"
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

// TestComplexMatVec: a complex A·x whose A has adjacent depth runs on the
// real direct kernel (formComplex) where the path has one, with alpha and
// beta not real (beta applied to C first) and real, on teams of 1 to 3,
// over several depth steps; a batch, an A of strided depth or two columns
// keep their paths. The answer is the reference's either way.
func TestComplexMatVec(t *testing.T) {
	checkComplexMatVec[complex64](t, 1e-5)
	checkComplexMatVec[complex128](t, 1e-12)
}

func checkComplexMatVec[T complex64 | complex128](t *testing.T, tol float64) {
	ops := typed.OpsOf[T]()
	k, _ := KernelFor(ops.Type.Real)
	var taken int
	testComplexMatVec = func() { taken++ }
	defer func() { testComplexMatVec = nil }()
	rng := rand.New(rand.NewPCG(7, uint64(ops.Type.Size)))
	rnd := func(n int) []T {
		x := make([]T, n)
		for i := range x {
			x[i] = T(complex(rng.Float64()-0.5, rng.Float64()-0.5))
		}
		return x
	}
	const M, K = 203, 1300
	for _, tc := range []struct {
		spec    string
		shapes  [3][]int
		form    bool
		threads int
		alpha   T
		beta    T
	}{
		{"ij,j->i", [3][]int{{M, K}, {K}, {M}}, true, 1, T(complex(0.5, -1.5)), 0},
		{"ij,j->i", [3][]int{{M, K}, {K}, {M}}, true, 3, 1, T(complex(-0.25, 2))},
		{"ij,j->i", [3][]int{{M, K}, {K}, {M}}, true, 2, T(complex(2, 0)), T(complex(0.75, 0))},
		// x·A with A column-major: the plan's A is Aᵀ, its depth adjacent.
		{"j,kj->k", [3][]int{{K}, {M, K}, {M}}, true, 2, T(complex(0, 1)), 1},
		{"ji,j->i", [3][]int{{K, M}, {K}, {M}}, false, 2, 1, 0},
		{"bij,bj->bi", [3][]int{{2, M, 40}, {2, 40}, {2, M}}, false, 1, 1, 0},
		{"ij,jk->ik", [3][]int{{M, K}, {K, 2}, {M, 2}}, false, 1, 1, 0},
	} {
		views := [3]View{}
		data := [3][]T{}
		for o, s := range tc.shapes {
			views[o] = View{Len: max(1, volume(s)), Shape: s}
			data[o] = rnd(views[o].Len)
		}
		c0 := append([]T(nil), data[opC]...)
		pool := NewPool(tc.threads)
		taken = 0
		opnds := [3]Operand{}
		for o := range opnds {
			opnds[o] = Operand{View: views[o], Data: unsafe.Pointer(&data[o][0])}
		}
		alpha, beta := tc.alpha, tc.beta
		if err := pool.Run(tc.spec, ops, &opnds, unsafe.Pointer(&alpha), unsafe.Pointer(&beta)); err != nil {
			t.Fatal(err)
		}
		pool.Close()
		if want := tc.form && k.Direct != nil; (taken > 0) != want {
			t.Errorf("%s %s %v: formComplex taken %d times, want %v", ops.Type.Name, tc.spec, tc.shapes, taken, want)
		}
		checkComplexC(t, ops.Type.Name+" "+tc.spec, tc.spec, tc.shapes, data, alpha, beta, c0, tol)
	}
}

// checkComplexC checks C = alpha·A·B + beta·C0 for the specs of
// TestComplexMatVec, dense row-major.
func checkComplexC[T complex64 | complex128](t *testing.T, name, spec string, shapes [3][]int, data [3][]T, alpha, beta T, c0 []T, tol float64) {
	t.Helper()
	at := func(o int, idx ...int) complex128 {
		off := 0
		for d, i := range idx {
			off = off*shapes[o][d] + i
		}
		return complex128(data[o][off])
	}
	for x := range c0 {
		var s complex128
		var mag float64
		term := func(v complex128) { s += v; mag += cmplx.Abs(v) }
		switch spec {
		case "ij,j->i":
			for j := 0; j < shapes[opB][0]; j++ {
				term(at(opA, x, j) * at(opB, j))
			}
		case "j,kj->k":
			for j := 0; j < shapes[opA][0]; j++ {
				term(at(opA, j) * at(opB, x, j))
			}
		case "ji,j->i":
			for j := 0; j < shapes[opB][0]; j++ {
				term(at(opA, j, x) * at(opB, j))
			}
		case "bij,bj->bi":
			b, i := x/shapes[opC][1], x%shapes[opC][1]
			for j := 0; j < shapes[opB][1]; j++ {
				term(at(opA, b, i, j) * at(opB, b, j))
			}
		case "ij,jk->ik":
			i, k := x/shapes[opC][1], x%shapes[opC][1]
			for j := 0; j < shapes[opB][0]; j++ {
				term(at(opA, i, j) * at(opB, j, k))
			}
		}
		want := complex128(alpha)*s + complex128(beta)*complex128(c0[x])
		if got := complex128(data[opC][x]); cmplx.Abs(got-want) > tol*(mag+1) {
			t.Fatalf("%s: C[%d] = %v, want %v", name, x, got, want)
		}
	}
}
