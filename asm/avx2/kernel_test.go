package main

import (
	"strings"
	"testing"

	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/pass"

	"github.com/tcontract/tcontract/asm/internal/x86"
	"github.com/tcontract/tcontract/internal/spec"
)

// TestTable compiles the kernel of every AVX2 row (avo's register and
// operand checks run here, before any file is written) and checks the
// prefetch of C and the three epilogues are there.
func TestTable(t *testing.T) {
	rows := spec.KernelsFor(spec.AVX2)
	if len(rows) == 0 {
		t.Fatal("no rows")
	}
	for _, k := range rows {
		g := x86.New(k, 32)
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

// TestTilesTable compiles the column kernel of every AVX2 row and checks
// its tile loop wraps the kernel's k loop, prefetch of C and epilogues.
func TestTilesTable(t *testing.T) {
	for _, k := range spec.KernelsFor(spec.AVX2) {
		g := x86.New(k, 32)
		tiles(g)
		want := []string{"tiles", "tile", "loop", "remloop", "cfetched", "beta0", "beta1", "partial", "strided", "next"}
		missing, err := x86.MissingLabels(g.Ctx, want)
		if err != nil || len(missing) > 0 {
			t.Errorf("%s: %v, missing %v", x86.TilesName(k), err, missing)
		}
	}
}

// TestMapsTable compiles the half-map column kernel of every AVX2 row and
// checks its tile loop wraps the k loop and the three epilogues.
func TestMapsTable(t *testing.T) {
	for _, k := range spec.KernelsFor(spec.AVX2) {
		g := x86.New(k, 32)
		maps(g)
		want := []string{"tiles", "tile", "loop", "remloop", "beta0", "beta1", "next"}
		missing, err := x86.MissingLabels(g.Ctx, want)
		if err != nil || len(missing) > 0 {
			t.Errorf("%s: %v, missing %v", x86.MapsName(k), err, missing)
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
	kernel(x86.New(spec.Kernel{ISA: spec.AVX2, Real: "float32", MR: 16, NR: 7, Unroll: 4}, 32))
}

// TestDirectTable compiles the direct kernel of every AVX2 row and checks
// its preload paths, one loop per column count on masked rows in the near,
// B-far and far sets (families "knm", "kbm" and "kfm"), the tile walk and
// the shared epilogue, and that the B-far loops prefetch B and the far ones
// A and B.
func TestDirectTable(t *testing.T) {
	for _, k := range spec.KernelsFor(spec.AVX2) {
		g := x86.New(k, 32)
		direct(g)
		want := append(x86.DirectLabels(k, g.MV(), "knm"), x86.DirectLabels(k, g.MV(), "kbm")...)
		want = append(want, x86.DirectLabels(k, g.MV(), "kfm")...)
		want = append(want, "tile", "nextcol", "lasttile", "kbfar", "kfar")
		missing, err := x86.MissingLabels(g.Ctx, want)
		if err != nil || len(missing) > 0 {
			t.Errorf("%s: %v, missing %v", x86.DirectName(k), err, missing)
		}
		// Nothing is prefetched in the near loops, B in the B-far ones,
		// A and B in the far ones.
		counts, err := x86.LoopOps(g.Ctx, "PREFETCHT0", "kn", "kb", "kf")
		if err != nil || counts["kn"] != 0 || counts["kb"] == 0 || counts["kf"] <= counts["kb"] {
			t.Errorf("%s: prefetches by loop set %v (%v), want none near, some B-far, more far", x86.DirectName(k), counts, err)
		}
	}
}

// TestPackerTable compiles both packers of every AVX2 row and checks the
// copy, transpose and scalar paths are there.
func TestPackerTable(t *testing.T) {
	for _, k := range spec.KernelsFor(spec.AVX2) {
		for _, op := range []string{"a", "b"} {
			pk := x86.NewPacker(k, op, 32)
			packer(pk)
			missing, err := x86.MissingLabels(pk.Ctx, x86.PackerLabels)
			if err != nil || len(missing) > 0 {
				t.Errorf("%s: %v, missing %v", x86.PackName(k, op), err, missing)
			}
		}
	}
}

// TestPack1mTable compiles the 1e and 1r packers of every AVX2 row and
// checks their vector and element-by-element paths are there.
func TestPack1mTable(t *testing.T) {
	for _, k := range spec.KernelsFor(spec.AVX2) {
		for _, op := range []struct {
			side, name string
			emit       func(*x86.Packer)
		}{{"a", x86.Pack1eName(k), pack1e}, {"b", x86.Pack1rName(k), pack1r}} {
			pk := x86.NewPacker(k, op.side, 32)
			op.emit(pk)
			missing, err := x86.MissingLabels(pk.Ctx, x86.Pack1eLabels)
			if err != nil || len(missing) > 0 {
				t.Errorf("%s: %v, missing %v", op.name, err, missing)
			}
		}
	}
}

// TestCleanReturns checks that every function of every AVX2 row leaves
// through VZEROUPPER once it has used a wide register: the kernels, the
// direct kernels and all four packers.
func TestCleanReturns(t *testing.T) {
	for _, k := range spec.KernelsFor(spec.AVX2) {
		for _, f := range []struct {
			what string
			emit func() *build.Context
		}{
			{"kernel", func() *build.Context { g := x86.New(k, 32); kernel(g); return g.Ctx }},
			{"tiles", func() *build.Context { g := x86.New(k, 32); tiles(g); return g.Ctx }},
			{"maps", func() *build.Context { g := x86.New(k, 32); maps(g); return g.Ctx }},
			{"direct", func() *build.Context { g := x86.New(k, 32); direct(g); return g.Ctx }},
			{"packa", func() *build.Context { pk := x86.NewPacker(k, "a", 32); packer(pk); return pk.Ctx }},
			{"packb", func() *build.Context { pk := x86.NewPacker(k, "b", 32); packer(pk); return pk.Ctx }},
			{"pack1e", func() *build.Context { pk := x86.NewPacker(k, "a", 32); pack1e(pk); return pk.Ctx }},
			{"pack1r", func() *build.Context { pk := x86.NewPacker(k, "b", 32); pack1r(pk); return pk.Ctx }},
			{"packx", func() *build.Context { pk := x86.NewPacker(k, "a", 32); packx(pk); return pk.Ctx }},
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

// TestPackXPrefetch: the cross-sliver packer requests each row of each
// block the argument ahead bytes on into L2, once per row and step, in its
// full and partial loops alike.
func TestPackXPrefetch(t *testing.T) {
	for _, k := range spec.KernelsFor(spec.AVX2) {
		pk := x86.NewPacker(k, "a", 32)
		packx(pk)
		counts, err := x86.LoopOps(pk.Ctx, "PREFETCHT2", "ft", "pt")
		if err != nil || counts["ft"] != k.MR || counts["pt"] != k.MR || counts[""] != 0 {
			t.Errorf("%s: PREFETCHT2 by loop %v (%v), want %d in each step loop", x86.PackXName(k), counts, err, k.MR)
		}
	}
}

// TestCopyPrefetch: both packers' copy paths fetch every line of a step
// (x86.PrefetchAhead: a line apart from its first byte, and its last
// byte's from 32 bytes on), CopyAhead or WideAhead steps on, once per step
// in the unrolled and remainder loops alike.
func TestCopyPrefetch(t *testing.T) {
	for _, k := range spec.KernelsFor(spec.AVX2) {
		for _, op := range []string{"a", "b"} {
			pk := x86.NewPacker(k, op, 32)
			packer(pk)
			counts, err := x86.LoopOps(pk.Ctx, "PREFETCHT0", "cloop", "cremloop")
			S := pk.W * pk.Size
			perStep := max(1, (S-1+63)/64)
			if S >= 32 {
				perStep++
			}
			if err != nil || counts["cloop"] != 4*perStep || counts["cremloop"] != perStep || counts[""] != 0 {
				t.Errorf("%s: PREFETCHT0 by loop %v (%v), want %d a step", x86.PackName(k, op), counts, err, perStep)
			}
		}
	}
}
