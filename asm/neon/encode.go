package main

import "fmt"

// Go's arm64 assembler has VFMLA only in its vector-by-vector form and no
// vector FMUL, so the kernels carry those instructions as raw words. The
// encodings follow the Arm A64 instruction set (Advanced SIMD "by element"
// and "three same" groups); the kernel tests run every one of them.

// arrangement is one vector shape: four singles or two doubles in a 128-bit
// register.
type arrangement struct {
	size  int    // bytes per lane
	lanes int    // lanes per 128-bit register
	goArr string // Go assembler suffix: "S4", "D2"
	gnu   string // Arm syntax suffix: "4S", "2D"
	elem  string // Arm syntax element: "S", "D"
}

var (
	arrS4 = arrangement{size: 4, lanes: 4, goArr: "S4", gnu: "4S", elem: "S"}
	arrD2 = arrangement{size: 8, lanes: 2, goArr: "D2", gnu: "2D", elem: "D"}
)

func arrangementFor(size int) (arrangement, error) {
	switch size {
	case 4:
		return arrS4, nil
	case 8:
		return arrD2, nil
	}
	return arrangement{}, fmt.Errorf("no NEON arrangement for %d-byte reals", size)
}

// fmlaElem encodes FMLA Vd.T, Vn.T, Vm.Ts[idx]: Vd += Vn · Vm[idx].
// For singles the index is split over bits H:L (11, 21) and Vm is V0–V31;
// for doubles the index is H alone.
func fmlaElem(a arrangement, d, n, m, idx int) uint32 {
	if d < 0 || d > 31 || n < 0 || n > 31 || m < 0 || m > 31 || idx < 0 || idx >= a.lanes {
		panic(fmt.Sprintf("fmla operands out of range: d=%d n=%d m=%d idx=%d", d, n, m, idx))
	}
	switch a.size {
	case 4:
		return 0x4f801000 | uint32(idx&1)<<21 | uint32(m)<<16 | uint32(idx>>1)<<11 | uint32(n)<<5 | uint32(d)
	case 8:
		return 0x4fc01000 | uint32(m)<<16 | uint32(idx)<<11 | uint32(n)<<5 | uint32(d)
	}
	panic("unreachable")
}

// fmulVec encodes FMUL Vd.T, Vn.T, Vm.T: Vd = Vn · Vm lane by lane.
func fmulVec(a arrangement, d, n, m int) uint32 {
	if d < 0 || d > 31 || n < 0 || n > 31 || m < 0 || m > 31 {
		panic(fmt.Sprintf("fmul operands out of range: d=%d n=%d m=%d", d, n, m))
	}
	base := uint32(0x6e20dc00) // Q=1, U=1, sz=0: .4S
	if a.size == 8 {
		base = 0x6e60dc00 // sz=1: .2D
	}
	return base | uint32(m)<<16 | uint32(n)<<5 | uint32(d)
}
