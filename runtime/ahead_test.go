package runtime

import (
	"math/rand/v2"
	"sync/atomic"
	"testing"
	"unsafe"

	"github.com/tcontract/tcontract/generated/typed"
)

// planAhead lists each line of the next block's rows once (the row that
// starts it), with the depth offsets in bytes, and nothing past the last
// row; fetchAhead's shares cover the listed rows once over the parts.
func TestPlanAhead(t *testing.T) {
	if !canPrefetch {
		t.Skip("no prefetch in this build")
	}
	for _, size := range []int{4, 8} {
		// M as TCCG 7 orders it: 24 rows of x far apart in A, then y
		// (A's unit dim) cut to 40, then the rest.
		m := groupOf(Dim{Ext: 24, S: [3]int{opA: 1 << 16, opC: 1}}, Dim{Ext: 40, S: [3]int{opA: 1, opC: 24}},
			Dim{Ext: 3, S: [3]int{opA: 40, opC: 960}})
		c := &call{plan: &Plan{M: m}, tsize: size}
		c.blk.MC = 24 * 40
		buf := make([]int64, 2*c.blk.MC+16)
		sc := &scatter{ahead: buf[:c.blk.MC], aheadK: buf[c.blk.MC:]}
		kA := []int64{0, 120, 240, 360, 480}
		a := make([]byte, 1<<20)
		// A line-aligned base, and one a few elements past a line.
		for _, skew := range []int{0, 3} {
			base := unsafe.Pointer(&a[(64-int(uintptr(unsafe.Pointer(&a[0])))%64)%64+skew*size])
			for _, ic := range []int{0, c.blk.MC, 2 * c.blk.MC} {
				c.planAhead(sc, base, ic, kA)
				mc := min(c.blk.MC, m.Size-ic)
				want := map[int64]bool{} // the block's lines at step 0
				starts := map[int64]bool{}
				rows := make([]int64, mc)
				Offsets(rows, m.Ext, m.S[opA], ic)
				for _, r := range rows {
					addr := int64(uintptr(base)) + r*int64(size)
					want[addr/lineBytes] = true
					starts[addr] = true
				}
				got := map[int64]int{}
				for _, b := range sc.ahead[:sc.aheadRows] {
					got[(int64(uintptr(base))+b)/lineBytes]++
				}
				// Every listed line is the block's, once; a line is left out
				// only when its first element is not the block's (that
				// line started in an earlier block, fetched with it).
				for l, n := range got {
					if !want[l] || n != 1 {
						t.Fatalf("size %d, skew %d, block %d: line %d listed %d times, in block %v", size, skew, ic, l, n, want[l])
					}
				}
				for l := range want {
					if got[l] == 0 && starts[l*lineBytes] {
						t.Fatalf("size %d, skew %d, block %d: line %d starts with a row of the block, not listed", size, skew, ic, l)
					}
				}
				if sc.aheadSteps != len(kA) {
					t.Fatalf("size %d: %d steps listed, want %d", size, sc.aheadSteps, len(kA))
				}
				for p, k := range kA {
					if sc.aheadK[p] != k*int64(size) {
						t.Fatalf("size %d: step %d at %d bytes, want %d", size, p, sc.aheadK[p], k*int64(size))
					}
				}
				if want := 120 * int64(size); sc.aheadStep != want {
					t.Fatalf("size %d: common step %d bytes, want %d", size, sc.aheadStep, want)
				}
				// Shares: every listed row in exactly one; the kernel's
				// share of one is its first row, from its first step.
				for _, parts := range []int{1, 7, sc.aheadRows, 3 * sc.aheadRows} {
					next := 0
					for i := 0; i < parts; i++ {
						r0, r1 := i*sc.aheadRows/parts, (i+1)*sc.aheadRows/parts
						if r0 != next {
							t.Fatalf("share %d of %d starts at %d, want %d", i, parts, r0, next)
						}
						next = r1
						if pf, st := sc.fetchAhead(i, parts, false); pf != 0 || st != 0 {
							t.Fatalf("share %d of %d: %#x, step %d left to the kernel, which asked for none", i, parts, pf, st)
						}
						pf, st := sc.fetchAhead(i, parts, true)
						switch {
						case r0 == r1 && (pf != 0 || st != 0):
							t.Fatalf("share %d of %d, empty: %#x, step %d left to the kernel", i, parts, pf, st)
						case r0 < r1 && (pf != uintptr(base)+uintptr(sc.ahead[r0]) || st != int(sc.aheadStep)):
							t.Fatalf("share %d of %d: %#x, step %d left to the kernel, want row %d's first line", i, parts, pf, st, r0)
						}
					}
					if next != sc.aheadRows {
						t.Fatalf("%d shares end at %d of %d rows", parts, next, sc.aheadRows)
					}
				}
			}
			c.planAhead(sc, base, m.Size, kA)
			if sc.aheadRows != 0 {
				t.Fatalf("past the last row: %d rows listed", sc.aheadRows)
			}
			// Depth offsets of no common step: none for the kernel.
			c.planAhead(sc, base, 0, []int64{0, 120, 240, 480})
			if sc.aheadStep != 0 {
				t.Fatalf("size %d: uneven depth offsets given a common step of %d bytes", size, sc.aheadStep)
			}
		}
	}
	// A prefetch never faults: offsets far outside any object.
	prefetchL2(unsafe.Pointer(&a0), []int64{-1 << 40, 1 << 40}, []int64{0, 1 << 30})
}

