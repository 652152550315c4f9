package runtime

import (
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/tcontract/tcontract/generated/typed"
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
		}
	}
}

// A skinny product on the direct path, beyond directMaxFlops, over
// several depth steps (directKC) and a partial row tile, on 1 and 2
// threads, against a plain loop.
func TestSkinnyDirectProduct(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 9))
	k, _ := KernelFor("float64")
	m, depth := 2*k.MR-3, directKC*2+77
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
		ops := [3]Operand{
			{View: View{Len: len(a), Shape: []int{m, depth}, Strides: []int{1, m}}, Data: unsafe.Pointer(&a[0])},
			{View: View{Len: len(b), Shape: []int{depth, n}, Strides: []int{1, depth}}, Data: unsafe.Pointer(&b[0])},
			{View: View{Len: len(c), Shape: []int{m, n}, Strides: []int{1, m}}, Data: unsafe.Pointer(&c[0])},
		}
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
// tiles straddle the runs of the fast one (13 columns, tiles of NR), B's
// slow one runs backwards, C's rows are adjacent, and the depth spans
// several direct steps; on 1 and 2 threads, against a plain loop.
func TestDirectScatterProduct(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 1))
	k, _ := KernelFor("float64")
	// C[i,j,q] = Σ_p A[p,i]·B[p,j,q]: i has unit stride in A and C (M),
	// j and q are N (q fastest in B, j in C), p is K.
	I, J, Q, P := 2*k.MR-5, 7, 13, directKC+100
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
	for _, threads := range []int{1, 2} {
		pool := NewPool(threads)
		c := make([]float64, I*J*Q)
		for x := range c {
			c[x] = rng.Float64()
		}
		c0 := append([]float64(nil), c...)
		ops := [3]Operand{
			{View: View{Len: len(a), Shape: []int{P, I}}, Data: unsafe.Pointer(&a[0])},
			{View: View{Len: len(b), Shape: []int{P, J, Q}, Strides: []int{J * Q, -Q, 1}, Offset: (J - 1) * Q}, Data: unsafe.Pointer(&b[0])},
			{View: View{Len: len(c), Shape: []int{I, J, Q}, Strides: []int{1, I, I * J}}, Data: unsafe.Pointer(&c[0])},
		}
		alpha, beta := -1.25, 0.75
		if err := pool.Run("pi,pjq->ijq", typed.OpsOf[float64](), &ops, unsafe.Pointer(&alpha), unsafe.Pointer(&beta)); err != nil {
			t.Fatal(err)
		}
		pool.Close()
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
