package runtime

import (
	"math/cmplx"
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"

	"github.com/tcontract/tcontract/generated/typed"
)

// TestReducePlanned: a plan sums an input over its own labels first where
// that saves reduceMinFlops or more and the reduced input fits
// reduceMaxBytes; the sum's plan runs on Dots, the main plan on the
// reduced input (dense, its labels in their order in the input), which
// plans the other input's reduction in turn. Whether the answers are right
// is the contraction suite's to show (TestContractLarge).
func TestReducePlanned(t *testing.T) {
	pool := NewPool(1)
	defer pool.Close()
	tile := tileOf(typed.OpsOf[float32]())
	for _, tc := range []struct {
		spec   string
		shapes [3][]int
		op     int   // the input reduced first, -1 for none
		keep   []int // the reduced input's shape
		then   int   // the input the main plan reduces, -1 for none
	}{
		{"ij,jk->i", [3][]int{{1000, 1000}, {1000, 1000}, {1000}}, opB, []int{1000}, -1},
		{"ijx,jk->ik", [3][]int{{20, 30, 10}, {30, 20}, {20, 20}}, opA, []int{20, 30}, -1},
		{"xiij,jky->ik", [3][]int{{4, 15, 15, 20}, {20, 18, 20}, {15, 18}}, opA, []int{15, 20}, opB},
		{"ixxj,jk->ik", [3][]int{{20, 12, 12, 25}, {25, 20}, {20, 20}}, opA, []int{20, 25}, -1},
		{"x,ij->ij", [3][]int{{50}, {40, 60}, {40, 60}}, opA, []int{}, -1},
		// Too little saved: summed on the fly.
		{"ijx,jk->ik", [3][]int{{4, 5, 3}, {5, 4}, {4, 4}}, -1, nil, -1},
		// No label of its own, or one of extent 1.
		{"ij,jk->ik", [3][]int{{100, 100}, {100, 100}, {100, 100}}, -1, nil, -1},
		{"ijx,jk->ik", [3][]int{{100, 100, 1}, {100, 100}, {100, 100}}, -1, nil, -1},
		// The reduced input beyond reduceMaxBytes (float32: 16M elements).
		{"ijx,j->i", [3][]int{{4096, 4097, 2}, {4097}, {4096}}, -1, nil, -1},
		// An empty C: nothing to do at all.
		{"ijx,jk->ik", [3][]int{{0, 30, 10}, {30, 20}, {0, 20}}, -1, nil, -1},
	} {
		r := densePlan(t, tc.spec, tc.shapes, tile).reduce
		switch {
		case tc.op < 0 && r != nil:
			t.Errorf("%s %v: reduces input %d first, want none", tc.spec, tc.shapes, r.op)
		case tc.op < 0:
		case r == nil:
			t.Errorf("%s %v: reduces nothing first, want input %d", tc.spec, tc.shapes, tc.op)
		case r.op != tc.op || !slices.Equal(r.view.Shape, tc.keep) || r.view.Strides != nil || r.view.Len != max(1, volume(tc.keep)):
			t.Errorf("%s %v: reduces input %d to %+v, want input %d to shape %v, dense", tc.spec, tc.shapes, r.op, r.view, tc.op, tc.keep)
		default:
			if got := choosePlan(pool, 1, "float32", r.sum); !got.dots {
				t.Errorf("%s %v: the sum's plan does not run on Dots", tc.spec, tc.shapes)
			}
			next := -1
			if r.main.reduce != nil {
				next = r.main.reduce.op
			}
			if next != tc.then {
				t.Errorf("%s %v: the main plan reduces input %d, want %d", tc.spec, tc.shapes, next, tc.then)
			}
		}
	}
}

// TestReduceRunsAfresh: a call with a reduction runs two plans on one call
// record, and the second starts from a record as a call leaves it. Both
// runs here take the packed path (complex64: no direct kernels; the sum
// over x and y, which do not merge, is no Dots product), each with its own
// panel lease: the main run must hold only its own panel, not also the
// sum's, released by then. C is A summed over x and y, times B.
func TestReduceRunsAfresh(t *testing.T) {
	const X, J, Y, K = 10, 30, 8, 40
	rng := rand.New(rand.NewPCG(5, 5))
	a, b, c := make([]complex64, X*J*Y), make([]complex64, J*K), make([]complex64, J*K)
	for i := range a {
		a[i] = complex(float32(rng.Float64()-0.5), float32(rng.Float64()-0.5))
	}
	for i := range b {
		b[i] = complex(float32(rng.Float64()-0.5), float32(rng.Float64()-0.5))
	}
	ops := [3]Operand{
		{View: View{Len: len(a), Shape: []int{X, J, Y}}, Data: unsafe.Pointer(&a[0])},
		{View: View{Len: len(b), Shape: []int{J, K}}, Data: unsafe.Pointer(&b[0])},
		{View: View{Len: len(c), Shape: []int{J, K}}, Data: unsafe.Pointer(&c[0])},
	}
	pool := NewPool(1)
	defer pool.Close()
	rec, err := pool.enter()
	if err != nil {
		t.Fatal(err)
	}
	alpha, beta := complex64(1), complex64(0)
	ty := typed.OpsOf[complex64]()
	plan, err := rec.planFor("xjy,jk->jk", ty, &ops)
	if err == nil {
		err = rec.runPlan(plan, ty, &ops, unsafe.Pointer(&alpha), unsafe.Pointer(&beta))
	}
	panels := len(rec.panels)
	pool.leave(rec)
	if err != nil {
		t.Fatal(err)
	}
	if plan.reduce == nil || plan.reduce.op != opA {
		t.Fatal("the call did not sum A first")
	}
	if panels != 1 {
		t.Errorf("the main run held %d panels, want its own one", panels)
	}
	for j := 0; j < J; j++ {
		var s complex128
		for x := 0; x < X; x++ {
			for y := 0; y < Y; y++ {
				s += complex128(a[(x*J+j)*Y+y])
			}
		}
		for k := 0; k < K; k++ {
			want := s * complex128(b[j*K+k])
			if cmplx.Abs(want-complex128(c[j*K+k])) > 1e-4 {
				t.Fatalf("C[%d,%d] = %v, want %v", j, k, c[j*K+k], want)
			}
		}
	}
}

// TestReduceKeptOverflow: the kept labels' extents, each group's within
// bounds, may multiply past an int across groups (here to -1: A
// broadcasts, so its memory does not bound them); the plan then sums on
// the fly rather than fail.
func TestReduceKeptOverflow(t *testing.T) {
	const I, J = 1<<32 + 1, 1<<32 - 1
	sp, err := ParseSpec("ijx,j->i")
	if err != nil {
		t.Fatal(err)
	}
	a := View{Len: 2, Shape: []int{I, J, 2}, Strides: []int{0, 0, 1}}
	b := View{Len: 1, Shape: []int{J}, Strides: []int{0}}
	c := View{Len: I, Shape: []int{I}}
	plan, err := NewPlan(sp, a, b, c, tileOf(typed.OpsOf[float32]()))
	if err != nil {
		t.Fatal(err)
	}
	if plan.reduce != nil {
		t.Errorf("reduces input %d to %+v", plan.reduce.op, plan.reduce.view)
	}
}
