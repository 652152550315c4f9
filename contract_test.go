package tcontract_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	tc "github.com/tcontract/tcontract"
)

// One randomized suite for every element type: random role mixes, ranks
// 0–6, extents 0–6, every layout, offsets, alpha/beta cases, NaN in C with
// beta = 0, canaries around C, A·B against B·A and every cyclic permutation
// of the output, all against the plain nested-loop reference.

func TestContractRandomFloat32(t *testing.T)    { testContractRandom[float32](t) }
func TestContractRandomFloat64(t *testing.T)    { testContractRandom[float64](t) }
func TestContractRandomComplex64(t *testing.T)  { testContractRandom[complex64](t) }
func TestContractRandomComplex128(t *testing.T) { testContractRandom[complex128](t) }

func TestContractLargeFloat32(t *testing.T)    { testContractLarge[float32](t) }
func TestContractLargeFloat64(t *testing.T)    { testContractLarge[float64](t) }
func TestContractLargeComplex64(t *testing.T)  { testContractLarge[complex64](t) }
func TestContractLargeComplex128(t *testing.T) { testContractLarge[complex128](t) }

const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"

// contraction is a spec with an extent per label.
type contraction struct {
	a, b, c string
	ext     map[byte]int
	dense   bool // row-major operands, where a test otherwise picks mixed layouts
}

func (k contraction) spec() string { return k.a + "," + k.b + "->" + k.c }

func (k contraction) shape(labels string) []int {
	s := make([]int, len(labels))
	for i := range labels {
		s[i] = k.ext[labels[i]]
	}
	return s
}

// randomContraction draws a role mix: batch, free in A, free in B,
// contracted, summed out of one input, and a diagonal; ranks stay <= 6 and
// the whole index space small enough for the reference.
func randomContraction(rng *rand.Rand) contraction {
	for {
		pool := []byte(letters)
		rng.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
		take := func(n int) string {
			s := string(pool[:n])
			pool = pool[n:]
			return s
		}
		batch, m, n, k := take(rng.IntN(3)), take(rng.IntN(3)), take(rng.IntN(3)), take(rng.IntN(3))
		aOnly, bOnly := "", ""
		if rng.IntN(5) == 0 {
			aOnly = take(1)
		}
		if rng.IntN(5) == 0 {
			bOnly = take(1)
		}
		a := batch + m + k + aOnly
		b := batch + n + k + bOnly
		c := batch + m + n
		// A diagonal: a label of A (or B) written twice.
		if rng.IntN(5) == 0 && len(a) > 0 {
			a += string(a[rng.IntN(len(a))])
		} else if rng.IntN(5) == 0 && len(b) > 0 {
			b += string(b[rng.IntN(len(b))])
		}
		if len(a) > 6 || len(b) > 6 || len(c) > 6 {
			continue
		}
		ext := map[byte]int{}
		space := 1
		for _, l := range []byte(batch + m + n + k + aOnly + bOnly) {
			e := 1 + rng.IntN(6)
			if rng.IntN(30) == 0 {
				e = 0
			}
			ext[l] = e
			space *= max(e, 1)
		}
		if space > 20000 {
			continue
		}
		return contraction{a: shuffle(rng, a), b: shuffle(rng, b), c: shuffle(rng, c), ext: ext}
	}
}

func shuffle(rng *rand.Rand, s string) string {
	b := []byte(s)
	rng.Shuffle(len(b), func(i, j int) { b[i], b[j] = b[j], b[i] })
	return string(b)
}

// scalars are the alpha/beta cases.
func scalarCase[T tc.Scalar](rng *rand.Rand, i int) T {
	switch i % 4 {
	case 0:
		return 0
	case 1:
		return 1
	case 2:
		return fromC[T](-1)
	}
	return randValue[T](rng)
}

// runCase runs one contraction on fresh tensors and checks C, inside and
// outside its view, against the reference.
func runCase[T tc.Scalar](t *testing.T, rng *rand.Rand, k contraction, la, lb, lc layout, alpha, beta T, opts ...tc.Option) {
	t.Helper()
	nanC := toC(beta) == 0 && rng.IntN(2) == 0
	a := makeView(rng, k.shape(k.a), la, func() T { return randValue[T](rng) })
	b := makeView(rng, k.shape(k.b), lb, func() T { return randValue[T](rng) })
	c := outputView[T](rng, k.shape(k.c), lc, nanC)
	what := fmt.Sprintf("%s %s ext=%v layouts=%v/%v/%v alpha=%v beta=%v nanC=%v", typeName[T](), k.spec(), k.ext, la, lb, lc, alpha, beta, nanC)
	ref := reference(k.spec(), alpha, a, b, beta, c)
	if err := tc.Contract(k.spec(), alpha, a, b, beta, c, opts...); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	checkResult(t, what, c, ref)
	if i := outsideUntouched(c); i >= 0 {
		t.Fatalf("%s: wrote C.Data[%d], outside C's view", what, i)
	}
	// B·A must give what A·B gives.
	c2 := cloneTensor(c)
	for _, i := range viewIndices(c2) {
		c2.Data[i] = 0
	}
	swapped := k.b + "," + k.a + "->" + k.c
	if err := tc.Contract(swapped, alpha, b, a, 0, c2, opts...); err != nil {
		t.Fatalf("%s swapped: %v", what, err)
	}
	ref0 := reference(k.spec(), alpha, a, b, 0, c2)
	checkResult(t, what+" as B·A", c2, ref0)
}

