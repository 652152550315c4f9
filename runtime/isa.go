package runtime

import (
	"fmt"
	"os"
	goruntime "runtime"
	"strings"

	"github.com/tcontract/tcontract/generated/kernels"
	"github.com/tcontract/tcontract/internal/spec"
)

// isaEnv names the variable that forces a lower instruction-set path.
const isaEnv = "TCONTRACT_ISA"

// dispatch is the path choice, made once at start from the CPU (x/sys/cpu),
// the build and TCONTRACT_ISA.
var dispatch = chooseISA(os.Getenv(isaEnv), availableISAs())

type isaChoice struct {
	name  string   // the path in use
	err   error    // non-nil when TCONTRACT_ISA names a path that cannot run
	avail []string // every path this machine and build can run, best first
}

// vecLanes is how many reals of size bytes a vector of k's path holds: 0
// on a path without vectors (generic) or for a size of 0.
func vecLanes(k *kernels.Kernel, size int) int {
	isa, ok := spec.ISAByName(k.ISA)
	if !ok || isa.VecBytes == 0 || size <= 0 {
		return 0
	}
	return isa.VecBytes / size
}

// ISA is the instruction-set path in use: "avx512", "avx2", "neon" or
// "generic": the best this CPU and build can run, or the one TCONTRACT_ISA
// names. When TCONTRACT_ISA names a path that cannot run, ISA is the best
// path and ISAError says why.
func ISA() string { return dispatch.name }

// ISAError is non-nil when TCONTRACT_ISA names an unknown path or one this
// CPU or build (purego, another GOARCH) cannot run.
func ISAError() error { return dispatch.err }

// Available lists the paths this CPU and build can run, best first; the last
// is always "generic".
func Available() []string { return append([]string(nil), dispatch.avail...) }

// KernelFor returns the kernel row of the path in use for a real type
// ("float32" or "float64") and the function to call: the assembly on an
// assembly path, the pure-Go kernel on "generic".
func KernelFor(real string) (*kernels.Kernel, kernels.Func) {
	return kernelOn(dispatch.name, real)
}

// kernelOn is KernelFor on a named path; it panics on a path or real type
// without a row, which the table and availableISAs rule out.
func kernelOn(isa, real string) (*kernels.Kernel, kernels.Func) {
	k := kernels.Lookup(isa, real)
	if k == nil {
		panic(fmt.Sprintf("tcontract: no %s kernel for %s", isa, real))
	}
	if k.Asm != nil {
		return k, k.Asm
	}
	return k, k.Go
}

// availableISAs lists, best first, the paths whose CPU features are present
// (cpuHas, per architecture) and whose every kernel and probe this build has
// in assembly. The generic path runs everywhere.
func availableISAs() []string {
	var out []string
	for _, isa := range spec.ISAs {
		if isa.Arch == "" || (isa.Arch == goruntime.GOARCH && cpuHas(isa.Name) && builtIn(isa.Name)) {
			out = append(out, isa.Name)
		}
	}
	return out
}

// builtIn reports whether every kernel row and peak probe of an assembly
// path has its assembly in this build (none do under purego).
func builtIn(isa string) bool {
	n := 0
	for i := range kernels.Kernels {
		if k := &kernels.Kernels[i]; k.ISA == isa {
			if k.Asm == nil {
				return false
			}
			n++
		}
	}
	for _, p := range kernels.Peaks {
		if p.ISA == isa && p.Fn == nil {
			return false
		}
	}
	return n > 0
}

// chooseISA applies TCONTRACT_ISA (env) to the available paths.
func chooseISA(env string, avail []string) isaChoice {
	c := isaChoice{name: avail[0], avail: avail}
	env = strings.TrimSpace(env)
	if env == "" {
		return c
	}
	if _, ok := spec.ISAByName(env); !ok {
		var names []string
		for _, i := range spec.ISAs {
			names = append(names, i.Name)
		}
		c.err = fmt.Errorf("tcontract: %s=%q is not a path (want one of %s)", isaEnv, env, strings.Join(names, ", "))
		return c
	}
	for _, a := range avail {
		if a == env {
			c.name = env
			return c
		}
	}
	c.err = fmt.Errorf("tcontract: %s=%q: this CPU and build cannot run it (available: %s)",
		isaEnv, env, strings.Join(avail, ", "))
	return c
}
