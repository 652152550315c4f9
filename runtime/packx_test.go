package runtime

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"

	"github.com/tcontract/tcontract/generated/kernels"
	"github.com/tcontract/tcontract/internal/spec"
)

// The cross-sliver packers: every assembly PackX this machine can run
// against its twin and every twin against a plain loop, bit for bit, for
// 0 to lanes+1 slivers, every row count, depths around the chunking, row
// and depth steps of either sign (and 0), slivers packed apart, adjacent
// or in reverse order, the source abutting a PROT_NONE page at either end
// and canaries around and between the slivers.
func TestPackX(t *testing.T) {
	avail := Available()
	for i := range kernels.Kernels {
		k := &kernels.Kernels[i]
		if k.PackXGo == nil {
			if k.PackX != nil {
				t.Errorf("%s: PackX without a twin", k.Name)
			}
			continue
		}
		asm := k.PackX
		if !slices.Contains(avail, k.ISA) {
			asm = nil
		}
		isa, _ := spec.ISAByName(k.ISA)
		t.Run(k.Name, func(t *testing.T) {
			t.Parallel()
			if k.Real == "float32" {
				checkPackX[float32](t, k.MR, isa.Lanes(4), asm, k.PackXGo)
			} else {
				checkPackX[float64](t, k.MR, isa.Lanes(8), asm, k.PackXGo)
			}
		})
	}
}

func checkPackX[T real](t *testing.T, w, lanes int, asm, twin kernels.PackXFunc) {
	rng := rand.New(rand.NewPCG(uint64(w), uint64(lanes)))
	size := int(unsafe.Sizeof(T(0)))
	cn := canary[T]()
	const maxK = 70
	src := newRegion[T](t, (maxK+2)*(lanes+3)*(w+3)*2+64)
	steps := []struct {
		name   string
		rs, ks func(sl, rows, k int) int
	}{
		{"rows-apart", func(sl, _, _ int) int { return sl + 3 }, func(sl, rows, _ int) int { return (sl + 3) * rows }},
		{"depth-inner", func(sl, _, k int) int { return (sl + 1) * (k + 1) }, func(sl, _, _ int) int { return sl + 1 }},
		{"negative", func(sl, _, _ int) int { return -(sl + 2) }, func(sl, rows, _ int) int { return -(sl + 2) * (rows + 1) }},
		{"mixed", func(sl, _, k int) int { return -(sl + 1) * (k + 2) }, func(sl, _, _ int) int { return lanes + 1 }},
		{"zero-depth", func(sl, _, _ int) int { return lanes }, func(int, int, int) int { return 0 }},
		{"zero-rows", func(int, int, int) int { return 0 }, func(int, int, int) int { return lanes + 5 }},
		{"overlap", func(int, int, int) int { return 1 }, func(int, int, int) int { return 2 }},
	}
	pick := 0
	for _, k := range []int{0, 1, 2, 3, 7, 8, 9, 16, 33, maxK} {
		for sl := 0; sl <= lanes+1; sl++ {
			n := min(max(sl, 0), lanes) // slivers written
			for rows := 0; rows <= w; rows++ {
				if k > 9 && !slices.Contains([]int{0, 1, w / 2, w - 1, w}, rows) {
					continue
				}
				for si, st := range steps {
					pick++
					rs, ks := st.rs(sl, rows, k), st.ks(sl, rows, k)
					atEnd := (pick+si)%2 == 0
					lo, hi := span2(rows, rs, k, ks)
					if hi >= lo && n > 0 {
						hi += n - 1
					}
					if n == 0 {
						lo, hi = 0, -1
					}
					buf, org := src.place(t, lo, hi, atEnd)
					if hi >= lo {
						for i := org + lo; i <= org+hi; i++ {
							buf[i] = T(rng.Float64()*2 - 1)
						}
					}
					// Slivers gap reals apart (or adjacent, or in reverse order).
					gap := []int{0, 5, -2 * w * k}[pick%3]
					stride := w*k + gap
					if gap < 0 {
						stride = -w * k
					}
					lead := 16
					first := lead
					if stride < 0 {
						first = lead + (lanes-1)*w*k
					}
					dst := make([]T, 2*lead+lanes*(w*k+5))
					name := func() string {
						return fmt.Sprintf("slivers=%d rows=%d k=%d %s (rowStep %d, kStep %d, sliver stride %d) guard-at-end=%v",
							sl, rows, k, st.name, rs, ks, stride, atEnd)
					}
					run := func(fn kernels.PackXFunc) []T {
						for i := range dst {
							dst[i] = cn
						}
						// ahead only asks for lines, wherever it points.
						fn(at(dst, first), at(buf, org), sl, rows, k, rs, ks, stride*size, []int{0, 64, -(1 << 30), ks * size * 8}[pick%4])
						return slices.Clone(dst)
					}
					ref := make([]T, len(dst))
					for i := range ref {
						ref[i] = cn
					}
					for j := 0; j < n && k > 0; j++ {
						for p := 0; p < k; p++ {
							for i := 0; i < w; i++ {
								v := T(0)
								if i < rows {
									v = buf[org+j+i*rs+p*ks]
								}
								ref[first+j*stride+p*w+i] = v
							}
						}
					}
					want := run(twin)
					if i := firstDiff(want, ref); i >= 0 {
						t.Fatalf("twin %s: real %d of the buffer = %v, want %v", name(), i-first, want[i], ref[i])
					}
					if asm == nil {
						continue
					}
					got := run(asm)
					if i := firstDiff(got, want); i >= 0 {
						t.Fatalf("asm %s: real %d of the buffer = %v, want %v", name(), i-first, got[i], want[i])
					}
				}
			}
		}
	}
}
