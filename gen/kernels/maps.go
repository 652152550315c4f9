package main

import (
	. "github.com/dave/jennifer/jen"

	"github.com/tcontract/tcontract/internal/spec"
)

// mapsName is a row's half-map column kernel: "maps_f32_16x6_avx2".
func mapsName(k spec.Kernel) string { return k.Func("maps") }

// hasMaps reports whether a row has an assembly half-map column kernel
// (asm/avx2 emits them: without cheap masked stores, a vector goes to C
// as two halves).
func hasMaps(k spec.Kernel) bool { return k.ISA == spec.AVX2 }

// mapsParams is the parameter list of a MapsFunc.
func mapsParams() []Code {
	return []Code{
		Id("k").Int(),
		List(Id("a"), Id("b"), Id("c")).Op("*").Byte(),
		List(Id("rows"), Id("cols")).Op("*").Int64(),
		List(Id("tiles"), Id("n")).Int(),
		List(Id("alpha"), Id("beta")).Op("*").Byte(),
	}
}

// mapsTwin is the plain-loop reference of the half-map column kernel: per
// tile the tile as loopTile sums it, each half vector of rows stored where
// the tile's map puts it.
func mapsTwin(f *File, k spec.Kernel, r spec.Real) {
	name := mapsName(k) + "_go"
	lanes := isa(k.ISA).Lanes(r.Size)
	words := spec.RowMapWords*k.MR/lanes + 1
	f.Commentf("%s is the pure-Go twin of %s: tile t < tiles reads A's", name, mapsName(k))
	f.Commentf("sliver t (%d·k reals on) and the map rm at rows + t·%d words; its row", k.MR, words)
	f.Commentf("i = v·%d + h·%d + l (l < %d) of column j < n goes to c + rm[4v+h] + l·%d + cols[j] bytes.", lanes, lanes/2, lanes/2, r.Size)
	deref := func(p string) Code {
		return Op("*").Parens(Op("*").Add(goType(r))).Call(Qual("unsafe", "Pointer").Call(Id(p)))
	}
	add := func(base string, off Code) Code {
		return Qual("unsafe", "Add").Call(Qual("unsafe", "Pointer").Call(Id(base)), off)
	}
	cij := Parens(Op("*").Add(goType(r))).Call(add("c",
		Id("rm").Index(Lit(4).Op("*").Id("v").Op("+").Id("h")).Op("+").
			Int64().Call(Id("l").Op("*").Lit(r.Size)).Op("+").Id("cm").Index(Id("j"))))
	tile := []Code{
		Id("pa").Op(":=").Qual("unsafe", "Slice").Call(
			Parens(Op("*").Add(goType(r))).Call(add("a", Id("t").Op("*").Id("mr").Op("*").Id("k").Op("*").Lit(r.Size))),
			Id("mr").Op("*").Id("k")),
		Id("rm").Op(":=").Qual("unsafe", "Slice").Call(
			Parens(Op("*").Int64()).Call(add("rows", Id("t").Op("*").Id("words").Op("*").Lit(8))), Id("words")),
	}
	tile = append(tile, sumTile(r)...)
	tile = append(tile,
		For(Id("j").Op(":=").Lit(0), Id("j").Op("<").Id("n"), Id("j").Op("++")).Block(
			For(Id("i").Op(":=").Lit(0), Id("i").Op("<").Id("mr"), Id("i").Op("++")).Block(
				List(Id("v"), Id("h"), Id("l")).Op(":=").List(
					Id("i").Op("/").Id("lanes"), Id("i").Op("%").Id("lanes").Op("/").Parens(Id("lanes").Op("/").Lit(2)),
					Id("i").Op("%").Parens(Id("lanes").Op("/").Lit(2))),
				Id("cij").Op(":=").Add(cij),
				Comment("beta == 0 never reads C, so NaN or Inf there does not leak."),
				If(Id("be").Op("==").Lit(0)).Block(
					Op("*").Id("cij").Op("=").Id("al").Op("*").Id("acc").Index(Id("j")).Index(Id("i")),
				).Else().Block(
					Op("*").Id("cij").Op("=").Id("al").Op("*").Id("acc").Index(Id("j")).Index(Id("i")).Op("+").Id("be").Op("*").Op("*").Id("cij"),
				),
			),
		),
	)
	f.Func().Id(name).Params(mapsParams()...).Block(
		Const().Id("mr").Op(",").Id("nr").Op(",").Id("lanes").Op(",").Id("words").Op("=").
			List(Lit(k.MR), Lit(k.NR), Lit(lanes), Lit(words)),
		If(Id("tiles").Op("<=").Lit(0)).Block(Return()),
		Id("cm").Op(":=").Qual("unsafe", "Slice").Call(Id("cols"), Id("n")),
		Id("al").Op(":=").Add(deref("alpha")),
		Id("be").Op(":=").Add(deref("beta")),
		Id("pb").Op(":=").Qual("unsafe", "Slice").Call(
			Parens(Op("*").Add(goType(r))).Call(Qual("unsafe", "Pointer").Call(Id("b"))), Id("nr").Op("*").Id("k")),
		For(Id("t").Op(":=").Range().Id("tiles")).Block(tile...),
	)
}
