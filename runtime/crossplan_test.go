package runtime

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tcontract/tcontract/generated/kernels"
	"github.com/tcontract/tcontract/generated/typed"
)

// TCCG's abcd-dbea-ec: with a cross-sliver packer, M is keyed by C (d,
// C's unit dim, first, cut to a tile) with the longest cut of a (A's unit
// dim) to whole lines, up to four, right after, then the high parts of d
// and a, and the orientation keeps M along the tile; without one,
// M stays keyed by A. With the operands exchanged the same group is N,
// and the plan swaps it into the tile's direction.
func TestPlanCrossOrder(t *testing.T) {
	for _, tc := range []struct {
		tile Tile
		want []int // M's first four extents; want[0] is the tile height
	}{
		{Tile{MR: 16, NR: 6, Short: [3]int{24}, Lanes: 8, Size: 4, Cross: 8}, []int{16, 48, 6, 2}},
		{Tile{MR: 8, NR: 6, Lanes: 4, Size: 8, Cross: 4}, []int{8, 32, 12, 3}},
		// AVX-512: 64 rows do not divide d = 96, the 48-row tile does
		// (not the 32-row one: the tallest wins); 32 do at float64.
		{Tile{MR: 64, NR: 6, Short: [3]int{32, 48}, Lanes: 16, Size: 4, Cross: 16}, []int{48, 48, 2, 2}},
		{Tile{MR: 32, NR: 6, Short: [3]int{16, 24}, Lanes: 8, Size: 8, Cross: 8}, []int{32, 32, 3, 3}},
	} {
		sp, _ := ParseSpec("dbea,ec->abcd")
		a, b, c := dense(96, 84, 96, 96), dense(96, 24), dense(96, 84, 24, 96)
		p, err := NewPlan(sp, a, b, c, tc.tile)
		if err != nil {
			t.Fatal(err)
		}
		g := &p.M
		rows := tc.want[0]
		if p.Swapped || g.Cross != rows || !slices.Equal(g.Ext[:4], tc.want) || g.S[opC][0] != 1 || g.S[opA][1] != 1 || g.S[opC][2] != rows || g.S[opA][3] != tc.want[1] {
			t.Errorf("abcd-dbea-ec, %d-byte reals: %s (cross %d, C strides %v, A strides %v), want M = %v... by C, unswapped",
				tc.tile.Size, p.describe(), g.Cross, g.S[opC], g.S[opA], tc.want)
		}
		sp, _ = ParseSpec("ec,dbea->abcd")
		q, err := NewPlan(sp, b, a, c, tc.tile)
		if err != nil {
			t.Fatal(err)
		}
		if !q.Swapped || q.M.Cross != rows || !slices.Equal(q.M.Ext[:4], tc.want) || q.M.S[opA][1] != 1 {
			t.Errorf("abcd-ec-dbea: %s (cross %d), want M = %v... swapped, A's (now B's) unit dim second", q.describe(), q.M.Cross, tc.want)
		}
		tile := tc.tile
		tile.Cross = 0
		r, err := NewPlan(sp, b, a, c, tile)
		if err != nil {
			t.Fatal(err)
		}
		if r.M.Cross != 0 || r.N.Cross != 0 || dbeaLead(r, true) != 1 {
			t.Errorf("abcd-ec-dbea without a cross packer: %s, want the input's unit dim first", r.describe())
		}
		// C's unit dim not whole tiles: the group stays keyed by A.
		sp, _ = ParseSpec("dbea,ec->abcd")
		u, err := NewPlan(sp, dense(tc.tile.MR+4, 84, 96, 96), b, dense(96, 84, 24, tc.tile.MR+4), tc.tile)
		if err != nil {
			t.Fatal(err)
		}
		if u.M.Cross != 0 || u.N.Cross != 0 || dbeaLead(u, false) != 1 {
			t.Errorf("abcd-dbea-ec, d = %d: %s, want A's unit dim first", tc.tile.MR+4, u.describe())
		}
	}
}

