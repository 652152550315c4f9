package x86

import "github.com/mmcloughlin/avo/reg"

// Z, Y and X return vector register i at 512, 256 and 128 bits.
func Z(i int) reg.VecPhysical { return vec(i, reg.S512) }
func Y(i int) reg.VecPhysical { return vec(i, reg.S256) }
func X(i int) reg.VecPhysical { return vec(i, reg.S128) }

func vec(i int, s reg.Spec) reg.VecPhysical {
	r := reg.Vector.Lookup(reg.Index(i), s)
	if r == nil {
		panic("no vector register")
	}
	return r.(reg.VecPhysical)
}

// Opmask returns K<i>.
func Opmask(i int) reg.Physical {
	for _, r := range []reg.Physical{reg.K0, reg.K1, reg.K2, reg.K3, reg.K4, reg.K5, reg.K6, reg.K7} {
		if int(r.PhysicalIndex()) == i {
			return r
		}
	}
	panic("no opmask register")
}
