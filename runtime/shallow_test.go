package runtime

import "testing"

// shallowBlocking is the blocking a float64 product of groups m, n and k
// gets on one thread, with the table's blocks MC 160, KC 384 and NC 1362.
func shallowBlocking(t *testing.T, name string, m, n, k Group) blocking {
	t.Helper()
	kern, _ := KernelFor("float64")
	testBlocks = &blocks{MC: 160, KC: 384, NC: 1362}
	defer func() { testBlocks = nil }()
	p := NewPool(1)
	defer p.Close()
	c := realCall(p, 1, kern, 8)
	c.plan = &Plan{Batch: Group{Size: 1}, M: m, N: n, K: k}
	c.chooseTeam()
	p.release(c)
	if c.direct {
		t.Fatalf("%s: direct path; want the packed one", name)
	}
	return c.blk
}

// A shallow product whose C rows of M's fastest dim are adjacent takes MC
// blocks up to MaxShallowMC times the table's MC (shallowMC), so that each
// pass of a B sliver writes long pieces of C's columns; at the table's
// depth, with C's rows strided, or for a group the cross-sliver packer
// takes, MC stays the table's.
func TestShallowMC(t *testing.T) {
	for _, tc := range []struct {
		name   string
		m      Group
		depth  int
		longer bool
	}{
		{"adjacent rows, depth 24", groupOf(Dim{Ext: 4096, S: [3]int{opA: 1, opC: 1}}), 24, true},
		{"adjacent rows, depth 384", groupOf(Dim{Ext: 4096, S: [3]int{opA: 1, opC: 1}}), 384, false},
		{"rows in runs, depth 24", groupOf(Dim{Ext: 64, S: [3]int{opA: 1, opC: 1}}, Dim{Ext: 64, S: [3]int{opA: 64, opC: 1 << 16}}), 24, true},
		{"rows strided, depth 24", groupOf(Dim{Ext: 4096, S: [3]int{opA: 1, opC: 1200}}), 24, false},
		{"packed across slivers, depth 24", crossGroup(), 24, false},
	} {
		blk := shallowBlocking(t, tc.name, tc.m,
			groupOf(Dim{Ext: 1200, S: [3]int{opB: 1, opC: 4096}}),
			groupOf(Dim{Ext: tc.depth, S: [3]int{opA: 4096, opB: 1200}}))
		if got := blk.MC > 4*160; got != tc.longer || blk.MC > MaxShallowMC*160 {
			t.Errorf("%s: MC %d; want it longer than 4×160: %v, and at most %d", tc.name, blk.MC, tc.longer, MaxShallowMC*160)
		}
	}
}

// A shallow product whose A blocks are gathered element by element takes
// NC panels up to MaxShallowNC times the table's NC (shallowNC), so that
// fewer panels pack each block of A again; at the table's depth, with A's
// blocks copied (a unit step along M), or for a group the cross-sliver
// packer takes, NC stays the table's.
func TestShallowNC(t *testing.T) {
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
		blk := shallowBlocking(t, tc.name, tc.m,
			groupOf(Dim{Ext: 9600, S: [3]int{opB: 1, opC: 2400}}),
			groupOf(Dim{Ext: tc.depth, S: [3]int{opA: 3 * 2400, opB: 9600}}))
		switch {
		case tc.wantNC == 0 && blk.NC > 1362:
			t.Errorf("%s: NC %d; want at most the table's 1362", tc.name, blk.NC)
		case tc.wantNC > 0 && blk.NC != tc.wantNC:
			t.Errorf("%s: NC %d; want %d", tc.name, blk.NC, tc.wantNC)
		}
	}
}
