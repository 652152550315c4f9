package runtime

import (
	"fmt"
	"math"
	"math/cmplx"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/tcontract/tcontract/generated/typed"
	"github.com/tcontract/tcontract/internal/spec"
)

// chooseComplex is chooseFor for a complex type over the named real type,
// with a real or complex alpha and beta as bind would leave them.
func chooseComplex(p *Pool, threads int, real string, m, n, k Dim, realAlpha, realBeta bool) *call {
	kern, _ := KernelFor(real)
	ty, _ := spec.TypeByName(real)
	c := newCall(p, threads)
	c.kern, c.fn = kern, funcOf(kern)
	c.mrR, c.nrR = kern.MR, kern.NR
	c.cf, c.tsize, c.rsize = 2, 2*ty.Size, ty.Size
	c.alphaB, c.betaDirect = nil, realBeta
	if !realAlpha {
		c.alphaB = &c.alpha[0]
	}
	c.plan = &Plan{Batch: Group{Size: 1}, M: groupOf(m), N: groupOf(n), K: groupOf(k)}
	c.chooseTeam()
	p.release(c)
	return c
}

// A complex product reads B in place (readsBInPlace) when C's rows and
// B's depth steps are adjacent, alpha and beta are real, and it is small
// or has few row tiles, on one thread or a team; in no other case.
func TestComplexDirect(t *testing.T) {
	pools := map[int]*Pool{1: NewPool(1), 2: NewPool(2)}
	defer pools[1].Close()
	defer pools[2].Close()
	for _, real := range []string{"float32", "float64"} {
		k, _ := KernelFor(real)
		if k.Direct == nil {
			continue // no direct kernels on this path
		}
		skinny := skinnyInPlaceTiles * k.MR / 2 // complex rows
		for _, tc := range []struct {
			name                string
			m, n, depth         int
			threads             int
			bStrided, cStrided  bool
			realAlpha, realBeta bool
			want                bool
		}{
			{"64³", 64, 64, 64, 1, false, false, true, true, true},
			{"B's depth strided", 64, 64, 64, 1, true, false, true, true, false},
			{"C's rows strided", 64, 64, 64, 1, false, true, true, true, false},
			{"complex alpha", 64, 64, 64, 1, false, false, false, true, false},
			{"complex beta", 64, 64, 64, 1, false, false, true, false, false},
			{"1024³", 1024, 1024, 1024, 1, false, false, true, true, false},
			{"skinny", skinny, 4096, 4096, 1, false, false, true, true, true},
			{"a tile past skinny", skinny + k.MR/2, 4096, 4096, 1, false, false, true, true, false},
			{"a team of 2", 128, 128, 128, 2, false, false, true, true, true},
			{"skinny, a team of 2", skinny, 4096, 4096, 2, false, false, true, true, true},
			{"1024³, a team of 2", 1024, 1024, 1024, 2, false, false, true, true, false},
		} {
			m, n, depth := tc.m, tc.n, tc.depth
			// Column-major C = A·B; the strided variants swap one operand's
			// two strides.
			dm := Dim{Ext: m, S: [3]int{1, 0, 1}}
			dn := Dim{Ext: n, S: [3]int{0, depth, m}}
			dk := Dim{Ext: depth, S: [3]int{m, 1, 0}}
			if tc.bStrided {
				dn.S[opB], dk.S[opB] = 1, n
			}
			if tc.cStrided {
				dm.S[opC], dn.S[opC] = n, 1
			}
			c := chooseComplex(pools[tc.threads], tc.threads, real, dm, dn, dk, tc.realAlpha, tc.realBeta)
			if tc.threads == 2 && c.members != 2 {
				t.Errorf("%s, %s: %d members, want 2", real, tc.name, c.members)
			}
			if c.bInPlace != tc.want {
				t.Errorf("%s, %s (%d×%d×%d): B in place %v, want %v", real, tc.name, m, n, depth, c.bInPlace, tc.want)
			}
		}
	}
}

