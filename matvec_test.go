package tcontract_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	tc "github.com/tcontract/tcontract"
	"github.com/tcontract/tcontract/generated/typed"
	"github.com/tcontract/tcontract/runtime"
)

// TestMatVecNegativeStrides: matrix-vector products that read A in place
// (runtime/matvec.go, matvec_complex.go) with negative strides: a real A
// whose depth runs backwards against a vector of step -2, and a complex A
// whose rows run backwards into a C of step -3 (alpha and beta not real,
// nothing between C's elements written).
func TestMatVecNegativeStrides(t *testing.T) {
	const M, K = 300, 700
	data := make([]float64, M*K)
	for i := range data {
		data[i] = math.Sin(float64(i))
	}
	// A(i,j) = data[i*K + (K-1-j)]: depth stride -1.
	a := tc.Tensor[float64]{Data: data, Shape: []int{M, K}, Strides: []int{K, -1}, Offset: K - 1}
	xd := make([]float64, 2*K)
	for i := range xd {
		xd[i] = math.Cos(float64(i))
	}
	x := tc.Tensor[float64]{Data: xd, Shape: []int{K}, Strides: []int{-2}, Offset: 2*K - 2}
	c := tc.Dense(make([]float64, M), M)
	if err := tc.Contract("ij,j->i", 1.5, a, x, 0, c); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < M; i++ {
		var s float64
		for j := 0; j < K; j++ {
			s += data[i*K+K-1-j] * xd[2*K-2-2*j]
		}
		if d := math.Abs(c.Data[i] - 1.5*s); d > 1e-9 {
			t.Fatalf("C[%d] = %v, want %v", i, c.Data[i], 1.5*s)
		}
	}
	// A complex A·x: the real direct kernel on A's rows from the last.
	cd := make([]complex128, M*K)
	for i := range cd {
		cd[i] = complex(math.Sin(float64(i)), math.Cos(float64(3*i)))
	}
	ca := tc.Tensor[complex128]{Data: cd, Shape: []int{M, K}, Strides: []int{-K, 1}, Offset: (M - 1) * K}
	cxd := make([]complex128, K)
	for i := range cxd {
		cxd[i] = complex(math.Cos(float64(i)), 0.5)
	}
	cx := tc.Dense(cxd, K)
	cc := tc.Tensor[complex128]{Data: make([]complex128, 3*M), Shape: []int{M}, Strides: []int{-3}, Offset: 3*M - 3}
	for i := range cc.Data {
		cc.Data[i] = complex(1, 1)
	}
	if err := tc.Contract("ij,j->i", complex(0.5, 1), ca, cx, complex(2, -1), cc); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < M; i++ {
		var s complex128
		for j := 0; j < K; j++ {
			s += cd[(M-1-i)*K+j] * cxd[j]
		}
		want := complex(0.5, 1)*s + complex(2, -1)*complex(1, 1)
		got := cc.Data[3*M-3-3*i]
		if d := math.Hypot(real(got-want), imag(got-want)); d > 1e-9 {
			t.Fatalf("complex C[%d] = %v, want %v", i, got, want)
		}
	}
	for i := range cc.Data {
		if i%3 != 0 && cc.Data[i] != complex(1, 1) {
			t.Fatalf("canary %d written", i)
		}
	}
}

