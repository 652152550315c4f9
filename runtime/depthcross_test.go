package runtime

import (
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/tcontract/tcontract/generated/kernels"
	"github.com/tcontract/tcontract/generated/typed"
)

// packA of slivers whose rows are strided and whose depth is a K group
// interleaved across two unit dims ([x y ...], y unit in A): every full
// set of a vector's lanes of x's runs goes through PackX in one call, the
// depths left over (a y not whole lanes) are gathered, and the packed
// block equals a plain gather. Row steps of both signs, partial slivers
// and depths with nothing for PackX are included.
func TestPackDepthCross(t *testing.T) {
	checkPackDepthCross[float32](t)
	checkPackDepthCross[float64](t)
}

func checkPackDepthCross[T real](t *testing.T) {
	ops := typed.OpsOf[T]()
	size := int(unsafe.Sizeof(T(0)))
	row := kernels.Lookup("avx2", ops.Type.Name)
	if row == nil || row.PackXGo == nil {
		t.Skipf("no AVX2 %s row with a cross packer", ops.Type.Name)
	}
	lanes := 32 / size
	mr := row.MR
	// depth builds the offsets of K = [x (n, step xs), y (ny, unit), z (2,
	// step 9000)], x fastest.
	depth := func(n, ny int, xs int64) []int64 {
		var k []int64
		for z := 0; z < 2; z++ {
			for y := 0; y < ny; y++ {
				for x := 0; x < n; x++ {
					k = append(k, int64(z)*9000+int64(y)+int64(x)*xs)
				}
			}
		}
		return k
	}
	for _, tc := range []struct {
		name         string
		kA           []int64
		groups, runs int // PackX calls and the runs they pack, per sliver
	}{
		{"whole lanes", depth(5, 2*lanes, 100), 4, 4 * lanes},
		{"lanes and a rest", depth(6, lanes+3, 120), 2, 2 * lanes},
		{"a negative step", depth(4, lanes, -150), 2, 2 * lanes},
		{"fewer than lanes", depth(7, lanes-1, 100), 0, 0},
		{"x a unit step", depth(7, lanes, 1), 0, 0},
	} {
		for _, st := range []int64{37, -41} {
			for _, mc := range []int{2*mr + 3, mr} {
				x := newCrossPacking(row, ops, size)
				tl := x.c.tileM
				kc := len(tc.kA)
				mSl := tl.count(mc)
				// Rows st apart from an origin that keeps every offset in src.
				org := int64(mc)*abs64(st) + 1000
				sc := &scatter{aRow: make([]int64, mc), aRowBS: make([]int64, mSl)}
				for i := range sc.aRow {
					sc.aRow[i] = org + int64(i)*st
				}
				tl.steps(sc.aRowBS, sc.aRow)
				src := make([]T, 2*org+12000)
				for i := range src {
					src[i] = T(i%9973) + 0.25
				}
				dst := make([]T, mSl*mr*kc)
				for i := range dst {
					dst[i] = -1
				}
				if s, i, p, got, v, ok := packCompare(x, dst, src, sc, tc.kA, mc); !ok {
					t.Fatalf("%s, %s, row step %d, MC %d: sliver %d (%d, %d) = %v, want %v", ops.Type.Name, tc.name, st, mc, s, i, p, got, v)
				}
				calls, runs := x.calls, x.lanes
				if calls != tc.groups*mSl || runs != tc.runs*mSl {
					t.Errorf("%s, %s, row step %d, MC %d: PackX packed %d runs in %d calls, want %d in %d", ops.Type.Name, tc.name, st, mc, runs, calls, tc.runs*mSl, tc.groups*mSl)
				}
				// Each call asks ahead for the depth after its runs, at its
				// first row: the next lanes of the unit dim past the last.
				sliver := mr * kc * size
				for _, m := range x.made {
					at := int(uintptr(unsafe.Pointer(m.dst)) - uintptr(unsafe.Pointer(&dst[0])))
					p0 := at % sliver / (mr * size)
					want := lanes * size
					if next := p0 + lanes*m.k; next < kc {
						want = int(tc.kA[next]-tc.kA[p0]) * size
					}
					if m.ahead != want {
						t.Fatalf("%s, %s, row step %d, MC %d: the call at depth %d asks %d bytes ahead, want %d", ops.Type.Name, tc.name, st, mc, p0, m.ahead, want)
					}
				}
			}
		}
	}
}

