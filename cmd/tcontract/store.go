package main

import (
	"unsafe"

	"github.com/tcontract/tcontract"
)

// store keeps the memory of the three operands (A, B, C) from one unit of
// the suite to the next. A TCCG case needs up to 1.4 GB; allocating it per
// case costs the OS's page faults on every byte each time (seconds per
// case on a VM), while reusing it costs one fill at memory speed.
//
// Slabs are []uint64, so every element type (alignment at most 8) can view
// them, and one slab serves float32 and complex128 cases alike.
type store struct {
	slabs [3][]uint64
}

// slab returns operand i's memory as n elements of T, growing the slab
// when it is too small. The contents are left as they were: callers fill.
func slab[T tcontract.Scalar](st *store, i, n int) []T {
	if n == 0 {
		return nil
	}
	size := int(unsafe.Sizeof(*new(T)))
	words := (n*size + 7) / 8
	if cap(st.slabs[i]) < words {
		st.slabs[i] = nil // let the collector take the old one first
		st.slabs[i] = make([]uint64, words)
	}
	return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(st.slabs[i]))), n)
}

// reserve grows operand i's slab to at least bytes at once, so a suite
// whose operands grow case by case pays the page faults of its largest
// case only, not of every size on the way.
func (st *store) reserve(i, bytes int) {
	if words := (bytes + 7) / 8; cap(st.slabs[i]) < words {
		st.slabs[i] = nil
		st.slabs[i] = make([]uint64, words)
	}
}
