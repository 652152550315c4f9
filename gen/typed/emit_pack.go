package main

import (
	"fmt"

	"github.com/dave/jennifer/jen"
)

// A layout is one packed format: where element (i, p) of a block lands in a
// sliver, as a real offset di = d0 + i·dI + p·dP, and what is stored there.
// A real type has one layout for A and B; a complex type has the 1m layouts
// of docs/internals.md, "1e" for A and "1r" for B.
type layout struct {
	e    elem
	side string // "" for the real layout, "A" or "B"
	dI   int    // reals between rows i and i+1 of one step
	// scaled layouts multiply by alpha; the others store the elements as
	// they are, for alpha == 1 (the driver's usual case).
	scaled bool
	// alpha declares the parameters that carry alpha (and for the complex
	// layouts lb, the bytes to an element's second column or row) into the
	// loops.
	alpha []jen.Code
	// store emits the statements that store element src[si] at the real
	// pointed to by q plus plus bytes.
	store func(g *jen.Group, si, q string, plus int)
}

func (l layout) name(stem string) string {
	if l.scaled {
		stem += "Scaled"
	}
	return stem + l.side + l.e.Short
}

func realLayout(e elem, scaled bool) layout {
	l := layout{e: e, dI: 1, scaled: scaled}
	if scaled {
		l.alpha = []jen.Code{id("a").Id(e.R)}
	}
	l.store = func(g *jen.Group, si, q string, plus int) {
		v := at(e.R, "s", si, e.Z, 0)
		if scaled {
			v = id("a").Op("*").Add(v)
		}
		g.Add(atPtr(e.R, q, plusLit(plus))).Op("=").Add(v)
	}
	return l
}

// complexLoad emits x, y := src[si] (the real and imaginary parts), times
// alpha when scaled.
func complexLoad(g *jen.Group, e elem, si string, scaled bool) {
	g.Id("v").Op(":=").Add(ptr("s", id(si).Op("*").Lit(e.Size)))
	g.List(id("x"), id("y")).Op(":=").List(atPtr(e.R, "v", nil), atPtr(e.R, "v", lit(e.Z)))
	if scaled {
		g.List(id("x"), id("y")).Op("=").List(
			id("ar").Op("*").Id("x").Op("-").Id("ai").Op("*").Id("y"),
			id("ar").Op("*").Id("y").Op("+").Id("ai").Op("*").Id("x"))
	}
}

func complexAlpha(e elem, scaled bool) []jen.Code {
	if scaled {
		return []jen.Code{id("ar"), id("ai").Id(e.R), id("lb").Int()}
	}
	return []jen.Code{id("lb").Int()}
}

// pairWord reports whether an element's two halves move as one 8-byte word
// (complex64 unscaled): one load and two stores per element of a 1e sliver
// instead of two and four. (1r splits the halves: two float loads measured
// faster there than a word and two shifts.)
func pairWord(e elem, scaled bool) bool { return e.Z == 4 && !scaled }

// loadWord emits u, the element at s[si] as one 8-byte word.
func loadWord(g *jen.Group, e elem, si string) {
	g.Id("u").Op(":=").Add(deref("uint64", ptr("s", id(si).Op("*").Lit(e.Size))))
}

// rotatedWord is (−im, re) of the word u: its halves swapped, then the sign
// of the half stored first flipped (firstSign: either byte order).
func rotatedWord(u string) *jen.Statement {
	return jen.Parens(id(u).Op(">>").Lit(32).Op("|").Id(u).Op("<<").Lit(32)).Op("^").Id("firstSign")
}

// emitWordOrder writes firstSign, the sign bit of the 4-byte half stored
// first in a uint64, for the pair words.
func emitWordOrder(f *jen.File) {
	f.Comment("firstSign is the sign bit of the 4-byte half stored first in a uint64: bit 31")
	f.Comment("on little-endian targets, 63 on big-endian ones.")
	f.Var().Id("firstSign").Op("=").Func().Params().Uint64().Block(
		id("w").Op(":=").Uint64().Call(lit(1)),
		jen.If(deref("byte", jen.Qual(unsafePath, "Pointer").Call(jen.Op("&").Id("w"))).Op("==").Lit(1)).Block(jen.Return(lit(1).Op("<<").Lit(31))),
		jen.Return(lit(1).Op("<<").Lit(63)),
	).Call()
	f.Comment("littleEndian reports whether a uint64 stores its low half first.")
	f.Var().Id("littleEndian").Op("=").Id("firstSign").Op("==").Lit(1).Op("<<").Lit(31)
}

