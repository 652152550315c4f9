package main

import (
	"fmt"

	"github.com/dave/jennifer/jen"
)

// emitPack writes one element type's packing routines: the layouts' loops
// and the PackA and PackB entry points that pick a loop per sliver.
func emitPack(f *jen.File, e elem) {
	if !e.Complex {
		l, ls := realLayout(e, false), realLayout(e, true)
		emitPackEntry(f, l, ls, "w", "n", "off", "bs")
		emitLoops(f, l)
		emitLoops(f, ls)
		return
	}
	a, as := complexA(e, false), complexA(e, true)
	emitPackEntry(f, a, as, "mr", "mc", "rowOff", "rowBS")
	emitRotate(f, e)
	emitLoops(f, a)
	emitLoops(f, as)
	b, bs := complexB(e, false), complexB(e, true)
	emitPackEntry(f, b, bs, "nr", "nc", "colOff", "colBS")
	emitSplit(f, b)
	emitLoops(f, b)
	emitLoops(f, bs)
}

// readAlpha declares the alpha (or beta) of a routine: prefix (real) or its
// parts prefix+"r", prefix+"i" (complex); 1 when the pointer is nil.
func readAlpha(g *jen.Group, e elem, name string, prefix string) {
	p := unsafePtr(id(name))
	if !e.Complex {
		g.Id(prefix).Op(":=").Id(e.R).Call(lit(1))
		g.If(id(name).Op("!=").Nil()).Block(id(prefix).Op("=").Add(deref(e.R, p)))
		return
	}
	re, im := prefix+"r", prefix+"i"
	g.List(id(re), id(im)).Op(":=").List(jen.Id(e.R).Call(lit(1)), jen.Id(e.R).Call(lit(0)))
	g.If(id(name).Op("!=").Nil()).Block(
		jen.List(id(re), id(im)).Op("=").List(deref(e.R, p), deref(e.R, jen.Qual(unsafePath, "Add").Call(unsafePtr(id(name)), lit(e.Z)))),
	)
}

