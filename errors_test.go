package tcontract_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	tc "github.com/tcontract/tcontract"
)

func errorIs(err, target error) bool { return errors.Is(err, target) }

// Every bad input of the design's list gets its sentinel error, and changes
// nothing: not C, not A, not B.
func TestBadInput(t *testing.T) {
	buf := func(n int) []float64 {
		d := make([]float64, n)
		for i := range d {
			d[i] = float64(i) + 0.5
		}
		return d
	}
	a := tc.Dense(buf(6), 2, 3)
	b := tc.Dense(buf(12), 3, 4)
	c := tc.Dense(buf(8), 2, 4)
	shared := buf(64)
	huge := math.MaxInt / 2

	type call struct {
		name    string
		spec    string // "" means Gemm
		a, b, c tc.Tensor[float64]
		want    error
		mention string // a word the message must contain
	}
	cases := []call{
		{"no arrow", "ij,jk", a, b, c, tc.ErrSpec, "->"},
		{"no comma", "ij->ik", a, b, c, tc.ErrSpec, "A,B"},
		{"digit label", "i1,1k->ik", a, b, c, tc.ErrSpec, "letter"},
		{"space", "ij, jk->ik", a, b, c, tc.ErrSpec, "letter"},
		{"label only in C", "ij,jk->iz", a, b, c, tc.ErrSpec, "only in C"},
		{"label twice in C", "ij,jk->ii", a, b, tc.Dense(buf(4), 2, 2), tc.ErrSpec, "twice"},
		{"rank of A", "ijx,jk->ik", a, b, c, tc.ErrShape, "rank"},
		{"rank of C", "ij,jk->i", a, b, c, tc.ErrShape, "rank"},
		{"gemm rank", "", tc.Dense(buf(6), 1, 2, 3), b, c, tc.ErrShape, "rank"},
		{"strides length", "ij,jk->ik", tc.Tensor[float64]{Data: buf(6), Shape: []int{2, 3}, Strides: []int{3}}, b, c, tc.ErrShape, "strides"},
		{"negative extent", "ij,jk->ik", tc.Tensor[float64]{Data: buf(6), Shape: []int{2, -3}}, b, c, tc.ErrShape, "negative"},
		{"two extents", "ij,jk->ik", a, tc.Dense(buf(16), 4, 4), c, tc.ErrShape, "extent"},
		{"diagonal extents", "ii,ik->ik", a, b, c, tc.ErrShape, "extent"},
		{"A too short", "ij,jk->ik", tc.Dense(buf(5), 2, 3), b, c, tc.ErrBounds, "length"},
		{"C too short", "ij,jk->ik", a, b, tc.Dense(buf(7), 2, 4), tc.ErrBounds, "C"},
		{"negative offset", "ij,jk->ik", tc.Tensor[float64]{Data: buf(6), Shape: []int{2, 3}, Offset: -1}, b, c, tc.ErrBounds, "offset"},
		{"negative stride below 0", "ij,jk->ik", tc.Tensor[float64]{Data: buf(6), Shape: []int{2, 3}, Strides: []int{-3, 1}}, b, c, tc.ErrBounds, "A"},
		{"offset past end", "ij,jk->ik", tc.Tensor[float64]{Data: buf(6), Shape: []int{2, 3}, Offset: 1}, b, c, tc.ErrBounds, "A"},
		{"overflow", "ij,jk->ik", tc.Tensor[float64]{Data: buf(6), Shape: []int{2, 3}, Strides: []int{huge, huge}}, b, c, tc.ErrBounds, "overflow"},
		{"C overlaps A", "ij,jk->ik", tc.Dense(shared[:6], 2, 3), b, tc.Dense(shared[4:12], 2, 4), tc.ErrOverlap, "A"},
		{"C overlaps B", "ij,jk->ik", a, tc.Dense(shared[20:32], 3, 4), tc.Tensor[float64]{Data: shared, Shape: []int{2, 4}, Offset: 28}, tc.ErrOverlap, "B"},
		{"C zero stride", "ij,jk->ik", a, b, tc.Tensor[float64]{Data: buf(8), Shape: []int{2, 4}, Strides: []int{0, 1}}, tc.ErrOverlap, "C"},
		{"C aliased coordinates", "ij,jk->ik", a, b, tc.Tensor[float64]{Data: buf(8), Shape: []int{2, 4}, Strides: []int{1, 1}}, tc.ErrOverlap, "C"},
	}
	for _, k := range cases {
		t.Run(k.name, func(t *testing.T) {
			before := [3][]float64{append([]float64(nil), k.a.Data...), append([]float64(nil), k.b.Data...), append([]float64(nil), k.c.Data...)}
			var err error
			if k.spec == "" {
				err = tc.Gemm(2, k.a, k.b, 3, k.c)
			} else {
				err = tc.Contract(k.spec, 2, k.a, k.b, 3, k.c)
			}
			if !errors.Is(err, k.want) {
				t.Fatalf("err = %v, want %v", err, k.want)
			}
			if !strings.Contains(err.Error(), k.mention) {
				t.Errorf("message %q does not mention %q", err, k.mention)
			}
			for o, d := range [3][]float64{k.a.Data, k.b.Data, k.c.Data} {
				for i := range d {
					if d[i] != before[o][i] && !(math.IsNaN(d[i]) && math.IsNaN(before[o][i])) {
						t.Fatalf("operand %d element %d changed from %v to %v", o, i, before[o][i], d[i])
					}
				}
			}
		})
	}
}

// Zero strides are allowed in inputs: they broadcast.
func TestBroadcastInputs(t *testing.T) {
	a := tc.Tensor[float64]{Data: []float64{2}, Shape: []int{3, 4}, Strides: []int{0, 0}}
	b := tc.Dense([]float64{1, 2, 3, 4}, 4, 1)
	c := tc.Dense(make([]float64, 3), 3, 1)
	if err := tc.Gemm(1, a, b, 0, c); err != nil {
		t.Fatal(err)
	}
	for i, v := range c.Data {
		if v != 20 {
			t.Fatalf("C[%d] = %v, want 20", i, v)
		}
	}
}

// An extent of 0 means no product: C becomes beta·C, or zeros for beta 0.
func TestZeroExtent(t *testing.T) {
	a := tc.Dense([]float64{}, 2, 0)
	b := tc.Dense([]float64{}, 0, 3)
	c := tc.Dense([]float64{1, 2, 3, 4, 5, math.NaN()}, 2, 3)
	if err := tc.Gemm(1, a, b, 2, c); err != nil {
		t.Fatal(err)
	}
	for i, want := range []float64{2, 4, 6, 8, 10} {
		if c.Data[i] != want {
			t.Fatalf("beta·C: C[%d] = %v, want %v", i, c.Data[i], want)
		}
	}
	if err := tc.Gemm(1, a, b, 0, c); err != nil {
		t.Fatal(err)
	}
	for i, v := range c.Data {
		if v != 0 {
			t.Fatalf("beta 0: C[%d] = %v, want 0", i, v)
		}
	}
}
