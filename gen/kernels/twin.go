package main

import (
	"fmt"

	. "github.com/dave/jennifer/jen"

	"github.com/tcontract/tcontract/internal/spec"
)

// funcParams is the parameter list of a kernel Func.
func funcParams() []Code {
	return []Code{
		Id("k").Int(),
		List(Id("a"), Id("b"), Id("c")).Op("*").Byte(),
		List(Id("rsc"), Id("csc"), Id("m"), Id("n")).Int(),
		List(Id("alpha"), Id("beta")).Op("*").Byte(),
	}
}

// twinFile is <name>_twin.go: the twin of the packed kernel, of the direct
// kernel and of the two packers. Rows with assembly get a plain triple loop into
// an array tile: obviously the contract, the reference the assembly is
// tested against. Generic rows have no assembly, so their twin is the kernel
// and keeps the tile in named locals the compiler can hold in registers.
func twinFile(k spec.Kernel) *File {
	f := newFile("")
	name := k.Name() + "_go"
	r := real(k)
	if isa(k.ISA).Arch == "" {
		f.Commentf("%s computes C := alpha·Ã·B̃ + beta·C on the top-left m×n of one %d×%d tile", name, k.MR, k.NR)
		f.Commentf("of %s in plain Go, the tile in locals (docs/internals.md has the contract).", k.Real)
		f.Func().Id(name).Params(funcParams()...).Block(registerTile(k, r)...)
	} else {
		f.Commentf("%s is the pure-Go twin of %s: C := alpha·Ã·B̃ + beta·C on", name, k.Name())
		f.Commentf("the top-left m×n of one %d×%d tile of %s, as plain loops (docs/internals.md).", k.MR, k.NR, k.Real)
		f.Func().Id(name).Params(funcParams()...).Block(loopTile(k, r)...)
	}
	directTwin(f, k, r)
	packTwin(f, k, r, "a", k.MR)
	packTwin(f, k, r, "b", k.NR)
	pack1eTwin(f, k, r)
	pack1rTwin(f, k, r)
	if hasPackX(k) {
		packxTwin(f, k, r)
	}
	if hasRuns(k) {
		runsTwin(f, k, r)
	}
	if hasTiles(k) {
		tilesTwin(f, k, r)
	}
	if hasMaps(k) {
		mapsTwin(f, k, r)
	}
	return f
}

// slivers declares pa and pb, the packed slivers as slices of k steps.
func slivers(r spec.Real) []Code {
	sl := func(p string, d string) Code {
		return Id(p).Op(":=").Qual("unsafe", "Slice").Call(
			Parens(Op("*").Add(goType(r))).Call(Qual("unsafe", "Pointer").Call(Id(d))),
			Id(map[string]string{"a": "mr", "b": "nr"}[d]).Op("*").Id("k"))
	}
	return []Code{sl("pa", "a"), sl("pb", "b")}
}

// writeBack stores alpha·acc[j][i] (+ beta·C(i,j) unless beta is 0) into the
// top-left m×n of C.
func writeBack(r spec.Real, acc func(i, j Code) Code) []Code {
	deref := func(p string) Code {
		return Op("*").Parens(Op("*").Add(goType(r))).Call(Qual("unsafe", "Pointer").Call(Id(p)))
	}
	cij := Parens(Op("*").Add(goType(r))).Call(Qual("unsafe", "Add").Call(
		Qual("unsafe", "Pointer").Call(Id("c")),
		Parens(Id("i").Op("*").Id("rsc").Op("+").Id("j").Op("*").Id("csc")).Op("*").Lit(r.Size)))
	return []Code{
		Id("al").Op(":=").Add(deref("alpha")),
		Id("be").Op(":=").Add(deref("beta")),
		For(Id("j").Op(":=").Lit(0), Id("j").Op("<").Id("n"), Id("j").Op("++")).Block(
			For(Id("i").Op(":=").Lit(0), Id("i").Op("<").Id("m"), Id("i").Op("++")).Block(
				Id("cij").Op(":=").Add(cij),
				Comment("beta == 0 never reads C, so NaN or Inf there does not leak."),
				If(Id("be").Op("==").Lit(0)).Block(
					Op("*").Id("cij").Op("=").Id("al").Op("*").Add(acc(Id("i"), Id("j"))),
				).Else().Block(
					Op("*").Id("cij").Op("=").Id("al").Op("*").Add(acc(Id("i"), Id("j"))).Op("+").Id("be").Op("*").Op("*").Id("cij"),
				),
			),
		),
	}
}