// emitPackEntry writes a PackA or PackB routine that packs each sliver with
// a loop of layout l, or of ls (its scaled twin) when alpha is not 1. w, n,
// off and bs name the sliver width, the block's extent across slivers, its
// offsets and its per-sliver steps (mr, mc, rowOff, rowBS for A).
func emitPackEntry(f *jen.File, l, ls layout, w, n, off, bs string) {
	e := l.e
	z := e.Z
	var text string
	switch l.side {
	case "":
		text = fmt.Sprintf("%s packs an %s×kc block of %s (A's rows, or B's columns) into slivers\n"+
			"of %s: dst[s·%s·kc + p·%s + i] = alpha·src[%s[s·%s+i]+kOff[p]]. It is both PackA\n"+
			"and PackB of a real type.", l.name("pack"), n, e.Name, w, w, w, off, w)
	case "A":
		text = fmt.Sprintf("%s is PackA of %s in 1m's 1e layout: sliver s holds 2mr×2kc reals;\n"+
			"column 2p is (re, im) of alpha·A(i, p) for each row i and column 2p+1 (−im, re).",
			l.name("pack"), e.Name)
	case "B":
		text = fmt.Sprintf("%s is PackB of %s in 1m's 1r layout: sliver s holds nr×2kc reals;\n"+
			"real row 2p is re(alpha·B(p, j)) for each column j and row 2p+1 its im.",
			l.name("pack"), e.Name)
	}
	doc(f, text)
	f.Func().Id(l.name("pack")).Params(packParams(w, n, off, bs)...).BlockFunc(func(g *jen.Group) {
		g.If(id(n).Op("<=").Lit(0).Op("||").Id("kc").Op("<=").Lit(0)).Block(jen.Return())
		// The loops' trailing arguments, as layout.alpha declares them.
		var args, argsScaled []jen.Code
		readAlpha(g, e, "alpha", "a")
		if e.Complex {
			g.Id("unit").Op(":=").Id("ar").Op("==").Lit(1).Op("&&").Id("ai").Op("==").Lit(0)
			args, argsScaled = []jen.Code{id("lb")}, []jen.Code{id("ar"), id("ai"), id("lb")}
		} else {
			g.Id("unit").Op(":=").Id("a").Op("==").Lit(1)
			argsScaled = []jen.Code{id("a")}
		}
		// call is the call of loop stem with the sliver's arguments, scaled or
		// not as alpha asks.
		call := func(stem string, lead ...jen.Code) jen.Code {
			return jen.If(id("unit")).Block(
				id(l.name(stem)).Call(append(lead[:len(lead):len(lead)], args...)...),
			).Else().Block(
				id(ls.name(stem)).Call(append(lead[:len(lead):len(lead)], argsScaled...)...),
			)
		}
		g.List(id("d"), id("s")).Op(":=").List(unsafePtr(id("dst")), unsafePtr(id("src")))
		g.Id("kOff").Op("=").Id("kOff").Index(jen.Empty(), id("kc"))

		// Geometry of one sliver: reals between steps (dP), the real offset
		// of sliver s (d0 = i0·perRow), the bytes of one padded step (pad).
		var dP, perRow, runBytes, rowBytes jen.Code
		switch l.side {
		case "":
			dP, perRow = id(w), id("kc")
			runBytes, rowBytes = id("rows").Op("*").Lit(z), id(w).Op("*").Lit(z)
		case "A":
			g.Comment("A column of a sliver is 2mr reals; columns 2p and 2p+1 are lb bytes apart.")
			g.Id("lb").Op(":=").Lit(2 * z).Op("*").Id(w)
			dP, perRow = lit(4).Op("*").Id(w), lit(4).Op("*").Id("kc")
			runBytes, rowBytes = id("rows").Op("*").Lit(2*z), id("lb")
		case "B":
			g.Comment("A row of a sliver is nr reals; rows 2p and 2p+1 are lb bytes apart.")
			g.Id("lb").Op(":=").Lit(z).Op("*").Id(w)
			dP, perRow = lit(2).Op("*").Id(w), lit(2).Op("*").Id("kc")
			runBytes, rowBytes = id("rows").Op("*").Lit(z), id("lb")
		}
		padSteps := id("kc")
		if e.Complex {
			padSteps = lit(2).Op("*").Id("kc")
		}

		g.For(id("i0").Op(":=").Lit(0), id("i0").Op("<").Id(n), id("i0").Op("+=").Id(w)).BlockFunc(func(g *jen.Group) {
			g.Id("rows").Op(":=").Min(id(w), id(n).Op("-").Id("i0"))
			g.Id("o").Op(":=").Id(off).Index(id("i0"), id("i0").Op("+").Id("rows"))
			g.Id("step").Op(":=").Id(bs).Index(id("i0").Op("/").Id(w))
			g.Id("d0").Op(":=").Id("i0").Op("*").Add(perRow)
			g.Switch().BlockFunc(func(g *jen.Group) {
				switch l.side {
				case "":
					g.Case(id("step").Op("==").Lit(1).Op("&&").Id("unit")).Block(
						jen.Comment("Each step is a run of contiguous elements: a copy."),
						id("copyRuns").Call(ptr("d", id("d0").Op("*").Lit(z)), id("s"), runBytes, rowBytes, id("o").Index(lit(0)), id("kOff"), lit(e.Size)),
					)
				case "A":
					g.Case(id("step").Op("==").Lit(1).Op("&&").Id("unit")).Block(
						jen.Comment("Column 2p is the run of elements as stored: a copy; column 2p+1"),
						jen.Comment("follows from it."),
						id("copyRuns").Call(ptr("d", id("d0").Op("*").Lit(z)), id("s"), runBytes, lit(2).Op("*").Id("lb"), id("o").Index(lit(0)), id("kOff"), lit(e.Size)),
						id(e.suffixed("rotate")).Call(ptr("d", id("d0").Op("*").Lit(z)), id("rows"), id("kc"), id("lb")),
					)
				case "B":
					g.Case(id("step").Op("==").Lit(1).Op("&&").Id("unit")).Block(
						jen.Comment("Each step is a run of (re, im) pairs: split into two rows."),
						id(e.suffixed("split")).Call(id("d"), id("s"), id("d0"), dP, id("rows"), id("o").Index(lit(0)), id("kOff"), id("lb")),
					)
				}
				g.Case(id("step").Op("!=").Lit(0).Op("&&").Id("kStride").Op("==").Lit(1)).Block(
					call("transpose", id("d"), id("s"), id("d0"), dP, id("rows"), id("kc"),
						id("o").Index(lit(0)).Op("+").Id("kOff").Index(lit(0)), id("step")),
				)
				g.Case(id("step").Op("!=").Lit(0)).Block(
					call("strided", id("d"), id("s"), id("d0"), dP, id("rows"), id("o").Index(lit(0)), id("step"), id("kOff")),
				)
				g.Default().Block(
					call("gather", id("d"), id("s"), id("d0"), dP, id("o"), id("kOff")),
				)
			})
			g.If(id("rows").Op("<").Id(w)).Block(
				id("zeroRuns").Call(ptr("d", id("d0").Op("*").Lit(z)), runBytes, rowBytes, rowBytes, padSteps),
			)
		})
	})
}

// emitRotate writes the second half of the 1e fast path: column 2p+1 of
// each step from column 2p, already packed.
func emitRotate(f *jen.File, e elem) {
	doc(f, fmt.Sprintf("%s sets column 2p+1 of each step of a packed 1e sliver at q to\n"+
		"(−im, re) of column 2p, lb bytes before it, for rows rows.", e.suffixed("rotate")))
	var body []jen.Code
	if pairWord(e, false) {
		body = []jen.Code{
			id("v").Op(":=").Add(ptr("c", id("i").Op("*").Lit(e.Size))),
			id("u").Op(":=").Add(atPtr("uint64", "v", nil)),
			atPtr("uint64", "v", id("lb")).Op("=").Add(rotatedWord("u")),
		}
	} else {
		body = []jen.Code{
			id("v").Op(":=").Add(ptr("c", id("i").Op("*").Lit(e.Size))),
			jen.List(id("x"), id("y")).Op(":=").List(atPtr(e.R, "v", nil), atPtr(e.R, "v", lit(e.Z))),
			atPtr(e.R, "v", id("lb")).Op("=").Op("-").Id("y"),
			atPtr(e.R, "v", id("lb").Op("+").Lit(e.Z)).Op("=").Id("x"),
		}
	}
	f.Func().Id(e.suffixed("rotate")).Params(id("q").Qual(unsafePath, "Pointer"), id("rows"), id("kc"), id("lb").Int()).Block(
		jen.For(id("p").Op(":=").Range().Id("kc")).Block(
			id("c").Op(":=").Add(ptr("q", lit(2).Op("*").Id("p").Op("*").Id("lb"))),
			jen.For(id("i").Op(":=").Range().Id("rows")).Block(body...),
		),
	)
}
