package main

import (
	. "github.com/dave/jennifer/jen"

	"github.com/tcontract/tcontract/internal/spec"
)

// tilesName is a row's column kernel: "tiles_f32_24x3_avx2".
func tilesName(k spec.Kernel) string { return k.Func("tiles") }

// hasTiles reports whether a row has an assembly column kernel (asm/avx2
// and asm/avx512 emit them).
func hasTiles(k spec.Kernel) bool { return k.ISA == spec.AVX2 || k.ISA == spec.AVX512 }

// tilesParams is the parameter list of a TilesFunc.
func tilesParams() []Code {
	return []Code{
		Id("k").Int(),
		List(Id("a"), Id("b"), Id("c")).Op("*").Byte(),
		Id("offs").Op("*").Int64(),
		List(Id("tiles"), Id("rsc"), Id("csc"), Id("m"), Id("n")).Int(),
		List(Id("alpha"), Id("beta")).Op("*").Byte(),
	}
}

// tilesTwin is the plain reference of the column kernel: the row's kernel
// twin once per tile, on A's sliver t and at C's offset t.
func tilesTwin(f *File, k spec.Kernel, r spec.Real) {
	name := tilesName(k) + "_go"
	f.Commentf("%s is the pure-Go twin of %s: %s_go on tile t < tiles,", name, tilesName(k), k.Name())
	f.Commentf("with A's sliver t (%d·k reals on) and C at c + offs[t] bytes.", k.MR)
	ptr := func(base string, off Code) Code {
		return Parens(Op("*").Byte()).Call(Qual("unsafe", "Add").Call(Qual("unsafe", "Pointer").Call(Id(base)), off))
	}
	f.Func().Id(name).Params(tilesParams()...).Block(
		If(Id("tiles").Op("<=").Lit(0)).Block(Return()),
		Id("o").Op(":=").Qual("unsafe", "Slice").Call(Id("offs"), Id("tiles")),
		For(Id("t").Op(":=").Range().Id("tiles")).Block(
			Id(k.Name()+"_go").Call(
				Id("k"),
				ptr("a", Id("t").Op("*").Lit(k.MR*r.Size).Op("*").Id("k")),
				Id("b"),
				ptr("c", Id("o").Index(Id("t"))),
				Id("rsc"), Id("csc"), Id("m"), Id("n"), Id("alpha"), Id("beta"),
			),
		),
	)
}