var a0 byte

// TCCG abcde-ecbfa-fd's shape at small extents, over many MC blocks, on 1
// and 2 threads, beta −1 and 0: M packed across slivers, the next block
// fetched while the kernel runs (each tile then its own call), at beta 0
// C's tiles streamed (stream.go), against a plain loop; below
// aheadMinDepth, nothing fetched. On a path without a cross packer it
// checks the usual paths instead.
func TestAheadProduct(t *testing.T) {
	checkAhead[float32](t, 1e-5)
	checkAhead[float64](t, 1e-13)
}

func checkAhead[T real](t *testing.T, tol float64) {
	// A depth below aheadMinDepth fetches nothing.
	checkAheadDepth[T](t, tol, aheadMinDepth+5, true)
	checkAheadDepth[T](t, tol, aheadMinDepth-1, false)
}

func checkAheadDepth[T real](t *testing.T, tol float64, F int, fetch bool) {
	rng := rand.New(rand.NewPCG(7, uint64(F)))
	ops := typed.OpsOf[T]()
	tile := tileOf(ops)
	// e (C's unit dim) whole tiles, a (A's unit dim) two lines, d not a
	// whole number of column tiles.
	E, Cc, Bb, A, D := 2*max(tile.MR, 8), 3, 2, 2*64/int(unsafe.Sizeof(T(0))), 7
	a := randomReals[T](rng, E*Cc*Bb*F*A)
	b := randomReals[T](rng, F*D)
	views := [3]View{
		{Len: len(a), Shape: []int{E, Cc, Bb, F, A}},
		{Len: len(b), Shape: []int{F, D}},
		{Len: A * Bb * Cc * D * E, Shape: []int{A, Bb, Cc, D, E}},
	}
	// Counted from every member's goroutine.
	var listed, streamed, byKernel atomic.Int64
	testAhead = func(rows int) { listed.Add(int64(rows)) }
	testStream = func(requests bool) {
		streamed.Add(1)
		if requests {
			byKernel.Add(1)
		}
	}
	defer func() { testAhead, testStream = nil, nil }()
	for _, tc := range []struct {
		threads int
		beta    T
	}{{1, -1}, {2, -1}, {1, 0}, {2, 0}} {
		threads := tc.threads
		listed.Store(0)
		streamed.Store(0)
		byKernel.Store(0)
		alpha, beta := T(0.5), tc.beta
		c, c0 := runOnPool(t, rng, threads, "ecbfa,fd->abcde", views, a, b, alpha, beta)
		for i := range c {
			ai, bi, ci, di, ei := i/(Bb*Cc*D*E), i/(Cc*D*E)%Bb, i/(D*E)%Cc, i/E%D, i%E
			var s, mag float64
			for f := 0; f < F; f++ {
				x := float64(a[(((ei*Cc+ci)*Bb+bi)*F+f)*A+ai]) * float64(b[f*D+di])
				s += x
				mag += abs(x)
			}
			want := float64(alpha)*s + float64(beta)*float64(c0[i])
			if got := float64(c[i]); abs(got-want) > tol*(mag+1) {
				t.Fatalf("%s, depth %d, %d threads: C[%d,%d,%d,%d,%d] = %v, want %v", ops.Type.Name, F, threads, ai, bi, ci, di, ei, got, want)
			}
		}
		rows, tiles := listed.Load(), streamed.Load()
		if fetch && tile.Cross > 0 && canPrefetch && rows == 0 {
			t.Errorf("%s, depth %d, %d threads: no block fetched ahead", ops.Type.Name, F, threads)
		}
		if !fetch && rows != 0 {
			t.Errorf("%s, depth %d, %d threads: %d rows fetched ahead", ops.Type.Name, F, threads, rows)
		}
		// C (a large allocation, on a page) has its tiles' columns on
		// lines: at beta 0 the streaming kernel writes them where the
		// row has one.
		if k, _ := KernelFor(ops.Type.Real); beta == 0 && rows > 0 && k != nil && k.Stream != nil && tiles == 0 {
			t.Errorf("%s, %d threads: beta 0 streamed no tile", ops.Type.Name, threads)
		}
		// Streamed tiles of cross-packed blocks request the next block's
		// rows themselves (each share here is one row or none).
		if tiles > 0 && rows > 0 && byKernel.Load() == 0 {
			t.Errorf("%s, %d threads: %d tiles streamed, none requested a row ahead", ops.Type.Name, threads, tiles)
		}
		if beta != 0 && tiles != 0 {
			t.Errorf("%s, %d threads: beta %v streamed %d tiles", ops.Type.Name, threads, beta, tiles)
		}
	}
}

