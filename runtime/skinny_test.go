package runtime

import (
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/tcontract/tcontract/generated/typed"
)

// Products of any size take the direct path when M is at most
// directSkinnyTiles row tiles and B's columns run along depth; not when
// B's rows are adjacent instead, nor with more row tiles.
func TestSkinnyDirect(t *testing.T) {
	p := NewPool(1)
	defer p.Close()
	for _, real := range []string{"float32", "float64"} {
		k, _ := KernelFor(real)
		if k.Direct == nil {
			continue // no direct kernels on this path
		}
		ops := typed.OpsByName(real)
		for _, tc := range []struct {
			name       string
			m          int
			bUnitK     bool
			wantDirect bool
		}{
			{"one tile", k.MR, true, true},
			{"two tiles", 2 * k.MR, true, true},
			{"three tiles", 3 * k.MR, true, false},
			{"B's rows adjacent", k.MR, false, false},
		} {
			n, depth := 4096, 4096
			sB := [3]int{0, 1, 0}
			sN := [3]int{0, depth, tc.m}
			if !tc.bUnitK {
				sB, sN = [3]int{0, n, 0}, [3]int{0, 1, tc.m}
			}
			sB[opA] = tc.m
			c := newCall(p, 1)
			c.kern, c.fn = k, funcOf(k)
			c.mrR, c.nrR = k.MR, k.NR
			c.cf, c.tsize, c.rsize = 1, ops.Type.Size, ops.RealSize
			c.plan = &Plan{
				Batch: Group{Size: 1},
				M:     groupOf(Dim{Ext: tc.m, S: [3]int{1, 0, 1}}),
				N:     groupOf(Dim{Ext: n, S: sN}),
				K:     groupOf(Dim{Ext: depth, S: sB}),
			}
			c.chooseTeam()
			p.release(c)
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
