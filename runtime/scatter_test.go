package runtime

import (
	"math/rand/v2"
	"testing"
)

// offsetByDivision is the reference map of a group: the offset of linear
// index l, decomposing l by division (dim 0 fastest).
func offsetByDivision(ext, stride []int, l int) int64 {
	var off int64
	for d := range ext {
		off += int64(l%ext[d]) * int64(stride[d])
		l /= ext[d]
	}
	return off
}

func TestOffsets(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	groups := []struct{ ext, stride []int }{
		{nil, nil},
		{[]int{1}, []int{5}},
		{[]int{7}, []int{1}},
		{[]int{7}, []int{-3}},
		{[]int{4, 3}, []int{1, 4}},
		{[]int{4, 3}, []int{3, 1}},       // transposed
		{[]int{2, 3, 4}, []int{0, 2, 9}}, // a broadcast dim
		{[]int{3, 1, 5, 2}, []int{-1, 100, 7, -40}},
		{[]int{1, 1, 1}, []int{3, 4, 5}},
		{[]int{5, 1, 1, 6}, []int{2, 0, 0, 11}},
		// More dims than Offsets' small coordinate array holds.
		{[]int{2, 1, 3, 1, 2, 1, 2, 1, 2}, []int{1, 7, 2, -9, 30, 0, -61, 5, 200}},
		{[]int{3, 2, 1, 1, 2, 1, 1, 2, 1, 1, 2, 1}, []int{-1, 3, 0, 8, 6, 1, 1, -12, 4, 4, 24, 2}},
	}
	for range 20 {
		rank := 1 + rng.IntN(5)
		ext, stride := make([]int, rank), make([]int, rank)
		for d := range ext {
			ext[d] = 1 + rng.IntN(4)
			stride[d] = rng.IntN(41) - 20
		}
		groups = append(groups, struct{ ext, stride []int }{ext, stride})
	}
	for _, g := range groups {
		size := 1
		for _, e := range g.ext {
			size *= e
		}
		// Every window of small groups, including empty ones and ones that
		// start or end inside a run of dim 0; random windows of larger ones.
		type window struct{ start, n int }
		var windows []window
		if size <= 40 {
			for start := 0; start <= size; start++ {
				for n := 0; start+n <= size; n++ {
					windows = append(windows, window{start, n})
				}
			}
		} else {
			windows = append(windows, window{0, size})
			for range 100 {
				start := rng.IntN(size + 1)
				windows = append(windows, window{start, rng.IntN(size - start + 1)})
			}
		}
		for _, w := range windows {
			start, n := w.start, w.n
			dst := make([]int64, n+2)
			dst[0], dst[n+1] = -77, -77 // canaries
			Offsets(dst[1:n+1], g.ext, g.stride, start)
			if dst[0] != -77 || dst[n+1] != -77 {
				t.Fatalf("ext %v stride %v start %d n %d: wrote outside dst", g.ext, g.stride, start, n)
			}
			for i := range n {
				if want := offsetByDivision(g.ext, g.stride, start+i); dst[1+i] != want {
					t.Fatalf("ext %v stride %v start %d: offset %d = %d, want %d",
						g.ext, g.stride, start, i, dst[1+i], want)
				}
			}
		}
	}
}

func TestBlockStrides(t *testing.T) {
	cases := []struct {
		off   []int64
		block int
		want  []int64
	}{
		{[]int64{0, 1, 2, 3, 4, 5, 6}, 4, []int64{1, 1}},
		{[]int64{0, 1, 2, 3, 4, 5, 6}, 3, []int64{1, 1, 1}}, // last block of one element
		{[]int64{9, 6, 3, 0}, 4, []int64{-3}},
		{[]int64{0, 2, 4, 10, 12, 14}, 3, []int64{2, 2}},
		{[]int64{0, 2, 4, 10, 12, 14}, 2, []int64{2, 6, 2}},
		{[]int64{0, 2, 4, 10, 12, 14}, 6, []int64{0}}, // irregular
		{[]int64{5, 5, 5}, 3, []int64{0}},             // all equal: no non-zero step
		{[]int64{5, 5, 5}, 2, []int64{0, 1}},
		{[]int64{3}, 8, []int64{1}},
		{[]int64{0, 1, 3, 4}, 4, []int64{0}},
		{nil, 4, nil},
	}
	for _, c := range cases {
		got := make([]int64, len(c.want)+1)
		got[len(c.want)] = -77 // canary
		BlockStrides(got[:len(c.want)], c.off, c.block)
		if got[len(c.want)] != -77 {
			t.Fatalf("off %v block %d: wrote past dst", c.off, c.block)
		}
		for b := range c.want {
			if got[b] != c.want[b] {
				t.Fatalf("off %v block %d: strides %v, want %v", c.off, c.block, got[:len(c.want)], c.want)
			}
		}
	}
}

// TestBlockStridesOfGroups checks the promise packing relies on: a non-zero
// block stride describes every offset of its block.
func TestBlockStridesOfGroups(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 200 {
		rank := 1 + rng.IntN(3)
		ext, stride := make([]int, rank), make([]int, rank)
		size := 1
		for d := range ext {
			ext[d] = 1 + rng.IntN(6)
			stride[d] = rng.IntN(13) - 6
			size *= ext[d]
		}
		block := 1 + rng.IntN(8)
		off := make([]int64, size)
		Offsets(off, ext, stride, 0)
		bs := make([]int64, (size+block-1)/block)
		BlockStrides(bs, off, block)
		for b, step := range bs {
			lo, hi := b*block, min((b+1)*block, size)
			regular := true
			for i := lo + 1; i < hi; i++ {
				if off[i]-off[i-1] != off[lo+1]-off[lo] || off[lo+1] == off[lo] {
					regular = false
				}
			}
			if hi-lo == 1 {
				if step != 1 {
					t.Fatalf("one-element block: step %d, want 1", step)
				}
				continue
			}
			if !regular && step != 0 {
				t.Fatalf("irregular block %v: step %d, want 0", off[lo:hi], step)
			}
			if regular && step != off[lo+1]-off[lo] {
				t.Fatalf("regular block %v: step %d", off[lo:hi], step)
			}
		}
	}
}

func TestScatterAllocs(t *testing.T) {
	ext, stride := []int{3, 4, 5}, []int{1, 30, 3}
	off := make([]int64, 50)
	bs := make([]int64, 7)
	if n := testing.AllocsPerRun(100, func() {
		Offsets(off, ext, stride, 7)
		BlockStrides(bs, off, 8)
	}); n != 0 {
		t.Fatalf("Offsets and BlockStrides allocate %v times per call", n)
	}
}

func BenchmarkOffsets(b *testing.B) {
	ext, stride := []int{7, 5, 9, 4}, []int{1, 70, 7, 400}
	off := make([]int64, 7*5*9*4)
	b.SetBytes(int64(len(off) * 8))
	for b.Loop() {
		Offsets(off, ext, stride, 0)
	}
}
