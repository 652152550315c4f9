package main

import (
	. "github.com/dave/jennifer/jen"

	"github.com/tcontract/tcontract/internal/spec"
)

// Names of a row's direct kernel and packers: "direct_f32_64x6_avx512",
// "packa_…", "packb_…" (the assembly functions; their twins add "_go").
func directName(k spec.Kernel) string          { return k.Func("direct") }
func packName(k spec.Kernel, op string) string { return k.Func("pack" + op) }

// hasDirect reports whether a row has an assembly direct kernel and
// assembly packers: the x86 rows (asm/avx512, asm/avx2 emit them).
func hasDirect(k spec.Kernel) bool { return k.ISA == spec.AVX512 || k.ISA == spec.AVX2 }

// has1m reports whether a row has assembly 1e and 1r packers (asm/avx512
// and asm/avx2 emit them; NEON and generic rows pack complex operands with
// the typed packers).
func has1m(k spec.Kernel) bool { return k.ISA == spec.AVX512 || k.ISA == spec.AVX2 }

// directParams is the parameter list of a DirectFunc.
func directParams() []Code {
	return []Code{
		Id("k").Int(),
		Id("a").Op("*").Byte(), Id("lda").Int(),
		Id("b").Op("*").Byte(), List(Id("rsb"), Id("csb")).Int(),
		Id("c").Op("*").Byte(), List(Id("rsc"), Id("csc"), Id("m"), Id("n")).Int(),
		List(Id("alpha"), Id("beta")).Op("*").Byte(),
		Id("ahead").Int(),
	}
}

// packParams is the parameter list of a PackFunc.
func packParams() []Code {
	return []Code{
		List(Id("dst"), Id("src")).Op("*").Byte(),
		List(Id("rows"), Id("k"), Id("rowStep"), Id("kStep")).Int(),
	}
}

// viewFile is view.go: the helper the twins read operands through, one
// slice per operand so that the loops index it (bounds checked, and cheap
// under checkptr) rather than converting a pointer per element.
func viewFile() *File {
	f := newFile("")
	f.Comment("view returns the reals at offsets i*s1 + j*s2 (i < n1, j < n2, strides of any sign)")
	f.Comment("from p as one slice, and the index of p in it; nil when there are none.")
	f.Func().Id("view").Types(Id("T").Float32().Op("|").Float64()).
		Params(Id("p").Op("*").Byte(), List(Id("n1"), Id("s1"), Id("n2"), Id("s2")).Int()).
		Params(Index().Id("T"), Int()).Block(
		If(Id("n1").Op("<=").Lit(0).Op("||").Id("n2").Op("<=").Lit(0)).Block(Return(Nil(), Lit(0))),
		Id("lo").Op(":=").Min(Lit(0), Parens(Id("n1").Op("-").Lit(1)).Op("*").Id("s1")).Op("+").
			Min(Lit(0), Parens(Id("n2").Op("-").Lit(1)).Op("*").Id("s2")),
		Id("hi").Op(":=").Max(Lit(0), Parens(Id("n1").Op("-").Lit(1)).Op("*").Id("s1")).Op("+").
			Max(Lit(0), Parens(Id("n2").Op("-").Lit(1)).Op("*").Id("s2")),
		Var().Id("z").Id("T"),
		Id("base").Op(":=").Qual("unsafe", "Add").Call(Qual("unsafe", "Pointer").Call(Id("p")),
			Id("lo").Op("*").Int().Call(Qual("unsafe", "Sizeof").Call(Id("z")))),
		Return(Qual("unsafe", "Slice").Call(Parens(Op("*").Id("T")).Call(Id("base")), Id("hi").Op("-").Id("lo").Op("+").Lit(1)), Op("-").Id("lo")),
	)
	return f
}

