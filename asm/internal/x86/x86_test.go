package x86

import (
	"slices"
	"strings"
	"testing"

	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/pass"

	"github.com/tcontract/tcontract/internal/spec"
)

func row(mr, nr, unroll, pa, pb int) spec.Kernel {
	return spec.Kernel{ISA: spec.AVX512, Real: "float32", MR: mr, NR: nr, Unroll: unroll, PrefetchA: pa, PrefetchB: pb}
}

// TestPrefetchSpread checks that one trip of the main loop prefetches each
// cache line the slivers advance by exactly once, spread over the steps.
func TestPrefetchSpread(t *testing.T) {
	for _, k := range []spec.Kernel{row(64, 6, 4, 1024, 384), row(32, 12, 4, 512, 384), row(16, 6, 8, 256, 0), row(16, 6, 1, 0, 64)} {
		g := New(k, 64)
		g.Begin()
		perStep := make([]int, k.Unroll)
		lines := map[string]int{}
		for u := range k.Unroll {
			n0 := count(g)
			g.Prefetch(u)
			perStep[u] = count(g) - n0
		}
		g.Prefetch(-1) // the remainder loop prefetches nothing
		f, err := g.Ctx.Result()
		if err != nil {
			t.Fatal(err)
		}
		for _, in := range f.Functions()[0].Instructions() {
			lines[in.Operands[0].Asm()]++
		}
		want := 0
		if k.PrefetchA != 0 {
			want += (k.Unroll*k.MR*g.Size + 63) / 64
		}
		if k.PrefetchB != 0 {
			want += (k.Unroll*k.NR*g.Size + 63) / 64
		}
		total := 0
		for _, n := range perStep {
			total += n
		}
		if total != want || len(lines) != want {
			t.Errorf("%+v: %d prefetches (%d distinct) per trip, want %d", k, total, len(lines), want)
		}
		for addr, n := range lines {
			if n != 1 {
				t.Errorf("%+v: %s prefetched %d times", k, addr, n)
			}
		}
	}
}

func count(g *Gen) int {
	f, err := g.Ctx.Result()
	if err != nil {
		return 0
	}
	return len(f.Functions()[0].Instructions())
}

func TestNewRejects(t *testing.T) {
	for _, tc := range []struct {
		k    spec.Kernel
		want string
	}{
		{row(24, 6, 4, 0, 0), "not a multiple"},
		{row(32, 6, 3, 0, 0), "not a power of two"},
		{row(32, 6, 0, 0, 0), "not a power of two"},
	} {
		func() {
			defer func() {
				if r := recover(); r == nil || !strings.Contains(r.(string), tc.want) {
					t.Errorf("%+v: panic %v, want %q", tc.k, r, tc.want)
				}
			}()
			New(tc.k, 64)
		}()
	}
}

// TestPeak compiles every probe and checks its accumulator count.
func TestPeak(t *testing.T) {
	for _, isa := range []string{spec.AVX512, spec.AVX2} {
		for _, r := range spec.Reals {
			f, err := Peak(isa, r).Result()
			if err != nil {
				t.Fatal(err)
			}
			if err := pass.Compile.Execute(f); err != nil {
				t.Fatal(err)
			}
			i, _ := spec.ISAByName(isa)
			fmas := 0
			for _, in := range f.Functions()[0].Instructions() {
				if strings.HasPrefix(in.Opcode, "VFMADD231") {
					fmas++
				}
			}
			if fmas != i.PeakAccs() {
				t.Errorf("%s %s: %d FMAs per trip, want %d", isa, r.Name, fmas, i.PeakAccs())
			}
		}
	}
}

