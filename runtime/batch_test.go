package runtime

import (
	"math/rand/v2"
	"testing"
)

// The cursor's offsets match offsetAt's at every element it steps to (by
// next, or by nextRun to each run of dim 0), from any start, for groups of
// up to and beyond maxBatchCursorRank dims, negative and zero strides
// included.
func TestBatchCursor(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for trial := 0; trial < 300; trial++ {
		rank := rng.IntN(maxBatchCursorRank + 3)
		var g Group
		g.Size = 1
		for d := 0; d < rank; d++ {
			e := 1 + rng.IntN(3)
			if rank <= 4 {
				e = 1 + rng.IntN(6)
			}
			g.Ext = append(g.Ext, e)
			g.Size *= e
			for o := 0; o < 3; o++ {
				g.S[o] = append(g.S[o], rng.IntN(41)-20)
			}
		}
		start := rng.IntN(g.Size)
		// Element by element, and (a group of dims) from run to run of
		// dim 0, from inside the first.
		for _, runs := range []bool{false, true} {
			if runs && rank == 0 {
				continue
			}
			var cur batchCursor
			cur.start(&g, start)
			for idx := start; idx < g.Size; {
				for o := 0; o < 3; o++ {
					if want := offsetAt(g.Ext, g.S[o], idx); cur.off[o] != want {
						t.Fatalf("ext %v strides %v from %d (runs %v): element %d operand %d at %d, want %d",
							g.Ext, g.S[o], start, runs, idx, o, cur.off[o], want)
					}
				}
				if runs {
					idx = (idx/g.Ext[0] + 1) * g.Ext[0]
					cur.nextRun()
				} else {
					idx++
					cur.next()
				}
			}
		}
	}
}
