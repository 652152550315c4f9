package main

import (
	. "github.com/dave/jennifer/jen"

	"github.com/tcontract/tcontract/internal/spec"
)

// streamName is a row's streaming column kernel: "stream_f64_24x6_avx512".
func streamName(k spec.Kernel) string { return k.Func("stream") }

// hasStream reports whether a row has a streaming column kernel (asm/avx512
// emits them: a whole vector of C is a line, written with one
// non-temporal store). It is the column kernel on a narrower contract, so
// the column kernel's twin is its reference too.
func hasStream(k spec.Kernel) bool { return k.ISA == spec.AVX512 }

// streamParams is the parameter list of a StreamFunc: a TilesFunc's and the
// lines it requests ahead.
func streamParams() []Code {
	return append(tilesParams(), Id("ahead").Uintptr(), Id("aheadStep").Int())
}