// Complex products that read B in place, and their neighbours that do
// not, against a plain loop: small and skinny (several depth blocks),
// C with a padded leading dimension, real and complex alpha and beta,
// and NaN in C with beta = 0; on one thread and on teams of 2 and 3,
// whose members each take a part of B's columns.
func TestComplexDirectProduct(t *testing.T) {
	for _, threads := range []int{1, 2, 3} {
		pool := NewPool(threads)
		testComplexDirectProduct[complex64](t, pool, 2e-6)
		testComplexDirectProduct[complex128](t, pool, 1e-14)
		pool.Close()
	}
}

func testComplexDirectProduct[T complex64 | complex128](t *testing.T, pool *Pool, eps float64) {
	rng := rand.New(rand.NewPCG(11, 4))
	ops := typed.OpsOf[T]()
	rnd := func() T { return T(complex(rng.Float64()-0.5, rng.Float64()-0.5)) }
	for _, s := range [][3]int{{64, 64, 64}, {45, 29, 700}, {40, 300, 1000}, {3, 7, 5}} {
		m, n, depth := s[0], s[1], s[2]
		ldc := m + 3
		a := make([]T, m*depth) // column-major
		b := make([]T, depth*n) // column-major: depth steps adjacent
		for i := range a {
			a[i] = rnd()
		}
		for i := range b {
			b[i] = rnd()
		}
		ref, mag := make([]complex128, m*n), make([]float64, m*n)
		for j := 0; j < n; j++ {
			for i := 0; i < m; i++ {
				for p := 0; p < depth; p++ {
					x := complex128(a[i+p*m]) * complex128(b[p+j*depth])
					ref[i+j*m] += x
					mag[i+j*m] += cmplx.Abs(x)
				}
			}
		}
		for _, sc := range []struct {
			alpha, beta T
		}{{1, 0}, {1.5, 0}, {1, -0.5}, {complex(0.5, 0.25), 1}, {1, complex(0.5, -1)}} {
			c := make([]T, ldc*n)
			for i := range c {
				c[i] = rnd()
				if sc.beta == 0 {
					c[i] = T(complex(math.NaN(), 0))
				}
			}
			c0 := append([]T(nil), c...)
			opv := colMajorGemm(a, b, c, m, n, depth, ldc)
			alpha, beta := sc.alpha, sc.beta
			if err := pool.Run("ik,kj->ij", ops, &opv, unsafe.Pointer(&alpha), unsafe.Pointer(&beta)); err != nil {
				t.Fatal(err)
			}
			checkPaddedC(t, fmt.Sprintf("%T %d×%d×%d alpha %v beta %v", alpha, m, n, depth, alpha, beta),
				func(x int) complex128 { return complex128(c[x]) }, func(x int) complex128 { return complex128(c0[x]) },
				m, n, ldc, ref, mag, complex128(alpha), complex128(beta), eps*float64(depth))
		}
	}
}

// A complex product that reads B in place leases no B panel, on one
// thread or a team; the same product with a complex alpha (folded into
// B's packing) does.
func TestComplexDirectNoPanel(t *testing.T) {
	k, _ := KernelFor("float32")
	if k.Direct == nil {
		t.Skip("no direct kernels on this path")
	}
	// Skinny (skinnyInPlaceTiles row tiles) and beyond directMaxFlops:
	// in place on every path that has direct kernels.
	m, n, depth := skinnyInPlaceTiles*k.MR/2, 300, 1000
	a := make([]complex64, m*depth)
	b := make([]complex64, depth*n)
	c := make([]complex64, m*n)
	opv := colMajorGemm(a, b, c, m, n, depth, m)
	ops := typed.OpsOf[complex64]()
	for _, threads := range []int{1, 2} {
		pool := NewPool(threads)
		for _, alpha := range []complex64{1, complex(0.5, 0.5)} {
			beta := complex64(0)
			if err := pool.Run("ik,kj->ij", ops, &opv, unsafe.Pointer(&alpha), unsafe.Pointer(&beta)); err != nil {
				t.Fatal(err)
			}
			got := pool.Arena().RetainedPanelBytes()
			if inPlace := imag(alpha) == 0; inPlace && got != 0 {
				t.Errorf("%d threads, alpha %v: %d bytes of B panels retained, want none", threads, alpha, got)
			} else if !inPlace && got == 0 {
				t.Errorf("%d threads, alpha %v: no B panel retained for a packed B", threads, alpha)
			}
		}
		pool.Close()
	}
}

