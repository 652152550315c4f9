package tcontract_test

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	tc "github.com/tcontract/tcontract"
	"github.com/tcontract/tcontract/runtime"
)

// FuzzParseSpec: the parser never panics, accepts exactly the specs of the
// design's grammar, and gives them back unchanged.
func FuzzParseSpec(f *testing.F) {
	for _, s := range []string{"ab,bc->ac", ",->", "abcd,cdef->abef", "ii,->i", "a,b->ab", "ab,bc", "a->a", "a,a->aa", "aB,Bc->ac", "é,->"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sp, err := runtime.ParseSpec(s)
		if err != nil {
			if !errors.Is(err, tc.ErrSpec) {
				t.Fatalf("%q: error %v does not wrap ErrSpec", s, err)
			}
			return
		}
		if sp.String() != s {
			t.Fatalf("%q parsed back as %q", s, sp.String())
		}
		for _, part := range []string{sp.A, sp.B, sp.C} {
			for i := 0; i < len(part); i++ {
				c := part[i]
				if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
					t.Fatalf("%q: accepted label %q", s, c)
				}
			}
		}
		for i := 0; i < len(sp.C); i++ {
			if strings.IndexByte(sp.C[i+1:], sp.C[i]) >= 0 {
				t.Fatalf("%q: accepted a repeated output label", s)
			}
			if !strings.Contains(sp.A+sp.B, sp.C[i:i+1]) {
				t.Fatalf("%q: accepted an output-only label", s)
			}
		}
	})
}

// FuzzContract: small random contractions, drawn from the fuzzer's seeds,
// against the reference, with canaries around C.
func FuzzContract(f *testing.F) {
	for i := uint64(0); i < 16; i++ {
		f.Add(i, i*7919, uint8(i))
	}
	f.Fuzz(func(t *testing.T, s1, s2 uint64, kind uint8) {
		rng := rand.New(rand.NewPCG(s1, s2))
		k := randomContraction(rng)
		la, lb, lc := layout(rng.IntN(int(numLayouts))), layout(rng.IntN(int(numLayouts))), layout(rng.IntN(int(numLayouts)))
		switch kind % 4 {
		case 0:
			runCase(t, rng, k, la, lb, lc, scalarCase[float32](rng, int(kind)), scalarCase[float32](rng, int(kind/4)))
		case 1:
			runCase(t, rng, k, la, lb, lc, scalarCase[float64](rng, int(kind)), scalarCase[float64](rng, int(kind/4)))
		case 2:
			runCase(t, rng, k, la, lb, lc, scalarCase[complex64](rng, int(kind)), scalarCase[complex64](rng, int(kind/4)))
		default:
			runCase(t, rng, k, la, lb, lc, scalarCase[complex128](rng, int(kind)), scalarCase[complex128](rng, int(kind/4)))
		}
	})
}