// complexA is 1m's "1e" layout: for step p, real column 2p holds
// (re a_i, im a_i) and column 2p+1, lb bytes further, (−im a_i, re a_i).
func complexA(e elem, scaled bool) layout {
	return layout{
		e: e, side: "A", dI: 2, scaled: scaled, alpha: complexAlpha(e, scaled),
		store: func(g *jen.Group, si, q string, plus int) {
			if pairWord(e, scaled) {
				loadWord(g, e, si)
				g.Add(atPtr("uint64", q, plusLit(plus))).Op("=").Id("u")
				g.Add(atPtr("uint64", q, id("lb").Add(plusTail(plus)))).Op("=").Add(rotatedWord("u"))
				return
			}
			complexLoad(g, e, si, scaled)
			g.Add(atPtr(e.R, q, plusLit(plus))).Op("=").Id("x")
			g.Add(atPtr(e.R, q, plusLit(plus+e.Z))).Op("=").Id("y")
			g.Add(atPtr(e.R, q, id("lb").Add(plusTail(plus)))).Op("=").Op("-").Id("y")
			g.Add(atPtr(e.R, q, id("lb").Add(plusTail(plus+e.Z)))).Op("=").Id("x")
		},
	}
}

// complexB is 1m's "1r" layout: real row 2p holds re b_j, row 2p+1, lb bytes
// further, im b_j.
func complexB(e elem, scaled bool) layout {
	return layout{
		e: e, side: "B", dI: 1, scaled: scaled, alpha: complexAlpha(e, scaled),
		store: func(g *jen.Group, si, q string, plus int) {
			complexLoad(g, e, si, scaled)
			g.Add(atPtr(e.R, q, plusLit(plus))).Op("=").Id("x")
			g.Add(atPtr(e.R, q, id("lb").Add(plusTail(plus)))).Op("=").Id("y")
		},
	}
}

// plusLit is a byte offset literal, nil for 0.
func plusLit(n int) jen.Code {
	if n == 0 {
		return nil
	}
	return lit(n)
}

// plusTail is "+n", or nothing for 0.
func plusTail(n int) jen.Code {
	if n == 0 {
		return jen.Null()
	}
	return jen.Op("+").Lit(n)
}

// emitLoops writes the three general loops of a layout. Each packs one
// sliver of rows rows and len(kOff) (or kc) steps, starting at real d0 of d,
// with dP reals between steps:
//   - transpose: the rows are strided and the steps are unit (kStride == 1):
//     each row is read along p, contiguous in memory;
//   - strided: the rows are strided, the steps anything: read along i;
//   - gather: the rows are irregular: through their offsets.
//
// transposeSteps is how many steps a transposing pack takes per pass over
// the rows: its writes (a step's column of every row) then stay in L1.
const transposeSteps = 16