// A group the data keys by C is packed across slivers too at a depth of
// crossKeyedDepth or more (TCCG's abcd-aebf-fdec at float64: N holds d,
// C's unit dim, and c, B's, and the plan swaps it into M), and not below
// it (the same contraction with e and f cut to 2 each).
func TestPlanCrossKeyedByC(t *testing.T) {
	tile := Tile{MR: 8, NR: 6, Lanes: 4, Size: 8, Cross: 4}
	sp, _ := ParseSpec("aebf,fdec->abcd")
	p, err := NewPlan(sp, dense(72, 72, 72, 72), dense(72, 72, 72, 72), dense(72, 72, 72, 72), tile)
	if err != nil {
		t.Fatal(err)
	}
	if g := &p.M; !p.Swapped || g.Cross != 8 || !slices.Equal(g.Ext[:4], []int{8, 24, 9, 3}) || g.S[opC][0] != 1 || g.S[opA][1] != 1 {
		t.Errorf("abcd-aebf-fdec: %s (cross %d), want M = [8 24 9 3 ...] swapped, packed across slivers", p.describe(), g.Cross)
	}
	q, err := NewPlan(sp, dense(72, 2, 72, 2), dense(2, 72, 2, 72), dense(72, 72, 72, 72), tile)
	if err != nil {
		t.Fatal(err)
	}
	if q.M.Cross != 0 || q.N.Cross != 0 {
		t.Errorf("abcd-aebf-fdec at depth 4: %s, want no cross order", q.describe())
	}
}

// dbeaLead is the stride in dbea of the leading dim of the group that
// holds a, b and d (M, or N when dbea is the second operand), wherever
// the orientation put it.
func dbeaLead(p *Plan, second bool) int {
	g, o := &p.M, opA
	if second {
		g, o = &p.N, opB
	}
	if p.Swapped {
		g, o = &p.N, 1-o
		if second {
			g = &p.M
		}
	}
	return g.S[o][0]
}

// Random groups: whatever crossOrder does, the index space is the same,
// and a group it orders leads with C's unit dim and the input's.
func TestCrossOrderRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	ordered := 0
	for trial := 0; trial < 600; trial++ {
		n := 2 + rng.IntN(2)
		var dims []Dim
		for i := 0; i < n; i++ {
			var s [3]int
			for o := range s {
				s[o] = rng.IntN(5000) - 2500
			}
			dims = append(dims, Dim{Ext: 1 + rng.IntN(40), S: s})
		}
		tile := Tile{MR: []int{8, 16, 24}[rng.IntN(3)], NR: 6, Lanes: 8, Size: []int{4, 8}[rng.IntN(2)], Cross: 8}
		o := []int{opA, opB}[rng.IntN(2)]
		x, y := rng.IntN(n), rng.IntN(n)
		dims[x].S[opC] = 1
		if rng.IntN(3) > 0 {
			dims[x].Ext = tile.MR * (1 + rng.IntN(3))
		}
		dims[y].S[o] = []int{1, -1}[rng.IntN(2)]
		// Keyed by C, as NewPlan orders the group first.
		slices.SortStableFunc(dims, func(a, b Dim) int { return absInt(a.S[opC]) - absInt(b.S[opC]) })
		g := groupOf(dims...)
		before := offsets(&g)
		g.crossOrder(o, tile)
		after := offsets(&g)
		slices.SortFunc(before, cmpOffsets)
		slices.SortFunc(after, cmpOffsets)
		if !slices.Equal(before, after) {
			t.Fatalf("trial %d: crossOrder changed the index space", trial)
		}
		if g.Cross == 0 {
			continue
		}
		ordered++
		if g.S[opC][0] != 1 || absInt(g.S[o][1]) != 1 || g.Cross != g.Ext[0] {
			t.Fatalf("trial %d: ordered %v (C strides %v, input strides %v, cross %d)", trial, g.Ext, g.S[opC], g.S[o], g.Cross)
		}
	}
	if ordered < 100 {
		t.Errorf("only %d of 600 random groups were ordered: the test sees too little", ordered)
	}
}