func loopTile(k spec.Kernel, r spec.Real) []Code {
	body := []Code{
		Const().Id("mr").Op(",").Id("nr").Op("=").List(Lit(k.MR), Lit(k.NR)),
	}
	body = append(body, slivers(r)...)
	body = append(body, sumTile(r)...)
	return append(body, writeBack(r, func(i, j Code) Code { return Id("acc").Index(j).Index(i) })...)
}

// sumTile declares acc[nr][mr] and sums the packed slivers into it with the
// plainest triple loop.
func sumTile(r spec.Real) []Code {
	return []Code{
		Var().Id("acc").Index(Id("nr")).Index(Id("mr")).Add(goType(r)),
		For(Id("p").Op(":=").Lit(0), Id("p").Op("<").Id("k"), Id("p").Op("++")).Block(
			For(Id("j").Op(":=").Lit(0), Id("j").Op("<").Id("nr"), Id("j").Op("++")).Block(
				For(Id("i").Op(":=").Lit(0), Id("i").Op("<").Id("mr"), Id("i").Op("++")).Block(
					Id("acc").Index(Id("j")).Index(Id("i")).Op("+=").
						Id("pa").Index(Id("p").Op("*").Id("mr").Op("+").Id("i")).Op("*").
						Id("pb").Index(Id("p").Op("*").Id("nr").Op("+").Id("j")),
				),
			),
		),
	}
}

// registerTile is the generic kernel: MR·NR accumulators as locals c<i>_<j>,
// one pass over the slivers that re-slices them so each step has a single
// bounds check, then the tile through an array for the write-back loops.
func registerTile(k spec.Kernel, r spec.Real) []Code {
	cn := func(i, j int) string { return fmt.Sprintf("c%d_%d", i, j) }
	body := []Code{
		Const().Id("mr").Op(",").Id("nr").Op("=").List(Lit(k.MR), Lit(k.NR)),
	}
	body = append(body, slivers(r)...)
	var accs []Code
	for j := 0; j < k.NR; j++ {
		for i := 0; i < k.MR; i++ {
			accs = append(accs, Id(cn(i, j)))
		}
	}
	body = append(body, Var().List(accs...).Add(goType(r)))
	var step []Code
	step = append(step,
		Id("ap").Op(":=").Id("pa").Index(Op(":").Id("mr")),
		Id("bp").Op(":=").Id("pb").Index(Op(":").Id("nr")),
	)
	var as []Code
	var aload []Code
	for i := 0; i < k.MR; i++ {
		as = append(as, Id(fmt.Sprintf("a%d", i)))
		aload = append(aload, Id("ap").Index(Lit(i)))
	}
	step = append(step, List(as...).Op(":=").List(aload...))
	for j := 0; j < k.NR; j++ {
		bj := fmt.Sprintf("b%d", j)
		step = append(step, Id(bj).Op(":=").Id("bp").Index(Lit(j)))
		for i := 0; i < k.MR; i++ {
			step = append(step, Id(cn(i, j)).Op("+=").Id(fmt.Sprintf("a%d", i)).Op("*").Id(bj))
		}
	}
	step = append(step,
		Id("pa").Op("=").Id("pa").Index(Id("mr").Op(":")),
		Id("pb").Op("=").Id("pb").Index(Id("nr").Op(":")),
	)
	body = append(body,
		For(Id("len").Call(Id("pa")).Op(">=").Id("mr").Op("&&").Id("len").Call(Id("pb")).Op(">=").Id("nr")).Block(step...),
		Id("acc").Op(":=").Index(Id("nr").Op("*").Id("mr")).Add(goType(r)).Values(accs...),
	)
	return append(body, writeBack(r, func(i, j Code) Code {
		return Id("acc").Index(Add(j).Op("*").Id("mr").Op("+").Add(i))
	})...)
}
