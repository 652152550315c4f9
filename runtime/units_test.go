package runtime

import (
	"testing"

	"github.com/tcontract/tcontract/generated/kernels"
	"github.com/tcontract/tcontract/internal/spec"
)

// realCall is a record of pool p for a call of a real type of size bytes
// on kernel row k, with a team of threads, before its plan is set.
func realCall(p *Pool, threads int, k *kernels.Kernel, size int) *call {
	c := newCall(p, threads)
	c.kern, c.fn = k, funcOf(k)
	c.mrR, c.nrR = k.MR, k.NR
	c.cf, c.tsize, c.rsize = 1, size, size
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
			c := chooseFor(p, 2, ty.Real,
				Dim{Ext: m, S: [3]int{tc.aRow, 0, 1}},
				Dim{Ext: n, S: [3]int{0, depth, m}},
				Dim{Ext: depth, S: [3]int{tc.aDepth, 1, 0}})
			if c.members != 2 || c.direct {
				t.Fatalf("%s %s: %d members, direct %v; the test wants a team of 2 on the packed path", typ, tc.name, c.members, c.direct)
			}
			if got := ceilDiv(m, c.blk.MC); got != tc.blocks {
				t.Fatalf("%s %s: %d MC blocks of %d rows, want %d", typ, tc.name, got, c.blk.MC, tc.blocks)
			}
			if whole := c.unitCols == 1; whole != tc.wantWholeUnit {
				t.Errorf("%s %s: %d units of %d blocks' columns each; whole blocks %v, want %v",
					typ, tc.name, c.units, c.unitCols, whole, tc.wantWholeUnit)
			}
		}
	}
}

// chooseFor is the team and path a call on p (threads wide) chooses for a
// real product of one dim per group: M, N and K.
func chooseFor(p *Pool, threads int, real string, m, n, k Dim) *call {
	kern, _ := KernelFor(real)
	ty, _ := spec.TypeByName(real)
	c := realCall(p, threads, kern, ty.Size)
	c.plan = &Plan{Batch: Group{Size: 1}, M: groupOf(m), N: groupOf(n), K: groupOf(k)}
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
