package main

import (
	"strings"
	"testing"

	"github.com/mmcloughlin/avo/pass"

	"github.com/tcontract/tcontract/asm/internal/x86"
	"github.com/tcontract/tcontract/internal/spec"
)

// TestTable compiles the kernel of every AVX512 row (avo's register and
// operand checks run here, before any file is written) and checks the
// prefetch of C and the three epilogues are there.
func TestTable(t *testing.T) {
	rows := spec.KernelsFor(spec.AVX512)
	if len(rows) == 0 {
		t.Fatal("no rows")
	}
	for _, k := range rows {
		g := x86.New(k, 64)
		kernel(g)
		f, err := g.Ctx.Result()
		if err != nil {
			t.Fatalf("%s: %v", k.Name(), err)
		}
		if err := pass.Compile.Execute(f); err != nil {
			t.Fatalf("%s: %v", k.Name(), err)
		}
		labels := map[string]bool{}
		for _, fn := range f.Functions() {
			for _, l := range fn.Labels() {
				labels[string(l)] = true
			}
		}
		for _, l := range []string{"loop", "remloop", "cfetched", "beta0", "beta1", "strided", "done"} {
			if !labels[l] {
				t.Errorf("%s: no %s", k.Name(), l)
			}
		}
	}
}

// TestRejects: a tile that leaves too few registers is refused, not
// silently spilled.
func TestRejects(t *testing.T) {
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "registers") {
			t.Errorf("panic %v, want a register complaint", r)
		}
	}()
	kernel(x86.New(spec.Kernel{ISA: spec.AVX512, Real: "float32", MR: 64, NR: 8, Unroll: 4}, 64))
}
