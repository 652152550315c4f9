package runtime

import "testing"

// planTallAhead lists, for a tall product whose A steps lie a page apart,
// lines that cover every line of a run at every depth step whatever the
// run's alignment, the depth offsets in bytes, shares that cover the depth
// once, and how many runs ahead; with nearer steps, or runs longer than
// tallAheadLines, nothing.
func TestPlanTallAhead(t *testing.T) {
	if !canPrefetch {
		t.Skip("no prefetch in this build")
	}
	p := NewPool(1)
	defer p.Close()
	for _, r := range directRows() {
		real, k, size := r.real, r.k, r.size
		for _, tc := range []struct {
			name   string
			e0     int // run length
			lda, K int
			fetch  bool
		}{
			{"abcd-ebad-ce", 84, 1 << 20, 96, true},
			{"steps backwards", 84, -(1 << 20), 96, true},
			{"a long depth", k.MR + 3, 1 << 16, 3*directKC + 5, true},
			{"steps within a page", 84, pageBytes/size - 1, 96, false},
			{"runs too long to list", tallAheadLines * lineBytes / size, 1 << 20, 96, false},
		} {
			c := realCall(p, 1, k, size)
			n := 3*k.NR - 1
			c.plan = &Plan{Batch: Group{Size: 1},
				M: groupOf(Dim{Ext: tc.e0, S: [3]int{1, 0, 1}}, Dim{Ext: 40, S: [3]int{tc.e0, 0, tc.e0 * n}}),
				N: groupOf(Dim{Ext: n, S: [3]int{0, tc.K, tc.e0}}),
				K: groupOf(Dim{Ext: tc.K, S: [3]int{tc.lda, 1, 0}})}
			c.tall = true
			c.planTallAhead()
			ta := c.tallAhead
			p.release(c)
			if fetch := ta.dist > 0; fetch != tc.fetch {
				t.Errorf("%s, %s: fetched %v, want %v", real, tc.name, fetch, tc.fetch)
				continue
			}
			if !tc.fetch {
				continue
			}
			kc := min(tc.K, directKC)
			runBytes := tc.e0 * kc * size
			if want := max(1, tallAheadBytes/runBytes); ta.dist != want {
				t.Errorf("%s, %s: %d runs ahead, want %d", real, tc.name, ta.dist, want)
			}
			if ta.columnTiles != 3 || ta.nSteps != kc {
				t.Errorf("%s, %s: %d column tiles, %d steps, want 3, %d", real, tc.name, ta.columnTiles, ta.nSteps, kc)
			}
			for p := range kc {
				if want := int64(p * tc.lda * size); ta.steps[p] != want {
					t.Fatalf("%s, %s: step %d at %d bytes, want %d", real, tc.name, p, ta.steps[p], want)
				}
			}
			// Every line of the run, at each alignment of its first
			// element, is among those listed (from the element, one step).
			for skew := 0; skew < lineBytes; skew += size {
				listed := map[int]bool{}
				for _, l := range ta.lines() {
					listed[(skew+int(l))/lineBytes] = true
				}
				for e := range tc.e0 {
					if !listed[(skew+e*size)/lineBytes] {
						t.Fatalf("%s, %s, skew %d: element %d's line not listed", real, tc.name, skew, e)
					}
				}
				if len(listed) > ceilDiv(tc.e0*size, lineBytes)+1 {
					t.Fatalf("%s, %s: %d lines listed for a run of %d bytes", real, tc.name, len(listed), tc.e0*size)
				}
			}
			// The shares of a step, of the last (shorter) one too, cover
			// its depth once.
			for _, d := range []int{kc, tc.K % directKC, 1, 2} {
				next := 0
				for j := range ta.columnTiles {
					k0, k1 := split(d, ta.columnTiles, j, 1)
					if k0 != next || k1 < k0 {
						t.Fatalf("%s, %s: share %d of depth %d is [%d, %d), want from %d", real, tc.name, j, d, k0, k1, next)
					}
					next = k1
				}
				if next != d {
					t.Fatalf("%s, %s: shares of depth %d end at %d", real, tc.name, d, next)
				}
			}
		}
	}
}
