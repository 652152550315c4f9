package runtime

import "testing"

// A shallow product whose A blocks are gathered element by element takes
// NC panels up to MaxShallowNC times the table's NC (shallowNC), so that
// fewer panels pack each block of A again; at the table's depth, with A's
// blocks copied (a unit step along M), or for a group the cross-sliver
// packer takes, NC stays the table's.
func TestShallowNC(t *testing.T) {
	k, _ := KernelFor("float64")
	testBlocks = &blocks{MC: 160, KC: 384, NC: 1362}
	defer func() { testBlocks = nil }()
	p := NewPool(1)
	defer p.Close()
	gathered := groupOf(Dim{Ext: 2400, S: [3]int{opA: 3, opC: 1}})
	copied := groupOf(Dim{Ext: 2400, S: [3]int{opA: 1, opC: 1}})
	for _, tc := range []struct {
		name   string
		m      Group
		depth  int
		wantNC int // 0: the table's NC at most
	}{
		{"gathered, depth 24", gathered, 24, 9600},
		{"gathered, depth 96", gathered, 96, 4800},
		{"gathered, depth 384", gathered, 384, 0},
		{"copied, depth 24", copied, 24, 0},
		{"packed across slivers, depth 24", crossGroup(), 24, 0},
	} {
		c := realCall(p, 1, k, 8)
		c.plan = &Plan{Batch: Group{Size: 1}, M: tc.m,
			N: groupOf(Dim{Ext: 9600, S: [3]int{opB: 1, opC: 2400}}),
			K: groupOf(Dim{Ext: tc.depth, S: [3]int{opA: 3 * 2400, opB: 9600}})}
		c.chooseTeam()
		p.release(c)
		if c.direct {
			t.Fatalf("%s: direct path; want the packed one", tc.name)
		}
		switch {
		case tc.wantNC == 0 && c.blk.NC > 1362:
			t.Errorf("%s: NC %d; want at most the table's 1362", tc.name, c.blk.NC)
		case tc.wantNC > 0 && c.blk.NC != tc.wantNC:
			t.Errorf("%s: NC %d; want %d", tc.name, c.blk.NC, tc.wantNC)
		}
	}
}
