package main

import (
	"fmt"

	"github.com/dave/jennifer/jen"
)

// dotLanes is how many partial sums a long dot keeps: one sum waits on the
// last addition's latency at every step, four let the steps overlap.
const dotLanes = 4

// emitDots writes one element type's Dots: products of one element of C
// each (every label of C a batch label), in the element type's own
// arithmetic, so a complex row needs nothing of its own either.
func emitDots(f *jen.File, e elem) {
	name, dot := e.suffixed("dots"), e.suffixed("dot")
	size := e.Size
	// v is the element at offset (in elements) off from base.
	v := func(base string, off *jen.Statement) *jen.Statement {
		return jen.Op("*").Parens(jen.Op("*").Add(e.T())).Call(ptr(base, off.Op("*").Lit(size)))
	}
	doc(f, fmt.Sprintf("%s sets C(i) = alpha·Σ_p A(i, p)·B(i, p) + beta·C(i) for i < n and p < k,\n"+
		"A(i, p) at a[i·sa+p·ka], B(i, p) at b[i·sb+p·kb], C(i) at c[i·sc]. beta == 0\n"+
		"never reads C.", name))
	f.Func().Id(name).Params(dotsParams()...).BlockFunc(func(g *jen.Group) {
		g.If(id("n").Op("<=").Lit(0)).Block(jen.Return())
		for _, s := range [][2]string{{"alpha", "al"}, {"beta", "be"}} {
			g.Id(s[1]).Op(":=").Add(e.T()).Call(lit(1))
			g.If(id(s[0]).Op("!=").Nil()).Block(id(s[1]).Op("=").Op("*").Parens(jen.Op("*").Add(e.T())).Call(unsafePtr(id(s[0]))))
		}
		g.List(id("cp"), id("ap"), id("bp")).Op(":=").List(unsafePtr(id("c")), unsafePtr(id("a")), unsafePtr(id("b")))
		g.Var().List(id("ci"), id("ai"), id("bi")).Int64()
		next := func(g *jen.Group) {
			for _, x := range [][2]string{{"ci", "sc"}, {"ai", "sa"}, {"bi", "sb"}} {
				g.Id(x[0]).Op("+=").Id(x[1])
			}
		}
		prod := func() *jen.Statement { return v("ap", id("ai")).Op("*").Add(v("bp", id("bi"))) }
		// A depth of one (a Hadamard product) is a loop of its own for
		// each alpha and beta that need no read of C or no multiplication:
		// a complex one is four, as Go computes it.
		loop := func(body func(g *jen.Group)) *jen.Statement {
			return jen.For(jen.Range().Id("n")).BlockFunc(func(g *jen.Group) {
				body(g)
				next(g)
			})
		}
		g.If(id("k").Op("==").Lit(1)).Block(
			jen.Switch().Block(
				jen.Case(id("al").Op("==").Lit(1).Op("&&").Id("be").Op("==").Lit(0)).Block(loop(func(g *jen.Group) {
					g.Add(v("cp", id("ci"))).Op("=").Add(prod())
				})),
				jen.Case(id("be").Op("==").Lit(0)).Block(loop(func(g *jen.Group) {
					g.Add(v("cp", id("ci"))).Op("=").Id("al").Op("*").Parens(prod())
				})),
				jen.Case(id("be").Op("==").Lit(1)).Block(loop(func(g *jen.Group) {
					g.Add(v("cp", id("ci"))).Op("+=").Id("al").Op("*").Parens(prod())
				})),
				jen.Default().Block(loop(func(g *jen.Group) {
					g.Id("q").Op(":=").Parens(jen.Op("*").Add(e.T())).Call(ptr("cp", id("ci").Op("*").Lit(size)))
					g.Op("*").Id("q").Op("=").Id("al").Op("*").Parens(prod()).Op("+").Id("be").Op("*").Op("*").Id("q")
				})),
			),
			jen.Return(),
		)
		g.For(jen.Range().Id("n")).BlockFunc(func(g *jen.Group) {
			g.Id("s").Op(":=").Id(dot).Call(id("ap"), id("bp"), id("ai"), id("bi"), id("k"), id("ka"), id("kb"))
			g.Id("q").Op(":=").Parens(jen.Op("*").Add(e.T())).Call(ptr("cp", id("ci").Op("*").Lit(size)))
			g.If(id("be").Op("==").Lit(0)).Block(
				jen.Op("*").Id("q").Op("=").Id("al").Op("*").Id("s"),
			).Else().Block(
				jen.Op("*").Id("q").Op("=").Id("al").Op("*").Id("s").Op("+").Id("be").Op("*").Op("*").Id("q"),
			)
			next(g)
		})
	})

	doc(f, fmt.Sprintf("%s is Σ_p A(p)·B(p) for p < k, A(p) at a[ai+p·ka], B(p) at b[bi+p·kb],\n"+
		"in %d partial sums.", dot, dotLanes))
	f.Func().Id(dot).Params(
		jen.List(id("a"), id("b")).Qual(unsafePath, "Pointer"),
		jen.List(id("ai"), id("bi")).Int64(),
		id("k").Int(),
		jen.List(id("ka"), id("kb")).Int64(),
	).Add(e.T()).BlockFunc(func(g *jen.Group) {
		var sums []jen.Code
		for l := range dotLanes {
			sums = append(sums, id(fmt.Sprintf("s%d", l)))
		}
		g.Var().List(sums...).Add(e.T())
		g.Id("p").Op(":=").Lit(0)
		g.For(jen.Op(";").Id("p").Op("+").Lit(dotLanes).Op("<=").Id("k").Op(";").Id("p").Op("+=").Lit(dotLanes)).BlockFunc(func(g *jen.Group) {
			for l := range dotLanes {
				oa, ob := id("ai"), id("bi")
				switch {
				case l == 1:
					oa, ob = jen.Parens(id("ai").Op("+").Id("ka")), jen.Parens(id("bi").Op("+").Id("kb"))
				case l > 1:
					oa = jen.Parens(id("ai").Op("+").Lit(l).Op("*").Id("ka"))
					ob = jen.Parens(id("bi").Op("+").Lit(l).Op("*").Id("kb"))
				}
				g.Id(fmt.Sprintf("s%d", l)).Op("+=").Add(v("a", oa)).Op("*").Add(v("b", ob))
			}
			g.Id("ai").Op("+=").Lit(dotLanes).Op("*").Id("ka")
			g.Id("bi").Op("+=").Lit(dotLanes).Op("*").Id("kb")
		})
		g.For(jen.Op(";").Id("p").Op("<").Id("k").Op(";").Id("p").Op("++")).Block(
			id("s0").Op("+=").Add(v("a", id("ai"))).Op("*").Add(v("b", id("bi"))),
			id("ai").Op("+=").Id("ka"),
			id("bi").Op("+=").Id("kb"),
		)
		// Pairwise, as the lanes of a vector sum would be.
		for w := 1; w < dotLanes; w *= 2 {
			for l := 0; l+w < dotLanes; l += 2 * w {
				g.Id(fmt.Sprintf("s%d", l)).Op("+=").Id(fmt.Sprintf("s%d", l+w))
			}
		}
		g.Return(id("s0"))
	})
}
