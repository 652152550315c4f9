package x86

import (
	"strings"

	"github.com/mmcloughlin/avo/attr"
	"github.com/mmcloughlin/avo/operand"

	"github.com/tcontract/tcontract/internal/spec"
)

// MapsSignature is the MapsFunc of docs/internals.md: the column kernel
// with C's rows given by half-vector row maps.
const MapsSignature = "func(k int, a, b, c *byte, rows, cols *int64, tiles, n int, alpha, beta *byte)"

// MapsName is the half-map column kernel of row k: "maps_f32_16x6_avx2".
func MapsName(k spec.Kernel) string { return "maps" + strings.TrimPrefix(k.Name(), "gemm") }

// BeginMaps declares the half-map column kernel of the row. It returns at
// once when tiles <= 0; the caller emits label "tile" next.
func (g *Gen) BeginMaps(doc ...string) {
	c := g.Ctx
	c.ConstraintExpr("!purego")
	c.Function(MapsName(g.K))
	c.Attributes(attr.NOSPLIT) // no frame: the loop state stays in registers
	c.Pragma("noescape")
	c.SignatureExpr(MapsSignature)
	c.Doc(doc...)
	c.Load(c.Param("tiles"), M)
	c.TESTQ(M, M)
	c.JG(operand.LabelRef("tiles"))
	c.RET()
	c.Label("tiles")
}
