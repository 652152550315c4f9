package main

import (
	. "github.com/dave/jennifer/jen"

	"github.com/tcontract/tcontract/internal/spec"
)

// hasPackX reports whether a row has an assembly cross-sliver packer
// (asm/avx2 and asm/avx512 emit them).
func hasPackX(k spec.Kernel) bool { return k.ISA == spec.AVX2 || k.ISA == spec.AVX512 }

// packxParams is the parameter list of a PackXFunc.
func packxParams() []Code {
	return []Code{
		List(Id("dst"), Id("src")).Op("*").Byte(),
		List(Id("slivers"), Id("rows"), Id("k"), Id("rowStep"), Id("kStep"), Id("sliverStep"), Id("ahead")).Int(),
	}
}

// packxTwin is the plain-loop reference of the cross-sliver packer: up to
// a vector's lanes of A slivers, sliver j's rows one real after sliver
// j-1's, sliver j at dst + j·sliverStep bytes.
func packxTwin(f *File, k spec.Kernel, r spec.Real) {
	name := packName(k, "x") + "_go"
	T := goType(r)
	L := isa(k.ISA).Lanes(r.Size)
	f.Commentf("%s is the pure-Go twin of %s: for j < slivers <= %d, i < rows", name, packName(k, "x"), L)
	f.Commentf("and p < k, sliver j at dst + j*sliverStep bytes gets [p*%d+i] = src[j+i*rowStep+p*kStep],", k.MR)
	f.Commentf("and 0 for rows <= i < %d.", k.MR)
	f.Func().Id(name).Params(packxParams()...).Block(
		Const().Id("w").Op(",").Id("lanes").Op("=").List(Lit(k.MR), Lit(L)),
		Id("rows").Op("=").Max(Lit(0), Min(Id("rows"), Id("w"))),
		Id("slivers").Op("=").Min(Id("slivers"), Id("lanes")),
		If(Id("k").Op("<=").Lit(0).Op("||").Id("slivers").Op("<=").Lit(0)).Block(Return()),
		List(Id("s"), Id("s0")).Op(":=").Id("view").Types(T).Call(Id("src"), Id("rows"), Id("rowStep"), Id("k"), Id("kStep")),
		Comment("The view covers sliver 0; sliver j reads j reals further."),
		If(Id("s").Op("!=").Nil()).Block(
			Id("s").Op("=").Qual("unsafe", "Slice").Call(Qual("unsafe", "SliceData").Call(Id("s")), Len(Id("s")).Op("+").Id("slivers").Op("-").Lit(1)),
		),
		For(Id("j").Op(":=").Range().Id("slivers")).Block(
			Id("d").Op(":=").Qual("unsafe", "Slice").Call(
				Parens(Op("*").Add(T)).Call(Qual("unsafe", "Add").Call(Qual("unsafe", "Pointer").Call(Id("dst")), Id("j").Op("*").Id("sliverStep"))),
				Id("w").Op("*").Id("k")),
			For(Id("p").Op(":=").Lit(0), Id("p").Op("<").Id("k"), Id("p").Op("++")).Block(
				For(Id("i").Op(":=").Lit(0), Id("i").Op("<").Id("rows"), Id("i").Op("++")).Block(
					Id("d").Index(Id("p").Op("*").Id("w").Op("+").Id("i")).Op("=").
						Id("s").Index(Id("s0").Op("+").Id("j").Op("+").Id("i").Op("*").Id("rowStep").Op("+").Id("p").Op("*").Id("kStep")),
				),
				For(Id("i").Op(":=").Id("rows"), Id("i").Op("<").Id("w"), Id("i").Op("++")).Block(
					Id("d").Index(Id("p").Op("*").Id("w").Op("+").Id("i")).Op("=").Lit(0),
				),
			),
		),
	)
}
