// Command avx2 emits, for every AVX2 row of the kernel table
// (internal/spec), the micro-kernel, its column kernels (plain and with row
// maps), the direct kernel and the packers (1m's 1e and 1r too), and the
// AVX2 peak probes, as Go assembly with stubs, one file pair per function:
// <name>_amd64.s and <name>_amd64.go.
//
// Usage (from generate.go): go run -C asm ./avx2 -out ../generated/kernels
package main

import (
	"github.com/tcontract/tcontract/asm/internal/x86"
	"github.com/tcontract/tcontract/internal/spec"
)

func main() {
	x86.Command(spec.AVX2, 32, []x86.Family{
		x86.GenFamily("gemm", kernel),
		x86.GenFamily("tiles", tiles),
		x86.GenFamily("maps", maps),
		x86.GenFamily("direct", direct),
		x86.PackFamily("packa", "a", packer),
		x86.PackFamily("packb", "b", packer),
		x86.PackFamily("packx", "a", packx),
		x86.PackFamily("pack1e", "a", pack1e),
		x86.PackFamily("pack1r", "b", pack1r),
	})
}
