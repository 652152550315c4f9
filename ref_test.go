package tcontract_test

import (
	"math"
	"math/cmplx"
	"math/rand/v2"
	"strings"
	"testing"

	tc "github.com/tcontract/tcontract"
	"github.com/tcontract/tcontract/generated/typed"
)

// The reference: a plain nested loop over every label, in complex128, with
// the magnitude of what was summed kept beside the sum to size the tolerance.

func toC[T tc.Scalar](x T) complex128 {
	switch v := any(x).(type) {
	case float32:
		return complex(float64(v), 0)
	case float64:
		return complex(v, 0)
	case complex64:
		return complex128(v)
	case complex128:
		return v
	}
	panic("unreachable")
}

func fromC[T tc.Scalar](z complex128) T {
	var t T
	switch any(t).(type) {
	case float32:
		return any(float32(real(z))).(T)
	case float64:
		return any(real(z)).(T)
	case complex64:
		return any(complex64(z)).(T)
	case complex128:
		return any(z).(T)
	}
	panic("unreachable")
}

func isComplex[T tc.Scalar]() bool { return typed.OpsOf[T]().Type.Complex }

func tolOf[T tc.Scalar]() float64 { return typed.OpsOf[T]().Type.Tol }

func typeName[T tc.Scalar]() string { return typed.OpsOf[T]().Type.Name }

// at is the element of t at the coordinates idx.
func at[T tc.Scalar](t tc.Tensor[T], idx []int) T {
	return t.Data[index(t, idx)]
}

func index[T tc.Scalar](t tc.Tensor[T], idx []int) int {
	off := t.Offset
	st := denseStrides(t)
	for d, i := range idx {
		off += i * st[d]
	}
	return off
}

func denseStrides[T tc.Scalar](t tc.Tensor[T]) []int {
	if t.Strides != nil {
		return t.Strides
	}
	s := make([]int, len(t.Shape))
	step := 1
	for d := len(t.Shape) - 1; d >= 0; d-- {
		s[d] = step
		step *= max(t.Shape[d], 1)
	}
	return s
}

// refResult is the expected C and, per element, the scale of its rounding
// error: |alpha|·Σ|a·b| + |beta·c|, and the number of terms summed.
type refResult struct {
	want  []complex128 // by C's row-major linear index
	scale []float64
	terms int
}

// reference evaluates spec over the tensors. C's prior values are read
// unless beta is 0.
func reference[T tc.Scalar](spec string, alpha T, a, b tc.Tensor[T], beta T, c tc.Tensor[T]) refResult {
	arrow := strings.Index(spec, "->")
	comma := strings.IndexByte(spec, ',')
	lab := [3]string{spec[:comma], spec[comma+1 : arrow], spec[arrow+2:]}
	ts := [3]tc.Tensor[T]{a, b, c}
	// Distinct labels, C's first (in C's order), then the summed ones.
	var labels []byte
	pos := map[byte]int{}
	add := func(l byte) {
		if _, ok := pos[l]; !ok {
			pos[l] = len(labels)
			labels = append(labels, l)
		}
	}
	for _, ls := range []string{lab[2], lab[0], lab[1]} {
		for i := range ls {
			add(ls[i])
		}
	}
	nC := len(lab[2])
	ext := make([]int, len(labels))
	var st [3][]int
	for o := 0; o < 3; o++ {
		st[o] = make([]int, len(labels))
		ds := denseStrides(ts[o])
		for i := range lab[o] {
			p := pos[lab[o][i]]
			ext[p] = ts[o].Shape[i]
			st[o][p] += ds[i]
		}
	}
	terms, nc := 1, 1
	for p := range labels {
		if p < nC {
			nc *= ext[p]
		} else {
			terms *= ext[p]
		}
	}
	res := refResult{want: make([]complex128, nc), scale: make([]float64, nc), terms: terms}
	al, be := toC(alpha), toC(beta)
	val := make([]int, len(labels))
	for lin := 0; lin < nc; lin++ {
		r := lin
		for p := nC - 1; p >= 0; p-- {
			val[p] = r % ext[p]
			r /= ext[p]
		}
		var s complex128
		var mag float64
		for t := 0; t < terms; t++ {
			r := t
			for p := nC; p < len(labels); p++ {
				val[p] = r % ext[p]
				r /= ext[p]
			}
			ia, ib := a.Offset, b.Offset
			for p, v := range val {
				ia += v * st[0][p]
				ib += v * st[1][p]
			}
			x := toC(a.Data[ia]) * toC(b.Data[ib])
			s += x
			mag += cmplx.Abs(x)
		}
		w := al * s
		scale := cmplx.Abs(al) * mag
		if be != 0 {
			ic := c.Offset
			for p := 0; p < nC; p++ {
				ic += val[p] * st[2][p]
			}
			old := toC(c.Data[ic])
			w += be * old
			scale += cmplx.Abs(be * old)
		}
		res.want[lin] = w
		res.scale[lin] = scale
	}
	return res
}

// checkResult compares C's view with the reference element by element.
func checkResult[T tc.Scalar](t *testing.T, what string, c tc.Tensor[T], ref refResult) {
	t.Helper()
	tol := tolOf[T]() * float64(ref.terms+2)
	idx := make([]int, len(c.Shape))
	bad := 0
	for lin := range ref.want {
		r := lin
		for d := len(c.Shape) - 1; d >= 0; d-- {
			idx[d] = r % c.Shape[d]
			r /= c.Shape[d]
		}
		got := toC(at(c, idx))
		want := ref.want[lin]
		if !near(got, want, tol*ref.scale[lin]) {
			if bad < 5 {
				t.Errorf("%s: C%v = %v, want %v (scale %g)", what, idx, got, want, ref.scale[lin])
			}
			bad++
		}
	}
	if bad > 0 {
		t.Errorf("%s: %d of %d elements wrong", what, bad, len(ref.want))
	}
}

func near(got, want complex128, tol float64) bool {
	if cmplx.IsNaN(want) {
		return cmplx.IsNaN(got)
	}
	if cmplx.IsInf(want) {
		return got == want
	}
	return cmplx.Abs(got-want) <= tol+1e-300
}

// randValue is a random element with components in [-1, 1).
func randValue[T tc.Scalar](rng *rand.Rand) T {
	re := rng.Float64()*2 - 1
	im := 0.0
	if isComplex[T]() {
		im = rng.Float64()*2 - 1
	}
	return fromC[T](complex(re, im))
}

// sentinel marks storage outside C's view: any write to it is caught.
func sentinel[T tc.Scalar]() T { return fromC[T](complex(-12345.5, 777.25)) }

func nan[T tc.Scalar]() T { return fromC[T](complex(math.NaN(), math.NaN())) }
