package runtime

import (
	"math/rand/v2"
	"sync/atomic"
	"testing"
	"unsafe"

	"github.com/tcontract/tcontract/generated/kernels"
	"github.com/tcontract/tcontract/generated/typed"
	"github.com/tcontract/tcontract/internal/spec"
)

// Products of any size take the direct path when M is at most
// directSkinnyTiles row tiles and B's columns run along depth or C's rows
// are adjacent; not when neither holds, nor with more row tiles.
func TestSkinnyDirect(t *testing.T) {
	p := NewPool(1)
	defer p.Close()
	for _, real := range []string{"float32", "float64"} {
		k, _ := KernelFor(real)
		if k.Direct == nil {
			continue // no direct kernels on this path
		}
		for _, tc := range []struct {
			name       string
			m          int
			bUnitK     bool
			cRowStep   int
			wantDirect bool
		}{
			{"one tile", k.MR, true, 1, true},
			{"two tiles", 2 * k.MR, true, 1, true},
			{"three tiles", 3 * k.MR, true, 1, false},
			{"B's rows adjacent", k.MR, false, 1, true},
			{"B's columns along depth, C's rows strided", k.MR, true, 4096, true},
			{"B's rows adjacent, C's rows strided", k.MR, false, 4096, false},
		} {
			n, depth := 4096, 4096
			sB := [3]int{0, 1, 0}
			sN := [3]int{0, depth, tc.m}
			if !tc.bUnitK {
				sB, sN = [3]int{0, n, 0}, [3]int{0, 1, tc.m}
			}
			if tc.cRowStep != 1 {
				sN[opC] = 1
			}
			sB[opA] = tc.m
			c := chooseFor(p, 1, real, Dim{Ext: tc.m, S: [3]int{1, 0, tc.cRowStep}}, Dim{Ext: n, S: sN}, Dim{Ext: depth, S: sB})
			if c.direct != tc.wantDirect {
				t.Errorf("%s, %s (%d×%d×%d): direct %v, want %v", real, tc.name, tc.m, n, depth, c.direct, tc.wantDirect)
			}
			if want := skinnyStep(tc.m, depth, c.tsize); c.direct && c.step != want {
				t.Errorf("%s, %s (%d×%d×%d): steps of %d, want %d (skinnyStep)", real, tc.name, tc.m, n, depth, c.step, want)
			}
		}
	}
}

// A skinny product's depth steps split the depth evenly, keep A's block
// within directMaxABytes (or a directKC step), and are deeper than
// directKC where that block leaves room for twice as deep.
func TestSkinnyStep(t *testing.T) {
	for _, size := range []int{4, 8} {
		for _, rows := range []int{1, 7, 32, 61, 64, 128} {
			for _, K := range []int{1, 100, 512, 1000, 4096, 4097, 100000} {
				step := skinnyStep(rows, K, size)
				if step < 1 {
					t.Fatalf("rows %d, K %d, size %d: step %d", rows, K, size, step)
				}
				steps := ceilDiv(K, step)
				if step*(steps-1) >= K || step*steps < K || steps > 1 && step*steps-K >= steps {
					t.Errorf("rows %d, K %d, size %d: %d steps of %d do not split the depth evenly", rows, K, size, steps, step)
				}
				if block := step * rows * size; block > max(directMaxABytes(), directKC*rows*size) {
					t.Errorf("rows %d, K %d, size %d: step %d, A's block %d bytes, over %d", rows, K, size, step, block, directMaxABytes())
				}
				if room := directMaxABytes() / (rows * size); room >= 2*directKC+64 && K > 2*directKC && step <= directKC {
					t.Errorf("rows %d, K %d, size %d: step %d with room for %d", rows, K, size, step, room)
				}
			}
		}
	}
}

