package main

import (
	"fmt"

	"github.com/dave/jennifer/jen"
)

// emitSplit writes the 1r fast path: a sliver of B whose columns are
// adjacent elements (step 1) and alpha 1. Each step is then one run of
// (re, im) pairs that splits into row 2p (the real parts) and row 2p+1 (the
// imaginary ones). For complex64 on little-endian targets two elements move
// as two 8-byte words, their halves regrouped, where the general loop moves
// four 4-byte values.
func emitSplit(f *jen.File, l layout) {
	e := l.e
	name := e.suffixed("split")
	doc(f, fmt.Sprintf("%s packs a sliver in the 1r layout from rows that are adjacent\n"+
		"elements: step p of row i at s[base+i+kOff[p]], its real part to real d0+p·dP+i\n"+
		"and its imaginary part lb bytes further.", name))
	f.Func().Id(name).Params(
		id("d"), id("s").Qual(unsafePath, "Pointer"), id("d0"), id("dP"), id("rows").Int(),
		id("base").Int64(), id("kOff").Index().Int64(), id("lb").Int(),
	).Block(
		jen.For(jen.List(id("p"), id("k")).Op(":=").Range().Id("kOff")).BlockFunc(func(g *jen.Group) {
			g.Id("q").Op(":=").Add(ptr("d", jen.Parens(id("d0").Op("+").Id("p").Op("*").Id("dP")).Op("*").Lit(e.Z)))
			g.Id("i").Op(":=").Lit(0)
			if e.Z == 4 {
				g.If(id("littleEndian")).BlockFunc(func(g *jen.Group) {
					g.Id("run").Op(":=").Add(ptr("s", jen.Parens(id("base").Op("+").Id("k")).Op("*").Lit(e.Size)))
					// Six elements (three pairs of words) per trip, then pairs.
					for _, n := range []int{6, 2} {
						g.For(jen.Empty(), id("i").Op("+").Lit(n).Op("<=").Id("rows"), id("i").Op("+=").Lit(n)).BlockFunc(func(g *jen.Group) {
							g.List(id("x"), id("y")).Op(":=").List(ptr("run", id("i").Op("*").Lit(e.Size)), ptr("q", id("i").Op("*").Lit(e.Z)))
							for j := 0; j < n; j += 2 {
								w0, w1 := fmt.Sprintf("w%d", j), fmt.Sprintf("w%d", j+1)
								g.List(id(w0), id(w1)).Op(":=").List(atPtr("uint64", "x", plusLit(j*e.Size)), atPtr("uint64", "x", plusLit((j+1)*e.Size)))
								g.Add(atPtr("uint64", "y", plusLit(j*e.Z))).Op("=").Id(w0).Op("&").Lit(0xffffffff).Op("|").Id(w1).Op("<<").Lit(32)
								g.Add(atPtr("uint64", "y", id("lb").Add(plusTail(j*e.Z)))).Op("=").Id(w0).Op(">>").Lit(32).Op("|").Id(w1).Op("&^").Lit(0xffffffff)
							}
						})
					}
				})
			}
			// The rest one element at a time, as the layout stores it.
			g.For(jen.Empty(), id("i").Op("<").Id("rows"), id("i").Op("++")).BlockFunc(func(g *jen.Group) {
				g.Id("si").Op(":=").Id("base").Op("+").Id("k").Op("+").Int64().Call(id("i"))
				g.Id("r").Op(":=").Add(ptr("q", id("i").Op("*").Lit(e.Z)))
				l.store(g, "si", "r", 0)
			})
		}),
	)
}