// directTwin is the plain-loop reference of the direct kernel: it reads
// only A(i,p) for i < m and B(p,j) for j < n, in place, tile by tile in
// the assembly's order (column tiles, and row tiles within each).
func directTwin(f *File, k spec.Kernel, r spec.Real) {
	name := directName(k) + "_go"
	tile := directName(k) + "_tile_go"
	T := goType(r)
	f.Commentf("%s is the pure-Go twin of %s: C := alpha·A·B + beta·C on", name, directName(k))
	f.Commentf("m×n of %s in %d×%d tiles, A(i,p) at a[i+p*lda] and B(p,j) at", k.Real, k.MR, k.NR)
	f.Comment("b[p*rsb+j*csb] read in place, as plain loops (docs/internals.md).")
	at := func(p string, off Code) Code {
		return Parens(Op("*").Byte()).Call(Qual("unsafe", "Add").Call(Qual("unsafe", "Pointer").Call(Id(p)), Parens(off).Op("*").Lit(r.Size)))
	}
	f.Func().Id(name).Params(directParams()...).Block(
		Const().Id("mr").Op(",").Id("nr").Op("=").List(Lit(k.MR), Lit(k.NR)),
		For(Id("j").Op(":=").Lit(0), Id("j").Op("<").Id("n"), Id("j").Op("+=").Id("nr")).Block(
			For(Id("i").Op(":=").Lit(0), Id("i").Op("<").Id("m"), Id("i").Op("+=").Id("mr")).Block(
				Id(tile).Call(Id("k"), at("a", Id("i")), Id("lda"), at("b", Id("j").Op("*").Id("csb")), Id("rsb"), Id("csb"),
					at("c", Id("i").Op("*").Id("rsc").Op("+").Id("j").Op("*").Id("csc")), Id("rsc"), Id("csc"),
					Min(Id("mr"), Id("m").Op("-").Id("i")), Min(Id("nr"), Id("n").Op("-").Id("j")), Id("alpha"), Id("beta"), Id("ahead")),
			),
		),
	)

	f.Commentf("%s is one tile of %s: m <= %d, n <= %d.", tile, name, k.MR, k.NR)
	body := []Code{
		Const().Id("mr").Op(",").Id("nr").Op("=").List(Lit(k.MR), Lit(k.NR)),
		List(Id("m"), Id("n")).Op("=").List(Min(Id("m"), Id("mr")), Min(Id("n"), Id("nr"))),
		List(Id("av"), Id("a0")).Op(":=").Id("view").Types(T).Call(Id("a"), Id("m"), Lit(1), Id("k"), Id("lda")),
		List(Id("bv"), Id("b0")).Op(":=").Id("view").Types(T).Call(Id("b"), Id("k"), Id("rsb"), Id("n"), Id("csb")),
		Var().Id("acc").Index(Id("nr")).Index(Id("mr")).Add(T),
		For(Id("p").Op(":=").Lit(0), Id("p").Op("<").Id("k"), Id("p").Op("++")).Block(
			For(Id("j").Op(":=").Lit(0), Id("j").Op("<").Id("n"), Id("j").Op("++")).Block(
				Id("bpj").Op(":=").Id("bv").Index(Id("b0").Op("+").Id("p").Op("*").Id("rsb").Op("+").Id("j").Op("*").Id("csb")),
				For(Id("i").Op(":=").Lit(0), Id("i").Op("<").Id("m"), Id("i").Op("++")).Block(
					Id("acc").Index(Id("j")).Index(Id("i")).Op("+=").
						Id("av").Index(Id("a0").Op("+").Id("i").Op("+").Id("p").Op("*").Id("lda")).Op("*").Id("bpj"),
				),
			),
		),
	}
	body = append(body, writeBack(r, func(i, j Code) Code { return Id("acc").Index(j).Index(i) })...)
	f.Func().Id(tile).Params(directParams()...).Block(body...)
}

