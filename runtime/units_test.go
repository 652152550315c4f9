package runtime

import (
	"strings"
	"testing"

	"github.com/tcontract/tcontract/generated/kernels"
	"github.com/tcontract/tcontract/generated/typed"
	"github.com/tcontract/tcontract/internal/spec"
)

// realCall is a record of pool p for a call of a real type of size bytes
// on kernel row k, with a team of threads, before its plan is set.
func realCall(p *Pool, threads int, k *kernels.Kernel, size int) *call {
	c := newCall(p, threads)
	c.kern, c.fn = k, funcOf(k)
	c.mrR, c.nrR = k.MR, k.NR
	c.cf, c.tsize, c.rsize = 1, size, size
	c.betaDirect = true // as bind leaves every real call
	return c
}

// A team splits an MC block's columns into several units only when that
// costs little: units that split a block make each member that takes one
// pack the block for itself. A block the packers gather element by element
// (A with a unit step along neither M nor K) is a unit of its own when
// the blocks split evenly among the members; a block they copy, or blocks
// that do not split evenly, keep the shorter units that balance the team.
func TestUnitsKeepGatheredBlocksWhole(t *testing.T) {
	p := NewPool(2)
	defer p.Close()
	for _, typ := range []string{"float32", "float64"} {
		ty, _ := spec.TypeByName(typ)
		b := BlockingOf(ty)
		for _, tc := range []struct {
			name          string
			blocks        int
			aRow, aDepth  int
			wantWholeUnit bool
		}{
			{"gathered, 2 blocks", 2, 1000, 100000, true},
			{"gathered, 4 blocks", 4, 1000, 100000, true},
			{"gathered, 3 blocks", 3, 1000, 100000, false},
			{"rows adjacent, 2 blocks", 2, 1, 100000, false},
			{"depth adjacent, 2 blocks", 2, 1000, 1, false},
		} {
			m, n, depth := tc.blocks*b.MC, 64*b.NR, 4*b.KC
			c := teamOfTwo(t, p, typ+" "+tc.name, tc.blocks,
				Dim{Ext: m, S: [3]int{tc.aRow, 0, 1}},
				Dim{Ext: n, S: [3]int{0, depth, m}},
				Dim{Ext: depth, S: [3]int{tc.aDepth, 1, 0}})
			if whole := c.unitCols == 1; whole != tc.wantWholeUnit {
				t.Errorf("%s %s: %d units of %d blocks' columns each; whole blocks %v, want %v",
					typ, tc.name, c.units, c.unitCols, whole, tc.wantWholeUnit)
			}
		}
	}
}

// teamOfTwo is chooseFor's call on a pool of 2 for the real type name
// begins with ("float64 13 blocks"); the test stops unless the call takes
// a team of 2 on the packed path, in blocks MC blocks.
func teamOfTwo(t *testing.T, p *Pool, name string, blocks int, m, n, k Dim) *call {
	t.Helper()
	real, _, _ := strings.Cut(name, " ")
	c := chooseFor(p, 2, real, m, n, k)
	if c.members != 2 || c.direct {
		t.Fatalf("%s: %d members, direct %v; the test wants a team of 2 on the packed path", name, c.members, c.direct)
	}
	if got := ceilDiv(m.Ext, c.blk.MC); got != blocks {
		t.Fatalf("%s: %d MC blocks of %d rows, want %d", name, got, c.blk.MC, blocks)
	}
	return c
}

// chooseFor is the team and path a call on p (threads wide) chooses for a
// real product of one dim per group: M, N and K.
func chooseFor(p *Pool, threads int, real string, m, n, k Dim) *call {
	return choosePlan(p, threads, real, &Plan{Batch: Group{Size: 1}, M: groupOf(m), N: groupOf(n), K: groupOf(k)})
}

// choosePlan is what chooseTeam decides for plan, a call of the real type
// real on a pool of threads, the team released again.
func choosePlan(p *Pool, threads int, real string, plan *Plan) *call {
	kern, _ := KernelFor(real)
	ty, _ := spec.TypeByName(real)
	c := realCall(p, threads, kern, ty.Size)
	c.ops, c.mainKern = typed.OpsByName(real), kern // as bind sets them
	c.plan = plan
	c.chooseTeam()
	p.release(c)
	return c
}