// A skinny product on the direct path, beyond directMaxFlops, over
// several depth steps (skinnyStep) and a partial row tile, on 1 and 2
// threads, against a plain loop.
func TestSkinnyDirectProduct(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 9))
	k, _ := KernelFor("float64")
	m := 2*k.MR - 3
	depth := skinnyStep(m, 1<<20, 8)*2 + 77
	n := int(2*directMaxFlops)/(2*m*depth) + 7
	a := make([]float64, m*depth) // column-major: rows adjacent
	b := make([]float64, depth*n) // column-major: columns along depth
	for i := range a {
		a[i] = rng.Float64() - 0.5
	}
	for i := range b {
		b[i] = rng.Float64() - 0.5
	}
	for _, threads := range []int{1, 2} {
		pool := NewPool(threads)
		c := make([]float64, m*n)
		for i := range c {
			c[i] = rng.Float64()
		}
		c0 := append([]float64(nil), c...)
		ops := colMajorGemm(a, b, c, m, n, depth, m)
		alpha, beta := 1.5, -0.5
		if err := pool.Run("ik,kj->ij", typed.OpsOf[float64](), &ops, unsafe.Pointer(&alpha), unsafe.Pointer(&beta)); err != nil {
			t.Fatal(err)
		}
		pool.Close()
		for j := 0; j < n; j++ {
			for i := 0; i < m; i++ {
				var s, mag float64
				for p := 0; p < depth; p++ {
					s += a[i+p*m] * b[p+j*depth]
					mag += abs(a[i+p*m] * b[p+j*depth])
				}
				want := alpha*s + beta*c0[i+j*m]
				if got := c[i+j*m]; abs(got-want) > 1e-13*(mag+1)*float64(depth) {
					t.Fatalf("%d threads, %d×%d×%d: C[%d,%d] = %v, want %v", threads, m, n, depth, i, j, got, want)
				}
			}
		}
	}
}

// A skinny contraction whose columns are two dims (directGemm by pieces): column
// tiles straddle the runs of the fast one (13 columns, tiles of NR), over
// more than directOffsetTiles tiles a member, B's slow one runs backwards,
// C's rows are adjacent, and the depth spans several direct steps; on 1
// and 2 threads, against a plain loop.
func TestDirectScatterProduct(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 1))
	k, _ := KernelFor("float64")
	// C[i,j,q] = Σ_p A[p,i]·B[p,j,q]: i has unit stride in A and C (M),
	// j and q are N (q fastest in B, j in C), p is K.
	I, J, Q, P := 2*k.MR-5, 3*directOffsetTiles, 13, directKC+100
	if cols := J * Q; cols <= 2*directOffsetTiles*k.NR {
		t.Fatalf("%d columns: one batch of offsets a member", cols)
	}
	a := make([]float64, P*I)
	b := make([]float64, P*J*Q)
	for x := range a {
		a[x] = rng.Float64() - 0.5
	}
	for x := range b {
		b[x] = rng.Float64() - 0.5
	}
	// B's j runs backwards: B(p,j,q) at b[(J-1-j)·Q + q + p·J·Q].
	bAt := func(p, j, q int) float64 { return b[(J-1-j)*Q+q+p*J*Q] }
	views := [3]View{
		{Len: len(a), Shape: []int{P, I}},
		{Len: len(b), Shape: []int{P, J, Q}, Strides: []int{J * Q, -Q, 1}, Offset: (J - 1) * Q},
		{Len: I * J * Q, Shape: []int{I, J, Q}, Strides: []int{1, I, I * J}},
	}
	for _, threads := range []int{1, 2} {
		alpha, beta := -1.25, 0.75
		c, c0 := runOnPool(t, rng, threads, "pi,pjq->ijq", views, a, b, alpha, beta)
		for q := 0; q < Q; q++ {
			for j := 0; j < J; j++ {
				for i := 0; i < I; i++ {
					var s, mag float64
					for p := 0; p < P; p++ {
						s += a[i+p*I] * bAt(p, j, q)
						mag += abs(a[i+p*I] * bAt(p, j, q))
					}
					at := i + j*I + q*I*J
					want := alpha*s + beta*c0[at]
					if got := c[at]; abs(got-want) > 1e-13*(mag+1)*float64(P) {
						t.Fatalf("%d threads: C[%d,%d,%d] = %v, want %v", threads, i, j, q, got, want)
					}
				}
			}
		}
	}
}

