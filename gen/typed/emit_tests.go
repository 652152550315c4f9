package main

import "github.com/dave/jennifer/jen"

// emitTest writes typed_test.go: for every row, the dispatchers agree, the
// type's size and layout match its row, OpsOf does not allocate, and the view
// shares the bytes it is given. It compares with the rows as generated, not
// with internal/spec, so it also runs on output generated from other rows.
func emitTest(f *jen.File, es []elem) {
	f.Func().Id("TestOps").Params(id("t").Op("*").Qual("testing", "T")).BlockFunc(func(g *jen.Group) {
		for _, e := range es {
			g.Id("checkOps").Types(e.T()).Call(id("t"), jen.Lit(e.Name))
		}
	})
	f.Func().Id("checkOps").Types(id("T").Id("Scalar")).Params(id("t").Op("*").Qual("testing", "T"), id("name").String()).Block(
		id("o").Op(":=").Id("OpsOf").Types(id("T")).Call(),
		jen.If(id("o").Op("==").Nil().Op("||").Id("o").Op("!=").Id("OpsByName").Call(id("name")).Op("||").Id("o").Dot("Type").Dot("Name").Op("!=").Id("name")).Block(
			id("t").Dot("Fatalf").Call(jen.Lit("%s: OpsOf and OpsByName disagree"), id("name")),
		),
		jen.Var().Id("x").Id("T"),
		id("parts").Op(":=").Lit(1),
		jen.If(id("o").Dot("Type").Dot("Complex")).Block(id("parts").Op("=").Lit(2)),
		jen.If(id("o").Dot("Type").Dot("Size").Op("!=").Int().Call(jen.Qual(unsafePath, "Sizeof").Call(id("x"))).Op("||").
			Id("o").Dot("RealSize").Op("*").Id("parts").Op("!=").Id("o").Dot("Type").Dot("Size")).Block(
			id("t").Dot("Fatalf").Call(jen.Lit("%s: size %d, real size %d, Go size %d"), id("name"),
				id("o").Dot("Type").Dot("Size"), id("o").Dot("RealSize"), jen.Qual(unsafePath, "Sizeof").Call(id("x"))),
		),
		jen.If(id("o").Dot("PackA").Op("==").Nil().Op("||").Id("o").Dot("PackB").Op("==").Nil().Op("||").
			Id("o").Dot("WriteBack").Op("==").Nil().Op("||").Id("o").Dot("Scale").Op("==").Nil().Op("||").Id("o").Dot("Dots").Op("==").Nil().Op("||").Id("o").Dot("Req").Op("==").Nil()).Block(
			id("t").Dot("Fatalf").Call(jen.Lit("%s: missing routine"), id("name")),
		),
		jen.If(id("n").Op(":=").Qual("testing", "AllocsPerRun").Call(lit(100), jen.Func().Params().Block(
			jen.Id("_").Op("=").Id("OpsOf").Types(id("T")).Call(),
		)), id("n").Op("!=").Lit(0)).Block(
			id("t").Dot("Fatalf").Call(jen.Lit("%s: OpsOf allocates %v times"), id("name"), id("n")),
		),
	)

	f.Func().Id("TestViews").Params(id("t").Op("*").Qual("testing", "T")).BlockFunc(func(g *jen.Group) {
		g.Comment("Backed by complex128s, so aligned for every element type.")
		g.Id("store").Op(":=").Make(jen.Index().Complex128(), lit(5))
		g.Id("b").Op(":=").Qual(unsafePath, "Slice").Call(
			jen.Parens(jen.Op("*").Byte()).Call(unsafePtr(jen.Op("&").Id("store").Index(lit(0)))), lit(80))
		for _, e := range es {
			g.Id("checkView").Call(id("t"), jen.Lit(e.Name), id("View"+e.Short).Call(id("b")), id("b"))
			g.Id("checkView").Call(id("t"), jen.Lit(e.Name), id("View"+e.Short).Call(id("b").Index(jen.Empty(), lit(e.Size-1))), id("b").Index(jen.Empty(), lit(e.Size-1)))
		}
	})
	f.Func().Id("checkView").Types(id("T").Any()).Params(id("t").Op("*").Qual("testing", "T"), id("name").String(), id("v").Index().Id("T"), id("b").Index().Byte()).Block(
		jen.Var().Id("x").Id("T"),
		id("size").Op(":=").Int().Call(jen.Qual(unsafePath, "Sizeof").Call(id("x"))),
		jen.If(jen.Len(id("v")).Op("!=").Len(id("b")).Op("/").Id("size")).Block(
			id("t").Dot("Fatalf").Call(jen.Lit("%s: view of %d bytes has %d elements"), id("name"), jen.Len(id("b")), jen.Len(id("v"))),
		),
		jen.If(jen.Len(id("v")).Op(">").Lit(0).Op("&&").Add(unsafePtr(jen.Op("&").Id("v").Index(lit(0)))).Op("!=").Add(unsafePtr(jen.Op("&").Id("b").Index(lit(0))))).Block(
			id("t").Dot("Fatalf").Call(jen.Lit("%s: view does not share the bytes"), id("name")),
		),
	)
}
