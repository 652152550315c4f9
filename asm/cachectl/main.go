// Command cachectl emits generated/cpu's cache-control functions (amd64):
// PrefetchL2, a software prefetch into L2 of the lines at a grid of
// offsets, which the runtime issues a few at a time between micro-kernel
// calls so that memory fetches the next block of A while the kernel
// computes on this one (runtime/ahead.go); and StoreFence (SFENCE), which
// orders the streaming kernels' non-temporal stores before what follows
// (runtime/stream.go).
//
// Usage (from generate.go): go run -C asm ./cachectl -out ../generated/cpu
package main

import (
	"flag"
	"log"
	"os"

	"github.com/mmcloughlin/avo/attr"
	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/operand"

	"github.com/tcontract/tcontract/asm/internal/emit"
)

func main() {
	fs := flag.NewFlagSet("cachectl", flag.ExitOnError)
	out := fs.String("out", ".", "output directory")
	_ = fs.Parse(os.Args[1:])
	argv := []string{"go", "run", "./cachectl", "-out", *out}
	cfg := emit.Config{Argv: argv, Pkg: "cpu", Dir: *out}

	c := build.NewContext()
	c.ConstraintExpr("!purego")
	c.Function("PrefetchL2")
	c.Attributes(attr.NOSPLIT)
	c.SignatureExpr("func(base *byte, rows *int64, n int, steps *int64, k int)")
	c.Doc(
		"PrefetchL2 asks for the line at base+rows[i]+steps[p] (bytes), for",
		"i < n and p < k, in L2 (PREFETCHT1), and returns without waiting for",
		"them. n <= 0 or k <= 0 does nothing. A prefetch never faults, so any",
		"offsets are safe; only rows[:n] and steps[:k] are read.",
	)
	base := c.Load(c.Param("base"), c.GP64())
	rows := c.Load(c.Param("rows"), c.GP64())
	n := c.Load(c.Param("n"), c.GP64())
	steps := c.Load(c.Param("steps"), c.GP64())
	k := c.Load(c.Param("k"), c.GP64())

	c.TESTQ(k, k)
	c.JLE(operand.LabelRef("done"))
	c.TESTQ(n, n)
	c.JLE(operand.LabelRef("done"))

	c.Label("row")
	line := c.GP64()
	c.MOVQ(operand.Mem{Base: rows}, line)
	c.ADDQ(base, line)
	s, left := c.GP64(), c.GP64()
	c.MOVQ(steps, s)
	c.MOVQ(k, left)

	c.Label("step")
	off := c.GP64()
	c.MOVQ(operand.Mem{Base: s}, off)
	c.PREFETCHT1(operand.Mem{Base: line, Index: off, Scale: 1})
	c.ADDQ(operand.U8(8), s)
	c.DECQ(left)
	c.JNZ(operand.LabelRef("step"))

	c.ADDQ(operand.U8(8), rows)
	c.DECQ(n)
	c.JNZ(operand.LabelRef("row"))

	c.Label("done")
	c.RET()

	c.Function("StoreFence")
	c.Attributes(attr.NOSPLIT)
	c.SignatureExpr("func()")
	c.Doc(
		"StoreFence orders every store before it, the weakly ordered",
		"non-temporal ones included, before every store after it (SFENCE).",
	)
	c.SFENCE()
	c.RET()
	if err := cfg.File(c, "cachectl_amd64"); err != nil {
		log.Fatal(err)
	}
}
