package runtime

import (
	"fmt"
	"sync"
	"testing"
	"time"
	"unsafe"

	"github.com/tcontract/tcontract/generated/kernels"
	"github.com/tcontract/tcontract/internal/spec"
)

// benchKC is the depth of the isolated-kernel benchmarks: slivers of
// 256 steps stay in L1 (B̃) and L1/L2 (Ã) like the driver's.
const benchKC = 256

// benchChunk is how long one timed chunk of a benchmark, and one repetition
// of the peak probe beside it, lasts: short, so that on a shared machine
// many of them run undisturbed.
const benchChunk = 250 * time.Microsecond

// probeIters caches, per probe, a trip count that runs about benchChunk.
var probeIters sync.Map // *kernels.Peak -> int

// benchKernels calls f for the function of every kernel row this machine
// can run: the assembly on assembly paths, the Go kernel on generic.
func benchKernels(b *testing.B, f func(b *testing.B, k *kernels.Kernel, fn kernels.Func)) {
	for _, isa := range Available() {
		for i := range kernels.Kernels {
			k := &kernels.Kernels[i]
			if k.ISA != isa {
				continue
			}
			fn := k.Asm
			if fn == nil {
				fn = k.Go
			}
			b.Run(k.Name, func(b *testing.B) { f(b, k, fn) })
		}
	}
}

// measure runs op b.N times in timed chunks of about benchChunk, running
// one equally long repetition of the peak probe after each chunk, and
// reports:
//   - GFLOP/s: the mean rate over all b.N calls;
//   - %peak: the fastest chunk's rate as a percentage of the fastest probe
//     repetition: both are best of equally many, equally short runs taken
//     side by side, so the ratio is the kernel's efficiency rather than the
//     machine's load or clock at the time;
//   - %peak-mean: the mean rate against the same peak.
func measure(b *testing.B, k *kernels.Kernel, flopsPerOp float64, op func()) {
	p := probeOn(k.ISA, k.Real)
	v, ok := probeIters.Load(p)
	if !ok {
		v = calibrate(p.Fn, benchChunk)
		probeIters.Store(p, v)
	}
	iters := v.(int)
	probe := func() float64 {
		t0 := time.Now()
		p.Fn(iters)
		return float64(iters) * float64(p.FlopsPerIter) / time.Since(t0).Seconds() / 1e9
	}
	best, peak := 0.0, 0.0
	chunk := 1
	b.ResetTimer()
	for done := 0; done < b.N; {
		n := min(chunk, b.N-done)
		t0 := time.Now()
		for range n {
			op()
		}
		d := time.Since(t0)
		done += n
		if n == chunk && d < benchChunk {
			chunk *= 2 // still growing to the chunk length
			continue
		}
		best = max(best, flopsPerOp*float64(n)/d.Seconds()/1e9)
		b.StopTimer()
		peak = max(peak, probe())
		b.StartTimer()
	}
	b.StopTimer()
	for peak == 0 || best == 0 { // b.N too small to fill one chunk
		best = flopsPerOp * float64(b.N) / b.Elapsed().Seconds() / 1e9
		peak = probe()
	}
	mean := flopsPerOp * float64(b.N) / b.Elapsed().Seconds() / 1e9
	b.ReportMetric(mean, "GFLOP/s")
	b.ReportMetric(100*best/peak, "%peak")
	b.ReportMetric(100*mean/peak, "%peak-mean")
}

// filled returns n reals of k's type, as bytes, with small nonzero values.
func filled(k *kernels.Kernel, n int) []byte {
	r, _ := spec.RealByName(k.Real)
	buf := make([]byte, n*r.Size+64)
	// Align to a cache line, as the workspace's page-aligned buffers are.
	off := (64 - int(uintptr(unsafe.Pointer(&buf[0]))%64)) % 64
	buf = buf[off : off+n*r.Size]
	for i := 0; i < n; i++ {
		v := 0.5 + float64(i%7)/16
		if r.Size == 4 {
			*(*float32)(unsafe.Pointer(&buf[i*4])) = float32(v)
		} else {
			*(*float64)(unsafe.Pointer(&buf[i*8])) = v
		}
	}
	return buf
}

// one returns a pointer to the real 1 of k's type.
func one(k *kernels.Kernel) *byte {
	if k.Real == "float32" {
		v := float32(1)
		return (*byte)(unsafe.Pointer(&v))
	}
	v := float64(1)
	return (*byte)(unsafe.Pointer(&v))
}