// packTwin is the plain-loop reference of one packer (w = MR for A, NR for B).
func packTwin(f *File, k spec.Kernel, r spec.Real, op string, w int) {
	name := packName(k, op) + "_go"
	T := goType(r)
	f.Commentf("%s is the pure-Go twin of %s: dst[p*%d+i] = src(i,p), the", name, packName(k, op), w)
	f.Commentf("element at src[i*rowStep+p*kStep], for i < rows and p < k, and 0 for rows <= i < %d.", w)
	f.Func().Id(name).Params(packParams()...).Block(
		Const().Id("w").Op("=").Lit(w),
		Id("rows").Op("=").Max(Lit(0), Min(Id("rows"), Id("w"))),
		If(Id("k").Op("<=").Lit(0)).Block(Return()),
		Id("d").Op(":=").Qual("unsafe", "Slice").Call(Parens(Op("*").Add(T)).Call(Qual("unsafe", "Pointer").Call(Id("dst"))), Id("w").Op("*").Id("k")),
		List(Id("s"), Id("s0")).Op(":=").Id("view").Types(T).Call(Id("src"), Id("rows"), Id("rowStep"), Id("k"), Id("kStep")),
		For(Id("p").Op(":=").Lit(0), Id("p").Op("<").Id("k"), Id("p").Op("++")).Block(
			For(Id("i").Op(":=").Lit(0), Id("i").Op("<").Id("rows"), Id("i").Op("++")).Block(
				Id("d").Index(Id("p").Op("*").Id("w").Op("+").Id("i")).Op("=").
					Id("s").Index(Id("s0").Op("+").Id("i").Op("*").Id("rowStep").Op("+").Id("p").Op("*").Id("kStep")),
			),
			For(Id("i").Op(":=").Id("rows"), Id("i").Op("<").Id("w"), Id("i").Op("++")).Block(
				Id("d").Index(Id("p").Op("*").Id("w").Op("+").Id("i")).Op("=").Lit(0),
			),
		),
	)
}

// complexStart begins a 1m twin of w reals a step and at most maxRows
// complex elements: rows clamped, d the 2k steps of the sliver, and s, s0
// the source, the view of the real parts of rows×k elements at
// src[i*rowStep+p*kStep] and one real more, the imaginary part of the last.
func complexStart(T Code, w int, maxRows Code) []Code {
	return []Code{
		Const().Id("w").Op("=").Lit(w),
		Id("rows").Op("=").Max(Lit(0), Min(Id("rows"), maxRows)),
		If(Id("k").Op("<=").Lit(0)).Block(Return()),
		Id("d").Op(":=").Qual("unsafe", "Slice").Call(Parens(Op("*").Add(T)).Call(Qual("unsafe", "Pointer").Call(Id("dst"))), Lit(2).Op("*").Id("w").Op("*").Id("k")),
		List(Id("s"), Id("s0")).Op(":=").Id("view").Types(T).Call(Id("src"), Id("rows"), Id("rowStep"), Id("k"), Id("kStep")),
		Comment("The imaginary part lies one real past each offset the view covers."),
		If(Id("s").Op("!=").Nil()).Block(
			Id("s").Op("=").Qual("unsafe", "Slice").Call(Qual("unsafe", "SliceData").Call(Id("s")), Len(Id("s")).Op("+").Lit(1)),
		),
	}
}

