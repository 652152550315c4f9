package runtime

import (
	"testing"

	"github.com/tcontract/tcontract/generated/typed"
)

// TestDotsChosen: a call whose every label of C is a batch label, over at
// most one depth dim, runs the typed Dots routine (dots.go), on a team
// only when its batch can be split; any other product keeps the GEMM
// loops. Whether Dots is right is the contraction suite's to show
// (TestContractLarge runs it on teams of 2 and 3).
func TestDotsChosen(t *testing.T) {
	pool := NewPool(2)
	defer pool.Close()
	for _, tc := range []struct {
		spec    string
		shapes  [3][]int
		dots    bool
		members int
	}{
		{"ij,ij->ij", [3][]int{{1024, 1024}, {1024, 1024}, {1024, 1024}}, true, 2},
		{"ij,ji->ij", [3][]int{{3, 5}, {5, 3}, {3, 5}}, true, 1},
		{"bi,bi->b", [3][]int{{3, 1000}, {3, 1000}, {3}}, true, 1},
		// A batch of one: nothing for a second member, however deep.
		{"i,i->", [3][]int{{1 << 21}, {1 << 21}, {}}, true, 1},
		{",->", [3][]int{{}, {}, {}}, true, 1},
		// Labels summed out of A: one depth dim after merging, B's step 0.
		{"ijx,ij->ij", [3][]int{{30, 20, 8}, {30, 20}, {30, 20}}, true, 1},
		{"ixy,i->i", [3][]int{{30, 5, 8}, {30}, {30}}, true, 1},
		// Two depth dims that do not merge: the GEMM loops.
		{"bpq,bqp->b", [3][]int{{4, 5, 6}, {4, 6, 5}, {4}}, false, 1},
		// M or N not empty.
		{"ij,j->i", [3][]int{{64, 64}, {64}, {64}}, false, 1},
		{"bi,b->bi", [3][]int{{64, 64}, {64}, {64, 64}}, false, 1},
		{"ij,jk->ik", [3][]int{{8, 8}, {8, 8}, {8, 8}}, false, 1},
	} {
		plan := densePlan(t, tc.spec, tc.shapes, tileOf(typed.OpsOf[float32]()))
		c := choosePlan(pool, 2, "float32", plan)
		if c.dots != tc.dots || c.members != tc.members {
			t.Errorf("%s %v: dots %v on %d members, want %v on %d", tc.spec, tc.shapes, c.dots, c.members, tc.dots, tc.members)
		}
	}
}

// densePlan is the plan of spec over dense row-major operands of the
// given shapes (A, B, C), for tile.
func densePlan(t *testing.T, spec string, shapes [3][]int, tile Tile) *Plan {
	t.Helper()
	sp, err := ParseSpec(spec)
	if err != nil {
		t.Fatal(err)
	}
	var views [3]View
	for o, s := range shapes {
		views[o] = View{Len: max(1, volume(s)), Shape: s}
	}
	plan, err := NewPlan(sp, views[opA], views[opB], views[opC], tile)
	if err != nil {
		t.Fatal(err)
	}
	return plan
}

func volume(shape []int) int {
	n := 1
	for _, e := range shape {
		n *= e
	}
	return n
}