func testContractRandom[T tc.Scalar](t *testing.T) {
	rng := rand.New(rand.NewPCG(1, uint64(len(typeName[T]()))))
	cases := 400
	if testing.Short() {
		cases = 100
	}
	for i := 0; i < cases; i++ {
		k := randomContraction(rng)
		la, lb := layout(rng.IntN(int(numLayouts))), layout(rng.IntN(int(numLayouts)))
		lc := layout(rng.IntN(int(numLayouts)))
		runCase(t, rng, k, la, lb, lc, scalarCase[T](rng, i), scalarCase[T](rng, i/4))
		if t.Failed() {
			return
		}
		// Every cyclic permutation of the output labels.
		if i%10 == 0 && len(k.c) > 1 {
			for r := 1; r < len(k.c); r++ {
				kr := k
				kr.c = k.c[r:] + k.c[:r]
				runCase(t, rng, kr, la, lb, lc, scalarCase[T](rng, i+1), scalarCase[T](rng, i+2))
			}
		}
	}
}

// testContractLarge runs contractions whose groups span several MC, KC and
// NC blocks and engage the whole team.
func testContractLarge[T tc.Scalar](t *testing.T) {
	rng := rand.New(rand.NewPCG(2, uint64(len(typeName[T]()))))
	cases := []contraction{
		// M = 391 over two dims, N = 13, K = 861 over two dims.
		{a: "kaml", b: "nlk", c: "man", ext: map[byte]int{'m': 17, 'a': 23, 'n': 13, 'k': 21, 'l': 41}},
		// K over two dims that do not merge, in runs the packers take one
		// by one, straddling a KC block.
		{a: "mkl", b: "lkn", c: "mn", ext: map[byte]int{'m': 45, 'n': 20, 'k': 9, 'l': 50}},
		// C's unit dim last in M, interleaved after A's (TCCG's
		// abcde-ecbfa-fd, smaller): a team splits blocks of shared lines.
		{a: "ecbfa", b: "fd", c: "abcde", ext: map[byte]int{'a': 16, 'b': 4, 'c': 4, 'd': 16, 'e': 32, 'f': 48}},
		// C's unit dim d and A's unit dim a both in M (TCCG's
		// abcd-dbea-ec, smaller): with a cross-sliver packer, M keyed by
		// C, a's lines packed across slivers, in groups cut short by a.
		{a: "dbea", b: "ec", c: "abcd", ext: map[byte]int{'a': 20, 'b': 3, 'c': 5, 'd': 48, 'e': 37}},
		// The same with the operands exchanged: the group is N, swapped.
		{a: "ec", b: "dbea", c: "abcd", ext: map[byte]int{'a': 24, 'b': 2, 'c': 7, 'd': 32, 'e': 30}},
		// N beyond NC.
		{a: "mk", b: "kn", c: "mn", ext: map[byte]int{'m': 7, 'n': 4100, 'k': 40}},
		// A batch of mid-size products.
		{a: "bmk", b: "bkn", c: "bmn", ext: map[byte]int{'b': 6, 'm': 70, 'n': 50, 'k': 90}},
		// Many tiny products.
		{a: "mkb", b: "bkn", c: "nbm", ext: map[byte]int{'b': 300, 'm': 3, 'n': 4, 'k': 5}},
		// TCCG's abcdef-dfgb-geac, smaller: C's rows and columns in runs
		// of 20 that tiles straddle, written through row maps.
		{a: "dfgb", b: "geac", c: "abcdef", ext: map[byte]int{'a': 3, 'b': 2, 'c': 3, 'd': 5, 'e': 20, 'f': 20, 'g': 7}},
		// TCCG's ccsd_t kind at its depth, smaller: C's rows in runs of 20
		// that tiles straddle, its next dim in the columns; row-major, the
		// row-map kernel's tiles run in groups of slivers (AVX-512).
		{a: "abk", b: "kcd", c: "dacb", ext: map[byte]int{'a': 37, 'b': 20, 'c': 20, 'd': 9, 'k': 24}},
		// Runs of 9 rows: a vector's worth of complex64 and float64 reals.
		{a: "dfg", b: "ge", c: "def", ext: map[byte]int{'d': 11, 'e': 10, 'f': 9, 'g': 30}},
		// Row-major GEMM shape with merged dims.
		{a: "abcd", b: "cdef", c: "abef", ext: map[byte]int{'a': 9, 'b': 13, 'c': 11, 'd': 29, 'e': 7, 'f': 17}},
		// Every label of C a batch label (the typed Dots routine): a
		// Hadamard product of permuted operands, large enough for a team
		// of 2; batched dots over a label summed out of A (B's depth step
		// 0), in two batch dims, for a team of 3. Members' shares start
		// inside a run of C's fastest dim. One long dot.
		{a: "ijk", b: "kij", c: "jik", ext: map[byte]int{'i': 89, 'j': 113, 'k': 101}},
		{a: "cbx", b: "bc", c: "bc", ext: map[byte]int{'b': 61, 'c': 50, 'x': 500}},
		{a: "k", b: "k", c: "", ext: map[byte]int{'k': 100003}},
		// Labels summed out of one input, large enough to be summed first
		// (reduce.go): out of A; out of B, C permuted; out of both, A's
		// with a diagonal of a kept label (the plan on the reduced A then
		// reduces B); a summed label on A's diagonal; all of A summed to
		// a scalar.
		{a: "ijx", b: "jk", c: "ik", ext: map[byte]int{'i': 20, 'j': 30, 'x': 10, 'k': 20}},
		{a: "mk", b: "kny", c: "nm", ext: map[byte]int{'m': 25, 'k': 17, 'n': 21, 'y': 12}},
		{a: "xiij", b: "jky", c: "ik", ext: map[byte]int{'x': 4, 'i': 15, 'j': 20, 'k': 18, 'y': 20}},
		{a: "ixxj", b: "jk", c: "ik", ext: map[byte]int{'i': 20, 'x': 12, 'j': 25, 'k': 20}},
		{a: "x", b: "ij", c: "ij", ext: map[byte]int{'x': 50, 'i': 40, 'j': 60}},
		// Two summed labels that do not merge: the sum runs the GEMM loops.
		{a: "xjy", b: "jk", c: "jk", ext: map[byte]int{'x': 10, 'j': 30, 'y': 8, 'k': 40}},
		// Matrix-vector products (runtime/matvec.go): A·x, x·A, and A
		// times three columns, long enough in depth for several of the
		// direct kernel's steps.
		{a: "ji", b: "j", c: "i", ext: map[byte]int{'i': 333, 'j': 1100}},
		{a: "j", b: "jk", c: "k", ext: map[byte]int{'j': 700, 'k': 500}},
		{a: "ij", b: "jk", c: "ik", ext: map[byte]int{'i': 150, 'j': 2500, 'k': 3}},
	}
	// Teams of the default pool's size and of 3, whatever the machine.
	p := tc.NewPool(3)
	defer p.Close()
	for i, k := range cases {
		for _, l := range []layout{rowMajor, colMajor, mixed} {
			runCase(t, rng, k, l, layout((int(l)+i)%int(numLayouts)), l, randValue[T](rng), scalarCase[T](rng, i))
			runCase(t, rng, k, l, layout((int(l)+i+1)%int(numLayouts)), l, randValue[T](rng), scalarCase[T](rng, i+1), tc.WithPool(p))
		}
	}
}

