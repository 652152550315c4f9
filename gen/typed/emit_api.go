package main

import "github.com/dave/jennifer/jen"

// emitAPI writes typed.go: the constraint, the Ops contract and the
// dispatchers.
func emitAPI(f *jen.File, es []elem) {
	for _, line := range []string{
		"Package typed is the element-type specific code of the GEMM and contraction",
		"driver, generated from the type table in internal/spec: the Scalar",
		"constraint, the dispatcher OpsOf, and per element type the packing,",
		"write-back and workspace-request routines that the type-erased driver",
		"calls through Ops. docs/internals.md fixes their contract.",
	} {
		f.PackageComment(line)
	}

	f.Comment("Scalar is the set of element types, one per row of the type table.")
	f.Type().Id("Scalar").InterfaceFunc(func(g *jen.Group) {
		var terms []jen.Code
		for _, e := range es {
			terms = append(terms, e.T())
		}
		g.Union(terms...)
	})

	f.Comment("Blocking is one call's blocking in elements of T. MR and NR are rows and")
	f.Comment("columns of T per sliver (a complex type's MR is the kernel's MR/2: 1m")
	f.Comment("doubles the rows).")
	f.Type().Id("Blocking").Struct(jen.List(jen.Id("MR"), jen.Id("NR"), jen.Id("MC"), jen.Id("KC"), jen.Id("NC")).Int())

	f.Comment("Ops are the routines of one element type. Offsets are in elements of the")
	f.Comment("type, relative to src (or c), and may be negative; a nil alpha or beta")
	f.Comment("means 1. The driver validates every offset before any call, so the")
	f.Comment("routines do not check bounds.")
	f.Type().Id("Ops").Struct(
		jen.Id("Type").Qual(specPath, "Type"),
		jen.Comment("RealSize is the size in bytes of the real type the kernels compute in."),
		jen.Id("RealSize").Int(),
		jen.Line(),
		jen.Comment("PackA packs the mc×kc block with element (i, p) at src[rowOff[i]+kOff[p]]"),
		jen.Comment("into ceil(mc/mr) slivers of mr rows, zero-padding the last. rowBS[s] is"),
		jen.Comment("sliver s's row step (0: irregular), kStride the step of kOff (0: irregular)."),
		jen.Id("PackA").Func().Params(packParams("mr", "mc", "rowOff", "rowBS")...),
		jen.Comment("PackB packs the kc×nc panel with element (p, j) at src[kOff[p]+colOff[j]]"),
		jen.Comment("into ceil(nc/nr) slivers of nr columns, zero-padding the last."),
		jen.Id("PackB").Func().Params(packParams("nr", "nc", "colOff", "colBS")...),
		jen.Comment("WriteBack sets C(i, j) = alpha·tile(i, j) + beta·C(i, j) for i < m, j < n;"),
		jen.Comment("beta == 0 never reads C. A non-zero rowStride (colStride) replaces"),
		jen.Comment("rowOff[i] by rowOff[0]+i·rowStride (colOff likewise)."),
		jen.Id("WriteBack").Func().Params(writeBackParams()...),
		jen.Comment("Scale sets C(i, j) = beta·C(i, j); beta == 0 writes zeros without reading."),
		jen.Id("Scale").Func().Params(scaleParams()...),
		jen.Comment("Dots sets C(i) = alpha·Σ_p A(i, p)·B(i, p) + beta·C(i) for i < n, p < k:"),
		jen.Comment("A(i, p) at a[i·sa+p·ka], B(i, p) at b[i·sb+p·kb], C(i) at c[i·sc]. It"),
		jen.Comment("runs the products whose C is one element each (every label of C a"),
		jen.Comment("batch label); beta == 0 never reads C."),
		jen.Id("Dots").Func().Params(dotsParams()...),
		jen.Comment("Req sizes the workspace of one call in bytes."),
		jen.Id("Req").Func().Params(reqParams()...).Qual(workspacePath, "Req"),
	)

	f.Comment("OpsOf returns the routines of element type T. It does not allocate: the")
	f.Comment("switch is on the type of a nil *T.")
	f.Func().Id("OpsOf").Types(jen.Id("T").Id("Scalar")).Params().Op("*").Id("Ops").Block(
		jen.Switch(jen.Any().Call(jen.Parens(jen.Op("*").Id("T")).Call(jen.Nil())).Assert(jen.Type())).BlockFunc(func(g *jen.Group) {
			for _, e := range es {
				g.Case(jen.Op("*").Add(e.T())).Block(jen.Return(jen.Op("&").Id(e.suffixed("ops"))))
			}
		}),
		jen.Comment("Unreachable: Scalar lists exactly the types above."),
		jen.Panic(jen.Lit("typed: no routines for this element type")),
	)

	f.Comment("OpsByName returns the routines of the element type whose spec.Type.Name")
	f.Comment("is name, or nil.")
	f.Func().Id("OpsByName").Params(jen.Id("name").String()).Op("*").Id("Ops").Block(
		jen.Switch(jen.Id("name")).BlockFunc(func(g *jen.Group) {
			for _, e := range es {
				g.Case(jen.Lit(e.Name)).Block(jen.Return(jen.Op("&").Id(e.suffixed("ops"))))
			}
		}),
		jen.Return(jen.Nil()),
	)

	f.Comment("slivers is how many slivers of w cover n (0 when w is not positive).")
	f.Func().Id("slivers").Params(jen.Id("n"), jen.Id("w").Int()).Int().Block(
		jen.If(jen.Id("w").Op("<=").Lit(0)).Block(jen.Return(jen.Lit(0))),
		jen.Return(jen.Parens(jen.Id("n").Op("+").Id("w").Op("-").Lit(1)).Op("/").Id("w")),
	)
}
