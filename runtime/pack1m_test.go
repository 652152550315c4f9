package runtime

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tcontract/tcontract/generated/kernels"
)

// The 1m packer suite: every assembly 1e and 1r packer this machine can run
// against its twin, and every twin against a plain loop, bit for bit, over
// complex rows 0…MR/2 (1e) or 0…NR (1r), depths 0…300, adjacent elements
// (the vector path) with tight, padded and negative depth steps, and
// transposed and general steps (the element path); the source abuts a
// PROT_NONE page at its last real (or first), and canaries guard the
// destination.

// layout1m is one 1m layout: w reals a sliver step, h complex rows at most,
// and ref appending the two steps of one depth step of rows elements
// (re(i), im(i) for i < rows).
type layout1m[T real] struct {
	name string
	w, h int
	ref  func(out []T, rows int, re, im func(i int) T) []T
}

func layouts1m[T real](k *kernels.Kernel) []layout1m[T] {
	e := layout1m[T]{"1e", k.MR, k.MR / 2, func(out []T, rows int, re, im func(int) T) []T {
		for col := 0; col < 2; col++ {
			for i := 0; i < k.MR/2; i++ {
				switch {
				case i >= rows:
					out = append(out, 0, 0)
				case col == 0:
					out = append(out, re(i), im(i))
				default:
					out = append(out, -im(i), re(i))
				}
			}
		}
		return out
	}}
	r := layout1m[T]{"1r", k.NR, k.NR, func(out []T, rows int, re, im func(int) T) []T {
		for _, part := range []func(int) T{re, im} {
			for j := 0; j < k.NR; j++ {
				if j < rows {
					out = append(out, part(j))
				} else {
					out = append(out, 0)
				}
			}
		}
		return out
	}}
	return []layout1m[T]{e, r}
}

func TestPack1m(t *testing.T) {
	avail := Available()
	for i := range kernels.Kernels {
		k := &kernels.Kernels[i]
		runs := slices.Contains(avail, k.ISA)
		for li, fn := range [][2]kernels.PackFunc{{k.Pack1e, k.Pack1eGo}, {k.Pack1r, k.Pack1rGo}} {
			asm, twin := fn[0], fn[1]
			if !runs {
				asm = nil
			}
			t.Run(k.Name+"/pack"+layouts1m[float32](k)[li].name, func(t *testing.T) {
				t.Parallel()
				if k.Real == "float32" {
					checkPack1m(t, layouts1m[float32](k)[li], asm, twin)
				} else {
					checkPack1m(t, layouts1m[float64](k)[li], asm, twin)
				}
			})
		}
	}
}

// pack1mSteps give (rowStep, kStep) in reals for h complex rows and depth k.
var pack1mSteps = []struct {
	name   string
	rs, ks func(h, k int) int
}{
	{"adjacent", func(int, int) int { return 2 }, func(h, _ int) int { return 2 * h }},
	{"adjacentpadded", func(int, int) int { return 2 }, func(h, _ int) int { return 2*h + 6 }},
	{"adjacentneg", func(int, int) int { return 2 }, func(h, _ int) int { return -(2*h + 4) }},
	{"transposed", func(_, k int) int { return 2 * k }, func(int, int) int { return 2 }},
	{"general", func(int, int) int { return -6 }, func(h, _ int) int { return 6*h + 10 }},
}

func checkPack1m[T real](t *testing.T, l layout1m[T], asm, twin kernels.PackFunc) {
	w, h := l.w, l.h
	rng := rand.New(rand.NewPCG(uint64(w), 11))
	cn := canary[T]()
	ks := packDepths()
	maxK := slices.Max(ks)
	src := newRegion[T](t, (maxK+8)*(w+16)*4+32)
	lead := 16
	raw := make([]T, 2*w*maxK+2*lead)
	// vals[2(i+p·h)] and the next real are re and im of element (i, p).
	vals := make([]T, 2*h*maxK)
	for i := range vals {
		vals[i] = T(rng.Float64()*2 - 1)
	}
	var got, want, ref []T
	pick := 0
	for _, k := range ks {
		dst := raw[:lead+2*w*k+lead]
		for rows := 0; rows <= h; rows++ {
			if !packAllRows(k) && !slices.Contains([]int{0, 1, h / 2, h - 1, h, k % (h + 1)}, rows) {
				continue
			}
			for si, st := range pack1mSteps {
				pick++
				rs, kst := st.rs(rows, k), st.ks(rows, k)
				atEnd := (pick+si)%2 == 0
				lo, hi := span2(rows, rs, k, kst)
				if hi >= lo {
					hi++ // the imaginary part of the last element
				}
				buf, org := src.place(t, lo, hi, atEnd)
				for p := 0; p < k; p++ {
					for i := 0; i < rows; i++ {
						e := 2 * (i + p*h)
						buf[org+i*rs+p*kst], buf[org+i*rs+p*kst+1] = vals[e], vals[e+1]
					}
				}
				name := func() string {
					return fmt.Sprintf("rows=%d k=%d %s (rowStep %d, kStep %d) guard-at-end=%v", rows, k, st.name, rs, kst, atEnd)
				}
				run := func(fn kernels.PackFunc, out []T) []T {
					for i := range dst {
						dst[i] = cn
					}
					fn(at(dst, lead), at(buf, org), rows, k, rs, kst)
					for i := 0; i < lead; i++ {
						if bitsOf(dst[i]) != bitsOf(cn) || bitsOf(dst[lead+2*w*k+i]) != bitsOf(cn) {
							t.Fatalf("%s: wrote outside the sliver", name())
						}
					}
					return append(out[:0], dst[lead:lead+2*w*k]...)
				}
				ref = ref[:0]
				for p := 0; p < k; p++ {
					re := func(i int) T { return vals[2*(i+p*h)] }
					im := func(i int) T { return vals[2*(i+p*h)+1] }
					ref = l.ref(ref, rows, re, im)
				}
				want = run(twin, want)
				if i := firstDiff(want, ref); i >= 0 {
					t.Fatalf("twin %s: real %d of step %d = %v, want %v", name(), i%w, i/w, want[i], ref[i])
				}
				if asm == nil {
					continue
				}
				got = run(asm, got)
				if i := firstDiff(got, want); i >= 0 {
					t.Fatalf("asm %s: real %d of step %d = %v, want %v", name(), i%w, i/w, got[i], want[i])
				}
			}
		}
	}
}