// A shallow product (the whole depth one KC block) whose A steps lie a line
// apart or more fetches its next blocks ahead when A is beyond the cache,
// and at beta 0 streams its tiles where the row has a streaming kernel
// when C is; with the depth over two KC blocks or below aheadMinDepth,
// nothing is fetched or streamed, and with A's depth adjacent nothing is
// fetched. M of two dims (A's rows padded) and N of several column tiles
// keep it off the direct path. Against a plain loop, on 1 and 2 threads,
// beta −1 and 0.
func TestShallowAhead(t *testing.T) {
	checkShallowAhead[float32](t, 1e-5)
	checkShallowAhead[float64](t, 1e-13)
}

func checkShallowAhead[T real](t *testing.T, tol float64) {
	ops := typed.OpsOf[T]()
	tile := tileOf(ops)
	k, _ := KernelFor(ops.Type.Real)
	blk := blocksFor(k)
	kc := blk.KC
	// M over three MC blocks and more, of the tallest a shallow call
	// takes (shallowMC): there is a next block to fetch.
	I1, J := 2*tile.MR, 5*tile.NR+1
	I2 := ceilDiv(3*MaxShallowMC*blk.MC, I1) + 1
	defer func(f func() int) { cacheBytes = f }(cacheBytes)
	canStream := k.Stream != nil
	for _, tc := range []struct {
		name          string
		K             int
		unitK         bool // A's depth adjacent: A[i1,i2,p]
		cache         int  // cacheBytes for the call
		fetch, stream bool
	}{
		{"shallow", aheadMinDepth + 8, false, 0, true, true},
		{"the whole KC", kc, false, 0, true, true},
		{"A and C within the cache", aheadMinDepth + 8, false, 1 << 40, false, false},
		{"two KC blocks", kc + aheadMinDepth, false, 0, false, false},
		{"below the least depth", aheadMinDepth - 1, false, 0, false, false},
		{"A's depth adjacent", aheadMinDepth + 8, true, 0, false, true},
	} {
		cacheBytes = func() int { return tc.cache }
		rng := rand.New(rand.NewPCG(11, uint64(tc.K)))
		K := tc.K
		pad := I1 + 16 // A's stride along i2
		var aAt func(i1, i2, p int) int
		var va View
		spec := "pab,pj->jab"
		if tc.unitK {
			spec = "abp,pj->jab"
			aAt = func(i1, i2, p int) int { return (i2*pad+i1)*K + p }
			va = View{Len: I2 * pad * K, Shape: []int{I1, I2, K}, Strides: []int{K, pad * K, 1}}
		} else {
			aAt = func(i1, i2, p int) int { return p*I2*pad + i2*pad + i1 }
			va = View{Len: K * I2 * pad, Shape: []int{K, I1, I2}, Strides: []int{I2 * pad, 1, pad}}
		}
		a := randomReals[T](rng, va.Len)
		b := randomReals[T](rng, K*J)
		views := [3]View{va, {Len: len(b), Shape: []int{K, J}}, {Len: J * I2 * I1, Shape: []int{J, I1, I2}, Strides: []int{I1 * I2, 1, I1}}}
		var listed, streamed atomic.Int64
		testAhead = func(rows int) { listed.Add(int64(rows)) }
		testStream = func(bool) { streamed.Add(1) }
		for _, threads := range []int{1, 2} {
			for _, beta := range []T{-1, 0} {
				listed.Store(0)
				streamed.Store(0)
				alpha := T(0.5)
				c, c0 := runOnPool(t, rng, threads, spec, views, a, b, alpha, beta)
				for j := 0; j < J; j++ {
					for i2 := 0; i2 < I2; i2++ {
						for i1 := 0; i1 < I1; i1++ {
							var s, mag float64
							for p := 0; p < K; p++ {
								x := float64(a[aAt(i1, i2, p)]) * float64(b[p*J+j])
								s += x
								mag += abs(x)
							}
							at := j*I1*I2 + i2*I1 + i1
							want := float64(alpha)*s + float64(beta)*float64(c0[at])
							if got := float64(c[at]); abs(got-want) > tol*(mag+1) {
								t.Fatalf("%s, %s, %d threads, beta %v: C[%d,%d,%d] = %v, want %v", ops.Type.Name, tc.name, threads, beta, j, i1, i2, got, want)
							}
						}
					}
				}
				rows, tiles := listed.Load(), streamed.Load()
				if want := tc.fetch && canPrefetch; (rows > 0) != want {
					t.Errorf("%s, %s, %d threads, beta %v: %d rows fetched ahead, want some: %v", ops.Type.Name, tc.name, threads, beta, rows, want)
				}
				// C (a large allocation, on a page) has its tiles' columns
				// on lines.
				if want := (tc.stream || rows > 0) && beta == 0 && canStream; (tiles > 0) != want {
					t.Errorf("%s, %s, %d threads, beta %v: %d tiles streamed, want some: %v", ops.Type.Name, tc.name, threads, beta, tiles, want)
				}
			}
		}
		testAhead, testStream = nil, nil
	}
}

