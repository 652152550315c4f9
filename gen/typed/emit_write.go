package main

import (
	"fmt"

	"github.com/dave/jennifer/jen"
)

// emitWrite writes one element type's WriteBack and Scale.
func emitWrite(f *jen.File, e elem) {
	emitWriteBack(f, e)
	emitScale(f, e)
}

// cLoops emits the loops over the m×n part of C: columns j, then rows i
// through rowStride (strided) or rowOff (gathered). body stores one element
// given ci, its offset in C; with a tile, ti is the tile's real offset of the
// element and advances by tI reals per row.
func cLoops(g *jen.Group, tile bool, tI int, body func(g *jen.Group)) {
	g.For(id("j").Op(":=").Range().Id("n")).BlockFunc(func(g *jen.Group) {
		g.Id("cj").Op(":=").Id("colOff").Index(lit(0)).Op("+").Int64().Call(id("j")).Op("*").Id("colStride")
		g.If(id("colStride").Op("==").Lit(0)).Block(id("cj").Op("=").Id("colOff").Index(id("j")))
		if tile {
			g.Id("ti").Op(":=").Id("j").Op("*").Id("ldt")
		}
		next := func(g *jen.Group) {
			if tile {
				g.Id("ti").Op("+=").Lit(tI)
			}
		}
		g.If(id("rowStride").Op("!=").Lit(0)).BlockFunc(func(g *jen.Group) {
			g.Id("ci").Op(":=").Id("cj").Op("+").Id("rowOff").Index(lit(0))
			g.For(jen.Range().Id("m")).BlockFunc(func(g *jen.Group) {
				body(g)
				g.Id("ci").Op("+=").Id("rowStride")
				next(g)
			})
		}).Else().Block(
			jen.For(jen.List(id("_"), id("r")).Op(":=").Range().Id("rowOff").Index(jen.Empty(), id("m"))).BlockFunc(func(g *jen.Group) {
				g.Id("ci").Op(":=").Id("cj").Op("+").Id("r")
				body(g)
				next(g)
			}),
		)
	})
}

func emitWriteBack(f *jen.File, e elem) {
	name := e.suffixed("writeBack")
	doc(f, fmt.Sprintf("%s sets C(i, j) = alpha·tile(i, j) + beta·C(i, j) for i < m, j < n, C(i, j)\n"+
		"at c[rowOff[i]+colOff[j]] (or strided); the tile is column-major with ldt reals\n"+
		"per column%s. beta == 0 never reads C.", name, map[bool]string{true: ", (re, im) pairs", false: ""}[e.Complex]))
	f.Func().Id(name).Params(writeBackParams()...).BlockFunc(func(g *jen.Group) {
		g.If(id("m").Op("<=").Lit(0).Op("||").Id("n").Op("<=").Lit(0)).Block(jen.Return())
		readAlpha(g, e, "alpha", "a")
		readAlpha(g, e, "beta", "b")
		g.List(id("cp"), id("t")).Op(":=").List(unsafePtr(id("c")), unsafePtr(id("tile")))
		z, size := e.Z, e.Size
		if !e.Complex {
			tval := func() *jen.Statement { return id("a").Op("*").Add(at(e.R, "t", "ti", z, 0)) }
			g.Switch().Block(
				jen.Case(id("b").Op("==").Lit(0)).BlockFunc(func(g *jen.Group) {
					cLoops(g, true, 1, func(g *jen.Group) {
						g.Add(at(e.R, "cp", "ci", size, 0)).Op("=").Add(tval())
					})
				}),
				jen.Case(id("b").Op("==").Lit(1)).BlockFunc(func(g *jen.Group) {
					cLoops(g, true, 1, func(g *jen.Group) {
						g.Add(at(e.R, "cp", "ci", size, 0)).Op("+=").Add(tval())
					})
				}),
				jen.Default().BlockFunc(func(g *jen.Group) {
					cLoops(g, true, 1, func(g *jen.Group) {
						g.Id("q").Op(":=").Add(ptr("cp", id("ci").Op("*").Lit(size)))
						g.Add(atPtr(e.R, "q", nil)).Op("=").Add(tval()).Op("+").Id("b").Op("*").Add(atPtr(e.R, "q", nil))
					})
				}),
			)
			return
		}
		g.Id("unit").Op(":=").Id("ar").Op("==").Lit(1).Op("&&").Id("ai").Op("==").Lit(0)
		// load emits x, y := alpha·tile(i, j) and q, the address of C(i, j).
		load := func(g *jen.Group) {
			g.Id("v").Op(":=").Add(ptr("t", id("ti").Op("*").Lit(z)))
			g.List(id("x"), id("y")).Op(":=").List(atPtr(e.R, "v", nil), atPtr(e.R, "v", lit(z)))
			g.If(jen.Op("!").Id("unit")).Block(
				jen.List(id("x"), id("y")).Op("=").List(
					id("ar").Op("*").Id("x").Op("-").Id("ai").Op("*").Id("y"),
					id("ar").Op("*").Id("y").Op("+").Id("ai").Op("*").Id("x")),
			)
			g.Id("q").Op(":=").Add(ptr("cp", id("ci").Op("*").Lit(size)))
		}
		g.Switch().Block(
			jen.Case(id("br").Op("==").Lit(0).Op("&&").Id("bi").Op("==").Lit(0)).BlockFunc(func(g *jen.Group) {
				cLoops(g, true, 2, func(g *jen.Group) {
					load(g)
					g.Add(atPtr(e.R, "q", nil)).Op("=").Id("x")
					g.Add(atPtr(e.R, "q", lit(z))).Op("=").Id("y")
				})
			}),
			jen.Case(id("br").Op("==").Lit(1).Op("&&").Id("bi").Op("==").Lit(0)).BlockFunc(func(g *jen.Group) {
				cLoops(g, true, 2, func(g *jen.Group) {
					load(g)
					g.Add(atPtr(e.R, "q", nil)).Op("+=").Id("x")
					g.Add(atPtr(e.R, "q", lit(z))).Op("+=").Id("y")
				})
			}),
			jen.Default().BlockFunc(func(g *jen.Group) {
				cLoops(g, true, 2, func(g *jen.Group) {
					load(g)
					g.List(id("cr"), id("cm")).Op(":=").List(atPtr(e.R, "q", nil), atPtr(e.R, "q", lit(z)))
					g.Add(atPtr(e.R, "q", nil)).Op("=").Id("x").Op("+").Id("br").Op("*").Id("cr").Op("-").Id("bi").Op("*").Id("cm")
					g.Add(atPtr(e.R, "q", lit(z))).Op("=").Id("y").Op("+").Id("br").Op("*").Id("cm").Op("+").Id("bi").Op("*").Id("cr")
				})
			}),
		)
	})
}