// Tall products take the direct path row tile by row tile (directTall)
// when N is at most directTallTiles column tiles of one dim and M, of
// several dims, has its fastest adjacent in A and C, filling a tile and
// most of its vectors; not with more column tiles, with that dim strided
// in A or in C, with runs shorter than a tile, or with M of one dim.
func TestTallDirect(t *testing.T) {
	p := NewPool(1)
	defer p.Close()
	for _, r := range directRows() {
		real, k, size := r.real, r.k, r.size
		for _, tc := range []struct {
			name     string
			e0, n    int
			aS, cS   int // M's fastest dim's strides in A and C
			wantTall bool
		}{
			{"abcd-ebad-ce", 84, 24, 1, 1, true},
			{"one column tile", 5 * k.MR, k.NR, 1, 1, true},
			{"M of one dim", 50000, 24, 1, 1, false},
			{"five column tiles", 84, 5 * k.NR, 1, 1, false},
			{"strided in A", 84, 24, 2, 1, false},
			{"strided in C", 84, 24, 1, 24, false},
			{"runs shorter than a tile", k.MR - 1, 24, 1, 1, false},
		} {
			c := realCall(p, 1, k, size)
			m := groupOf(Dim{Ext: tc.e0, S: [3]int{tc.aS, 0, tc.cS}}, Dim{Ext: 500, S: [3]int{1000, 0, 3000}})
			if tc.e0 == 50000 {
				m = groupOf(Dim{Ext: tc.e0, S: [3]int{1, 0, 1}})
			}
			c.plan = &Plan{Batch: Group{Size: 1}, M: m,
				N: groupOf(Dim{Ext: tc.n, S: [3]int{0, 96, 100}}),
				K: groupOf(Dim{Ext: 96, S: [3]int{1 << 20, 1, 0}})}
			c.chooseTeam()
			p.release(c)
			if c.direct != tc.wantTall || c.tall != tc.wantTall {
				t.Errorf("%s, %s: direct %v, tall %v, want %v", real, tc.name, c.direct, c.tall, tc.wantTall)
			}
		}
	}
}

// directRow is a real type whose kernel row on this path has direct
// kernels: its name, the row and the element size.
type directRow struct {
	real string
	k    *kernels.Kernel
	size int
}

// directRows lists float32 and float64 where they have direct kernels.
func directRows() []directRow {
	var rows []directRow
	for _, real := range []string{"float32", "float64"} {
		k, _ := KernelFor(real)
		ty, _ := spec.TypeByName(real)
		if k.Direct != nil {
			rows = append(rows, directRow{real, k, ty.Size})
		}
	}
	return rows
}

// A tall contraction on the direct path, row tile by row tile: M of two
// dims (the fast one adjacent in A and C, runs ending in a partial tile;
// the slow one backwards in A), N of three column tiles, the last partial,
// a depth of two direct steps; float32 and float64, on 1, 2 and 3
// threads, against a plain loop. With A's depth steps a page apart or
// more (padded rows), each member fetches its next runs ahead, a call per
// column tile (tallahead.go); nearer, nothing is fetched.
func TestTallDirectProduct(t *testing.T) {
	for _, pad := range []bool{false, true} {
		checkTallDirect[float32](t, 1e-5, pad)
		checkTallDirect[float64](t, 1e-13, pad)
	}
}