// fetchesAhead's rule for blocks the cross packer did not take: the whole
// depth in one block, at least aheadMinDepth deep, A's steps a line apart,
// A at least cacheBytes, and a real type.
func TestFetchesAheadRule(t *testing.T) {
	defer func(f func() int) { cacheBytes = f }(cacheBytes)
	p := NewPool(1)
	defer p.Close()
	k, _ := KernelFor("float32")
	c := realCall(p, 1, k, 4)
	defer p.release(c)
	const M, K = 1 << 16, 64 // A of 16 MB
	c.plan = &Plan{M: groupOf(Dim{Ext: M, S: [3]int{opA: 1}}), K: groupOf(Dim{Ext: K, S: [3]int{opA: M}})}
	for _, tc := range []struct {
		name     string
		cross    bool
		kStride  int64
		kc, cf   int
		fetches  bool
		cacheMiB int
	}{
		{"shallow, A beyond the cache", false, M, K, 1, true, 1},
		{"cross-packed", true, M, K, 1, true, 1},
		{"cross-packed, not the whole depth", true, M, K / 2, 1, true, 1},
		{"not the whole depth", false, M, K / 2, 1, false, 1},
		{"steps within a line", false, 8, K, 1, false, 1},
		{"no common step", false, 0, K, 1, false, 1},
		{"A within the cache", false, M, K, 1, false, 32},
		{"complex", false, M, K, 2, false, 1},
	} {
		cacheBytes = func() int { return tc.cacheMiB << 20 }
		c.cf = tc.cf
		if got := c.fetchesAhead(tc.cross, tc.kStride, tc.kc); got != tc.fetches {
			t.Errorf("%s: fetches %v, want %v", tc.name, got, tc.fetches)
		}
	}
	c.cf = 1
	c.plan.K = groupOf(Dim{Ext: aheadMinDepth - 1, S: [3]int{opA: M}})
	if c.fetchesAhead(true, M, aheadMinDepth-1) || c.fetchesAhead(false, M, aheadMinDepth-1) {
		t.Errorf("fetched below aheadMinDepth")
	}
}
