// Package x86test holds the table tests the AVX2 and AVX-512 generator
// programs share. Each program lists the emitters it runs for a kernel row
// (Program), and the same checks run them over every row of its ISA: what
// differs between the two programs is the list and the labels each kernel
// must define, not the checking.
package x86test

import (
	"testing"

	"github.com/mmcloughlin/avo/build"

	"github.com/tcontract/tcontract/asm/internal/x86"
	"github.com/tcontract/tcontract/internal/spec"
)

// Kernel is one of a program's register-tile emitters ("kernel", "tiles",
// "direct", ...), named as its functions are prefixed.
type Kernel struct {
	Name string
	Emit func(*x86.Gen)
}

// Packer is one of a program's packer emitters, with the side ("a" or "b")
// it packs.
type Packer struct {
	Name, Side string
	Emit       func(*x86.Packer)
}

// Program is a generator program as its tests see it.
type Program struct {
	ISA     string // spec.AVX2 or spec.AVX512
	Width   int    // bytes of the widest vector register
	Kernels []Kernel
	Packers []Packer
}

// Rows are the program's kernel rows; a test fails at once without any.
func (p Program) Rows(t *testing.T) []spec.Kernel {
	t.Helper()
	rows := spec.KernelsFor(p.ISA)
	if len(rows) == 0 {
		t.Fatalf("no %s rows", p.ISA)
	}
	return rows
}

// Gen runs the named kernel emitter for row k and returns its generator.
func (p Program) Gen(t *testing.T, k spec.Kernel, name string) *x86.Gen {
	t.Helper()
	for _, e := range p.Kernels {
		if e.Name == name {
			g := x86.New(k, p.Width)
			e.Emit(g)
			return g
		}
	}
	t.Fatalf("no kernel emitter %q", name)
	return nil
}

// Pack runs the named packer emitter for row k and returns its packer.
func (p Program) Pack(t *testing.T, k spec.Kernel, name string) *x86.Packer {
	t.Helper()
	for _, e := range p.Packers {
		if e.Name == name {
			pk := x86.NewPacker(k, e.Side, p.Width)
			e.Emit(pk)
			return pk
		}
	}
	t.Fatalf("no packer emitter %q", name)
	return nil
}

// Labels compiles the named kernel of every row (avo's register and operand
// checks run here, before any file is written) and checks it defines the
// labels want lists for the row.
func (p Program) Labels(t *testing.T, name string, want func(k spec.Kernel, g *x86.Gen) []string) {
	t.Helper()
	for _, k := range p.Rows(t) {
		g := p.Gen(t, k, name)
		missing, err := x86.MissingLabels(g.Ctx, want(k, g))
		if err != nil || len(missing) > 0 {
			t.Errorf("%s %s: %v, missing %v", k.Name(), name, err, missing)
		}
	}
}

// PackerPaths compiles every packer of every row and checks its paths are
// there: copy, transpose and scalar for PackA and PackB (x86.PackerLabels),
// vector and element by element for the 1m packers (x86.Pack1eLabels).
func (p Program) PackerPaths(t *testing.T) {
	t.Helper()
	paths := map[string][]string{
		"packa": x86.PackerLabels, "packb": x86.PackerLabels,
		"pack1e": x86.Pack1eLabels, "pack1r": x86.Pack1eLabels,
	}
	for _, k := range p.Rows(t) {
		for name, want := range paths {
			pk := p.Pack(t, k, name)
			missing, err := x86.MissingLabels(pk.Ctx, want)
			if err != nil || len(missing) > 0 {
				t.Errorf("%s %s: %v, missing %v", k.Name(), name, err, missing)
			}
		}
	}
}

// CleanReturns checks that every function the program emits for every row
// leaves through VZEROUPPER once it has used a wide register (Packer.Return
// says why that matters).
func (p Program) CleanReturns(t *testing.T) {
	t.Helper()
	for _, k := range p.Rows(t) {
		var ctxs []*build.Context
		var names []string
		for _, e := range p.Kernels {
			ctxs, names = append(ctxs, p.Gen(t, k, e.Name).Ctx), append(names, e.Name)
		}
		for _, e := range p.Packers {
			ctxs, names = append(ctxs, p.Pack(t, k, e.Name).Ctx), append(names, e.Name)
		}
		for i, c := range ctxs {
			bad, err := x86.UncleanReturns(c)
			if err != nil {
				t.Fatalf("%s %s: %v", k.Name(), names[i], err)
			}
			if len(bad) > 0 {
				t.Errorf("%s %s: %v", k.Name(), names[i], bad)
			}
		}
	}
}

// PackXPrefetch checks the cross-sliver packer requests each row of each
// block the argument ahead bytes on into L2, once per row and step, in its
// full ("ft") and partial ("pt") loops alike, and nowhere else.
func (p Program) PackXPrefetch(t *testing.T) {
	t.Helper()
	for _, k := range p.Rows(t) {
		pk := p.Pack(t, k, "packx")
		counts, err := x86.LoopOps(pk.Ctx, "PREFETCHT2", "ft", "pt")
		if err != nil || counts["ft"] != k.MR || counts["pt"] != k.MR || counts[""] != 0 {
			t.Errorf("%s: PREFETCHT2 by loop %v (%v), want %d in each step loop", x86.PackXName(k), counts, err, k.MR)
		}
	}
}

// Direct compiles the direct kernel of every row and checks its preload
// paths, a k loop per column count in the near, B-far and far sets (label
// families prefix+"n", prefix+"b" and prefix+"f", each followed by rows:
// "m" where the loops run on masked rows), the tile walk and the shared
// epilogue; and that nothing is prefetched in the near loops, B in the
// B-far ones, A and B in the far ones.
func (p Program) Direct(t *testing.T, prefix, rows string) {
	t.Helper()
	for _, k := range p.Rows(t) {
		g := p.Gen(t, k, "direct")
		var want []string
		for _, set := range []string{"n", "b", "f"} {
			want = append(want, x86.DirectLabels(k, g.MV(), prefix+set+rows)...)
		}
		want = append(want, "tile", "nextcol", "lasttile", prefix+"bfar", prefix+"far")
		missing, err := x86.MissingLabels(g.Ctx, want)
		if err != nil || len(missing) > 0 {
			t.Errorf("%s: %v, missing %v", x86.DirectName(k), err, missing)
		}
		near, bfar, far := prefix+"n", prefix+"b", prefix+"f"
		counts, err := x86.LoopOps(g.Ctx, "PREFETCHT0", near, bfar, far)
		if err != nil || counts[near] != 0 || counts[bfar] == 0 || counts[far] <= counts[bfar] {
			t.Errorf("%s: prefetches by loop set %v (%v), want none near, some B-far, more far", x86.DirectName(k), counts, err)
		}
	}
}

// Same is a Labels list that is the same for every row.
func Same(labels ...string) func(spec.Kernel, *x86.Gen) []string {
	return func(spec.Kernel, *x86.Gen) []string { return labels }
}
