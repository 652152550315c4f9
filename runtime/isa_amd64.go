package runtime

import (
	"golang.org/x/sys/cpu"

	"github.com/tcontract/tcontract/internal/spec"
)

// cpuHas reports whether the CPU (and the OS, which must save the vector
// state) supports an amd64 path. x/sys/cpu sets the AVX-512 and AVX2 flags
// only with OS support; FMA is the raw CPUID bit, so it is paired with AVX2.
func cpuHas(isa string) bool {
	x := &cpu.X86
	switch isa {
	case spec.AVX512:
		return x.HasAVX512F && x.HasAVX512VL && x.HasAVX512DQ && x.HasAVX512BW && x.HasBMI2 && x.HasFMA
	case spec.AVX2:
		return x.HasAVX2 && x.HasFMA
	}
	return false
}
