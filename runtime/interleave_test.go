package runtime

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// groupOf builds a group from dims, fastest first.
func groupOf(dims ...Dim) Group {
	g := Group{Dims: dims, Size: 1}
	for _, d := range dims {
		g.Size *= d.Ext
		g.Ext = append(g.Ext, d.Ext)
		for o := range g.S {
			g.S[o] = append(g.S[o], d.S[o])
		}
	}
	return g
}

// offsets lists, for every index of g in order, its offsets in all three
// operands.
func offsets(g *Group) [][3]int {
	var out [][3]int
	for i := 0; i < g.Size; i++ {
		var o [3]int
		for op := 0; op < 3; op++ {
			o[op] = offsetAt(g.Ext, g.S[op], i)
		}
		out = append(out, o)
	}
	return out
}

func cmpOffsets(a, b [3]int) int {
	for o := 0; o < 3; o++ {
		if a[o] != b[o] {
			return a[o] - b[o]
		}
	}
	return 0
}

// TCCG's abcde-ecbfa-fd: M keyed by A (a first) and C's unit dim e last.
// The interleave brings a line of e (16 float32) right after a, so a block
// of 48·16 rows uses C's lines whole.
func TestInterleaveBringsLinesTogether(t *testing.T) {
	g := groupOf(
		Dim{Ext: 48, S: [3]int{1, 0, 1492992}},
		Dim{Ext: 36, S: [3]int{2304, 0, 41472}},
		Dim{Ext: 36, S: [3]int{82944, 0, 1152}},
		Dim{Ext: 48, S: [3]int{2985984, 0, 1}},
	)
	g.interleave(opA, opC, 4, interleaveRows, false)
	if got := g.Ext; !slices.Equal(got, []int{48, 16, 36, 36, 3}) || g.Dims[1].S[opC] != 1 || g.Lines != 48*16 {
		t.Fatalf("interleaved dims %v, C strides %v: want C's unit dim second", got, g.S[opC])
	}
	// TCCG's ab-acd-dbc in K: a unit dim of 376 would be cut to 47, its
	// smallest divisor that fills a line of float32, but then a block of
	// 512 holds only 8 of the first dim, half a line of the key operand;
	// so it is cut to 8 (half a line of the other) and the first to 16.
	// The other half of those lines is the first index of the unit dim's
	// high part, which comes next.
	g = groupOf(Dim{Ext: 384, S: [3]int{1, 0, 376}}, Dim{Ext: 376, S: [3]int{384, 0, 1}})
	g.interleave(opA, opC, 4, 512, true)
	if got := g.Ext; !slices.Equal(got, []int{16, 8, 47, 24}) || g.Dims[2].S[opC] != 8 {
		t.Fatalf("interleaved dims %v, C strides %v: want [16 8 47 24], the high part of C's unit dim (stride 8) third", got, g.S[opC])
	}
	// In M or N the high parts keep the key's order: C's unit dim of 536
	// (no divisor from 16 to 64) is cut to 8, and its high part stays
	// after the key's next dim.
	g = groupOf(
		Dim{Ext: 384, S: [3]int{1, 0, 536}},
		Dim{Ext: 3, S: [3]int{384, 0, 536 * 384}},
		Dim{Ext: 536, S: [3]int{1152, 0, 1}},
	)
	g.interleave(opA, opC, 4, 4096, false)
	if got := g.Ext; !slices.Equal(got, []int{384, 8, 3, 67}) {
		t.Fatalf("interleaved dims %v, want [384 8 3 67]", got)
	}
}

// Random groups: whatever the interleave does (cut, move or nothing), the
// index space is a permutation of the original one, the first dim keeps
// leading (or is cut), and cut dims have whole extents.
func TestInterleaveKeepsIndexSpace(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	exts := []int{1, 2, 3, 8, 12, 16, 24, 48, 96, 376}
	changed := 0
	for trial := 0; trial < 600; trial++ {
		n := 2 + rng.IntN(3)
		var dims []Dim
		size := 1
		for range n {
			e := exts[rng.IntN(len(exts))]
			if size*e > 1<<12 {
				e = 2
			}
			size *= e
			var s [3]int
			for o := range s {
				s[o] = rng.IntN(5000) - 2500
			}
			if rng.IntN(3) == 0 {
				s[rng.IntN(3)] = 1
			}
			dims = append(dims, Dim{Ext: e, S: s})
		}
		g := groupOf(dims...)
		before := offsets(&g)
		first := g.Dims[0].S
		key, o := rng.IntN(3), rng.IntN(3)
		g.interleave(key, o, []int{4, 8, 16}[rng.IntN(3)], []int{64, 512, 4096}[rng.IntN(3)], rng.IntN(2) == 0)
		p := 1
		for _, d := range g.Dims {
			p *= d.Ext
		}
		if p != g.Size || len(g.Ext) != len(g.Dims) {
			t.Fatalf("trial %d: extents %v do not make %d", trial, g.Ext, g.Size)
		}
		if g.Dims[0].S != first {
			t.Fatalf("trial %d: the first dim moved", trial)
		}
		if !slices.Equal(g.Ext, dims2ext(dims)) {
			changed++
		}
		after := offsets(&g)
		slices.SortFunc(before, cmpOffsets)
		slices.SortFunc(after, cmpOffsets)
		if !slices.Equal(before, after) {
			t.Fatalf("trial %d: the interleave changed the index space", trial)
		}
	}
	if changed < 20 {
		t.Errorf("only %d of 600 random groups were interleaved: the test sees too little", changed)
	}
}

func dims2ext(dims []Dim) []int {
	var e []int
	for _, d := range dims {
		e = append(e, d.Ext)
	}
	return e
}

// The divisor searches pick the end of the range they are named for, and
// 0 when no divisor lies in it.
func TestDivisorIn(t *testing.T) {
	for _, tc := range []struct{ n, lo, hi, small, large int }{
		{96, 16, 64, 16, 48},
		{72, 8, 32, 8, 24},
		{48, 16, 64, 16, 48},
		{20, 16, 64, 20, 20},
		{17, 2, 16, 0, 0},
		{64, 16, 64, 16, 64},
		{1, 1, 4, 1, 1},
	} {
		if got := divisorIn(tc.n, tc.lo, tc.hi); got != tc.small {
			t.Errorf("divisorIn(%d, %d, %d) = %d, want %d", tc.n, tc.lo, tc.hi, got, tc.small)
		}
		if got := largestDivisorIn(tc.n, tc.lo, tc.hi); got != tc.large {
			t.Errorf("largestDivisorIn(%d, %d, %d) = %d, want %d", tc.n, tc.lo, tc.hi, got, tc.large)
		}
	}
}
