package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/tcontract/tcontract/internal/spec"
)

// The expected words are what Go's arm64 disassembler (go tool objdump)
// decodes as the named instructions in a built kernel; the kernels' tests
// under qemu check what they compute.
func TestEncodings(t *testing.T) {
	for _, c := range []struct {
		got, want uint32
		what      string
	}{
		{fmlaElem(arrS4, 18, 0, 4, 1), 0x4fa41012, "FMLA V18.4S, V0.4S, V4.S[1]"},
		{fmlaElem(arrS4, 8, 0, 2, 0), 0x4f821008, "FMLA V8.4S, V0.4S, V2.S[0]"},
		{fmlaElem(arrS4, 12, 0, 2, 2), 0x4f82180c, "FMLA V12.4S, V0.4S, V2.S[2]"},
		{fmlaElem(arrS4, 15, 1, 2, 3), 0x4fa2182f, "FMLA V15.4S, V1.4S, V2.S[3]"},
		{fmlaElem(arrD2, 8, 0, 4, 0), 0x4fc41008, "FMLA V8.2D, V0.2D, V4.D[0]"},
		{fmlaElem(arrD2, 14, 2, 4, 1), 0x4fc4184e, "FMLA V14.2D, V2.2D, V4.D[1]"},
		{fmulVec(arrS4, 8, 8, 0), 0x6e20dd08, "FMUL V8.4S, V8.4S, V0.4S"},
		{fmulVec(arrD2, 31, 31, 0), 0x6e60dfff, "FMUL V31.2D, V31.2D, V0.2D"},
	} {
		if c.got != c.want {
			t.Errorf("%s: got %#08x, want %#08x", c.what, c.got, c.want)
		}
	}
}

func TestPlanRejects(t *testing.T) {
	for _, k := range []spec.Kernel{
		{ISA: spec.NEON, Real: "float32", MR: 8, NR: 14, Unroll: 4}, // 28 accumulators + 5 sliver vectors
		{ISA: spec.NEON, Real: "float32", MR: 6, NR: 12, Unroll: 4}, // MR not a multiple of 4 lanes
		{ISA: spec.NEON, Real: "float64", MR: 8, NR: 5, Unroll: 4},  // NR not a multiple of 2 lanes
		{ISA: spec.NEON, Real: "float64", MR: 4, NR: 4, Unroll: 0},  // no unroll
		{ISA: spec.NEON, Real: "float32", MR: 20, NR: 4, Unroll: 1}, // Ã step beyond one VLD1
		{ISA: spec.NEON, Real: "float64", MR: 4, NR: 4, Unroll: 1, PrefetchA: 12},
		{ISA: spec.NEON, Real: "int8", MR: 4, NR: 4, Unroll: 1},
	} {
		if _, err := gemm(k); err == nil {
			t.Errorf("%+v: accepted", k)
		}
	}
}

// Sliver registers and accumulators never share a register, and Ã
// alternates sets only where the file has room.
func TestPlanRegisters(t *testing.T) {
	for _, k := range spec.KernelsFor(spec.NEON) {
		p, err := newPlan(k)
		if err != nil {
			t.Fatal(err)
		}
		used := map[int]string{}
		claim := func(v int, what string) {
			if v < 0 || v > 31 {
				t.Fatalf("%s: %s in V%d", k.Name(), what, v)
			}
			if prev, ok := used[v]; ok {
				t.Fatalf("%s: V%d is both %s and %s", k.Name(), v, prev, what)
			}
			used[v] = what
		}
		for j := 0; j < k.NR; j++ {
			for r := 0; r < p.va; r++ {
				claim(p.acc(j, r), "accumulator")
			}
		}
		for _, s := range p.aSets {
			for r := 0; r < p.va; r++ {
				claim(s+r, "Ã")
			}
		}
		for r := 0; r < p.vb; r++ {
			claim(p.bReg+r, "B̃")
		}
	}
}

func TestRenderDeterministic(t *testing.T) {
	a, err := render()
	if err != nil {
		t.Fatal(err)
	}
	b, _ := render()
	if len(a) != len(b) {
		t.Fatal("file sets differ")
	}
	for name, text := range a {
		if !bytes.Equal(text, b[name]) {
			t.Errorf("%s differs between runs", name)
		}
		if !strings.HasPrefix(string(text), header) || !strings.Contains(string(text), "//go:build !purego") {
			t.Errorf("%s lacks the generated header or the purego constraint", name)
		}
	}
	for _, k := range spec.KernelsFor(spec.NEON) {
		for _, ext := range []string{"_arm64.s", "_arm64.go"} {
			if _, ok := a[k.Name()+ext]; !ok {
				t.Errorf("no %s%s", k.Name(), ext)
			}
		}
	}
}
