package tcontract_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	tc "github.com/tcontract/tcontract"
	"github.com/tcontract/tcontract/generated/typed"
	"github.com/tcontract/tcontract/internal/tccg"
	"github.com/tcontract/tcontract/runtime"
)

// Benchmarks report GFLOP/s (2mnk, complex 8mnk) and the fraction of the
// peak probe measured in the same process ("peak"), the stable figure on
// machines whose clock drifts with load.

var (
	peakMu    sync.Mutex
	peakCache = map[string]float64{}
	poolsMu   sync.Mutex
	pools     = map[int]*tc.Pool{}
)

// peakOf is the FMA peak of a real type on the path in use, measured once
// per process and thread count.
func peakOf(real string, threads int) float64 {
	peakMu.Lock()
	defer peakMu.Unlock()
	key := fmt.Sprint(real, threads)
	if p, ok := peakCache[key]; ok {
		return p
	}
	p := runtime.Peak(real, threads)
	peakCache[key] = p
	return p
}

func poolOf(threads int) *tc.Pool {
	poolsMu.Lock()
	defer poolsMu.Unlock()
	if p, ok := pools[threads]; ok {
		return p
	}
	p := tc.NewPool(threads)
	pools[threads] = p
	return p
}

func report(b *testing.B, flops float64, real string, threads int) {
	gflops := flops * float64(b.N) / b.Elapsed().Seconds() / 1e9
	b.ReportMetric(gflops, "GFLOP/s")
	b.ReportMetric(gflops/peakOf(real, threads), "peak")
}

func randTensor[T tc.Scalar](rng *rand.Rand, shape ...int) tc.Tensor[T] {
	n := 1
	for _, e := range shape {
		n *= e
	}
	d := make([]T, n)
	for i := range d {
		d[i] = randValue[T](rng)
	}
	return tc.Dense(d, shape...)
}

func benchGemm[T tc.Scalar](b *testing.B, m, n, k, threads int) {
	rng := rand.New(rand.NewPCG(1, 2))
	a := randTensor[T](rng, m, k)
	bb := randTensor[T](rng, k, n)
	c := randTensor[T](rng, m, n)
	p := poolOf(threads)
	ops := typed.OpsOf[T]()
	flops := 2 * float64(m) * float64(n) * float64(k)
	if ops.Type.Complex {
		flops *= 4
	}
	peakOf(ops.Type.Real, threads)
	if err := tc.Gemm(1, a, bb, 0, c, tc.WithPool(p)); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := tc.Gemm(1, a, bb, 0, c, tc.WithPool(p)); err != nil {
			b.Fatal(err)
		}
	}
	report(b, flops, ops.Type.Real, threads)
}

// gemmShapes: the squares and skinny shapes, and 32³, half a
// float32 tile's height, where a short tile's handling shows.
var gemmShapes = [][3]int{
	{32, 32, 32}, {64, 64, 64}, {128, 128, 128}, {256, 256, 256}, {512, 512, 512},
	{1024, 1024, 1024}, {2048, 2048, 2048}, {4096, 4096, 4096},
	{4096, 4096, 64}, {4096, 64, 4096},
}

// BenchmarkGemm: square and skinny shapes, every element type, 1 and 2
// threads. Row-major operands, alpha 1, beta 0.
func BenchmarkGemm(b *testing.B) {
	benchGemmShapes(b, gemmShapes)
}

// benchGemmShapes runs benchGemm on each shape (m, n, k) for every element
// type, on 1 and 2 threads.
func benchGemmShapes(b *testing.B, shapes [][3]int) {
	for _, threads := range []int{1, 2} {
		for _, s := range shapes {
			name := fmt.Sprintf("%dx%dx%d/t%d", s[0], s[1], s[2], threads)
			b.Run("float32/"+name, func(b *testing.B) { benchGemm[float32](b, s[0], s[1], s[2], threads) })
			b.Run("float64/"+name, func(b *testing.B) { benchGemm[float64](b, s[0], s[1], s[2], threads) })
			b.Run("complex64/"+name, func(b *testing.B) { benchGemm[complex64](b, s[0], s[1], s[2], threads) })
			b.Run("complex128/"+name, func(b *testing.B) { benchGemm[complex128](b, s[0], s[1], s[2], threads) })
		}
	}
}

// narrowShapes: GEMMs of a few columns (m×n×k, C and A row-major): the
// orientation and the skinny direct path's depth steps decide them.
var narrowShapes = [][3]int{
	{4096, 24, 4096}, {4096, 40, 1500}, {8192, 32, 8192}, {1000, 7, 1000}, {2000, 5, 2000},
}

// BenchmarkNarrowGemm: narrowShapes, every element type, 1 and 2 threads.
func BenchmarkNarrowGemm(b *testing.B) {
	benchGemmShapes(b, narrowShapes)
}