// BenchmarkKernel is the isolated kernel: one MR×NR tile from packed slivers
// of depth 256 that stay in cache, C column-major, beta = 1.
func BenchmarkKernel(b *testing.B) {
	benchKernels(b, func(b *testing.B, k *kernels.Kernel, fn kernels.Func) {
		a := filled(k, k.MR*benchKC)
		bb := filled(k, k.NR*benchKC)
		c := filled(k, k.MR*k.NR)
		alpha, beta := one(k), one(k)
		measure(b, k, 2*float64(k.MR*k.NR*benchKC), func() {
			fn(benchKC, &a[0], &bb[0], &c[0], 1, k.MR, k.MR, k.NR, alpha, beta)
		})
	})
}

// BenchmarkKernelBlock runs the kernel as the GEMM driver's inner loops do:
// an L2-sized MC×KC block of Ã (the table's MC) against several B̃ slivers,
// each sliver against every Ã sliver, into a column-major C.
func BenchmarkKernelBlock(b *testing.B) {
	const slivers = 8 // B̃ slivers per panel
	benchKernels(b, func(b *testing.B, k *kernels.Kernel, fn kernels.Func) {
		r, _ := spec.RealByName(k.Real)
		mc := k.MC / k.MR * k.MR
		a := filled(k, mc*benchKC)
		bb := filled(k, slivers*k.NR*benchKC)
		ldc := mc
		c := filled(k, ldc*slivers*k.NR)
		alpha, beta := one(k), one(k)
		aStep, bStep := k.MR*benchKC*r.Size, k.NR*benchKC*r.Size
		measure(b, k, 2*float64(mc*slivers*k.NR*benchKC), func() {
			for jr := 0; jr < slivers; jr++ {
				for ir := 0; ir < mc/k.MR; ir++ {
					fn(benchKC, &a[ir*aStep], &bb[jr*bStep], &c[(jr*k.NR*ldc+ir*k.MR)*r.Size],
						1, ldc, k.MR, k.NR, alpha, beta)
				}
			}
		})
	})
}

// BenchmarkKernelPanel is the driver's whole macro-kernel: an L2-resident
// MC×KC block of Ã against a KC×NC panel of B̃ that fills half this core's
// share of L3 (the table's MC and NC, capped like the driver's blocking),
// into an MC×NC column-major C too large for L2, so C's columns, not just
// the slivers, arrive from L3 or memory.
func BenchmarkKernelPanel(b *testing.B) {
	benchKernels(b, func(b *testing.B, k *kernels.Kernel, fn kernels.Func) {
		r, _ := spec.RealByName(k.Real)
		mc := k.MC / k.MR * k.MR
		nc := min(k.NC, Caches().L3/2/(benchKC*r.Size)) / k.NR * k.NR
		a := filled(k, mc*benchKC)
		bb := filled(k, nc*benchKC)
		ldc := mc
		c := filled(k, ldc*nc)
		alpha, beta := one(k), one(k)
		aStep, bStep := k.MR*benchKC*r.Size, k.NR*benchKC*r.Size
		measure(b, k, 2*float64(mc*nc*benchKC), func() {
			for jr := 0; jr < nc/k.NR; jr++ {
				for ir := 0; ir < mc/k.MR; ir++ {
					fn(benchKC, &a[ir*aStep], &bb[jr*bStep], &c[(jr*k.NR*ldc+ir*k.MR)*r.Size],
						1, ldc, k.MR, k.NR, alpha, beta)
				}
			}
		})
	})
}

// BenchmarkKernelSmall is one kernel call of depth 64 (a 64×64×64 product's
// share): prologue and epilogue weigh here.
func BenchmarkKernelSmall(b *testing.B) {
	benchKernels(b, func(b *testing.B, k *kernels.Kernel, fn kernels.Func) {
		for _, kc := range []int{16, 64} {
			a := filled(k, k.MR*kc)
			bb := filled(k, k.NR*kc)
			c := filled(k, k.MR*k.NR)
			alpha, beta := one(k), one(k)
			b.Run(fmt.Sprintf("k=%d", kc), func(b *testing.B) {
				measure(b, k, 2*float64(k.MR*k.NR*kc), func() {
					fn(kc, &a[0], &bb[0], &c[0], 1, k.MR, k.MR, k.NR, alpha, beta)
				})
			})
		}
	})
}

// benchDirect calls f for the direct kernel of every row this machine can
// run in assembly.
func benchDirect(b *testing.B, f func(b *testing.B, k *kernels.Kernel)) {
	benchRows(b, func(k *kernels.Kernel) bool { return k.Direct != nil }, f)
}

// benchRows calls f for every kernel row of this machine's paths that has
// what has asks for (a family in assembly).
func benchRows(b *testing.B, has func(k *kernels.Kernel) bool, f func(b *testing.B, k *kernels.Kernel)) {
	for _, isa := range Available() {
		for i := range kernels.Kernels {
			k := &kernels.Kernels[i]
			if k.ISA == isa && has(k) {
				b.Run(k.Name, func(b *testing.B) { f(b, k) })
			}
		}
	}
}

