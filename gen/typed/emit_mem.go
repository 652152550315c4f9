package main

import "github.com/dave/jennifer/jen"

// emitMem writes mem.go: the byte movers every element type shares. Copies
// of small arrays compile to vector moves without a call to memmove, which
// for the runs of a sliver (a few to a few hundred bytes) costs more than the
// move itself.
func emitMem(f *jen.File) {
	f.Comment("vec16 is moved by one 16-byte vector load and store.")
	f.Type().Id("vec16").Op("=").Index(lit(16)).Byte()
	f.Comment("vec8 and vec4 are moved by one 8-byte or 4-byte load and store.")
	f.Type().Id("vec8").Op("=").Index(lit(8)).Byte()
	f.Type().Id("vec4").Op("=").Index(lit(4)).Byte()

	// moves emits the moves of bytes [0, n) from s+at to d+at: 16 bytes at a
	// time, then 8 and 4.
	moves := func(g *jen.Group, n int, at jen.Code) {
		off := func(base string, o int) jen.Code {
			switch {
			case at == nil && o == 0:
				return id(base)
			case at == nil:
				return ptr(base, lit(o))
			case o == 0:
				return ptr(base, at)
			}
			return ptr(base, jen.Add(at).Op("+").Lit(o))
		}
		o := 0
		for _, w := range []struct {
			size int
			typ  string
		}{{16, "vec16"}, {8, "vec8"}, {4, "vec4"}} {
			for ; o+w.size <= n; o += w.size {
				g.Add(deref(w.typ, off("d", o))).Op("=").Add(deref(w.typ, off("s", o)))
			}
		}
	}
	run := func(body func(g *jen.Group)) jen.Code {
		return jen.For(jen.List(id("p"), id("k")).Op(":=").Range().Id("kOff")).BlockFunc(func(g *jen.Group) {
			g.Id("d").Op(":=").Add(ptr("dst", id("p").Op("*").Id("dstep")))
			g.Id("s").Op(":=").Add(ptr("src", jen.Parens(id("base").Op("+").Id("k")).Op("*").Id("size")))
			body(g)
		})
	}
	doc(f, "copyRuns copies len(kOff) runs of w bytes: run p from src+(base+kOff[p])·size\n"+
		"to dst+p·dstep. Runs of a multiple of 8 bytes up to 128 are unrolled; longer\n"+
		"ones move 64 bytes per trip, then 16, 8, 4 and 1.")
	f.Func().Id("copyRuns").Params(
		id("dst"), id("src").Qual(unsafePath, "Pointer"),
		id("w"), id("dstep").Int(), id("base").Int64(), id("kOff").Index().Int64(), id("size").Int64(),
	).Block(
		jen.Switch(id("w")).BlockFunc(func(g *jen.Group) {
			for n := 128; n >= 8; n -= 8 {
				g.Case(lit(n)).Block(run(func(g *jen.Group) { moves(g, n, nil) }))
			}
			g.Default().Block(run(func(g *jen.Group) {
				g.Id("i").Op(":=").Lit(0)
				g.For(jen.Empty(), id("i").Op("+").Lit(64).Op("<=").Id("w"), id("i").Op("+=").Lit(64)).BlockFunc(func(g *jen.Group) {
					moves(g, 64, id("i"))
				})
				for _, w := range []struct {
					size int
					typ  string
				}{{16, "vec16"}, {8, "vec8"}, {4, "vec4"}, {1, "byte"}} {
					cond, next := id("i").Op("+").Lit(w.size).Op("<=").Id("w"), id("i").Op("+=").Lit(w.size)
					if w.size == 1 {
						cond, next = id("i").Op("<").Id("w"), id("i").Op("++")
					}
					g.For(jen.Empty(), cond, next).Block(
						deref(w.typ, ptr("d", id("i"))).Op("=").Add(deref(w.typ, ptr("s", id("i")))),
					)
				}
			}))
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