func abs64(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// A product whose K group interleaves the two inputs' unit dims and whose
// plan packs the strided input as A (TCCG's ab-acd-dbc at small extents:
// C's unit dim b puts B in the tile's rows), against a plain loop, on 1
// and 2 threads. On a path with a cross packer the plan is checked to give
// PackX lanes of depth runs; elsewhere it checks the usual paths.
func TestDepthCrossProduct(t *testing.T) {
	checkDepthCross[float32](t, 1e-5)
	checkDepthCross[float64](t, 1e-13)
}

func checkDepthCross[T real](t *testing.T, tol float64) {
	rng := rand.New(rand.NewPCG(3, 8))
	ops := typed.OpsOf[T]()
	tile := tileOf(ops)
	A, B, Cc, D := 21, 45, 40, 48
	a := randomReals[T](rng, A*Cc*D)
	b := randomReals[T](rng, D*B*Cc)
	sp, _ := ParseSpec("acd,dbc->ab")
	views := [3]View{
		{Len: len(a), Shape: []int{A, Cc, D}},
		{Len: len(b), Shape: []int{D, B, Cc}},
		{Len: A * B, Shape: []int{A, B}},
	}
	p, err := NewPlan(sp, views[0], views[1], views[2], tile)
	if err != nil {
		t.Fatal(err)
	}
	if k := &p.K; tile.Cross > 0 && (!p.Swapped || len(k.Ext) < 2 || absInt(k.S[opA][0]) < 2 || k.S[opA][1] != 1 || k.Ext[1] < tile.Cross) {
		t.Fatalf("%s: %s, A strides in K %v: want swapped, K's first dim strided in A and its second unit, at least %d long", ops.Type.Name, p.describe(), k.S[opA], tile.Cross)
	}
	for _, threads := range []int{1, 2} {
		alpha, beta := T(1.5), T(0.5)
		c, c0 := runOnPool(t, rng, threads, "acd,dbc->ab", views, a, b, alpha, beta)
		for i := range c {
			ai, bi := i/B, i%B
			var s, mag float64
			for ci := 0; ci < Cc; ci++ {
				for di := 0; di < D; di++ {
					x := float64(a[(ai*Cc+ci)*D+di]) * float64(b[(di*B+bi)*Cc+ci])
					s += x
					mag += abs(x)
				}
			}
			want := float64(alpha)*s + float64(beta)*float64(c0[i])
			if got := float64(c[i]); abs(got-want) > tol*(mag+1) {
				t.Fatalf("%s, %d threads: C[%d,%d] = %v, want %v", ops.Type.Name, threads, ai, bi, got, want)
			}
		}
	}
}

// A K group interleaved for the depth-cross packer (TCCG ab-acd-dbc at
// float32: d cut to 16, strided in A, then c, A's unit dim) gets KC blocks
// of whole groups of lanes runs, so that no block's rest is gathered; a K
// whose second dim is not A's unit one keeps the balanced KC.
func TestDepthCrossKC(t *testing.T) {
	testBlocks = &blocks{MC: 320, KC: 384, NC: 4092}
	defer func() { testBlocks = nil }()
	p := NewPool(1)
	defer p.Close()
	for _, path := range []string{"avx512", "avx2"} {
		k := kernels.Lookup(path, "float32")
		if k == nil || k.PackX == nil {
			continue
		}
		lanes := vecLanes(k, 4)
		for _, tc := range []struct {
			name   string
			k      Group
			wantKC int
		}{
			{"interleaved", groupOf(
				Dim{Ext: 16, S: [3]int{opA: 141376, opB: 1}},
				Dim{Ext: 8, S: [3]int{opA: 1, opB: 384}},
				Dim{Ext: 47, S: [3]int{opA: 8, opB: 3072}},
				Dim{Ext: 24, S: [3]int{opA: 16 * 141376, opB: 16}},
			), 384 / (16 * lanes) * 16 * lanes},
			{"second dim strided in A", groupOf(
				Dim{Ext: 16, S: [3]int{opA: 141376, opB: 1}},
				Dim{Ext: 8, S: [3]int{opA: 2, opB: 384}},
				Dim{Ext: 47, S: [3]int{opA: 16, opB: 3072}},
				Dim{Ext: 24, S: [3]int{opA: 16 * 141376, opB: 16}},
			), 384},
		} {
			c := realCall(p, 1, k, 4)
			c.mainKern, c.mainFn = k, funcOf(k)
			c.plan = &Plan{Batch: Group{Size: 1},
				M: groupOf(Dim{Ext: 376, S: [3]int{opA: 376, opC: 1}}),
				N: groupOf(Dim{Ext: 384, S: [3]int{opB: 144384, opC: 376}}),
				K: tc.k}
			c.chooseTeam()
			p.release(c)
			if c.blk.KC != tc.wantKC {
				t.Errorf("%s, %s: KC %d, want %d", path, tc.name, c.blk.KC, tc.wantKC)
			}
		}
	}
}