// A real product the direct path does not take because A's rows are
// strided reads B in place when C's rows are adjacent and it is small or
// has few row tiles, in any strides of B, on one thread or a team; one
// whose A rows are adjacent runs the direct path instead.
func TestRealReadsBInPlace(t *testing.T) {
	pools := map[int]*Pool{1: NewPool(1), 2: NewPool(2)}
	defer pools[1].Close()
	defer pools[2].Close()
	for _, real := range []string{"float32", "float64"} {
		k, _ := KernelFor(real)
		if k.Direct == nil {
			continue // no direct kernels on this path
		}
		skinny := skinnyInPlaceTiles * k.MR
		for _, tc := range []struct {
			name                         string
			m, n, depth                  int
			threads                      int
			aStrided, bStrided, cStrided bool
			direct, inPlace              bool
		}{
			{"A's rows adjacent", 64, 64, 64, 1, false, false, false, true, false},
			{"A's rows strided", 64, 64, 64, 1, true, false, false, false, true},
			{"B's depth strided too", 64, 64, 64, 1, true, true, false, false, true},
			{"C's rows strided", 64, 64, 64, 1, true, false, true, false, false},
			{"1024³", 1024, 1024, 1024, 1, true, false, false, false, false},
			{"skinny", skinny, 4096, 4096, 1, true, false, false, false, true},
			{"a tile past skinny", skinny + k.MR, 4096, 4096, 1, true, false, false, false, false},
			{"a team of 2", 128, 128, 128, 2, true, false, false, false, true},
		} {
			m, n, depth := tc.m, tc.n, tc.depth
			dm := Dim{Ext: m, S: [3]int{1, 0, 1}}
			dn := Dim{Ext: n, S: [3]int{0, depth, m}}
			dk := Dim{Ext: depth, S: [3]int{m, 1, 0}}
			if tc.aStrided {
				dm.S[opA], dk.S[opA] = depth, 1
			}
			if tc.bStrided {
				dn.S[opB], dk.S[opB] = 1, n
			}
			if tc.cStrided {
				dm.S[opC], dn.S[opC] = n, 1
			}
			c := chooseFor(pools[tc.threads], tc.threads, real, dm, dn, dk)
			if tc.threads == 2 && c.members != 2 {
				t.Errorf("%s, %s: %d members, want 2", real, tc.name, c.members)
			}
			if c.direct != tc.direct || c.bInPlace != tc.inPlace {
				t.Errorf("%s, %s (%d×%d×%d): direct %v, B in place %v; want %v, %v", real, tc.name, m, n, depth, c.direct, c.bInPlace, tc.direct, tc.inPlace)
			}
		}
	}
}

// Real products with A's rows strided, most of which read B in place
// (small, skinny beyond directMaxFlops, B's depth steps adjacent or
// strided) and one that packs B (five row tiles beyond directMaxFlops),
// against a plain loop: C with a padded leading dimension, alpha and
// beta, NaN in C with beta = 0; on one thread and teams of 2 and 3.
func TestRealInPlaceProduct(t *testing.T) {
	for _, threads := range []int{1, 2, 3} {
		pool := NewPool(threads)
		testRealInPlaceProduct[float32](t, pool, 2e-6)
		testRealInPlaceProduct[float64](t, pool, 1e-14)
		pool.Close()
	}
}

