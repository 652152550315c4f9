package x86

import (
	"github.com/mmcloughlin/avo/attr"

	"github.com/tcontract/tcontract/internal/spec"
)

// RunsSignature is the RunsFunc of docs/internals.md: the packed kernel
// with C's rows given by a row map instead of a row stride.
const RunsSignature = "func(k int, a, b, c *byte, rows, cols *int64, n int, alpha, beta *byte)"

// RunsName is the row-map kernel of row k: "runs_f32_64x6_avx512".
func RunsName(k spec.Kernel) string { return k.Func("runs") }

// RowMapWords is the length of a row map in int64 words per vector of a
// tile column: the byte offsets from c of the vector's first lane in its
// low and in its high run, then the opmasks of the lanes each run holds.
const RowMapWords = spec.RowMapWords

// RunsAhead is how many slivers ahead of its own columns the half-map
// kernel (AVX2) requests C's lines: it reads cols[RunsAhead·NR+j] for
// j < NR as well.
const RunsAhead = spec.RunsAhead

// BeginRuns declares the row-map kernel of the row.
func (g *Gen) BeginRuns(doc ...string) {
	c := g.Ctx
	c.ConstraintExpr("!purego")
	c.Function(RunsName(g.K))
	c.Attributes(attr.NOSPLIT) // no frame: the epilogue stores no tile
	c.Pragma("noescape")
	c.SignatureExpr(RunsSignature)
	c.Doc(doc...)
}
