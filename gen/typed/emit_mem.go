package main

import "github.com/dave/jennifer/jen"

// emitMem writes mem.go: the byte movers every element type shares. Copies
// of small arrays compile to vector moves without a call to memmove, which
// for the runs of a sliver (16 to 128 bytes) costs more than the move itself.
func emitMem(f *jen.File) {
	f.Comment("vec16 is moved by one 16-byte vector load and store.")
	f.Type().Id("vec16").Op("=").Index(lit(16)).Byte()
	f.Comment("vec4 is moved by one 4-byte load and store.")
	f.Type().Id("vec4").Op("=").Index(lit(4)).Byte()

	// moves emits the 16-byte moves of bytes [0, n) from s to d.
	moves := func(g *jen.Group, n int) {
		for o := 0; o < n; o += 16 {
			var dp, sp jen.Code = id("d"), id("s")
			if o > 0 {
				dp, sp = ptr("d", lit(o)), ptr("s", lit(o))
			}
			g.Add(deref("vec16", dp)).Op("=").Add(deref("vec16", sp))
		}
	}
	run := func(n int) jen.Code {
		return jen.For(jen.List(id("p"), id("k")).Op(":=").Range().Id("kOff")).BlockFunc(func(g *jen.Group) {
			g.Id("d").Op(":=").Add(ptr("dst", id("p").Op("*").Id("dstep")))
			g.Id("s").Op(":=").Add(ptr("src", jen.Parens(id("base").Op("+").Id("k")).Op("*").Id("size")))
			moves(g, n)
		})
	}
	doc(f, "copyRuns copies len(kOff) runs of w bytes: run p from src+(base+kOff[p])·size\n"+
		"to dst+p·dstep. Runs of a multiple of 16 bytes up to 128 (sliver rows of\n"+
		"every kernel) are unrolled; others move 16, 4, then 1 byte at a time.")
	f.Func().Id("copyRuns").Params(
		id("dst"), id("src").Qual(unsafePath, "Pointer"),
		id("w"), id("dstep").Int(), id("base").Int64(), id("kOff").Index().Int64(), id("size").Int64(),
	).Block(
		jen.Switch(id("w")).BlockFunc(func(g *jen.Group) {
			for n := 128; n >= 16; n -= 16 {
				g.Case(lit(n)).Block(run(n))
			}
			g.Default().Block(
				jen.For(jen.List(id("p"), id("k")).Op(":=").Range().Id("kOff")).Block(
					id("d").Op(":=").Add(ptr("dst", id("p").Op("*").Id("dstep"))),
					id("s").Op(":=").Add(ptr("src", jen.Parens(id("base").Op("+").Id("k")).Op("*").Id("size"))),
					id("i").Op(":=").Lit(0),
					jen.For(jen.Empty(), id("i").Op("+").Lit(16).Op("<=").Id("w"), id("i").Op("+=").Lit(16)).Block(
						deref("vec16", ptr("d", id("i"))).Op("=").Add(deref("vec16", ptr("s", id("i")))),
					),
					jen.For(jen.Empty(), id("i").Op("+").Lit(4).Op("<=").Id("w"), id("i").Op("+=").Lit(4)).Block(
						deref("vec4", ptr("d", id("i"))).Op("=").Add(deref("vec4", ptr("s", id("i")))),
					),
					jen.For(jen.Empty(), id("i").Op("<").Id("w"), id("i").Op("++")).Block(
						deref("byte", ptr("d", id("i"))).Op("=").Add(deref("byte", ptr("s", id("i")))),
					),
				),
			)
		}),
	)

	f.Comment("zeroRuns clears bytes [from, to) of each of n runs spaced step bytes apart:")
	f.Comment("the padding of a partial sliver.")
	f.Func().Id("zeroRuns").Params(id("dst").Qual(unsafePath, "Pointer"), id("from"), id("to"), id("step"), id("n").Int()).Block(
		jen.For(id("r").Op(":=").Range().Id("n")).Block(
			jen.Clear(jen.Qual(unsafePath, "Slice").Call(
				jen.Parens(jen.Op("*").Byte()).Call(ptr("dst", id("r").Op("*").Id("step").Op("+").Id("from"))),
				id("to").Op("-").Id("from"))),
		),
	)
}