// A group cut for the cross packer runs the tile as tall as its cut, even
// where shortTile would pick a taller one: TCCG abcd-aebf-fdec at float64
// (runs of 72 cut to 24 rows on AVX-512, whose main tile is 32 rows) packs
// through the cross packer and writes its tiles without row maps. On a
// path with no tile of the cut's height the group is not cut.
func TestCrossTileTakesTheCut(t *testing.T) {
	const spec = "aebf,fdec->abcd"
	sp, err := ParseSpec(spec)
	if err != nil {
		t.Fatal(err)
	}
	p := NewPool(1)
	defer p.Close()
	cut := 0
	for _, ext := range []int{48, 72, 96} {
		d := dense(ext, ext, ext, ext) // every operand: four labels of ext
		for _, real := range []string{"float32", "float64"} {
			ops := typed.OpsByName(real)
			plan, err := NewPlan(sp, d, d, d, tileOf(ops))
			if err != nil {
				t.Fatal(err)
			}
			g := &plan.M
			c := choosePlan(p, 1, real, plan)
			name := fmt.Sprintf("%s, extents %d, %s", spec, ext, real)
			if g.Cross == 0 {
				t.Logf("%s: M not cut for the cross packer", name)
				continue
			}
			cut++
			if c.direct || c.kern.MR != g.Cross || c.rowMaps {
				t.Errorf("%s: M cut to %d rows ran the %d-row tile (direct %v, row maps %v)", name, g.Cross, c.kern.MR, c.direct, c.rowMaps)
			}
		}
	}
	if k, _ := KernelFor("float32"); cut == 0 && k.PackX != nil {
		t.Error("no case was cut for the cross packer: the test sees nothing")
	}
}

// packA of MC blocks of a group ordered for the cross packer: every
// sliver goes through PackX, in groups of up to its lanes, and the
// packed block equals a plain gather. Blocks that start or end inside a
// group, C runs of several tiles, and depths of two dims are included:
// runs minRun long on average go through PackX a run at a time, shorter
// ones or a run with a unit step do not.
func TestPackCross(t *testing.T) {
	// AVX2's 16-row tile with 8 lanes, and AVX-512's 48-row one with 16.
	for _, want := range []struct {
		isa       string
		mr, lanes int
	}{{"avx2", 16, 8}, {"avx512", 48, 16}} {
		var row *kernels.Kernel
		for i := range kernels.Kernels {
			if k := &kernels.Kernels[i]; k.ISA == want.isa && k.Real == "float32" && k.MR == want.mr {
				row = k
			}
		}
		if row == nil || row.PackXGo == nil {
			t.Fatalf("no %s float32 row of %d rows with a cross packer", want.isa, want.mr)
		}
		testPackCross(t, row, want.lanes)
	}
}

