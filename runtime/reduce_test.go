package runtime

import (
	"slices"
	"testing"

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
