package runtime

import (
	"sync/atomic"

	"github.com/tcontract/tcontract/generated/typed"
)

// planKey is what a cached plan was built from. A hit compares it in full:
// two calls whose hashes collide must never share a plan, since a stale plan
// is a wrong answer.
type planKey struct {
	hash uint64
	spec string
	typ  string
	dims [3][]int // per operand: the shape, then the strides (nil strides: none)
	nils [3]bool  // per operand: strides were nil (dense row-major)
}

// The cache is direct-mapped and lock-free: a lookup is one atomic load and a
// key comparison, so a repeated call parses nothing and allocates nothing.
const planCacheSize = 512

var planCache [planCacheSize]atomic.Pointer[Plan]

// lookupPlan returns the plan of a spec, element type name and the views of
// the operands ops, from the cache or newly built (and then cached). Errors
// are not cached. The views are read in place: copied, the words the caller
// has just stored would be read back by wider loads, which stall.
func lookupPlan(spec string, t *typed.Ops, ops *[3]Operand) (*Plan, error) {
	typ := t.Type.Name
	h := hashKey(spec, typ, ops)
	slot := &planCache[h%planCacheSize]
	if p := slot.Load(); p != nil && p.key.matches(h, spec, typ, ops) {
		return p, nil
	}
	sp, err := ParseSpec(spec)
	if err != nil {
		return nil, err
	}
	p, err := NewPlan(sp, ops[opA].View, ops[opB].View, ops[opC].View, tileOf(t))
	if err != nil {
		return nil, err
	}
	p.key = planKey{hash: h, spec: spec, typ: typ}
	for o := 0; o < 3; o++ {
		v := &ops[o].View
		d := make([]int, 0, 2*len(v.Shape))
		d = append(d, v.Shape...)
		d = append(d, v.Strides...)
		p.key.dims[o] = d
		p.key.nils[o] = v.Strides == nil
	}
	slot.Store(p)
	return p, nil
}

func (k *planKey) matches(h uint64, spec, typ string, ops *[3]Operand) bool {
	return k.hash == h && k.same(spec, typ, ops)
}

// same compares the key in full, without the hash.
func (k *planKey) same(spec, typ string, ops *[3]Operand) bool {
	if k.spec != spec || k.typ != typ {
		return false
	}
	for o := 0; o < 3; o++ {
		sh, st := ops[o].Shape, ops[o].Strides
		d := k.dims[o]
		if k.nils[o] != (st == nil) || len(d) != len(sh)+len(st) {
			return false
		}
		for i, e := range sh {
			if d[i] != e {
				return false
			}
		}
		for i, s := range st {
			if d[len(sh)+i] != s {
				return false
			}
		}
	}
	return true
}

// hashKey is FNV-1a over the spec, the type and every extent and stride.
func hashKey(spec, typ string, ops *[3]Operand) uint64 {
	const prime = 1099511628211
	h := uint64(14695981039346656037)
	for i := 0; i < len(spec); i++ {
		h = (h ^ uint64(spec[i])) * prime
	}
	h = (h ^ 0xff) * prime
	for i := 0; i < len(typ); i++ {
		h = (h ^ uint64(typ[i])) * prime
	}
	for o := 0; o < 3; o++ {
		v := &ops[o].View
		h = (h ^ uint64(len(v.Shape))) * prime
		for _, e := range v.Shape {
			h = (h ^ uint64(e)) * prime
		}
		if v.Strides == nil {
			h = (h ^ 0xfeed) * prime
		}
		for _, s := range v.Strides {
			h = (h ^ uint64(s)) * prime
		}
	}
	return h
}
