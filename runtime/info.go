package runtime

import (
	"fmt"
	goruntime "runtime"

	"github.com/tcontract/tcontract/generated/kernels"
	"github.com/tcontract/tcontract/internal/spec"
)

// This file answers questions about the dispatch and blocking for tools
// that describe a machine (the tcontract command's info and peak); the
// library itself never calls it.

// PathStatus says whether one instruction-set path can run on this machine
// and build, and why.
type PathStatus struct {
	Name string
	Runs bool
	Why  string
}

// needs names the CPU features each assembly path requires, as cpuHas tests
// them, for messages.
var needs = map[string]string{
	spec.AVX512: "AVX-512 F+VL+DQ+BW, BMI2 and FMA",
	spec.AVX2:   "AVX2 and FMA",
	spec.NEON:   "ASIMD",
}

// Paths reports every path of the ISA table, best first.
func Paths() []PathStatus {
	out := make([]PathStatus, 0, len(spec.ISAs))
	for _, isa := range spec.ISAs {
		s := PathStatus{Name: isa.Name}
		switch {
		case isa.Arch == "":
			s.Runs, s.Why = true, "pure Go, runs everywhere"
		case isa.Arch != goruntime.GOARCH:
			s.Why = "needs GOARCH=" + isa.Arch
		case !cpuHas(isa.Name):
			s.Why = "this CPU (or OS) lacks " + needs[isa.Name]
		case !builtIn(isa.Name):
			s.Why = "this build has no assembly for it (purego)"
		default:
			s.Runs, s.Why = true, "CPU has "+needs[isa.Name]+"; assembly built in"
		}
		out = append(out, s)
	}
	return out
}

// TypeBlocking is the blocking a call of one element type starts from, in
// elements of that type: the kernel's tile (a complex type's MR is half the
// real kernel's, 1m doubling rows) and the largest MC, KC, NC a call uses;
// each call then balances them to its shape and team.
type TypeBlocking struct {
	Kernel             *kernels.Kernel
	Asm                bool // the kernel runs as assembly (else its Go twin)
	MR, NR, MC, KC, NC int
}

// BlockingOf reports the kernel and blocking of the path in use for one
// element type, as chooseTeam derives them.
func BlockingOf(t spec.Type) TypeBlocking {
	k, _ := KernelFor(t.Real)
	cf := 1
	if t.Complex {
		cf = 2
	}
	kb := blocksFor(k)
	mr, nr := k.MR/cf, k.NR
	return TypeBlocking{
		Kernel: k,
		Asm:    k.Asm != nil, // KernelFor runs the assembly whenever there is one
		MR:     mr,
		NR:     nr,
		MC:     max(mr, kb.MC/cf/mr*mr),
		KC:     max(1, kb.KC/cf),
		NC:     kb.NC / nr * nr,
	}
}

// PeakOn is Peak on a named path, which must be one this machine and build
// can run (see Available).
func PeakOn(isa, real string, threads int) (float64, error) {
	for _, a := range dispatch.avail {
		if a == isa {
			if _, ok := spec.RealByName(real); !ok {
				return 0, fmt.Errorf("tcontract: no real type %q", real)
			}
			return peakOn(isa, real, threads), nil
		}
	}
	return 0, fmt.Errorf("tcontract: path %q cannot run here (available: %v)", isa, dispatch.avail)
}