// BenchmarkCallOverhead: what a call costs beyond its arithmetic
// (validation, the plan cache's hit, binding, the choice of path), float32
// on one thread: GEMMs of one element and of 8×8×8, a permuted
// contraction of 4⁴ elements (A's free dim strided in C), and 16 batched
// 8×8×8 products.
//
// The batched products are 8 rows of a 64-row float32 tile: before the
// kernels skipped a short tile's empty vectors (x86.Gen.ShortColumns),
// their stores under all-zero masks made this figure 4 times as large
// when the operands lay at the same offset within their pages.
func BenchmarkCallOverhead(b *testing.B) {
	for _, n := range []int{1, 8} {
		b.Run(fmt.Sprintf("gemm/%dx%dx%d", n, n, n), func(b *testing.B) { benchGemm[float32](b, n, n, n, 1) })
	}
	b.Run("contract/ea,ebcd->abcd/4", func(b *testing.B) {
		benchSpec[float32](b, "ea,ebcd->abcd", [3][]int{{4, 4}, {4, 4, 4, 4}, {4, 4, 4, 4}}, 1, 2*4*64*4)
	})
	b.Run("contract/bij,bjk->bik/16x8x8x8", func(b *testing.B) {
		benchSpec[float32](b, "bij,bjk->bik", [3][]int{{16, 8, 8}, {16, 8, 8}, {16, 8, 8}}, 1, 2*16*8*8*8)
	})
}

// BenchmarkDots: contractions whose every label of C is a batch label (the
// typed Dots routine): a Hadamard product, batched dots and a dot, 1 and 2
// threads. They are bound by memory: GB/s counts A, B and C once each.
func BenchmarkDots(b *testing.B) {
	cases := []struct {
		name, spec string
		shapes     [3][]int
		elems      float64 // elements of A, B and C
		flops      float64
	}{
		{"hadamard", "ij,ij->ij", [3][]int{{2048, 2048}, {2048, 2048}, {2048, 2048}}, 3 << 22, 2 << 22},
		{"batched", "bi,bi->b", [3][]int{{4096, 512}, {4096, 512}, {4096}}, 2<<21 + 4096, 2 << 21},
		{"dot", "i,i->", [3][]int{{1 << 22}, {1 << 22}, {}}, 2<<22 + 1, 2 << 22},
	}
	for _, threads := range []int{1, 2} {
		for _, cs := range cases {
			name := fmt.Sprintf("%s/t%d", cs.name, threads)
			b.Run("float32/"+name, func(b *testing.B) { benchDots[float32](b, cs.spec, cs.shapes, threads, cs.flops, cs.elems) })
			b.Run("float64/"+name, func(b *testing.B) { benchDots[float64](b, cs.spec, cs.shapes, threads, cs.flops, cs.elems) })
			b.Run("complex64/"+name, func(b *testing.B) { benchDots[complex64](b, cs.spec, cs.shapes, threads, cs.flops, cs.elems) })
		}
	}
}

// BenchmarkMatVec: matrix-vector products of 2048², which the direct
// kernels run reading A in place (runtime/matvec.go): A·x with A
// row-major (its depth adjacent) and column-major (its rows adjacent),
// x·A, and A times four columns; every element type, 1 and 2 threads.
// They are bound by memory: GB/s counts A once.
func BenchmarkMatVec(b *testing.B) {
	const n = 2048
	cases := []struct {
		name, spec string
		shapes     [3][]int
	}{
		{"rowmajor", "ij,j->i", [3][]int{{n, n}, {n}, {n}}},
		{"colmajor", "ji,j->i", [3][]int{{n, n}, {n}, {n}}},
		{"vecmat", "j,jk->k", [3][]int{{n}, {n, n}, {n}}},
		{"fourcols", "ij,jk->ik", [3][]int{{n, n}, {n, 4}, {n, 4}}},
	}
	for _, threads := range []int{1, 2} {
		for _, cs := range cases {
			flops := 2 * terms(cs.spec, cs.shapes)
			name := fmt.Sprintf("%s/t%d", cs.name, threads)
			b.Run("float32/"+name, func(b *testing.B) { benchDots[float32](b, cs.spec, cs.shapes, threads, flops, n*n) })
			b.Run("float64/"+name, func(b *testing.B) { benchDots[float64](b, cs.spec, cs.shapes, threads, flops, n*n) })
			b.Run("complex64/"+name, func(b *testing.B) { benchDots[complex64](b, cs.spec, cs.shapes, threads, flops, n*n) })
			b.Run("complex128/"+name, func(b *testing.B) { benchDots[complex128](b, cs.spec, cs.shapes, threads, flops, n*n) })
		}
	}
}