// BenchmarkDirect runs the direct kernel over a whole n×n×n product as a
// driver would, with nothing packed: column-major A, B and C (leading
// dimension n), one call per row block running its column tiles in turn,
// depth n in one step, alpha = 1 and beta = 0; edge tiles get their m and n
// (n = 100 has them in both directions).
func BenchmarkDirect(b *testing.B) {
	benchDirect(b, func(b *testing.B, k *kernels.Kernel) {
		r, _ := spec.RealByName(k.Real)
		sz := r.Size
		for _, n := range []int{64, 100, 256} {
			a, bb, c := filled(k, n*n), filled(k, n*n), filled(k, n*n)
			alpha := one(k)
			beta := make([]byte, 8)
			b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
				measure(b, k, 2*float64(n*n*n), func() {
					for i := 0; i < n; i += k.MR {
						k.Direct(n, &a[i*sz], n, &bb[0], 1, n, &c[i*sz], 1, n,
							min(k.MR, n-i), n, alpha, &beta[0], 0)
					}
				})
			})
		}
	})
}

// BenchmarkPackers packs one sliver of depth benchKC with each assembly
// packer on its two fast paths, the source holding exactly the sliver's
// bytes: "copy" has rowStep 1 (kStep w), "transpose" kStep 1 (rowStep
// benchKC); and with the 1e and 1r packers, where there are, from
// adjacent complex elements. It reports the rate (GB/s) and %copy, the rate as a share of
// a plain copy of the same bytes (the best of alternating runs).
func BenchmarkPackers(b *testing.B) {
	benchDirect(b, func(b *testing.B, k *kernels.Kernel) {
		r, _ := spec.RealByName(k.Real)
		for _, op := range []struct {
			name string
			w    int
			fn   kernels.PackFunc
		}{{"packa", k.MR, k.PackA}, {"packb", k.NR, k.PackB}} {
			bytes := op.w * benchKC * r.Size
			src, dst := filled(k, op.w*benchKC), filled(k, op.w*benchKC)
			for _, path := range []struct {
				name   string
				rs, ks int
			}{{"copy", 1, op.w}, {"transpose", benchKC, 1}} {
				pack := func() { op.fn(&dst[0], &src[0], op.w, benchKC, path.rs, path.ks) }
				b.Run(op.name+"/"+path.name, func(b *testing.B) {
					for b.Loop() {
						pack()
					}
					b.ReportMetric(float64(bytes)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GB/s")
					from, to := filled(k, op.w*benchKC), filled(k, op.w*benchKC)
					b.ReportMetric(100*shareOfCopy(func() { copy(to, from) }, pack), "%copy")
				})
			}
		}
		if k.Pack1e == nil {
			return
		}
		// The 1m packers from adjacent complex elements: 1e writes w/2 of
		// them a step twice (as they are and rotated), 1r nr of them once;
		// the bytes counted and copied are the source's.
		for _, op := range []struct {
			name    string
			w, rows int
			dst     int
			fn      kernels.PackFunc
		}{{"pack1e", k.MR, k.MR / 2, 2 * k.MR, k.Pack1e}, {"pack1r", 2 * k.NR, k.NR, 2 * k.NR, k.Pack1r}} {
			bytes := op.w * benchKC * r.Size
			src, dst := filled(k, op.w*benchKC), filled(k, op.dst*benchKC)
			pack := func() { op.fn(&dst[0], &src[0], op.rows, benchKC, 2, op.w) }
			b.Run(op.name+"/copy", func(b *testing.B) {
				for b.Loop() {
					pack()
				}
				b.ReportMetric(float64(bytes)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GB/s")
				from, to := filled(k, op.w*benchKC), filled(k, op.w*benchKC)
				b.ReportMetric(100*shareOfCopy(func() { copy(to, from) }, pack), "%copy")
			})
		}
	})
}

// shareOfCopy is pack's rate as a fraction of copy's on the same bytes: the
// best of short runs of each, taken in turn for about 20 ms.
func shareOfCopy(copyFn, pack func()) float64 {
	const reps = 16
	best := func(f func()) time.Duration {
		t := time.Now()
		for range reps {
			f()
		}
		return time.Since(t)
	}
	bc, bp := best(copyFn), best(pack)
	for end := time.Now().Add(20 * time.Millisecond); time.Now().Before(end); {
		bc, bp = min(bc, best(copyFn)), min(bp, best(pack))
	}
	return float64(bc) / float64(bp)
}
