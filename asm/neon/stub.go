package main

import (
	"bytes"
	"fmt"

	"github.com/tcontract/tcontract/internal/spec"
)

// stubPrelude opens every Go declaration file of the assembly.
func stubPrelude(b *bytes.Buffer) {
	fmt.Fprintf(b, "%s\n//go:build !purego\n\npackage kernels\n\n", header)
}

// gemmStub declares one kernel for the Go compiler (a Func).
func gemmStub(k spec.Kernel) []byte {
	var b bytes.Buffer
	stubPrelude(&b)
	fmt.Fprintf(&b, "// %s computes C := alpha·Ã·B̃ + beta·C on the top-left m×n part of\n", k.Name())
	fmt.Fprintf(&b, "// one %d×%d %s tile with NEON (see Func).\n", k.MR, k.NR, k.Real)
	fmt.Fprintf(&b, "//\n//go:noescape\n")
	fmt.Fprintf(&b, "func %s(k int, a, b, c *byte, rsc, csc, m, n int, alpha, beta *byte)\n", k.Name())
	return b.Bytes()
}

// peakStub declares one peak probe.
func peakStub(r spec.Real) []byte {
	var b bytes.Buffer
	stubPrelude(&b)
	fmt.Fprintf(&b, "// %s runs iters rounds of %d independent %s FMLAs.\n", peakName(r), neonISA().PeakAccs(), r.Name)
	fmt.Fprintf(&b, "func %s(iters int)\n", peakName(r))
	return b.Bytes()
}
