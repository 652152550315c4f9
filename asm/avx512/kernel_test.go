package main

import (
	"strings"
	"testing"

	"github.com/mmcloughlin/avo/build"
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

// TestTilesTable compiles the column kernel of every AVX512 row and checks
// its tile loop wraps the kernel's k loop, prefetch of C and epilogues.
func TestTilesTable(t *testing.T) {
	for _, k := range spec.KernelsFor(spec.AVX512) {
		g := x86.New(k, 64)
		tiles(g)
		want := []string{"tiles", "tile", "loop", "remloop", "cfetched", "beta0", "beta1", "strided", "done"}
		missing, err := x86.MissingLabels(g.Ctx, want)
		if err != nil || len(missing) > 0 {
			t.Errorf("%s: %v, missing %v", x86.TilesName(k), err, missing)
		}
	}
}

// TestPackXPrefetch: the cross-sliver packer requests each row of each
// block the argument ahead bytes on into L2, once per row and step, in its full
// and partial loops alike.
func TestPackXPrefetch(t *testing.T) {
	for _, k := range spec.KernelsFor(spec.AVX512) {
		pk := x86.NewPacker(k, "a", 64)
		packx(pk)
		counts, err := x86.LoopOps(pk.Ctx, "PREFETCHT2", "ft", "pt")
		if err != nil || counts["ft"] != k.MR || counts["pt"] != k.MR || counts[""] != 0 {
			t.Errorf("%s: PREFETCHT2 by loop %v (%v), want %d in each step loop", x86.PackXName(k), counts, err, k.MR)
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

// TestDirectTable compiles the direct kernel of every AVX512 row and checks
// its preload paths, one loop per column count in the near, B-far and far
// sets (families "dn", "db" and "df"), the tile walk and the shared
// epilogue, and that the B-far loops prefetch B and the far ones A and B.
func TestDirectTable(t *testing.T) {
	for _, k := range spec.KernelsFor(spec.AVX512) {
		g := x86.New(k, 64)
		direct(g)
		want := append(x86.DirectLabels(k, g.MV(), "dn"), x86.DirectLabels(k, g.MV(), "db")...)
		want = append(want, x86.DirectLabels(k, g.MV(), "df")...)
		want = append(want, "tile", "nextcol", "lasttile", "dbfar", "dfar")
		missing, err := x86.MissingLabels(g.Ctx, want)
		if err != nil || len(missing) > 0 {
			t.Errorf("%s: %v, missing %v", x86.DirectName(k), err, missing)
		}
		// Nothing is prefetched in the near loops, B in the B-far ones,
		// A and B in the far ones.
		counts, err := x86.LoopOps(g.Ctx, "PREFETCHT0", "dn", "db", "df")
		if err != nil || counts["dn"] != 0 || counts["db"] == 0 || counts["df"] <= counts["db"] {
			t.Errorf("%s: prefetches by loop set %v (%v), want none near, some B-far, more far", x86.DirectName(k), counts, err)
		}
	}
}

// TestPackerTable compiles both packers of every AVX512 row and checks the
// copy, transpose and scalar paths are there.
func TestPackerTable(t *testing.T) {
	for _, k := range spec.KernelsFor(spec.AVX512) {
		for _, op := range []string{"a", "b"} {
			pk := x86.NewPacker(k, op, 64)
			packer(pk)
			missing, err := x86.MissingLabels(pk.Ctx, x86.PackerLabels)
			if err != nil || len(missing) > 0 {
				t.Errorf("%s: %v, missing %v", x86.PackName(k, op), err, missing)
			}
		}
	}
}

// TestPack1mTable compiles the 1e and 1r packers of every AVX512 row and
// checks their vector and element-by-element paths are there.
func TestPack1mTable(t *testing.T) {
	for _, k := range spec.KernelsFor(spec.AVX512) {
		for _, op := range []struct {
			side, name string
			emit       func(*x86.Packer)
		}{{"a", x86.Pack1eName(k), pack1e}, {"b", x86.Pack1rName(k), pack1r}} {
			pk := x86.NewPacker(k, op.side, 64)
			op.emit(pk)
			missing, err := x86.MissingLabels(pk.Ctx, x86.Pack1eLabels)
			if err != nil || len(missing) > 0 {
				t.Errorf("%s: %v, missing %v", op.name, err, missing)
			}
		}
	}
}

// TestRunsTable compiles the row-map kernel of every AVX512 row and checks
// its three epilogues are there.
func TestRunsTable(t *testing.T) {
	for _, k := range spec.KernelsFor(spec.AVX512) {
		g := x86.New(k, 64)
		runsKernel(g)
		missing, err := x86.MissingLabels(g.Ctx, []string{"loop", "remloop", "general_v1", "beta1", "beta0", "done"})
		if err != nil {
			t.Fatalf("%s: %v", k.Name(), err)
		}
		if len(missing) > 0 {
			t.Errorf("%s: no %v", k.Name(), missing)
		}
	}
}

// TestCleanReturns checks that every function of every AVX512 row leaves
// through VZEROUPPER once it has used a wide register: the kernels, the
// direct kernels, the row-map kernels and all five packers.
func TestCleanReturns(t *testing.T) {
	for _, k := range spec.KernelsFor(spec.AVX512) {
		for _, f := range []struct {
			what string
			emit func() *build.Context
		}{
			{"kernel", func() *build.Context { g := x86.New(k, 64); kernel(g); return g.Ctx }},
			{"tiles", func() *build.Context { g := x86.New(k, 64); tiles(g); return g.Ctx }},
			{"direct", func() *build.Context { g := x86.New(k, 64); direct(g); return g.Ctx }},
			{"packa", func() *build.Context { pk := x86.NewPacker(k, "a", 64); packer(pk); return pk.Ctx }},
			{"packb", func() *build.Context { pk := x86.NewPacker(k, "b", 64); packer(pk); return pk.Ctx }},
			{"pack1e", func() *build.Context { pk := x86.NewPacker(k, "a", 64); pack1e(pk); return pk.Ctx }},
			{"pack1r", func() *build.Context { pk := x86.NewPacker(k, "b", 64); pack1r(pk); return pk.Ctx }},
			{"runs", func() *build.Context { g := x86.New(k, 64); runsKernel(g); return g.Ctx }},
			{"packx", func() *build.Context { pk := x86.NewPacker(k, "a", 64); packx(pk); return pk.Ctx }},
		} {
			bad, err := x86.UncleanReturns(f.emit())
			if err != nil {
				t.Fatalf("%s %s: %v", k.Name(), f.what, err)
			}
			if len(bad) > 0 {
				t.Errorf("%s %s: %v", k.Name(), f.what, bad)
			}
		}
	}
}

// TestCopyPrefetch: PackA's copy path fetches every line of a step (its
// first byte's, each 64 bytes on, and its last byte's) x86.WideAhead steps
// on, in its unrolled and remainder loops alike; PackB's narrow slivers
// fetch nothing.
func TestCopyPrefetch(t *testing.T) {
	for _, k := range spec.KernelsFor(spec.AVX512) {
		for _, op := range []string{"a", "b"} {
			pk := x86.NewPacker(k, op, 64)
			packer(pk)
			counts, err := x86.LoopOps(pk.Ctx, "PREFETCHT0", "cloop", "cremloop")
			S := pk.W * pk.Size
			perStep := 0
			if op == "a" { // lines at 0, 64, … below S-1, and S-1's
				perStep = max(1, (S-1+63)/64) + 1
			}
			if err != nil || counts["cloop"] != 4*perStep || counts["cremloop"] != perStep || counts[""] != 0 {
				t.Errorf("%s: PREFETCHT0 by loop %v (%v), want %d a step", x86.PackName(k, op), counts, err, perStep)
			}
		}
	}
}
