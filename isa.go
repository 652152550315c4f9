package tcontract

import "github.com/tcontract/tcontract/runtime"

// ISA is the instruction-set path in use: "avx512", "avx2", "neon" or
// "generic". TCONTRACT_ISA forces a lower path; naming one this machine
// cannot run makes every call return an error (ISAError says which).
func ISA() string { return runtime.ISA() }

// ISAError is non-nil when TCONTRACT_ISA names a path this machine or build
// cannot run.
func ISAError() error { return runtime.ISAError() }
