package x86

import (
	"github.com/mmcloughlin/avo/attr"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"

	"github.com/tcontract/tcontract/internal/spec"
)

// MapsSignature is the MapsFunc of docs/internals.md: the column kernel
// with C's rows given by half-vector row maps.
const MapsSignature = "func(k int, a, b, c *byte, rows, cols *int64, tiles, n int, alpha, beta *byte)"

// MapsName is the half-map column kernel of row k: "maps_f32_16x6_avx2".
func MapsName(k spec.Kernel) string { return k.Func("maps") }

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

// PrefetchNextRows requests into L2 (PREFETCHT1), at each displacement in
// disps, the lines of C that the next sliver's row-map word starts in, in
// this tile's NR columns (cols[j]): the word rows[next+word], next words on
// (one sliver's map). The driver runs an MC block's tiles in groups of
// slivers, each tile of a row across the group before the next row
// (runtime/grouped.go), so those lines are wanted once the group's other
// slivers are done. Prefetches never fault, so the word may hold anything;
// the driver pads the block's maps with one more. It clobbers T0 and T2.
func (g *Gen) PrefetchNextRows(rows, cols reg.Register, next, word int, disps ...int) {
	g.prefetchRows(rows, cols, next+word, 0, disps)
}

// PrefetchRowAhead requests into L2 (PREFETCHT1), at each displacement in
// disps, the lines of C that the row-map word rows[word] (a byte offset
// from C) starts in, in the NR columns RunsAhead slivers on
// (cols[RunsAhead·NR+j]): the driver runs an MC block's tiles down one
// sliver of columns before the next, so those lines are wanted a few dozen
// kernel calls later. Prefetches never fault, so unused columns and the
// words past a panel's last column may hold anything readable. It
// clobbers T0 and T2.
func (g *Gen) PrefetchRowAhead(rows, cols reg.Register, word int, disps ...int) {
	g.prefetchRows(rows, cols, word, RunsAhead*g.K.NR, disps)
}

// prefetchRows requests into L2 (PREFETCHT1), at each displacement in
// disps, the lines of C that the row-map word rows[word] starts in, in the
// NR columns cols[col+j]. It clobbers T0 and T2.
func (g *Gen) prefetchRows(rows, cols reg.Register, word, col int, disps []int) {
	c := g.Ctx
	c.MOVQ(Mem(rows, 8*word), T0)
	c.ADDQ(C, T0)
	for j := 0; j < g.K.NR; j++ {
		c.MOVQ(Mem(cols, 8*(col+j)), T2)
		for _, d := range disps {
			c.PREFETCHT1(Mem(T0, d).Idx(T2, 1))
		}
	}
}
