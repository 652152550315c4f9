package runtime

import (
	"slices"
	"testing"

	"github.com/tcontract/tcontract/internal/spec"
)

// TestPaths: the paths reported as runnable are exactly the available ones,
// and each says why.
func TestPaths(t *testing.T) {
	var runs []string
	ps := Paths()
	if len(ps) != len(spec.ISAs) {
		t.Fatalf("%d paths, want one per ISA row (%d)", len(ps), len(spec.ISAs))
	}
	for i, p := range ps {
		if p.Name != spec.ISAs[i].Name || p.Why == "" {
			t.Errorf("path %d: %+v", i, p)
		}
		if p.Runs {
			runs = append(runs, p.Name)
		}
	}
	if !slices.Equal(runs, Available()) {
		t.Errorf("runnable %v, available %v", runs, Available())
	}
}

// TestBlockingOf: the blocking info reports is the one a call uses when the
// problem is a whole number of blocks in every direction (so balancing
// changes nothing) on one thread.
func TestBlockingOf(t *testing.T) {
	p := NewPool(1)
	defer p.Close()
	for _, typ := range spec.Types {
		b := BlockingOf(typ)
		k, _ := KernelFor(typ.Real)
		if b.Kernel != k || b.Asm != (k.Asm != nil) {
			t.Errorf("%s: kernel %s (asm %v), the path uses %s", typ.Name, b.Kernel.Name, b.Asm, k.Name)
		}
		if b.MC%b.MR != 0 || b.NC%b.NR != 0 || b.KC < 1 {
			t.Errorf("%s: %+v: MC, NC not whole tiles", typ.Name, b)
		}
		c := newCall(p, 1)
		c.kern = k
		c.cf = 1
		if typ.Complex {
			c.cf = 2
		}
		c.plan = &Plan{Batch: Group{Size: 1}, M: Group{Size: 3 * b.MC}, N: Group{Size: 2 * b.NC}, K: Group{Size: 2 * b.KC}}
		c.chooseTeam()
		p.release(c)
		got := c.blk
		if got.MR != b.MR || got.NR != b.NR || got.MC != b.MC || got.KC != b.KC || got.NC != b.NC {
			t.Errorf("%s: a call blocks %+v, BlockingOf says %+v", typ.Name, got, b)
		}
	}
}

func TestPeakOn(t *testing.T) {
	if g, err := PeakOn(spec.Generic, "float64", 1); err != nil || !(g > 0) {
		t.Errorf("generic float64: %v, %v", g, err)
	}
	if _, err := PeakOn(spec.Generic, "float16", 1); err == nil {
		t.Error("no error for a real type without a probe")
	}
	for _, isa := range spec.ISAs {
		if !slices.Contains(Available(), isa.Name) {
			if _, err := PeakOn(isa.Name, "float32", 1); err == nil {
				t.Errorf("%s cannot run here, yet PeakOn gave no error", isa.Name)
			}
		}
	}
}