func testPackCross(t *testing.T, row *kernels.Kernel, lanes int) {
	ops := typed.OpsByName("float32")
	mr := row.MR
	for _, D := range []int{2 * mr, 3 * mr} {
		// A: dbea, a the unit dim, as float32.
		const B, E, A = 3, 10, 20
		sA := map[byte]int{'a': 1, 'e': A, 'b': A * E, 'd': A * E * B}
		src := make([]float32, D*B*E*A+2100) // and the second depth's reach
		for i := range src {
			src[i] = float32(i%9973) + 0.25
		}
		g := groupOf(
			Dim{Ext: D, S: [3]int{opA: sA['d'], opC: 1}},
			Dim{Ext: B, S: [3]int{opA: sA['b'], opC: D * 7}},
			Dim{Ext: A, S: [3]int{opA: 1, opC: D * 7 * B}},
		)
		g.crossOrder(opA, Tile{MR: mr, NR: row.NR, Lanes: lanes, Size: 4, Cross: lanes})
		if g.Cross == 0 {
			t.Fatalf("%s: D %d: the group was not ordered: %v", row.Name, D, g.Ext)
		}
		tl := plainTiling(mr)
		for _, depth := range []struct {
			name string
			kA   []int64
		}{
			{"one dim", []int64{0, 20, 40, 60, 80, 100, 120, 140, 160, 180}},
			{"two dims", []int64{0, 20, 40, 60, 80, 100, 120, 2000, 2020, 2040}},
			{"two long runs", []int64{0, 20, 40, 60, 80, 100, 120, 140, 2000, 2020, 2040, 2060, 2080, 2100, 2120, 2140}},
			{"a unit run", []int64{0, 20, 40, 60, 80, 100, 120, 140, 2000, 2001, 2002, 2003, 2004, 2005, 2006, 2007}},
		} {
			for _, mc := range []int{4 * mr, 8 * mr, 15 * mr} {
				x := newCrossPacking(row, ops, 4)
				kc := len(depth.kA)
				mSl := tl.count(mc)
				want := 0
				for ic := 0; ic+mc <= g.Size; ic += mc {
					sc := &scatter{aRow: make([]int64, mc), aRowBS: make([]int64, mSl)}
					Offsets(sc.aRow, g.Ext, g.S[opA], ic)
					tl.steps(sc.aRowBS, sc.aRow)
					dst := make([]float32, mSl*mr*kc)
					if s, i, p, got, v, ok := packCompare(x, dst, src, sc, depth.kA, mc); !ok {
						t.Fatalf("%s: D %d, %s depth, MC %d, block at %d: sliver %d (%d, %d) = %v, want %v", row.Name, D, depth.name, mc, ic, s, i, p, got, v)
					}
					want += mSl
				}
				calls, slivers := x.calls, x.lanes
				if depth.name == "one dim" && (slivers != want || calls*2 > want) {
					t.Errorf("%s: D %d, MC %d: PackX packed %d of %d slivers in %d calls", row.Name, D, mc, slivers, want, calls)
				}
				if depth.name == "two long runs" && (slivers != 2*want || calls > want) {
					t.Errorf("%s: D %d, MC %d: PackX packed %d of %d slivers' runs in %d calls", row.Name, D, mc, slivers, 2*want, calls)
				}
				if (depth.name == "two dims" || depth.name == "a unit run") && calls != 0 {
					t.Errorf("%s: D %d, MC %d: PackX ran on a depth of %s", row.Name, D, mc, depth.name)
				}
				// Each row's line is asked for packXAhead steps on.
				for _, m := range x.made {
					if want := packXAhead * m.kStep * 4; m.ahead != want {
						t.Fatalf("%s: D %d, MC %d: a call with steps of %d asks %d bytes ahead, want %d", row.Name, D, mc, m.kStep, m.ahead, want)
					}
				}
			}
		}
	}
}

// A deep product whose N the data keys by C, packed across slivers with a
// depth of two dims (a PackX call per run of it), against a plain loop:
// TCCG's abcd-aebf-fdec shape at small extents, on 1 and 2 threads. On a
// path without a cross packer it checks the usual paths instead.
func TestCrossKeyedByCProduct(t *testing.T) {
	checkCrossKeyed[float32](t, 1e-5)
	checkCrossKeyed[float64](t, 1e-13)
}