func emitScale(f *jen.File, e elem) {
	name := e.suffixed("scale")
	doc(f, fmt.Sprintf("%s sets C(i, j) = beta·C(i, j) for i < m, j < n; beta == 0 writes zeros\n"+
		"without reading C, beta == 1 leaves C alone.", name))
	f.Func().Id(name).Params(scaleParams()...).BlockFunc(func(g *jen.Group) {
		g.If(id("m").Op("<=").Lit(0).Op("||").Id("n").Op("<=").Lit(0)).Block(jen.Return())
		readAlpha(g, e, "beta", "b")
		g.Id("cp").Op(":=").Add(unsafePtr(id("c")))
		z, size := e.Z, e.Size
		if !e.Complex {
			g.Switch(id("b")).Block(
				jen.Case(lit(1)).Block(jen.Return()),
				jen.Case(lit(0)).BlockFunc(func(g *jen.Group) {
					cLoops(g, false, 0, func(g *jen.Group) {
						g.Add(at(e.R, "cp", "ci", size, 0)).Op("=").Lit(0)
					})
				}),
				jen.Default().BlockFunc(func(g *jen.Group) {
					cLoops(g, false, 0, func(g *jen.Group) {
						g.Add(at(e.R, "cp", "ci", size, 0)).Op("*=").Id("b")
					})
				}),
			)
			return
		}
		g.Switch().Block(
			jen.Case(id("br").Op("==").Lit(1).Op("&&").Id("bi").Op("==").Lit(0)).Block(jen.Return()),
			jen.Case(id("br").Op("==").Lit(0).Op("&&").Id("bi").Op("==").Lit(0)).BlockFunc(func(g *jen.Group) {
				cLoops(g, false, 0, func(g *jen.Group) {
					g.Id("q").Op(":=").Add(ptr("cp", id("ci").Op("*").Lit(size)))
					g.List(atPtr(e.R, "q", nil), atPtr(e.R, "q", lit(z))).Op("=").List(lit(0), lit(0))
				})
			}),
			jen.Default().BlockFunc(func(g *jen.Group) {
				cLoops(g, false, 0, func(g *jen.Group) {
					g.Id("q").Op(":=").Add(ptr("cp", id("ci").Op("*").Lit(size)))
					g.List(id("cr"), id("cm")).Op(":=").List(atPtr(e.R, "q", nil), atPtr(e.R, "q", lit(z)))
					g.List(atPtr(e.R, "q", nil), atPtr(e.R, "q", lit(z))).Op("=").List(
						id("br").Op("*").Id("cr").Op("-").Id("bi").Op("*").Id("cm"),
						id("br").Op("*").Id("cm").Op("+").Id("bi").Op("*").Id("cr"))
				})
			}),
		)
	})
}