// TestPrefetchDirectB evaluates the addresses PrefetchDirectB requests:
// B's step DirectAhead steps of rsb on, and the line after it.
func TestPrefetchDirectB(t *testing.T) {
	const rsb = 1 << 20
	for _, real := range []string{"float32", "float64"} {
		k := spec.Kernel{ISA: spec.AVX512, Real: real, MR: 16, NR: 6, Unroll: 4}
		g := New(k, 64)
		g.Begin()
		g.PrefetchDirectB()
		f, err := g.Ctx.Result()
		if err != nil {
			t.Fatal(err)
		}
		var got []int
		for _, in := range f.Functions()[0].Instructions() {
			m, ok := in.Operands[0].(operand.Mem)
			if in.Opcode != "PREFETCHT0" || !ok || m.Base != B || m.Index != RSB {
				t.Fatalf("%s: unexpected %s %v", real, in.Opcode, in.Operands)
			}
			got = append(got, int(m.Scale)*rsb+m.Disp)
		}
		if want := []int{DirectAhead * rsb, DirectAhead*rsb + 64}; !slices.Equal(got, want) {
			t.Errorf("%s: requested %v, want %v", real, got, want)
		}
	}
}

// TestSpreadC checks the requests of C's lines after SpreadC: M starts at
// NR columns, each main-loop trip requests from T2 lines that cover one
// column of the tile wherever it starts in a line, then steps T2 to the
// next column; a depth of fewer trips than NR requests all NR columns
// before the loop (the same lines, T2 stepped after each); a k loop
// without SpreadC requests none.
func TestSpreadC(t *testing.T) {
	noStep := func(u, aOff, bOff int) {}
	for _, tc := range []struct {
		k        spec.Kernel
		vecBytes int
	}{
		{row(64, 6, 4, 1024, 384), 64},
		{spec.Kernel{ISA: spec.AVX512, Real: "float64", MR: 24, NR: 6, Unroll: 4}, 64},
		{spec.Kernel{ISA: spec.AVX2, Real: "float32", MR: 16, NR: 6, Unroll: 4}, 32},
		{spec.Kernel{ISA: spec.AVX2, Real: "float32", MR: 24, NR: 3, Unroll: 4}, 32},
	} {
		for _, spread := range []bool{true, false} {
			g := New(tc.k, tc.vecBytes)
			g.Begin()
			if spread {
				g.PrefetchC()
			} else {
				g.LoadC()
			}
			g.KLoop(noStep)
			if g.spreadC {
				t.Fatalf("%s: the k loop left SpreadC's request pending", tc.k.Name())
			}
			f, err := g.Ctx.Result()
			if err != nil {
				t.Fatal(err)
			}
			var disps []int
			var steps, counts, shallow int
			for _, in := range f.Functions()[0].Instructions() {
				switch in.Opcode {
				case "PREFETCHT0":
					if m := in.Operands[0].(operand.Mem); m.Base == T2 {
						disps = append(disps, m.Disp)
					}
				case "ADDQ":
					if in.Operands[0] == CSC && in.Operands[1] == T2 {
						steps++
					}
				case "CMPQ":
					if in.Operands[1] == operand.U32(tc.k.NR*tc.k.Unroll) {
						shallow++
					}
				case "MOVL":
					if in.Operands[0] == operand.U32(tc.k.NR) && in.Operands[1] == M.As32() {
						counts++
					}
				}
			}
			if !spread {
				if len(disps)+steps+counts+shallow != 0 {
					t.Errorf("%s: k loop without SpreadC requests C (%v)", tc.k.Name(), disps)
				}
				continue
			}
			if shallow != 1 {
				t.Errorf("%s: %d tests of k against %d steps (NR trips), want 1", tc.k.Name(), shallow, tc.k.NR*tc.k.Unroll)
			}
			if steps != 1+tc.k.NR || counts != 1 {
				t.Errorf("%s: %d steps of T2 and %d counts of %d columns, want %d and 1", tc.k.Name(), steps, counts, tc.k.NR, 1+tc.k.NR)
			}
			if perColumn := len(disps) / (1 + tc.k.NR); len(disps) != perColumn*(1+tc.k.NR) {
				t.Errorf("%s: %d requests, not the same for the loop's column and each of %d at once", tc.k.Name(), len(disps), tc.k.NR)
			}
			col := tc.k.MR * g.Size
			for start := 0; start < 64; start += g.Size {
				lines := map[int]bool{}
				for _, d := range disps {
					lines[(start+d)/64] = true
				}
				for b := start; b < start+col; b += g.Size {
					if !lines[b/64] {
						t.Errorf("%s: a column starting %d bytes into a line: line %d not requested (%v)", tc.k.Name(), start, b/64, disps)
						break
					}
				}
			}
		}
	}
}