func checkCrossKeyed[T real](t *testing.T, tol float64) {
	rng := rand.New(rand.NewPCG(9, 4))
	ops := typed.OpsOf[T]()
	tile := tileOf(ops)
	// d (C's unit dim) whole tiles, c (B's unit dim) a few lines, and a
	// depth of e·f >= crossKeyedDepth whose runs of f are 16 long.
	A, B, Cc, D, E, F := 3, 5, 24, 2*tile.MR, 19, 16
	a := randomReals[T](rng, A*E*B*F)
	b := randomReals[T](rng, F*D*E*Cc)
	sp, _ := ParseSpec("aebf,fdec->abcd")
	views := [3]View{
		{Len: len(a), Shape: []int{A, E, B, F}},
		{Len: len(b), Shape: []int{F, D, E, Cc}},
		{Len: A * B * Cc * D, Shape: []int{A, B, Cc, D}},
	}
	p, err := NewPlan(sp, views[0], views[1], views[2], tile)
	if err != nil {
		t.Fatal(err)
	}
	if tile.Cross > 0 && p.M.Cross == 0 {
		t.Fatalf("%s: %s, want M packed across slivers", ops.Type.Name, p.describe())
	}
	for _, threads := range []int{1, 2} {
		alpha, beta := T(0.5), T(-1)
		c, c0 := runOnPool(t, rng, threads, "aebf,fdec->abcd", views, a, b, alpha, beta)
		for i := range c {
			ai, bi, ci, di := i/(B*Cc*D), i/(Cc*D)%B, i/D%Cc, i%D
			var s, mag float64
			for e := 0; e < E; e++ {
				for f := 0; f < F; f++ {
					x := float64(a[((ai*E+e)*B+bi)*F+f]) * float64(b[((f*D+di)*E+e)*Cc+ci])
					s += x
					mag += abs(x)
				}
			}
			want := float64(alpha)*s + float64(beta)*float64(c0[i])
			if got := float64(c[i]); abs(got-want) > tol*(mag+1) {
				t.Fatalf("%s, %d threads: C[%d,%d,%d,%d] = %v, want %v", ops.Type.Name, threads, ai, bi, ci, di, got, want)
			}
		}
	}
}

// A group ordered for the cross packer whose lanes of slivers are taller
// than MC (AVX-512 float32: 16 slivers of 48 rows against MC = 336) is
// one MC block when that block's bytes fit the L2 share of MC·KC, as at
// TCCG abcd-dbea-ec's depth of 96, so that each line of the input is
// loaded once; at a depth of KC it is not (the block would not fit).
func TestCrossGroupTallerThanMC(t *testing.T) {
	k := kernels.Lookup("avx512", "float32")
	if k == nil || k.PackX == nil {
		t.Skip("no AVX-512 cross packer in this build")
	}
	testBlocks = &blocks{MC: 336, KC: 384, NC: 4092}
	defer func() { testBlocks = nil }()
	p := NewPool(1)
	defer p.Close()
	for _, tc := range []struct {
		depth, wantMC int
	}{{96, 768}, {384, 336}} {
		c := realCall(p, 1, k, 4)
		// M: C's unit dim x (48 rows, a tile of the 48-row variant), then
		// A's unit dim y in runs of 48 in C; N: 24 columns.
		m := groupOf(Dim{Ext: 48, S: [3]int{opA: 1 << 20, opC: 1}}, Dim{Ext: 64, S: [3]int{opA: 1, opC: 4096}})
		m.Cross = 48
		c.plan = &Plan{Batch: Group{Size: 1}, M: m,
			N: groupOf(Dim{Ext: 24, S: [3]int{opB: 1, opC: 48}}),
			K: groupOf(Dim{Ext: tc.depth, S: [3]int{opA: 64, opB: 24}})}
		c.chooseTeam()
		p.release(c)
		if c.direct || c.kern.MR != 48 || c.blk.MC != tc.wantMC {
			t.Errorf("depth %d: direct %v, tile of %d rows, MC %d; want the 48-row tile and MC %d", tc.depth, c.direct, c.kern.MR, c.blk.MC, tc.wantMC)
		}
	}
}

// crossGroup is M of C's unit dim (a tile of rows) then A's unit dim, led
// by those rows for the cross-sliver packer.
func crossGroup() Group {
	g := groupOf(Dim{Ext: 32, S: [3]int{opA: 1 << 20, opC: 1}}, Dim{Ext: 128, S: [3]int{opA: 1, opC: 4096}})
	g.Cross = 32
	return g
}