func checkTallDirect[T real](t *testing.T, tol float64, pad bool) {
	rng := rand.New(rand.NewPCG(7, 2))
	name := "float64"
	if unsafe.Sizeof(T(0)) == 4 {
		name = "float32"
	}
	k, _ := KernelFor(name)
	if k.Direct == nil {
		t.Skip("no direct kernels on this path")
	}
	// C[a,c,d] = Σ_e A[e,a,d]·B[c,e]: d is M's fast dim, a its slow one,
	// c is N, e is K.
	D, A, Cn, E := 2*k.MR+5, 9, 3*k.NR-1, directKC+77
	size := int(unsafe.Sizeof(T(0)))
	Dp := D // A's row stride: D, or padded so that A's depth steps lie a page apart
	if pad {
		Dp = max(D, ceilDiv(pageBytes, A*size)) + 3
	}
	// Two runs of the first direct step fit this machine's L2 unless it
	// is under 600 KB.
	fits := 2*D*directKC*size <= Caches().L2
	fetch := canPrefetch && A*Dp*size >= pageBytes && fits
	if pad && !fetch && canPrefetch && fits {
		t.Fatalf("%s: the padded layout fetches nothing ahead", name)
	}
	a := randomReals[T](rng, E*A*Dp)
	b := randomReals[T](rng, Cn*E)
	// A's a runs backwards: A(e,a,d) at a[e·A·Dp + (A-1-a)·Dp + d].
	aAt := func(e, ai, d int) T { return a[e*A*Dp+(A-1-ai)*Dp+d] }
	views := [3]View{
		{Len: len(a), Shape: []int{E, A, D}, Strides: []int{A * Dp, -Dp, 1}, Offset: (A - 1) * Dp},
		{Len: len(b), Shape: []int{Cn, E}},
		{Len: A * Cn * D, Shape: []int{A, Cn, D}},
	}
	// Runs computed while fetching the next, from every member; each
	// fetches the run one on (one run of D×512 here is more than
	// tallAheadBytes), whose rows lie Dp elements back.
	var fetched, misplaced atomic.Int64
	testTallAhead = func(ahead int) {
		fetched.Add(1)
		if ahead != -Dp*size {
			misplaced.Add(1)
		}
	}
	defer func() { testTallAhead = nil }()
	for _, threads := range []int{1, 2, 3} {
		alpha, beta := T(-1.25), T(0.75)
		fetched.Store(0)
		misplaced.Store(0)
		c, c0 := runOnPool(t, rng, threads, "ead,ce->acd", views, a, b, alpha, beta)
		// Each member fetches for its runs but its last, at each of the
		// two direct steps; alone, that is 8 runs, twice.
		got, want := fetched.Load(), int64(0)
		if fetch {
			want = 2 * int64(A-1)
		}
		if threads == 1 && got != want || threads > 1 && (got == 0) != (want == 0) {
			t.Fatalf("%s, %d threads, padded %v: %d runs computed fetching ahead, want %d", name, threads, pad, got, want)
		}
		if m := misplaced.Load(); m > 0 {
			t.Fatalf("%s, %d threads, padded %v: %d runs fetched another run than the next", name, threads, pad, m)
		}
		for ai := 0; ai < A; ai++ {
			for q := 0; q < Cn; q++ {
				for d := 0; d < D; d++ {
					var s, mag float64
					for e := 0; e < E; e++ {
						x := float64(aAt(e, ai, d)) * float64(b[q*E+e])
						s += x
						mag += abs(x)
					}
					at := (ai*Cn+q)*D + d
					want := float64(alpha)*s + float64(beta)*float64(c0[at])
					if got := float64(c[at]); abs(got-want) > tol*(mag+1)*float64(E) {
						t.Fatalf("%s, %d threads: C[%d,%d,%d] = %v, want %v", name, threads, ai, q, d, got, want)
					}
				}
			}
		}
	}
}

// colMajorGemm is the operands of C = A·B ("ik,kj->ij") over column-major
// a (m×depth), b (depth×n) and c (m×n, leading dimension ldc).
func colMajorGemm[T any](a, b, c []T, m, n, depth, ldc int) [3]Operand {
	return [3]Operand{
		{View: View{Len: len(a), Shape: []int{m, depth}, Strides: []int{1, m}}, Data: unsafe.Pointer(&a[0])},
		{View: View{Len: len(b), Shape: []int{depth, n}, Strides: []int{1, depth}}, Data: unsafe.Pointer(&b[0])},
		{View: View{Len: len(c), Shape: []int{m, n}, Strides: []int{1, ldc}}, Data: unsafe.Pointer(&c[0])},
	}
}

// runOnPool runs spec (C = alpha·A·B + beta·C over views) on a new pool
// of threads, with A and B from a and b and C filled at random first, and
// returns C after the call and before it.
func runOnPool[T real](t *testing.T, rng *rand.Rand, threads int, spec string, views [3]View, a, b []T, alpha, beta T) (c, c0 []T) {
	t.Helper()
	c = make([]T, views[opC].Len)
	for x := range c {
		c[x] = T(rng.Float64())
	}
	c0 = append([]T(nil), c...)
	ops := [3]Operand{
		{View: views[opA], Data: unsafe.Pointer(&a[0])},
		{View: views[opB], Data: unsafe.Pointer(&b[0])},
		{View: views[opC], Data: unsafe.Pointer(&c[0])},
	}
	pool := NewPool(threads)
	defer pool.Close()
	if err := pool.Run(spec, typed.OpsOf[T](), &ops, unsafe.Pointer(&alpha), unsafe.Pointer(&beta)); err != nil {
		t.Fatal(err)
	}
	return c, c0
}

// randomReals is n reals drawn from rng, uniform in [-0.5, 0.5).
func randomReals[T real](rng *rand.Rand, n int) []T {
	x := make([]T, n)
	for i := range x {
		x[i] = T(rng.Float64() - 0.5)
	}
	return x
}