func TestContractRankZero(t *testing.T) {
	a := tc.Dense([]float64{3}, []int{}...)
	b := tc.Dense([]float64{4}, []int{}...)
	c := tc.Dense([]float64{5}, []int{}...)
	if err := tc.Contract(",->", 2, a, b, 10, c); err != nil {
		t.Fatal(err)
	}
	if c.Data[0] != 2*3*4+10*5 {
		t.Fatalf("got %v, want %v", c.Data[0], 2*3*4+10*5)
	}
}

func TestSpecLabelsOnlyLetters(t *testing.T) {
	for _, s := range []string{"a1,b->ab", "a,b->a b", "a,b-ab"} {
		err := tc.Contract(s, 1.0, tc.Dense([]float64{1}, 1), tc.Dense([]float64{1}, 1), 0, tc.Dense([]float64{0, 0}, 1, 1))
		if err == nil || !strings.Contains(err.Error(), "spec") {
			t.Errorf("%q: got %v, want a spec error", s, err)
		}
	}
}

// A repeated contraction (batch, several labels per group, a diagonal, a
// label summed out of one input) allocates nothing once its plan is cached.
func TestContractNoAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	rng := rand.New(rand.NewPCG(9, 9))
	p := tc.NewPool(2)
	defer p.Close()
	cases := []contraction{
		{a: "abcd", b: "cdef", c: "abef", ext: map[byte]int{'a': 9, 'b': 13, 'c': 11, 'd': 29, 'e': 7, 'f': 17}},
		{a: "bmkx", b: "bkn", c: "nbm", ext: map[byte]int{'b': 40, 'm': 9, 'n': 7, 'k': 5, 'x': 3}},
		{a: "iij", b: "jk", c: "ik", ext: map[byte]int{'i': 50, 'j': 60, 'k': 70}},
		{a: "dbea", b: "ec", c: "abcd", ext: map[byte]int{'a': 40, 'b': 30, 'c': 24, 'd': 30, 'e': 40}},
		// Dense, K interleaved across both inputs' unit dims: depth runs
		// packed across by PackX, the rest gathered.
		{a: "acd", b: "dbc", c: "ab", ext: map[byte]int{'a': 21, 'b': 45, 'c': 40, 'd': 48}, dense: true},
		// Every label of C a batch label (Dots), on a team on the pool.
		{a: "ijx", b: "ji", c: "ij", ext: map[byte]int{'i': 700, 'j': 900, 'x': 2}},
		// A label summed out of A first (reduce.go).
		{a: "ijx", b: "jk", c: "ik", ext: map[byte]int{'i': 20, 'j': 30, 'x': 10, 'k': 20}},
		// Matrix-vector products on a team (runtime/matvec.go), A's rows
		// adjacent and A's depth adjacent.
		{a: "ji", b: "j", c: "i", ext: map[byte]int{'i': 700, 'j': 900}, dense: true},
		{a: "ij", b: "j", c: "i", ext: map[byte]int{'i': 700, 'j': 900}, dense: true},
	}
	for _, k := range cases {
		rnd := func() float64 { return randValue[float64](rng) }
		la, lb, lc := mixed, colMajor, padded
		if k.dense {
			la, lb, lc = rowMajor, rowMajor, rowMajor
		}
		a := makeView(rng, k.shape(k.a), la, rnd)
		b := makeView(rng, k.shape(k.b), lb, rnd)
		c := makeView(rng, k.shape(k.c), lc, rnd)
		spec := k.spec()
		for _, opts := range [][]tc.Option{nil, {tc.WithPool(p)}} {
			run := func() {
				if err := tc.Contract(spec, 1.5, a, b, 0.5, c, opts...); err != nil {
					t.Fatal(err)
				}
			}
			run()
			if allocs := testing.AllocsPerRun(10, run); allocs != 0 {
				t.Errorf("%s (pool %v): %v allocations per call", k.spec(), opts != nil, allocs)
			}
		}
	}
	// Complex products of one column and of a few, which run on the real
	// direct kernel with B rewritten into a leased panel, a beta that is
	// not real applied first (C's columns adjacent) or C written through
	// the members' tiles of Cᵀ or R (runtime/matvec_complex.go,
	// matvec_complex_rows.go).
	rnd := func() complex128 { return randValue[complex128](rng) }
	for _, k := range []contraction{
		{a: "ij", b: "j", c: "i", ext: map[byte]int{'i': 700, 'j': 900}},
		{a: "ij", b: "jk", c: "ik", ext: map[byte]int{'i': 700, 'j': 900, 'k': 3}},
		{a: "ij", b: "jk", c: "ki", ext: map[byte]int{'i': 700, 'j': 900, 'k': 3}},
		{a: "j", b: "jk", c: "k", ext: map[byte]int{'j': 700, 'k': 900}},
		{a: "ji", b: "jk", c: "ki", ext: map[byte]int{'i': 700, 'j': 900, 'k': 3}},
	} {
		a := makeView(rng, k.shape(k.a), rowMajor, rnd)
		x := makeView(rng, k.shape(k.b), rowMajor, rnd)
		c := makeView(rng, k.shape(k.c), rowMajor, rnd)
		spec := k.spec()
		for _, opts := range [][]tc.Option{nil, {tc.WithPool(p)}} {
			run := func() {
				if err := tc.Contract(spec, 1.5i, a, x, 0.5-1i, c, opts...); err != nil {
					t.Fatal(err)
				}
			}
			run()
			if allocs := testing.AllocsPerRun(10, run); allocs != 0 {
				t.Errorf("complex128 %s (pool %v): %v allocations per call", spec, opts != nil, allocs)
			}
		}
	}
}
