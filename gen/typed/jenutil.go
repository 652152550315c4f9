package main

import (
	"strings"

	"github.com/dave/jennifer/jen"
)

const (
	unsafePath    = "unsafe"
	specPath      = "github.com/tcontract/tcontract/internal/spec"
	workspacePath = "github.com/tcontract/tcontract/workspace"
)

// Small builders for the shapes generated code repeats. Generated routines
// address memory with unsafe.Add from a base pointer and an offset held in a
// named variable, so every access reads as `*(*float32)(unsafe.Add(s, si*4))`.

// ptr is unsafe.Add(base, off).
func ptr(base string, off jen.Code) *jen.Statement {
	return jen.Qual(unsafePath, "Add").Call(jen.Id(base), off)
}

// at is the value of type typ at byte offset idx*scale+plus from base.
func at(typ, base, idx string, scale, plus int) *jen.Statement {
	off := jen.Id(idx)
	if scale != 1 {
		off = off.Op("*").Lit(scale)
	}
	if plus != 0 {
		off = off.Op("+").Lit(plus)
	}
	return deref(typ, ptr(base, off))
}

// atPtr is the value of type typ at byte offset plus from pointer p.
func atPtr(typ, p string, plus jen.Code) *jen.Statement {
	if plus == nil {
		return deref(typ, jen.Id(p))
	}
	return deref(typ, ptr(p, plus))
}

// deref is *(*typ)(p).
func deref(typ string, p jen.Code) *jen.Statement {
	return jen.Op("*").Parens(jen.Op("*").Id(typ)).Call(p)
}

// unsafePtr is unsafe.Pointer(x).
func unsafePtr(x jen.Code) *jen.Statement { return jen.Qual(unsafePath, "Pointer").Call(x) }

// loop is `for v := from; v < to; v++ { body }`.
func loop(v string, from, to jen.Code, body ...jen.Code) *jen.Statement {
	return jen.For(jen.Id(v).Op(":=").Add(from), jen.Id(v).Op("<").Add(to), jen.Id(v).Op("++")).Block(body...)
}

// lit is an untyped integer literal.
func lit(n int) *jen.Statement { return jen.Lit(n) }

// id is an identifier.
func id(s string) *jen.Statement { return jen.Id(s) }

// params are the parameter lists of the Ops functions, shared by the struct
// fields and the generated functions so they cannot drift apart.
func packParams(w, n, off, bs string) []jen.Code {
	return []jen.Code{
		jen.Id("dst"), jen.Id("src").Op("*").Byte(),
		jen.Id(w), jen.Id(n), jen.Id("kc").Int(),
		jen.Id(off), jen.Id(bs), jen.Id("kOff").Index().Int64(),
		jen.Id("kStride").Int64(),
		jen.Id("alpha").Op("*").Byte(),
	}
}

func writeBackParams() []jen.Code {
	return []jen.Code{
		jen.Id("c").Op("*").Byte(),
		jen.Id("rowOff").Index().Int64(), jen.Id("rowStride").Int64(),
		jen.Id("colOff").Index().Int64(), jen.Id("colStride").Int64(),
		jen.Id("m"), jen.Id("n").Int(),
		jen.Id("tile").Op("*").Byte(), jen.Id("ldt").Int(),
		jen.Id("alpha"), jen.Id("beta").Op("*").Byte(),
	}
}

func scaleParams() []jen.Code {
	return []jen.Code{
		jen.Id("c").Op("*").Byte(),
		jen.Id("rowOff").Index().Int64(), jen.Id("rowStride").Int64(),
		jen.Id("colOff").Index().Int64(), jen.Id("colStride").Int64(),
		jen.Id("m"), jen.Id("n").Int(),
		jen.Id("beta").Op("*").Byte(),
	}
}

func dotsParams() []jen.Code {
	return []jen.Code{
		jen.List(jen.Id("c"), jen.Id("a"), jen.Id("b")).Op("*").Byte(),
		jen.Id("n").Int(),
		jen.List(jen.Id("sc"), jen.Id("sa"), jen.Id("sb")).Int64(),
		jen.Id("k").Int(),
		jen.List(jen.Id("ka"), jen.Id("kb")).Int64(),
		jen.List(jen.Id("alpha"), jen.Id("beta")).Op("*").Byte(),
	}
}

func reqParams() []jen.Code {
	return []jen.Code{
		jen.Id("b").Id("Blocking"),
		jen.Id("pm"), jen.Id("pn"), jen.Id("workerScatter"), jen.Id("teamScatter").Int(),
	}
}

// doc writes text as // comment lines (jennifer renders a multi-line
// Comment as a block comment).
func doc(f *jen.File, text string) {
	for _, line := range strings.Split(text, "\n") {
		f.Comment(line)
	}
}
