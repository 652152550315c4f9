package runtime

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"

	"github.com/tcontract/tcontract/generated/kernels"
)

// The streaming column kernel must write, bit for bit, what the row's
// column kernel writes with rsc 1, m MR and beta 0, and nothing else: for
// 0 to 5 tiles scattered in one buffer in both orders (offsets of either
// sign, every column on a line), depths around the unroll and a few
// hundred, every n ≤ NR, columns a line or more apart, alpha in {0, 1,
// −1, random}, NaN everywhere in C (never read), A's slivers ending at a
// PROT_NONE page, and the whole buffer compared.
func TestStreamKernels(t *testing.T) {
	avail := Available()
	rows := 0
	for i := range kernels.Kernels {
		k := &kernels.Kernels[i]
		if k.Stream == nil {
			continue
		}
		rows++
		if k.Tiles == nil {
			t.Fatalf("%s: Stream without Tiles", k.Name)
		}
		if !slices.Contains(avail, k.ISA) {
			continue
		}
		t.Run(k.Name, func(t *testing.T) {
			t.Parallel()
			if k.Real == "float32" {
				checkStream[float32](t, k)
			} else {
				checkStream[float64](t, k)
			}
		})
	}
	if canPrefetch && rows == 0 {
		t.Error("no row has a streaming column kernel")
	}
}

func checkStream[T real](t *testing.T, k *kernels.Kernel) {
	mr, nr := k.MR, k.NR
	size := int(unsafe.Sizeof(T(0)))
	line := lineBytes / size
	rng := rand.New(rand.NewPCG(uint64(mr), 11))
	rnd := func() T { return T(rng.Float64()*2 - 1) }
	scalars := []T{0, 1, -1, T(0.6180339887498949)}
	zero := T(0)
	pick := 0
	for _, kk := range depths(k.Unroll) {
		for _, tiles := range []int{0, 1, 2, 5} {
			a := guardedRandom(t, tiles*mr*kk, rnd)
			b := guardedRandom(t, nr*kk, rnd)
			for _, gap := range []int{0, line, 3 * line} {
				pick++
				n := pick % (nr + 1)
				alpha := scalars[pick%4]
				csc := mr + gap
				span := (nr-1)*csc + mr + line // a tile's reach and a line
				buf := make([]T, (tiles+2)*span+line)
				// origin: on a line, tiles below and above it.
				skew := (lineBytes - int(uintptr(unsafe.Pointer(&buf[0])))%lineBytes) % lineBytes / size
				origin := skew + tiles/2*span
				offs := make([]int64, max(tiles, 1))
				for i := range tiles {
					slot := i
					if pick%2 == 1 {
						slot = tiles - 1 - i
					}
					offs[i] = int64((slot - tiles/2) * span * size)
				}
				for i := range buf {
					buf[i] = T(math.NaN())
				}
				aheadAt, aheadStep := uintptr(unsafe.Pointer(ptr(a))), []int{0, lineBytes, -(1 << 30), 1 << 20}[pick%4]
				name := fmt.Sprintf("k=%d tiles=%d n=%d alpha=%v csc=%d ahead step %d", kk, tiles, n, alpha, csc, aheadStep)
				run := func(fn kernels.TilesFunc) []T {
					out := slices.Clone(buf)
					fn(kk, ptr(a), ptr(b), (*byte)(unsafe.Pointer(&out[origin])), &offs[0], tiles, 1, csc, mr, n,
						(*byte)(unsafe.Pointer(&alpha)), (*byte)(unsafe.Pointer(&zero)))
					storeFence()
					return out
				}
				// The lines requested ahead, wherever they are, change
				// nothing: here from A, a line a step, or far off.
				stream := func(depth int, a, b, c *byte, offs *int64, tiles, rsc, csc, m, n int, alpha, beta *byte) {
					k.Stream(depth, a, b, c, offs, tiles, rsc, csc, m, n, alpha, beta, aheadAt, aheadStep)
				}
				got, want := run(stream), run(k.Tiles)
				for i := range got {
					if bitsOf(got[i]) != bitsOf(want[i]) {
						t.Fatalf("%s: element %d from c is %v, column kernel %v", name, i-origin, got[i], want[i])
					}
				}
			}
		}
	}
}
