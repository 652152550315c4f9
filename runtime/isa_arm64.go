package runtime

import (
	"golang.org/x/sys/cpu"

	"github.com/tcontract/tcontract/internal/spec"
)

// cpuHas reports whether the CPU supports an arm64 path.
func cpuHas(isa string) bool {
	return isa == spec.NEON && cpu.ARM64.HasASIMD
}
