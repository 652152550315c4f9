package runtime

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/tcontract/tcontract/generated/typed"
)

// TestGroupedProduct: a product shaped like TCCG's ccsd_t (C's rows in
// runs of 20 at float32 and 16 at float64, which tiles straddle, C's next dim in the columns, depth 24)
// runs its tiles in groups of slivers where the row-map kernel writes them
// (AVX-512 assembly), and in BLIS's order elsewhere and at a depth whose
// A sliver fills half of L1; the answer is the reference's either way, on
// 1 and 2 threads, with several MC blocks and a last group shorter than
// the rest.
func TestGroupedProduct(t *testing.T) {
	// The AVX-512 row's tiles, which AVX2's half maps would replace on
	// some cores were C beyond the cache (halfmaps.go).
	defer func(f func() bool) { wideAtNarrowRate = f }(wideAtNarrowRate)
	wideAtNarrowRate = func() bool { return false }
	checkGrouped[float32](t, 1e-5)
	checkGrouped[float64](t, 1e-13)
}

func checkGrouped[T real](t *testing.T, tol float64) {
	ops := typed.OpsOf[T]()
	k, _ := KernelFor(ops.Type.Real)
	for _, depth := range []int{24, 120} {
		rng := rand.New(rand.NewPCG(11, uint64(depth)))
		// C = dacb: b (C's unit dim) and a in M, c (a run apart) and d in
		// N. Runs are near (a's stride in C within a page), as in ccsd_t:
		// runs pages apart take tiles of one run at float64.
		// N = Cn·D = 280 columns are 47 slivers, a prime, so that groups
		// of any size the caches give (8 float64 slivers with a 32 KiB L1,
		// 16 with 48 KiB) leave a shorter last group.
		A, B, Cn, D := 131, 20, 20, 14
		if ops.Type.Size == 8 {
			B = 16 // runs of 20 take tiles of 24 rows, one a run
		}
		a, bm, views := dacbOperands[T](rng, [4]int{A, B, Cn, D}, depth)
		var mu sync.Mutex
		var groups, short, most int
		testGroup = func(slivers int) {
			mu.Lock()
			defer mu.Unlock()
			groups++
			if slivers > most {
				short, most = most, slivers
			} else if slivers < most {
				short = slivers
			}
		}
		for _, tc := range []struct {
			threads int
			beta    T
		}{{1, 0}, {2, -1}, {2, 0}} {
			groups, short, most = 0, 0, 0
			alpha := T(0.75)
			c, c0 := runOnPool(t, rng, tc.threads, "abk,kcd->dacb", views, a, bm, alpha, tc.beta)
			name := fmt.Sprintf("%s depth %d, %d threads", ops.Type.Name, depth, tc.threads)
			checkDacb(t, name, [4]int{A, B, Cn, D}, depth, a, bm, alpha, tc.beta, c, c0, tol)
			grouped := k.Runs != nil && depth == 24
			switch {
			case grouped && (groups == 0 || most < 2 || tc.threads == 1 && short == 0):
				// (Two members' units may split the panel evenly.)
				t.Errorf("%s depth %d, %d threads: %d groups, of %d slivers and a last of %d: want groups of at least 2 and, on one thread, a shorter one",
					ops.Type.Name, depth, tc.threads, groups, most, short)
			case !grouped && groups > 0:
				t.Errorf("%s depth %d, %d threads: %d groups of tiles, want BLIS's order (row-map kernel %v)",
					ops.Type.Name, depth, tc.threads, groups, k.Runs != nil)
			}
		}
		testGroup = nil
	}
}

// dacbOperands draws A and B of "abk,kcd->dacb" at extents ext (a, b,
// c, d) and depth, and returns them with the dense views of A, B and C.
func dacbOperands[T real](rng *rand.Rand, ext [4]int, depth int) (a, bm []T, views [3]View) {
	A, B, Cn, D := ext[0], ext[1], ext[2], ext[3]
	a = randomReals[T](rng, A*B*depth)
	bm = randomReals[T](rng, depth*Cn*D)
	views = [3]View{
		{Len: len(a), Shape: []int{A, B, depth}},
		{Len: len(bm), Shape: []int{depth, Cn, D}},
		{Len: D * A * Cn * B, Shape: []int{D, A, Cn, B}},
	}
	return a, bm, views
}

// checkDacb checks C = alpha·A·B + beta·C0 for "abk,kcd->dacb" on dense
// operands of extents ext (a, b, c, d) and depth k: C is D×A×C×B, A is
// A×B×k, B is k×C×D.
func checkDacb[T real](t *testing.T, name string, ext [4]int, depth int, a, bm []T, alpha, beta T, c, c0 []T, tol float64) {
	t.Helper()
	A, B, Cn, D := ext[0], ext[1], ext[2], ext[3]
	for at := range c {
		di, ai, ci, bi := at/(A*Cn*B), at/(Cn*B)%A, at/B%Cn, at%B
		var s, mag float64
		for p := 0; p < depth; p++ {
			x := float64(a[(ai*B+bi)*depth+p]) * float64(bm[(p*Cn+ci)*D+di])
			s += x
			mag += abs(x)
		}
		want := float64(alpha)*s + float64(beta)*float64(c0[at])
		if got := float64(c[at]); abs(got-want) > tol*(mag+1) {
			t.Fatalf("%s: C[%d,%d,%d,%d] = %v, want %v", name, di, ai, ci, bi, got, want)
		}
	}
}
