package x86

import (
	"github.com/mmcloughlin/avo/operand"

	"github.com/tcontract/tcontract/internal/spec"
)

// TilesSignature is the TilesFunc of docs/internals.md.
const TilesSignature = "func(k int, a *byte, b *byte, c *byte, offs *int64, tiles int, rsc int, csc int, m int, n int, alpha *byte, beta *byte)"

// StreamSignature is the StreamFunc of docs/internals.md: TilesSignature
// and the lines to request ahead, one per k step (an address that is only
// requested, never read, so not a pointer the collector would follow).
const StreamSignature = "func(k int, a *byte, b *byte, c *byte, offs *int64, tiles int, rsc int, csc int, m int, n int, alpha *byte, beta *byte, ahead uintptr, aheadStep int)"

// TilesName is the column kernel of row k: "tiles_f32_24x3_avx2".
func TilesName(k spec.Kernel) string { return k.Func("tiles") }

// StreamName is the streaming column kernel of row k: "stream_f64_24x6_avx512".
func StreamName(k spec.Kernel) string { return k.Func("stream") }

// TileLocals are a column kernel's loop state, kept in its frame across
// tiles (the tile's own code uses every register): the tiles left, the
// next tile's C offset, and the next tile's A sliver.
type TileLocals struct {
	Left, Off, A operand.Mem
}

// BeginTiles declares the column kernel of the row and sets up its loop:
// it returns at once when tiles <= 0, and leaves the loop state in the
// frame. The caller emits label "tile" next, the tile's code, then
// NextTile.
func (g *Gen) BeginTiles(doc ...string) TileLocals {
	return g.BeginColumn(TilesName(g.K), TilesSignature, doc...)
}

// BeginColumn is BeginTiles for a column kernel named name, of the
// signature given (TilesSignature or StreamSignature).
func (g *Gen) BeginColumn(name, signature string, doc ...string) TileLocals {
	c := g.Ctx
	c.ConstraintExpr("!purego")
	c.Function(name)
	// Not NOSPLIT: the strided path's spill makes the frame too large.
	c.Pragma("noescape")
	c.SignatureExpr(signature)
	c.Doc(doc...)
	l := TileLocals{Left: c.AllocLocal(8), Off: c.AllocLocal(8), A: c.AllocLocal(8)}
	c.Load(c.Param("tiles"), T0)
	c.TESTQ(T0, T0)
	c.JG(operand.LabelRef("tiles"))
	c.RET()
	c.Label("tiles")
	c.MOVQ(T0, l.Left)
	c.Load(c.Param("offs"), T0)
	c.MOVQ(T0, l.Off)
	c.Load(c.Param("a"), T0)
	c.MOVQ(T0, l.A)
	return l
}

// LoadTileC loads C (c plus the tile's offset) and the strides as LoadC
// does, then has the k loop request the tile's columns as SpreadC does.
// (Also prefetching the next tile's columns was no faster on TCCG's
// ccsd_t.)
func (g *Gen) LoadTileC(l TileLocals) {
	g.LoadTileOffset(l)
	g.SpreadC()
}

// LoadTileOffset loads C (c plus the tile's offset) and the strides as
// LoadC does.
func (g *Gen) LoadTileOffset(l TileLocals) {
	g.LoadC()
	g.Ctx.MOVQ(l.Off, T0)
	g.Ctx.ADDQ(Mem(T0, 0), C)
}

// NextTile ends a tile: the next offset, and back to label "tile" while
// tiles are left. A holds the next tile's sliver (saved right after the k
// loop, as the epilogue may not keep it).
func (g *Gen) NextTile(l TileLocals) {
	c := g.Ctx
	c.ADDQ(operand.U32(8), l.Off)
	c.DECQ(l.Left)
	c.JNZ(operand.LabelRef("tile"))
}
