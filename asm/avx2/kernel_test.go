package main

import (
	"strings"
	"testing"

	"github.com/tcontract/tcontract/asm/internal/x86"
	"github.com/tcontract/tcontract/asm/internal/x86/x86test"
	"github.com/tcontract/tcontract/internal/spec"
)

// program is this generator as the shared table tests see it: every
// emitter it runs for a row.
var program = x86test.Program{
	ISA:   spec.AVX2,
	Width: 32,
	Kernels: []x86test.Kernel{
		{Name: "kernel", Emit: kernel},
		{Name: "tiles", Emit: tiles},
		{Name: "maps", Emit: maps},
		{Name: "direct", Emit: direct},
	},
	Packers: []x86test.Packer{
		{Name: "packa", Side: "a", Emit: packer},
		{Name: "packb", Side: "b", Emit: packer},
		{Name: "pack1e", Side: "a", Emit: pack1e},
		{Name: "pack1r", Side: "b", Emit: pack1r},
		{Name: "packx", Side: "a", Emit: packx},
	},
}

// TestTable compiles the kernel of every row and checks the prefetch of C
// and the three epilogues are there.
func TestTable(t *testing.T) {
	program.Labels(t, "kernel", x86test.Same("loop", "remloop", "cspread", "cnext", "beta0", "beta1", "strided", "done"))
}

// TestTilesTable: the column kernel's tile loop wraps the kernel's k loop,
// prefetch of C and epilogues.
func TestTilesTable(t *testing.T) {
	program.Labels(t, "tiles", x86test.Same("tiles", "tile", "loop", "remloop", "cspread", "cnext", "beta0", "beta1", "partial", "strided", "next"))
}

// TestMapsTable: the half-map column kernel's tile loop wraps the k loop
// and the three epilogues.
func TestMapsTable(t *testing.T) {
	program.Labels(t, "maps", x86test.Same("tiles", "tile", "loop", "remloop", "beta0", "beta1", "next"))
}

// TestDirectTable: the direct kernel's loop sets are "kn", "kb" and "kf",
// on masked rows ("knm", ...).
func TestDirectTable(t *testing.T) { program.Direct(t, "k", "m") }

// TestPackerTable: every packer's paths are there.
func TestPackerTable(t *testing.T) { program.PackerPaths(t) }

// TestCleanReturns: every function leaves through VZEROUPPER.
func TestCleanReturns(t *testing.T) { program.CleanReturns(t) }

// TestPackXPrefetch: the cross-sliver packer requests the block ahead.
func TestPackXPrefetch(t *testing.T) { program.PackXPrefetch(t) }

// TestRejects: a tile that leaves too few registers is refused, not
// silently spilled.
func TestRejects(t *testing.T) {
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "registers") {
			t.Errorf("panic %v, want a register complaint", r)
		}
	}()
	kernel(x86.New(spec.Kernel{ISA: spec.AVX2, Real: "float32", MR: 16, NR: 7, Unroll: 4}, 32))
}

// TestCopyPrefetch: both packers' copy paths fetch every line of a step
// (x86.PrefetchAhead: a line apart from its first byte, and its last
// byte's from 32 bytes on), CopyAhead or WideAhead steps on, once per step
// in the unrolled and remainder loops alike.
func TestCopyPrefetch(t *testing.T) {
	for _, k := range program.Rows(t) {
		for _, name := range []string{"packa", "packb"} {
			pk := program.Pack(t, k, name)
			counts, err := x86.LoopOps(pk.Ctx, "PREFETCHT0", "cloop", "cremloop")
			S := pk.W * pk.Size
			perStep := max(1, (S-1+63)/64)
			if S >= 32 {
				perStep++
			}
			if err != nil || counts["cloop"] != 4*perStep || counts["cremloop"] != perStep || counts[""] != 0 {
				t.Errorf("%s: PREFETCHT0 by loop %v (%v), want %d a step", x86.PackName(k, pk.Op), counts, err, perStep)
			}
		}
	}
}
