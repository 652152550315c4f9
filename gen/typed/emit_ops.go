package main

import (
	"fmt"

	"github.com/dave/jennifer/jen"
)

// emitOps writes one element type's Ops value, its workspace request and its
// typed view of arena bytes.
func emitOps(f *jen.File, e elem) {
	row := jen.Dict{
		id("Name"):  jen.Lit(e.Name),
		id("Short"): jen.Lit(e.Short),
		id("Size"):  jen.Lit(e.Size),
		id("Real"):  jen.Lit(e.Real),
		id("Tol"):   jen.Lit(e.Tol),
	}
	if e.Pkg != "" {
		row[id("Pkg")] = jen.Lit(e.Pkg)
	}
	if e.Complex {
		row[id("Complex")] = jen.True()
	}
	packA, packB := e.suffixed("pack"), e.suffixed("pack")
	if e.Complex {
		packA, packB = e.suffixed("packA"), e.suffixed("packB")
	}
	doc(f, fmt.Sprintf("%s are the routines of %s.", e.suffixed("ops"), e.Name))
	f.Var().Id(e.suffixed("ops")).Op("=").Id("Ops").Values(jen.Dict{
		id("Type"):      jen.Qual(specPath, "Type").Values(row),
		id("RealSize"):  lit(e.Z),
		id("PackA"):     id(packA),
		id("PackB"):     id(packB),
		id("WriteBack"): id(e.suffixed("writeBack")),
		id("Scale"):     id(e.suffixed("scale")),
		id("Dots"):      id(e.suffixed("dots")),
		id("Req"):       id(e.suffixed("req")),
	})

	// A complex A sliver holds every element twice (1e); B (1r) and the tile
	// hold it once.
	aBytes := e.Size
	if e.Complex {
		aBytes *= 2
	}
	doc(f, fmt.Sprintf("%s sizes the workspace of one %s call in bytes: per worker one packed\n"+
		"MC×KC block of A (%d bytes per element) and one MR×NR tile, per team pn packed\n"+
		"KC×NC panels of B (%d bytes per element) and, with more than one worker per\n"+
		"column group, one barrier per group.", e.suffixed("req"), e.Name, aBytes, e.Size))
	f.Func().Id(e.suffixed("req")).Params(reqParams()...).Qual(workspacePath, "Req").Block(
		id("r").Op(":=").Qual(workspacePath, "Req").Values(jen.Dict{
			id("ABytes"):        id("slivers").Call(id("b").Dot("MC"), id("b").Dot("MR")).Op("*").Id("b").Dot("MR").Op("*").Id("b").Dot("KC").Op("*").Lit(aBytes),
			id("TileBytes"):     id("b").Dot("MR").Op("*").Id("b").Dot("NR").Op("*").Lit(e.Size),
			id("WorkerScatter"): id("workerScatter"),
			id("BBytes"):        id("pn").Op("*").Id("slivers").Call(id("b").Dot("NC"), id("b").Dot("NR")).Op("*").Id("b").Dot("NR").Op("*").Id("b").Dot("KC").Op("*").Lit(e.Size),
			id("TeamScatter"):   id("teamScatter"),
		}),
		jen.If(id("pm").Op(">").Lit(1)).Block(id("r").Dot("Barriers").Op("=").Id("pn")),
		jen.Return(id("r")),
	)

	view := "View" + e.Short
	doc(f, fmt.Sprintf("%s is b as %s values (len(b)/%d of them) sharing b's memory, without\n"+
		"copying. b must be aligned for %s, as the arena's page-aligned buffers are.",
		view, e.Name, e.Size, e.Name))
	f.Func().Id(view).Params(id("b").Index().Byte()).Index().Add(e.T()).Block(
		jen.If(jen.Len(id("b")).Op("<").Lit(e.Size)).Block(jen.Return(jen.Nil())),
		jen.Return(jen.Qual(unsafePath, "Slice").Call(
			jen.Parens(jen.Op("*").Add(e.T())).Call(unsafePtr(jen.Qual(unsafePath, "SliceData").Call(id("b")))),
			jen.Len(id("b")).Op("/").Lit(e.Size),
		)),
	)
}
