package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mmcloughlin/avo/reg"

	"github.com/tcontract/tcontract/asm/internal/x86"
	"github.com/tcontract/tcontract/asm/internal/x86/x86test"
	"github.com/tcontract/tcontract/internal/spec"
)

// program is this generator as the shared table tests see it: every
// emitter it runs for a row.
var program = x86test.Program{
	ISA:   spec.AVX512,
	Width: 64,
	Kernels: []x86test.Kernel{
		{Name: "kernel", Emit: kernel},
		{Name: "tiles", Emit: tiles},
		{Name: "direct", Emit: direct},
		{Name: "runs", Emit: runsKernel},
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
	program.Labels(t, "tiles", x86test.Same("tiles", "tile", "loop", "remloop", "cspread", "cnext", "beta0", "beta1", "strided", "done"))
}

// TestRunsTable: the row-map kernel has its k loops and three epilogues.
func TestRunsTable(t *testing.T) {
	program.Labels(t, "runs", x86test.Same("loop", "remloop", "general_v1", "beta1", "beta0", "done"))
}

// TestDirectTable: the direct kernel's loop sets are "dn", "db" and "df",
// on rows full or masked alike.
func TestDirectTable(t *testing.T) { program.Direct(t, "d", "") }

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
	kernel(x86.New(spec.Kernel{ISA: spec.AVX512, Real: "float32", MR: 64, NR: 8, Unroll: 4}, 64))
}

// TestCopyPrefetch: PackA's copy path fetches every line of a step (its
// first byte's, each 64 bytes on, and its last byte's) x86.WideAhead steps
// on, in its unrolled and remainder loops alike; PackB's narrow slivers
// fetch nothing.
func TestCopyPrefetch(t *testing.T) {
	for _, k := range program.Rows(t) {
		for _, name := range []string{"packa", "packb"} {
			pk := program.Pack(t, k, name)
			counts, err := x86.LoopOps(pk.Ctx, "PREFETCHT0", "cloop", "cremloop")
			S := pk.W * pk.Size
			perStep := 0
			if name == "packa" { // lines at 0, 64, … below S-1, and S-1's
				perStep = max(1, (S-1+63)/64) + 1
			}
			if err != nil || counts["cloop"] != 4*perStep || counts["cremloop"] != perStep || counts[""] != 0 {
				t.Errorf("%s: PREFETCHT0 by loop %v (%v), want %d a step", x86.PackName(k, pk.Op), counts, err, perStep)
			}
		}
	}
}

// TestEmbeddedBroadcast: a k loop whose step has at most bcstVectors A
// vectors multiplies by B through its FMAs' embedded broadcasts and
// broadcasts nothing; one with more broadcasts each column of B once a
// step (one broadcast per vector's worth of FMAs) and embeds none. Checked
// for the packed kernel's loops and for each of the direct kernel's loop
// sets by its count of row vectors, every column count included.
func TestEmbeddedBroadcast(t *testing.T) {
	for _, k := range program.Rows(t) {
		r, _ := spec.RealByName(k.Real)
		suffix := map[int]string{4: "S", 8: "D"}[r.Size]
		fma, bcst, broadcast := "VFMADD231P"+suffix, "VFMADD231P"+suffix+".BCST", "VBROADCASTS"+suffix
		lanes := 64 / r.Size
		// check sums the counts over the labels starting with prefixes.
		check := func(name string, mv int, prefixes ...string) {
			g := program.Gen(t, k, name)
			count := func(op string) (n int) {
				by, err := x86.LoopOps(g.Ctx, op, prefixes...)
				if err != nil {
					t.Fatal(err)
				}
				for _, p := range prefixes {
					n += by[p]
				}
				return n
			}
			fmas, embedded, broadcasts := count(fma), count(bcst), count(broadcast)
			ok := fmas > 0 && embedded == fmas && broadcasts == 0
			if mv > bcstVectors {
				ok = fmas > 0 && embedded == 0 && broadcasts*mv == fmas
			}
			if !ok {
				t.Errorf("%s %s %q (%d vectors): %d FMAs, %d embedded, %d broadcasts", k.Name(), name, prefixes, mv, fmas, embedded, broadcasts)
			}
		}
		check("kernel", k.MR/lanes, "loop", "cnext", "remloop")
		for mv := 1; mv <= k.MR/lanes; mv++ {
			for _, set := range "nbf" {
				check("direct", mv, fmt.Sprintf("d%c%d_", set, mv))
				check("direct", mv, fmt.Sprintf("d%c%dh_", set, mv))
			}
		}
	}
}

// TestHalfRows: every direct loop set has, per count mv of row vectors, a
// k loop per column count for tiles whose last vector holds at most half
// its lanes ("d?<mv>h_"), where that vector's loads and FMAs, and only
// those, are 256 bits wide (one in mv of each); the loops for fuller last
// vectors ("d?<mv>_") are 512 bits wide throughout.
func TestHalfRows(t *testing.T) {
	for _, k := range program.Rows(t) {
		g := program.Gen(t, k, "direct")
		var want, prefixes []string
		for _, set := range "nbf" {
			for mv := 1; mv <= g.MV(); mv++ {
				for nv := 1; nv <= k.NR; nv++ {
					want = append(want, fmt.Sprintf("d%c%dh_%dloop", set, mv, nv), fmt.Sprintf("d%c%dh_%dremloop", set, mv, nv))
				}
				prefixes = append(prefixes, fmt.Sprintf("d%c%d_", set, mv), fmt.Sprintf("d%c%dh_", set, mv))
			}
		}
		if missing, err := x86.MissingLabels(g.Ctx, want); err != nil || len(missing) > 0 {
			t.Errorf("%s: %v, missing %v", x86.DirectName(k), err, missing)
		}
		by, err := x86.LoopInstructions(g.Ctx, prefixes...)
		if err != nil {
			t.Fatal(err)
		}
		for i, p := range prefixes {
			mv := 1 + i/2%g.MV()
			half := strings.HasSuffix(p, "h_")
			// Per kind (load, FMA): the instructions, and those whose
			// destination is a 256-bit register.
			var all, narrow [2]int
			for _, n := range by[p] {
				kind := -1
				switch {
				case strings.HasPrefix(n.Opcode, "VMOVUP"):
					kind = 0
				case strings.HasPrefix(n.Opcode, "VFMADD231P"):
					kind = 1
				}
				if kind < 0 {
					continue
				}
				all[kind]++
				if r, ok := n.Operands[len(n.Operands)-1].(reg.Register); ok && r.Size() == 32 {
					narrow[kind]++
				}
			}
			for kind, name := range []string{"loads", "FMAs"} {
				wantNarrow := 0
				if half {
					wantNarrow = all[kind] / mv
				}
				if all[kind] == 0 || all[kind]%mv != 0 || narrow[kind] != wantNarrow {
					t.Errorf("%s %q: %d of %d %s at 256 bits, want %d", x86.DirectName(k), p, narrow[kind], all[kind], name, wantNarrow)
				}
			}
		}
	}
}