// BenchmarkSummedOut: contractions with a label summed out of one input,
// which the plan sums first (runtime/reduce.go). GFLOP/s counts a
// multiply-add per term of the sum as written (2·the product of every
// extent), what summing on the fly computes.
func BenchmarkSummedOut(b *testing.B) {
	cases := []struct {
		name, spec string
		shapes     [3][]int
	}{
		{"rowsums", "ij,jk->i", [3][]int{{1000, 1000}, {1000, 1000}, {1000}}},
		{"outofA", "ijx,jk->ik", [3][]int{{256, 256, 8}, {256, 256}, {256, 256}}},
		{"outofB", "ij,jkx->ik", [3][]int{{256, 256}, {256, 256, 8}, {256, 256}}},
	}
	for _, threads := range []int{1, 2} {
		for _, cs := range cases {
			flops := 2 * terms(cs.spec, cs.shapes)
			name := fmt.Sprintf("%s/t%d", cs.name, threads)
			b.Run("float32/"+name, func(b *testing.B) { benchSpec[float32](b, cs.spec, cs.shapes, threads, flops) })
			b.Run("float64/"+name, func(b *testing.B) { benchSpec[float64](b, cs.spec, cs.shapes, threads, flops) })
		}
	}
}

// terms is the number of terms of the sum spec writes: the product of the
// extents of its labels, each once.
func terms(spec string, shapes [3][]int) float64 {
	ext := map[rune]int{}
	labels := strings.FieldsFunc(spec, func(r rune) bool { return r == ',' || r == '-' || r == '>' })
	for o, l := range labels[:2] {
		for d, r := range l {
			ext[r] = shapes[o][d]
		}
	}
	n := 1.0
	for _, e := range ext {
		n *= float64(e)
	}
	return n
}

// benchDots is benchSpec reporting also GB/s over elems elements.
func benchDots[T tc.Scalar](b *testing.B, spec string, shapes [3][]int, threads int, flops, elems float64) {
	benchSpec[T](b, spec, shapes, threads, flops)
	b.ReportMetric(elems*float64(typed.OpsOf[T]().Type.Size)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GB/s")
}

func benchContract[T tc.Scalar](b *testing.B, cs tccg.Case, threads int) {
	ext := cs.Extents(typed.OpsOf[T]().RealSize)
	sa, sb, sc := cs.Shapes(ext)
	m, n, k := cs.MNK(ext)
	benchSpec[T](b, cs.Spec, [3][]int{sa, sb, sc}, threads, 2*float64(m)*float64(n)*float64(k))
}

// benchSpec times spec over dense operands of the given shapes (A, B, C)
// on threads threads; flops is 2mnk (four times that is counted for a
// complex type).
func benchSpec[T tc.Scalar](b *testing.B, spec string, shapes [3][]int, threads int, flops float64) {
	ops := typed.OpsOf[T]()
	rng := rand.New(rand.NewPCG(1, 2))
	a := randTensor[T](rng, shapes[0]...)
	bb := randTensor[T](rng, shapes[1]...)
	c := randTensor[T](rng, shapes[2]...)
	p := poolOf(threads)
	if ops.Type.Complex {
		flops *= 4
	}
	peakOf(ops.Type.Real, threads)
	if err := tc.Contract(spec, 1, a, bb, 0, c, tc.WithPool(p)); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := tc.Contract(spec, 1, a, bb, 0, c, tc.WithPool(p)); err != nil {
			b.Fatal(err)
		}
	}
	report(b, flops, ops.Type.Real, threads)
}

// BenchmarkTCCG: the public TCCG contractions at their float64 and float32
// extents, 1 and 2 threads. Compare with BenchmarkGemmTCCG (the GEMM of the
// same m, n, k) in the same run.
func BenchmarkTCCG(b *testing.B) {
	for _, threads := range []int{1, 2} {
		for _, cs := range tccg.Cases() {
			name := fmt.Sprintf("%02d-%s/t%d", cs.ID, cs.Name, threads)
			b.Run("float64/"+name, func(b *testing.B) { benchContract[float64](b, cs, threads) })
			b.Run("float32/"+name, func(b *testing.B) { benchContract[float32](b, cs, threads) })
		}
	}
}

// BenchmarkGemmTCCG: GEMM at each TCCG contraction's m, n, k, for the ratio.
func BenchmarkGemmTCCG(b *testing.B) {
	for _, threads := range []int{1, 2} {
		for _, cs := range tccg.Cases() {
			name := fmt.Sprintf("%02d-%s/t%d", cs.ID, cs.Name, threads)
			m, n, k := cs.MNK(cs.F64)
			b.Run("float64/"+name, func(b *testing.B) { benchGemm[float64](b, m, n, k, threads) })
			m, n, k = cs.MNK(cs.F32)
			b.Run("float32/"+name, func(b *testing.B) { benchGemm[float32](b, m, n, k, threads) })
		}
	}
}