func emitLoops(f *jen.File, l layout) {
	e := l.e
	common := []jen.Code{id("d"), id("s").Qual(unsafePath, "Pointer"), id("d0"), id("dP")}

	step := func(g *jen.Group, si string) {
		g.Id("q").Op(":=").Add(ptr("d", id("di").Op("*").Lit(e.Z)))
		l.store(g, si, "q", 0)
	}

	doc(f, fmt.Sprintf("%s packs a sliver in %s layout from rows step elements apart,\n"+
		"each of kc adjacent steps (kStride == 1), starting at s[base]: it reads along\n"+
		"the rows and writes across them, %d steps at a time so that the lines it\n"+
		"writes stay in L1 while every row adds to them.", l.name("transpose"), layoutName(l), transposeSteps))
	f.Func().Id(l.name("transpose")).Params(
		append(append(common, id("rows"), id("kc").Int(), id("base"), id("step").Int64()), l.alpha...)...,
	).BlockFunc(func(g *jen.Group) {
		g.For(id("p0").Op(":=").Lit(0), id("p0").Op("<").Id("kc"), id("p0").Op("+=").Lit(transposeSteps)).BlockFunc(func(g *jen.Group) {
			g.Id("pn").Op(":=").Min(lit(transposeSteps), id("kc").Op("-").Id("p0"))
			g.Id("i").Op(":=").Lit(0)
			if l.side == "" {
				// Four rows at a time: the four stores of one step are adjacent.
				const rb = 4
				g.For(jen.Empty(), id("i").Op("+").Lit(rb).Op("<=").Id("rows"), id("i").Op("+=").Lit(rb)).BlockFunc(func(g *jen.Group) {
					g.Id("s0").Op(":=").Id("base").Op("+").Int64().Call(id("i")).Op("*").Id("step").Op("+").Int64().Call(id("p0"))
					for r := 1; r < rb; r++ {
						g.Id(fmt.Sprintf("s%d", r)).Op(":=").Id(fmt.Sprintf("s%d", r-1)).Op("+").Id("step")
					}
					g.Id("di").Op(":=").Id("d0").Op("+").Add(rowOffset(l.dI)).Op("+").Id("p0").Op("*").Id("dP")
					g.For(jen.Range().Id("pn")).BlockFunc(func(g *jen.Group) {
						g.Id("q").Op(":=").Add(ptr("d", id("di").Op("*").Lit(e.Z)))
						for r := 0; r < rb; r++ {
							l.store(g, fmt.Sprintf("s%d", r), "q", r*l.dI*e.Z)
						}
						for r := 0; r < rb; r++ {
							g.Id(fmt.Sprintf("s%d", r)).Op("++")
						}
						g.Id("di").Op("+=").Id("dP")
					})
				})
			}
			g.For(jen.Empty(), id("i").Op("<").Id("rows"), id("i").Op("++")).BlockFunc(func(g *jen.Group) {
				g.Id("si").Op(":=").Id("base").Op("+").Int64().Call(id("i")).Op("*").Id("step").Op("+").Int64().Call(id("p0"))
				g.Id("di").Op(":=").Id("d0").Op("+").Add(rowOffset(l.dI)).Op("+").Id("p0").Op("*").Id("dP")
				g.For(jen.Range().Id("pn")).BlockFunc(func(g *jen.Group) {
					step(g, "si")
					g.Id("si").Op("++")
					g.Id("di").Op("+=").Id("dP")
				})
			})
		})
	})

	doc(f, fmt.Sprintf("%s packs a sliver in %s layout from rows step elements apart, step p\n"+
		"of row i at s[base+i·step+kOff[p]].", l.name("strided"), layoutName(l)))
	f.Func().Id(l.name("strided")).Params(
		append(append(common, id("rows").Int(), id("base"), id("step").Int64(), id("kOff").Index().Int64()), l.alpha...)...,
	).Block(
		jen.For(jen.List(id("p"), id("k")).Op(":=").Range().Id("kOff")).BlockFunc(func(g *jen.Group) {
			g.Id("si").Op(":=").Id("base").Op("+").Id("k")
			g.Id("di").Op(":=").Id("d0").Op("+").Id("p").Op("*").Id("dP")
			g.For(jen.Range().Id("rows")).BlockFunc(func(g *jen.Group) {
				step(g, "si")
				g.Id("si").Op("+=").Id("step")
				g.Add(advance("di", l.dI))
			})
		}),
	)

	doc(f, fmt.Sprintf("%s packs a sliver in %s layout through the offsets: step p of row i\n"+
		"at s[o[i]+kOff[p]].", l.name("gather"), layoutName(l)))
	f.Func().Id(l.name("gather")).Params(
		append(append(common[:len(common)-1], id("dP").Int(), id("o"), id("kOff").Index().Int64()), l.alpha...)...,
	).Block(
		jen.For(jen.List(id("p"), id("k")).Op(":=").Range().Id("kOff")).BlockFunc(func(g *jen.Group) {
			g.Id("di").Op(":=").Id("d0").Op("+").Id("p").Op("*").Id("dP")
			g.For(jen.List(jen.Id("_"), id("oi")).Op(":=").Range().Id("o")).BlockFunc(func(g *jen.Group) {
				g.Id("si").Op(":=").Id("oi").Op("+").Id("k")
				step(g, "si")
				g.Add(advance("di", l.dI))
			})
		}),
	)
}

func layoutName(l layout) string {
	name := "the real"
	switch l.side {
	case "A":
		name = "the 1e"
	case "B":
		name = "the 1r"
	}
	if l.scaled {
		name += ", times alpha,"
	}
	return name
}

// rowOffset is i·dI, the real offset of row i of a step.
func rowOffset(dI int) *jen.Statement {
	if dI == 1 {
		return id("i")
	}
	return id("i").Op("*").Lit(dI)
}

// advance is v += n, or v++ for 1.
func advance(v string, n int) *jen.Statement {
	if n == 1 {
		return id(v).Op("++")
	}
	return id(v).Op("+=").Lit(n)
}