// pack1eTwin is the plain-loop reference of the 1e packer (w = MR reals,
// rows up to w/2 complex elements, steps in reals).
func pack1eTwin(f *File, k spec.Kernel, r spec.Real) {
	name := packName(k, "1e") + "_go"
	T := goType(r)
	w := k.MR
	f.Commentf("%s is the pure-Go twin of %s: for i < rows and p < k,", name, packName(k, "1e"))
	f.Commentf("dst[2p*%d+2i:] = (re, im) and dst[(2p+1)*%d+2i:] = (-im, re) of the element at", w, w)
	f.Commentf("src[i*rowStep+p*kStep] (in reals), and 0 for reals 2*rows..%d of each step.", w)
	d := func(i Code) *Statement { return Id("d").Index(i) }
	at := func(col string, plus int) Code {
		return Id(col).Op("+").Lit(2).Op("*").Id("i").Op("+").Lit(plus)
	}
	body := complexStart(T, w, Id("w").Op("/").Lit(2))
	body = append(body,
		For(Id("p").Op(":=").Lit(0), Id("p").Op("<").Id("k"), Id("p").Op("++")).Block(
			List(Id("c0"), Id("c1")).Op(":=").List(Lit(2).Op("*").Id("p").Op("*").Id("w"), Parens(Lit(2).Op("*").Id("p").Op("+").Lit(1)).Op("*").Id("w")),
			For(Id("i").Op(":=").Lit(0), Id("i").Op("<").Id("rows"), Id("i").Op("++")).Block(
				Id("o").Op(":=").Id("s0").Op("+").Id("i").Op("*").Id("rowStep").Op("+").Id("p").Op("*").Id("kStep"),
				List(Id("re"), Id("im")).Op(":=").List(Id("s").Index(Id("o")), Id("s").Index(Id("o").Op("+").Lit(1))),
				d(at("c0", 0)).Op(",").Add(d(at("c0", 1))).Op("=").List(Id("re"), Id("im")),
				d(at("c1", 0)).Op(",").Add(d(at("c1", 1))).Op("=").List(Op("-").Id("im"), Id("re")),
			),
			For(Id("i").Op(":=").Lit(2).Op("*").Id("rows"), Id("i").Op("<").Id("w"), Id("i").Op("++")).Block(
				d(Id("c0").Op("+").Id("i")).Op(",").Add(d(Id("c1").Op("+").Id("i"))).Op("=").List(Lit(0), Lit(0)),
			),
		),
	)
	f.Func().Id(name).Params(packParams()...).Block(body...)
}

// pack1rTwin is the plain-loop reference of the 1r packer (w = NR reals,
// rows up to w complex columns, steps in reals).
func pack1rTwin(f *File, k spec.Kernel, r spec.Real) {
	name := packName(k, "1r") + "_go"
	T := goType(r)
	w := k.NR
	f.Commentf("%s is the pure-Go twin of %s: for j < rows and p < k,", name, packName(k, "1r"))
	f.Commentf("dst[2p*%d+j] and dst[(2p+1)*%d+j] are re and im of the element at", w, w)
	f.Commentf("src[j*rowStep+p*kStep] (in reals), and 0 for j from rows to %d.", w)
	d := func(i Code) *Statement { return Id("d").Index(i) }
	body := complexStart(T, w, Id("w"))
	body = append(body,
		For(Id("p").Op(":=").Lit(0), Id("p").Op("<").Id("k"), Id("p").Op("++")).Block(
			List(Id("re"), Id("im")).Op(":=").List(Lit(2).Op("*").Id("p").Op("*").Id("w"), Parens(Lit(2).Op("*").Id("p").Op("+").Lit(1)).Op("*").Id("w")),
			For(Id("j").Op(":=").Lit(0), Id("j").Op("<").Id("rows"), Id("j").Op("++")).Block(
				Id("o").Op(":=").Id("s0").Op("+").Id("j").Op("*").Id("rowStep").Op("+").Id("p").Op("*").Id("kStep"),
				d(Id("re").Op("+").Id("j")).Op(",").Add(d(Id("im").Op("+").Id("j"))).Op("=").List(Id("s").Index(Id("o")), Id("s").Index(Id("o").Op("+").Lit(1))),
			),
			For(Id("j").Op(":=").Id("rows"), Id("j").Op("<").Id("w"), Id("j").Op("++")).Block(
				d(Id("re").Op("+").Id("j")).Op(",").Add(d(Id("im").Op("+").Id("j"))).Op("=").List(Lit(0), Lit(0)),
			),
		),
	)
	f.Func().Id(name).Params(packParams()...).Block(body...)
}