func testRealInPlaceProduct[T float32 | float64](t *testing.T, pool *Pool, eps float64) {
	rng := rand.New(rand.NewPCG(12, 5))
	ops := typed.OpsOf[T]()
	kern, _ := KernelFor(ops.Type.Real)
	tiles := func(n int) int { return n * kern.MR }
	for _, s := range [][3]int{{64, 64, 64}, {45, 29, 700}, {3, 7, 5}, {tiles(4) - 3, 300, 1000}, {tiles(5), 160, 1000}} {
		m, n, depth := s[0], s[1], s[2]
		for _, bRows := range []bool{false, true} {
			ldc := m + 3
			a := make([]T, m*depth) // row-major: A's rows strided
			b := make([]T, depth*n) // column-major, or row-major with bRows
			for i := range a {
				a[i] = T(rng.Float64() - 0.5)
			}
			for i := range b {
				b[i] = T(rng.Float64() - 0.5)
			}
			aAt := func(i, p int) float64 { return float64(a[i*depth+p]) }
			bAt := func(p, j int) float64 { return float64(b[p+j*depth]) }
			bStrides := []int{1, depth}
			if bRows {
				bAt = func(p, j int) float64 { return float64(b[p*n+j]) }
				bStrides = []int{n, 1}
			}
			ref, mag := make([]complex128, m*n), make([]float64, m*n)
			for j := 0; j < n; j++ {
				for i := 0; i < m; i++ {
					for p := 0; p < depth; p++ {
						x := aAt(i, p) * bAt(p, j)
						ref[i+j*m] += complex(x, 0)
						mag[i+j*m] += math.Abs(x)
					}
				}
			}
			for _, sc := range []struct{ alpha, beta T }{{1, 0}, {1.5, 0}, {1, -0.5}, {-0.25, 1}} {
				c := make([]T, ldc*n)
				for i := range c {
					c[i] = T(rng.Float64())
					if sc.beta == 0 {
						c[i] = T(math.NaN())
					}
				}
				c0 := append([]T(nil), c...)
				opv := [3]Operand{
					{View: View{Len: len(a), Shape: []int{m, depth}, Strides: []int{depth, 1}}, Data: unsafe.Pointer(&a[0])},
					{View: View{Len: len(b), Shape: []int{depth, n}, Strides: bStrides}, Data: unsafe.Pointer(&b[0])},
					{View: View{Len: len(c), Shape: []int{m, n}, Strides: []int{1, ldc}}, Data: unsafe.Pointer(&c[0])},
				}
				alpha, beta := sc.alpha, sc.beta
				if err := pool.Run("ik,kj->ij", ops, &opv, unsafe.Pointer(&alpha), unsafe.Pointer(&beta)); err != nil {
					t.Fatal(err)
				}
				asComplex := func(v []T) func(int) complex128 {
					return func(x int) complex128 { return complex(float64(v[x]), 0) }
				}
				checkPaddedC(t, fmt.Sprintf("%T %d×%d×%d B rows %v alpha %v beta %v", alpha, m, n, depth, bRows, alpha, beta),
					asComplex(c), asComplex(c0), m, n, ldc, ref, mag, complex(float64(alpha), 0), complex(float64(beta), 0), eps*float64(depth))
			}
		}
	}
}

// checkPaddedC compares a column-major C of m×n, leading dimension ldc
// (got, its elements after the call, and old, before), with alpha·ref +
// beta·old, where ref[i+j*m] is the product's sum and mag[i+j*m] the sum
// of its terms' magnitudes, to within tol·(mag+2); beta 0 ignores old (NaN
// there must not leak). Rows m to ldc are padding and must keep their
// values. Elements go through complex128, so one check serves every type.
func checkPaddedC(t *testing.T, what string, got, old func(x int) complex128, m, n, ldc int, ref []complex128, mag []float64, alpha, beta complex128, tol float64) {
	t.Helper()
	for j := 0; j < n; j++ {
		for i := 0; i < ldc; i++ {
			g := got(i + j*ldc)
			if i >= m {
				if g != old(i+j*ldc) && !cmplx.IsNaN(g) {
					t.Fatalf("%s: C's padding [%d,%d] written", what, i, j)
				}
				continue
			}
			want := alpha * ref[i+j*m]
			if beta != 0 {
				want += beta * old(i+j*ldc)
			}
			if cmplx.Abs(g-want) > tol*(mag[i+j*m]+2) {
				t.Fatalf("%s: C[%d,%d] = %v, want %v", what, i, j, g, want)
			}
		}
	}
}
