package main

import (
	. "github.com/dave/jennifer/jen"

	"github.com/tcontract/tcontract/internal/spec"
)

// runsName is a row's row-map kernel: "runs_f32_64x6_avx512".
func runsName(k spec.Kernel) string { return k.Func("runs") }

// hasRuns reports whether a row has an assembly row-map kernel (asm/avx512
// emits them: its masked stores split a vector between two runs of C).
func hasRuns(k spec.Kernel) bool { return k.ISA == spec.AVX512 }

// runsParams is the parameter list of a RunsFunc.
func runsParams() []Code {
	return []Code{
		Id("k").Int(),
		List(Id("a"), Id("b"), Id("c")).Op("*").Byte(),
		List(Id("rows"), Id("cols")).Op("*").Int64(),
		Id("n").Int(),
		List(Id("alpha"), Id("beta")).Op("*").Byte(),
	}
}

// runsTwin is the plain-loop reference of the row-map kernel: the tile as
// loopTile sums it, each row stored where the row map puts it.
func runsTwin(f *File, k spec.Kernel, r spec.Real) {
	name := runsName(k) + "_go"
	lanes := isa(k.ISA).Lanes(r.Size)
	f.Commentf("%s is the pure-Go twin of %s: row i = v·%d + l of", name, runsName(k), lanes)
	f.Commentf("column j < n goes to c + rows[4v] + l·%d + cols[j] bytes when bit l of rows[4v+2]", r.Size)
	f.Comment("is set, else to c + rows[4v+1] + … when bit l of rows[4v+3] is, else nowhere.")
	deref := func(p string) Code {
		return Op("*").Parens(Op("*").Add(goType(r))).Call(Qual("unsafe", "Pointer").Call(Id(p)))
	}
	body := []Code{
		Const().Id("mr").Op(",").Id("nr").Op(",").Id("lanes").Op("=").List(Lit(k.MR), Lit(k.NR), Lit(lanes)),
	}
	body = append(body, slivers(r)...)
	body = append(body, sumTile(r)...)
	body = append(body,
		Id("rm").Op(":=").Qual("unsafe", "Slice").Call(Id("rows"), Id("mr").Op("/").Id("lanes").Op("*").Lit(4)),
		Id("cm").Op(":=").Qual("unsafe", "Slice").Call(Id("cols"), Id("n")),
		Id("al").Op(":=").Add(deref("alpha")),
		Id("be").Op(":=").Add(deref("beta")),
		For(Id("j").Op(":=").Lit(0), Id("j").Op("<").Id("n"), Id("j").Op("++")).Block(
			For(Id("i").Op(":=").Lit(0), Id("i").Op("<").Id("mr"), Id("i").Op("++")).Block(
				List(Id("v"), Id("l")).Op(":=").List(Id("i").Op("/").Id("lanes"), Id("i").Op("%").Id("lanes")),
				Var().Id("off").Int64(),
				Switch().Block(
					Case(Id("rm").Index(Lit(4).Op("*").Id("v").Op("+").Lit(2)).Op(">>").Id("l").Op("&").Lit(1).Op("!=").Lit(0)).Block(
						Id("off").Op("=").Id("rm").Index(Lit(4).Op("*").Id("v")),
					),
					Case(Id("rm").Index(Lit(4).Op("*").Id("v").Op("+").Lit(3)).Op(">>").Id("l").Op("&").Lit(1).Op("!=").Lit(0)).Block(
						Id("off").Op("=").Id("rm").Index(Lit(4).Op("*").Id("v").Op("+").Lit(1)),
					),
					Default().Block(Continue()),
				),
				Id("cij").Op(":=").Parens(Op("*").Add(goType(r))).Call(Qual("unsafe", "Add").Call(
					Qual("unsafe", "Pointer").Call(Id("c")),
					Id("off").Op("+").Id("cm").Index(Id("j")).Op("+").Int64().Call(Id("l").Op("*").Lit(r.Size)))),
				Comment("beta == 0 never reads C, so NaN or Inf there does not leak."),
				If(Id("be").Op("==").Lit(0)).Block(
					Op("*").Id("cij").Op("=").Id("al").Op("*").Id("acc").Index(Id("j")).Index(Id("i")),
				).Else().Block(
					Op("*").Id("cij").Op("=").Id("al").Op("*").Id("acc").Index(Id("j")).Index(Id("i")).Op("+").Id("be").Op("*").Op("*").Id("cij"),
				),
			),
		),
	)
	f.Func().Id(name).Params(runsParams()...).Block(body...)
}
