package runtime_test

import (
	"math/rand/v2"
	"testing"
	"time"
	"unsafe"

	"github.com/tcontract/tcontract/generated/typed"
	"github.com/tcontract/tcontract/internal/spec"
	"github.com/tcontract/tcontract/runtime"
)

// The packing benchmarks pack one MC×KC block of A and one KC×NC panel of B
// with the blocksizes a call of each type uses, through the typed packers
// alone ("typed") and as the driver packs ("driver": the kernel row's
// assembly packers where they take the block, the typed ones elsewhere), from
// unit-stride sources (the copy paths: column-major A, row-major B), from
// transposed ones (row-major A, column-major B) and from scatter sources
// (every offset irregular), next to a plain copy of the same number of bytes.
// SetBytes is the bytes of the elements packed, so the GB/s of a packing
// benchmark and of its copy compare directly. On a shared, noisy machine the
// means swing; each packing benchmark therefore also reports "of-copy", its
// rate as a fraction of the copy's, from the best of short runs of the two
// taken in turn after the timed loop.
//
//	go test -run '^$' -bench Pack -count 6 ./runtime | benchstat -

// packBlocking is the blocking a call of the type uses on the path in use
// (runtime.BlockingOf: the kernel's tile, MC, KC and NC derived from this
// machine's caches, a complex type's in its own elements), so the block and
// panel benchmarked are the ones the driver packs.
func packBlocking(t spec.Type) typed.Blocking {
	tb := runtime.BlockingOf(t)
	return typed.Blocking{MR: tb.MR, NR: tb.NR, MC: tb.MC, KC: tb.KC, NC: tb.NC}
}

// packSource is a source operand of rows×steps elements and the offsets of
// its rows and steps.
type packSource struct {
	data         []byte
	rowOff, kOff []int64
	rowBS        []int64
	kStride      int64
}

// newPackSource lays out n rows (of slivers of w) by k steps: "unit"
// with the rows adjacent (a leading dimension of n+8 between steps),
// "transposed" with the steps adjacent, "scatter" at random distinct offsets.
func newPackSource(t spec.Type, kind string, w, n, k int) packSource {
	var s packSource
	s.rowOff, s.kOff = make([]int64, n), make([]int64, k)
	switch kind {
	case "unit":
		runtime.Offsets(s.rowOff, []int{n}, []int{1}, 0)
		runtime.Offsets(s.kOff, []int{k}, []int{n + 8}, 0)
	case "transposed":
		runtime.Offsets(s.rowOff, []int{n}, []int{k + 8}, 0)
		runtime.Offsets(s.kOff, []int{k}, []int{1}, 0)
	case "scatter":
		rng := rand.New(rand.NewPCG(1, 1))
		for i, r := range rng.Perm(n) {
			s.rowOff[i] = int64(r)
		}
		for p, r := range rng.Perm(k) {
			s.kOff[p] = int64(r) * int64(n+8)
		}
	}
	s.rowBS = make([]int64, (n+w-1)/w)
	runtime.BlockStrides(s.rowBS, s.rowOff, w)
	s.kStride = uniform(s.kOff)
	_, rhi := span(s.rowOff)
	_, khi := span(s.kOff)
	elems := int(rhi+khi) + 1
	s.data = touched(elems * t.Size)
	return s
}

// touched is alloc's n bytes, written once so that no page fault lands in
// a timed loop.
func touched(n int) []byte {
	b := alloc(n)
	for i := range b {
		b[i] = byte(i*7 + 1)
	}
	return b
}

func BenchmarkPack(b *testing.B) {
	for _, t := range spec.Types {
		ops := typed.OpsByName(t.Name)
		blk := packBlocking(t)
		b.Run(t.Name, func(b *testing.B) {
			sides := []struct {
				side     string
				w, n, k  int
				dstBytes int
			}{
				{"A", blk.MR, blk.MC, blk.KC, ops.Req(blk, 1, 1, 0, 0).ABytes},
				{"B", blk.NR, blk.NC, blk.KC, ops.Req(blk, 1, 1, 0, 0).BBytes},
			}
			for _, sd := range sides {
				payload := sd.n * sd.k * t.Size
				b.Run(sd.side+"/copy", func(b *testing.B) {
					src, dst := touched(payload), touched(payload)
					b.SetBytes(int64(payload))
					for b.Loop() {
						copy(dst, src)
					}
				})
				for _, via := range []string{"typed", "driver"} {
					for _, kind := range []string{"unit", "transposed", "scatter"} {
						b.Run(sd.side+"/"+via+"/"+kind, func(b *testing.B) {
							src := newPackSource(t, kind, sd.w, sd.n, sd.k)
							dst := touched(sd.dstBytes)
							srcPtr := unsafe.Pointer(&src.data[0])
							pack := runtime.DriverPack(t.Name, sd.side == "B", dst, srcPtr, sd.n, sd.k, src.rowOff, src.rowBS, src.kOff, src.kStride)
							if via == "typed" {
								fn := ops.PackA
								if sd.side == "B" {
									fn = ops.PackB
								}
								pack = func() {
									fn(&dst[0], (*byte)(srcPtr), sd.w, sd.n, sd.k, src.rowOff, src.rowBS, src.kOff, src.kStride, nil)
								}
							}
							b.SetBytes(int64(payload))
							for b.Loop() {
								pack()
							}
							from, to := touched(payload), touched(payload)
							b.ReportMetric(ofCopy(func() { copy(to, from) }, pack), "of-copy")
						})
					}
				}
			}
		})
	}
}

// ofCopy is pack's rate as a fraction of copy's, both moving the same bytes:
// the best of runs of each taken in turn for about 100 ms.
func ofCopy(copyFn, pack func()) float64 {
	best := func(f func()) time.Duration {
		t := time.Now()
		f()
		return time.Since(t)
	}
	bc, bp := best(copyFn), best(pack)
	for end := time.Now().Add(100 * time.Millisecond); time.Now().Before(end); {
		bc, bp = min(bc, best(copyFn)), min(bp, best(pack))
	}
	return float64(bc) / float64(bp)
}
