package runtime

import (
	"fmt"
	"unsafe"
)

// Operand is one operand of a call: its view and the address of its backing
// slice's first element (nil for an empty slice).
type Operand struct {
	View
	Data unsafe.Pointer
}

// checkCall checks what depends on the call rather than the plan: every
// element an operand reaches lies inside its slice, and C shares no memory
// with A or B. size is the element size in bytes. ops are in the caller's
// A, B, C order (not swapped).
func (p *Plan) checkCall(ops *[3]Operand, size int) error {
	var lo, hi [3]uintptr
	for o := 0; o < 3; o++ {
		v := &ops[o].View
		if v.Offset < 0 {
			return fmt.Errorf("%w: %s has negative offset %d", ErrBounds, opNames[o], v.Offset)
		}
		if !p.has[o] {
			continue
		}
		first, ok1 := addInt(v.Offset, p.lo[o])
		last, ok2 := addInt(v.Offset, p.hi[o])
		if !ok1 || !ok2 || first < 0 || last >= v.Len {
			return fmt.Errorf("%w: %s reaches elements %d..%d of a slice of length %d (offset %d, shape %v, strides %v)",
				ErrBounds, opNames[o], first, last, v.Len, v.Offset, ints(v.Shape), ints(v.Strides))
		}
		base := uintptr(ops[o].Data)
		lo[o] = base + uintptr(first)*uintptr(size)
		hi[o] = base + uintptr(last+1)*uintptr(size)
	}
	if !p.has[opC] {
		return nil
	}
	// C must not share memory with an input: the driver writes C while it
	// still reads the inputs. Spans are compared, so an input interleaved
	// with C inside one span is refused too.
	for _, o := range [2]int{opA, opB} {
		if p.has[o] && lo[o] < hi[opC] && lo[opC] < hi[o] {
			return fmt.Errorf("%w: C overlaps %s in memory", ErrOverlap, opNames[o])
		}
	}
	return nil
}

// ints copies s for an error message, so formatting never makes a caller's
// shape escape to the heap on the paths that succeed.
func ints(s []int) []int { return append([]int(nil), s...) }