// A small product runs on the calling goroutine alone (64³: 0.5 Mflop);
// one of 2·parallelFlops or more takes a team (128³: 4.2 Mflop).
func TestSmallCallsStayOnCaller(t *testing.T) {
	p := NewPool(2)
	defer p.Close()
	for _, tc := range []struct {
		n, members int
	}{{64, 1}, {96, 1}, {128, 2}} {
		n := tc.n
		c := chooseFor(p, 2, "float32",
			Dim{Ext: n, S: [3]int{1, 0, 1}},
			Dim{Ext: n, S: [3]int{0, n, n}},
			Dim{Ext: n, S: [3]int{n, 1, 0}})
		if c.members != tc.members {
			t.Errorf("%d³ float32 on a pool of 2: %d members, want %d", n, c.members, tc.members)
		}
	}
}

// unitSpan is the busiest member's rows: blocks taken in turn, the last
// block's parts by the members that took the fewest.
func TestUnitSpan(t *testing.T) {
	for _, tc := range []struct {
		blocks, last, mc, parts, members, want int
	}{
		{13, 128, 160, 1, 2, 6*160 + 128},  // 12 whole blocks, 6 each; the short one
		{13, 128, 160, 2, 2, 12*160 + 128}, // halves: 13 blocks' rows each
		{20, 32, 160, 1, 2, 10 * 160},      // 19 whole blocks: one member takes 10
		{20, 32, 160, 2, 2, 19*160 + 32},
		{16, 128, 128, 1, 2, 8 * 128},
		{7, 100, 100, 1, 3, 3 * 100},
		{4, 10, 100, 4, 3, 4*100 + 2*10}, // 12 parts, 4 each; then 4 short ones over 3
		{1, 50, 100, 2, 2, 50},
	} {
		if got := unitSpan(tc.blocks, tc.last, tc.mc, tc.parts, tc.members); got != tc.want {
			t.Errorf("unitSpan(%d blocks, last %d, mc %d, %d parts, %d members) = %d, want %d",
				tc.blocks, tc.last, tc.mc, tc.parts, tc.members, got, tc.want)
		}
	}
}

// A team of 2 splits each MC block's columns in halves when the blocks do
// not share out evenly and the panel is wide (a block's packing weighs
// little against its columns' FMAs), and keeps whole blocks when they share
// out, when the panel is narrow, or when A's blocks are gathered.
func TestUnitsSplitColumns(t *testing.T) {
	p := NewPool(2)
	defer p.Close()
	for _, typ := range []string{"float32", "float64"} {
		ty, _ := spec.TypeByName(typ)
		b := BlockingOf(ty)
		for _, tc := range []struct {
			name       string
			m, n       int // n columns; m rows in MC blocks, set below
			halfBlock  bool
			aRow       int
			wantHalves bool
		}{
			{"13 blocks, wide", 13, 2048, true, 1, true},
			{"12 blocks, wide", 12, 2048, false, 1, false},
			{"13 blocks, 24 columns", 13, 24, true, 1, false},
			{"13 blocks gathered, wide", 13, 2048, true, 100000, false},
		} {
			m := tc.m * b.MC
			if tc.halfBlock {
				m -= b.MC / 2
			}
			depth := 2 * b.KC
			aDepth := m
			if tc.aRow != 1 {
				aDepth = 1000
			}
			c := teamOfTwo(t, p, typ+" "+tc.name, tc.m,
				Dim{Ext: m, S: [3]int{tc.aRow, 0, 1}},
				Dim{Ext: tc.n, S: [3]int{0, depth, m}},
				Dim{Ext: depth, S: [3]int{aDepth, 1, 0}})
			if halves := c.unitCols == 2; halves != tc.wantHalves {
				t.Errorf("%s %s: blocks in %d parts; halves %v, want %v (team time whole %.3f, halves %.3f)",
					typ, tc.name, c.unitCols, halves, tc.wantHalves, c.teamTime(tc.m, 1), c.teamTime(tc.m, 2))
			}
		}
	}
}
