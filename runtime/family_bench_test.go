package runtime

import (
	"testing"
	"unsafe"

	"github.com/tcontract/tcontract/generated/kernels"
	"github.com/tcontract/tcontract/internal/spec"
)

// The kernel families that write C in a way of their own, each beside the
// column kernel on the same tiles, so that what the way costs or saves is
// the gap between two rows of one run.

// ccsdDepth and ccsdRun are TCCG's ccsd_t contractions' depth and the
// length of the runs of C's rows there (float32 extents: 20).
const ccsdDepth, ccsdRun = 24, 20

// BenchmarkKernelRuns is one tile of the row-map kernel (kernels.RunsFunc)
// at the ccsd_t depth, its rows in runs of ccsdRun as those contractions'
// C has them (runs one column block apart, columns a run apart), against
// the column kernel on the same tile with its rows adjacent; both at beta
// 0 into a C that stays in L1, with A's slivers taken in turn from an
// L1-sized block. The gap is the row map's own cost: two masked stores
// for each vector that straddles two runs, and the map's loads.
func BenchmarkKernelRuns(b *testing.B) {
	benchRows(b, func(k *kernels.Kernel) bool { return k.Runs != nil }, func(b *testing.B, k *kernels.Kernel) {
		r, _ := spec.RealByName(k.Real)
		lanes := vecLanes(k, r.Size)
		const slivers = 4
		a := filled(k, slivers*k.MR*ccsdDepth)
		bb := filled(k, k.NR*ccsdDepth)
		alpha, zero := one(k), make([]byte, 8)
		// Runs of ccsdRun rows, NR columns a run apart: each run's block
		// holds NR runs.
		block := ccsdRun * k.NR
		off := make([]int64, k.MR)
		for i := range off {
			off[i] = int64(i/ccsdRun*block + i%ccsdRun)
		}
		words := rowMapWords(k.MR, lanes)
		rm := make([]int64, 2*words) // the map and the next, read for prefetches
		if !buildRowMap(rm[:words], off, k.MR, lanes, 1, r.Size, r.Size) {
			b.Fatalf("no row map for runs of %d", ccsdRun)
		}
		copy(rm[words:], rm[:words])
		cols := make([]int64, k.NR)
		for j := range cols {
			cols[j] = int64(j * ccsdRun * r.Size)
		}
		c := filled(k, (k.MR/ccsdRun+1)*block)
		sliver := k.MR * ccsdDepth * r.Size
		flops := 2 * float64(k.MR*k.NR*ccsdDepth)
		var offs int64
		for _, way := range []string{"runs", "column"} {
			b.Run(way, func(b *testing.B) {
				t := 0
				measure(b, k, flops, func() {
					ap := &a[t%slivers*sliver]
					t++
					if way == "runs" {
						k.Runs(ccsdDepth, ap, &bb[0], &c[0], &rm[0], &cols[0], k.NR, alpha, &zero[0])
						return
					}
					k.Tiles(ccsdDepth, ap, &bb[0], &c[0], &offs, 1, 1, k.MR, k.MR, k.NR, alpha, &zero[0])
				})
			})
		}
	})
}

// streamDepth is TCCG abcde-ecbfa-fd's depth, whose C the streaming kernel
// writes.
const streamDepth = 48

// streamBlock is how many adjacent tiles BenchmarkKernelStream's scattered
// order writes before it jumps: abcde-ecbfa-fd's 24 columns.
const streamBlock = 4

// BenchmarkKernelStream writes tiles into a C of 256 MiB (beyond the
// caches, as a streamed C is) with the streaming kernel (kernels.StreamFunc:
// non-temporal stores, beta 0) and with the column kernel, at
// abcde-ecbfa-fd's depth, each tile's columns adjacent, in two orders:
//   - "inorder": tile after tile, C written as one run of whole lines;
//   - "scattered": blocks of streamBlock adjacent tiles, each block far
//     from the last, as abcde-ecbfa-fd's C takes them (a block of its 24
//     columns, then the next value of a, 6 MB on).
//
// The column kernel's stores read each line first, and the hardware
// fetches those reads ahead only along a run; the streaming kernel's
// stores read nothing.
func BenchmarkKernelStream(b *testing.B) {
	benchRows(b, func(k *kernels.Kernel) bool { return k.Stream != nil }, func(b *testing.B, k *kernels.Kernel) {
		r, _ := spec.RealByName(k.Real)
		const slivers, run = 4, 64 // tiles per timed call
		a := filled(k, slivers*k.MR*streamDepth)
		bb := filled(k, k.NR*streamDepth)
		alpha, zero := one(k), make([]byte, 8)
		tileBytes := k.MR * k.NR * r.Size
		c := filled(k, (256<<20)/r.Size)
		blocks := len(c) / tileBytes / streamBlock
		sliver := k.MR * streamDepth * r.Size
		flops := 2 * float64(k.MR*k.NR*streamDepth*run)
		var offs int64
		// No next block is fetched: the request names a line of alpha.
		ahead := uintptr(unsafe.Pointer(alpha))
		for _, order := range []string{"inorder", "scattered"} {
			// Block q of the visit is block q·hop of C (mod blocks), hop
			// prime to blocks so that every block is visited.
			hop := 1
			if order == "scattered" {
				for hop = blocks / 37; gcd(hop, blocks) != 1; hop++ {
				}
			}
			for _, way := range []string{"stream", "column"} {
				b.Run(order+"/"+way, func(b *testing.B) {
					t := 0
					measure(b, k, flops, func() {
						for range run {
							blk := t / streamBlock * hop % blocks
							ap, cp := &a[t%slivers*sliver], &c[(blk*streamBlock+t%streamBlock)*tileBytes]
							t++
							if way == "stream" {
								k.Stream(streamDepth, ap, &bb[0], cp, &offs, 1, 1, k.MR, k.MR, k.NR, alpha, &zero[0], ahead, 0)
							} else {
								k.Tiles(streamDepth, ap, &bb[0], cp, &offs, 1, 1, k.MR, k.MR, k.NR, alpha, &zero[0])
							}
						}
						storeFence()
					})
				})
			}
		}
	})
}
