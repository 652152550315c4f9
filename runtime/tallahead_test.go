package runtime

import "testing"

// planTallAhead fetches, for a tall product whose A steps lie a page apart
// (either way), tallAheadBytes of runs ahead, one at least; with nearer
// steps, or runs so long that two do not fit L2, nothing.
func TestPlanTallAhead(t *testing.T) {
	if !canPrefetch {
		t.Skip("no prefetch in this build")
	}
	p := NewPool(1)
	defer p.Close()
	l2 := Caches().L2
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
			{"two runs fill L2", l2 / (2 * 96 * size), 1 << 20, 96, true},
			{"two runs overflow L2", l2/(2*96*size) + 1, 1 << 20, 96, false},
		} {
			c := realCall(p, 1, k, size)
			n := 3*k.NR - 1
			c.plan = &Plan{Batch: Group{Size: 1},
				M: groupOf(Dim{Ext: tc.e0, S: [3]int{1, 0, 1}}, Dim{Ext: 40, S: [3]int{tc.e0, 0, tc.e0 * n}}),
				N: groupOf(Dim{Ext: n, S: [3]int{0, tc.K, tc.e0}}),
				K: groupOf(Dim{Ext: tc.K, S: [3]int{tc.lda, 1, 0}})}
			c.tall = true
			c.planTallAhead()
			dist := c.tallAhead
			p.release(c)
			if fetch := dist > 0; fetch != tc.fetch {
				t.Errorf("%s, %s: fetched %v (%d runs ahead), want %v", real, tc.name, fetch, dist, tc.fetch)
				continue
			}
			if !tc.fetch {
				continue
			}
			run := tc.e0 * min(tc.K, directKC) * size
			if want := max(1, tallAheadBytes/run); dist != want {
				t.Errorf("%s, %s: %d runs ahead, want %d", real, tc.name, dist, want)
			}
		}
	}
}
