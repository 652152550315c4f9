package runtime

import (
	"math/rand/v2"
	"testing"
)

// Every row of a block belongs to exactly one sliver, in order, and an
// aligned sliver never straddles a run.
func TestTiling(t *testing.T) {
	for _, tl := range []tiling{plainTiling(6), alignedTiling(6, 16), alignedTiling(32, 16), alignedTiling(6, 6), alignedTiling(4, 3)} {
		for _, n := range []int{1, 5, 16, 17, 48, 50} {
			next := 0
			for s := 0; s < tl.count(n); s++ {
				start, rows := tl.span(s, n)
				if start != next || rows < 1 || rows > tl.r {
					t.Fatalf("%+v n=%d: sliver %d = [%d,+%d), want start %d", tl, n, s, start, rows, next)
				}
				if tl.aligned() && start/tl.e0 != (start+rows-1)/tl.e0 {
					t.Fatalf("%+v n=%d: sliver %d = [%d,+%d) straddles a run", tl, n, s, start, rows)
				}
				next = start + rows
			}
			if next != n {
				t.Fatalf("%+v n=%d: slivers cover %d rows", tl, n, next)
			}
		}
	}
}

// whole: the rows that hold whole blocks of shared lines and whole slivers.
func TestTilingWhole(t *testing.T) {
	for _, c := range []struct {
		t             tiling
		n, rows, slvs int
	}{
		{plainTiling(6), 768, 768, 128},
		{plainTiling(6), 256, 768, 128},
		{plainTiling(64), 119, 119 * 64, 119},
		{alignedTiling(6, 16), 256, 256, 48},
		{alignedTiling(6, 16), 24, 0, 0},
		{plainTiling(6), 0, 0, 0},
	} {
		if rows, slvs := c.t.whole(c.n); rows != c.rows || slvs != c.slvs {
			t.Errorf("%+v.whole(%d) = %d, %d; want %d, %d", c.t, c.n, rows, slvs, c.rows, c.slvs)
		}
	}
}

// stepsOf, which skips the scan where every sliver lies in one run of the
// group's first dim, gives the steps the scan does: random groups of 1–3
// dims (strides negative and zero too), blocks starting anywhere, plain
// and aligned tiling.
func TestStepsOfMatchesScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for trial := 0; trial < 3000; trial++ {
		var dims []Dim
		for range 1 + rng.IntN(3) {
			st := rng.IntN(9) - 4
			if rng.IntN(3) == 0 {
				st *= 100
			}
			dims = append(dims, Dim{Ext: 1 + rng.IntN(12), S: [3]int{st, 0, 0}})
		}
		g := groupOf(dims...)
		r := 1 + rng.IntN(6)
		tl := plainTiling(r)
		if rng.IntN(4) == 0 {
			tl = alignedTiling(r, g.Ext[0])
		}
		start := rng.IntN(g.Size)
		if rng.IntN(2) == 0 {
			start -= start % r
		}
		n := 1 + rng.IntN(g.Size-start)
		off := make([]int64, n)
		Offsets(off, g.Ext, g.S[0], start)
		want := make([]int64, tl.count(n))
		got := make([]int64, len(want))
		tl.steps(want, off)
		tl.stepsOf(got, off, &g, 0, start)
		for s := range want {
			if got[s] != want[s] {
				t.Fatalf("group %v, tiling %+v, rows [%d,+%d): sliver %d step %d, the scan gives %d",
					dims, tl, start, n, s, got[s], want[s])
			}
		}
	}
}
