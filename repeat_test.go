package tcontract_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	tc "github.com/tcontract/tcontract"
)

// Calls that repeat one contraction on the same operands reuse what the
// first one planned and chose (its plan, tiles and blocking), while the
// scalars, C's values and the pool change from call to call (each pool in
// pairs of calls, so that its records repeat): every result must still be
// the product's. The shapes take the direct path,
// the packed one, row maps, a batch and the cross-sliver packer.
func TestContractRepeatedFloat32(t *testing.T)    { testContractRepeated[float32](t) }
func TestContractRepeatedFloat64(t *testing.T)    { testContractRepeated[float64](t) }
func TestContractRepeatedComplex64(t *testing.T)  { testContractRepeated[complex64](t) }
func TestContractRepeatedComplex128(t *testing.T) { testContractRepeated[complex128](t) }

func testContractRepeated[T tc.Scalar](t *testing.T) {
	rng := rand.New(rand.NewPCG(5, uint64(len(typeName[T]()))))
	p3 := tc.NewPool(3)
	defer p3.Close()
	cases := []contraction{
		{a: "mk", b: "kn", c: "nm", ext: map[byte]int{'m': 37, 'n': 29, 'k': 41}},
		{a: "mk", b: "kn", c: "mn", ext: map[byte]int{'m': 32, 'n': 32, 'k': 32}},
		{a: "mk", b: "kn", c: "mn", ext: map[byte]int{'m': 70, 'n': 60, 'k': 80}},
		{a: "dega", b: "gfbc", c: "abcdef", ext: map[byte]int{'a': 5, 'b': 4, 'c': 6, 'd': 5, 'e': 7, 'f': 6, 'g': 9}},
		{a: "bmk", b: "bkn", c: "bmn", ext: map[byte]int{'b': 6, 'm': 70, 'n': 50, 'k': 90}},
		{a: "dbea", b: "ec", c: "abcd", ext: map[byte]int{'a': 20, 'b': 3, 'c': 5, 'd': 48, 'e': 37}},
	}
	for _, k := range cases {
		a := makeView(rng, k.shape(k.a), rowMajor, func() T { return randValue[T](rng) })
		b := makeView(rng, k.shape(k.b), rowMajor, func() T { return randValue[T](rng) })
		c := outputView[T](rng, k.shape(k.c), rowMajor, false)
		for i := 0; i < 8; i++ {
			var opts []tc.Option
			if i%4 >= 2 {
				opts = append(opts, tc.WithPool(p3))
			}
			alpha, beta := scalarCase[T](rng, rng.IntN(4)), scalarCase[T](rng, rng.IntN(4))
			nanC := toC(beta) == 0 && i%2 == 0 // beta 0 never reads C
			for _, j := range viewIndices(c) {
				c.Data[j] = randValue[T](rng)
				if nanC {
					c.Data[j] = nan[T]()
				}
			}
			what := fmt.Sprintf("%s %s call %d alpha=%v beta=%v", typeName[T](), k.spec(), i, alpha, beta)
			ref := reference(k.spec(), alpha, a, b, beta, c)
			if err := tc.Contract(k.spec(), alpha, a, b, beta, c, opts...); err != nil {
				t.Fatalf("%s: %v", what, err)
			}
			checkResult(t, what, c, ref)
			if i := outsideUntouched(c); i >= 0 {
				t.Fatalf("%s: wrote C.Data[%d], outside C's view", what, i)
			}
		}
	}
}