// TestComplexRowsNegativeStrides: complex products whose A has adjacent
// rows (runtime/matvec_complex_rows.go) with A's depth running backwards,
// B's columns and C's rows negative, C column-major with a gap between
// columns, and nothing outside C's view written.
func TestComplexRowsNegativeStrides(t *testing.T) {
	const M, K = 260, 333
	for _, n := range []int{1, 2, 5} {
		ad := make([]complex128, M*K)
		for i := range ad {
			ad[i] = complex(math.Sin(float64(i)), math.Cos(float64(7*i)))
		}
		// A(i,j) = ad[(K-1-j)*M + i]: rows adjacent, depth stride -M.
		a := tc.Tensor[complex128]{Data: ad, Shape: []int{M, K}, Strides: []int{1, -M}, Offset: (K - 1) * M}
		bd := make([]complex128, K*n*2)
		for i := range bd {
			bd[i] = complex(math.Cos(float64(i)), 0.25*float64(i%5))
		}
		// B(j,k) = bd[2K(n-1-k) + 2j]: columns backwards, depth stride 2.
		b := tc.Tensor[complex128]{Data: bd, Shape: []int{K, n}, Strides: []int{2, -2 * K}, Offset: 2 * K * (n - 1)}
		// C(k,i) column-major in a slice of gaps: rows backwards (-1),
		// columns M+3 apart.
		c := tc.Tensor[complex128]{Data: make([]complex128, n*(M+3)), Shape: []int{n, M}, Strides: []int{M + 3, -1}, Offset: M - 1}
		for i := range c.Data {
			c.Data[i] = sentinel[complex128]()
		}
		for _, i := range viewIndices(c) {
			c.Data[i] = complex(float64(i%7), -1)
		}
		what := fmt.Sprintf("ij,jk->ki n=%d", n)
		ref := reference("ij,jk->ki", complex(0.5, -1), a, b, complex(1, 2), c)
		if err := tc.Contract("ij,jk->ki", complex(0.5, -1), a, b, complex(1, 2), c); err != nil {
			t.Fatal(err)
		}
		checkResult(t, what, c, ref)
		if i := outsideUntouched(c); i >= 0 {
			t.Fatalf("%s: wrote C.Data[%d], outside C's view", what, i)
		}
	}
}

// TestComplexFewColumns: complex products of a few columns, which run on
// the real direct kernel when the matrix's depth is adjacent
// (runtime/matvec_complex.go: writing C or, when C's columns are not
// adjacent, a tile of Cᵀ added into C) or its rows are
// (matvec_complex_rows.go); in every layout of the operands, each way
// round, against the reference.
func TestComplexFewColumns(t *testing.T) {
	testComplexFew[complex64](t)
	testComplexFew[complex128](t)
}

func testComplexFew[T complex64 | complex128](t *testing.T) {
	rng := rand.New(rand.NewPCG(11, uint64(len(typeName[T]()))))
	i := 0
	for _, spec := range []string{"ij,jk->ik", "ij,jk->ki", "ij,kj->ki", "jk,ij->ki", "ji,jk->ik", "ji,kj->ki", "jk,ji->ik"} {
		for _, n := range []int{2, 3, 5, 8, 21} {
			rowsAdjacent := strings.Contains(spec, "ji")
			if n > 8 && !rowsAdjacent && !strings.HasSuffix(spec, "ki") {
				continue
			}
			for _, la := range []layout{rowMajor, padded, negative, mixed} {
				ext := map[byte]int{'i': 100 + rng.IntN(200), 'j': 200 + rng.IntN(900), 'k': n}
				switch {
				case n > 8 && rowsAdjacent:
					// formComplexRows over more than four column tiles,
					// which it takes for a matrix beyond L2.
					ext['j'] = 2*max(runtime.Caches().L2, 1<<20)/(ext['i']*typed.OpsOf[T]().Type.Size) + 1
				case n > 8:
					// formComplex beyond two vectors (C's columns not
					// adjacent): a short depth keeps the reference quick.
					ext['j'] = 50 + rng.IntN(250)
				}
				k := contraction{a: spec[:2], b: spec[3:5], c: spec[7:], ext: ext}
				lb, lc := layout(rng.IntN(int(numLayouts))), layout(rng.IntN(int(zeroStride)))
				if !strings.Contains(k.a, "i") {
					la, lb = lb, la
				}
				t.Run(fmt.Sprintf("%s/%s/n%d/%v", typeName[T](), spec, n, la), func(t *testing.T) {
					runCase(t, rng, k, la, lb, lc, scalarCase[T](rng, i), scalarCase[T](rng, i/3))
				})
				i++
			}
		}
	}
}
