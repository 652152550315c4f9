package x86

import (
	"flag"
	"log"
	"os"

	"github.com/mmcloughlin/avo/build"

	"github.com/tcontract/tcontract/asm/internal/emit"
	"github.com/tcontract/tcontract/internal/spec"
)

// Family is one function an x86 generator emits for each kernel row of its
// ISA: Name takes "gemm"'s place in the row's names (spec.Kernel.Func:
// "tiles" names tiles_f32_64x6_avx512), and Emit builds its context for
// vectors of vecBytes bytes.
type Family struct {
	Name string
	Emit func(k spec.Kernel, vecBytes int) *build.Context
}

// GenFamily is a family whose emitter works on a kernel's Gen (its
// signature, registers and k loop).
func GenFamily(name string, emit func(*Gen)) Family {
	return Family{Name: name, Emit: func(k spec.Kernel, vecBytes int) *build.Context {
		g := New(k, vecBytes)
		emit(g)
		return g.Ctx
	}}
}

// PackFamily is a family whose emitter works on a Packer of operand op
// ("a": slivers of MR rows, "b": of NR columns).
func PackFamily(name, op string, emit func(*Packer)) Family {
	return Family{Name: name, Emit: func(k spec.Kernel, vecBytes int) *build.Context {
		p := NewPacker(k, op, vecBytes)
		emit(p)
		return p.Ctx
	}}
}

// Command is the whole of an x86 generator command (asm/avx2, asm/avx512),
// run as generate.go runs it: `go run ./<isa> -out dir`. For each of the
// ISA's rows of the kernel table it writes one file pair per family
// (<name>_amd64.s and <name>_amd64.go), then the ISA's peak probe of each
// real type it has a row for, then removes the files of those families and
// probes that no row produced any more (a row taken out of the table).
func Command(isa string, vecBytes int, families []Family) {
	// avo's build package registers its own flags on the default set.
	fs := flag.NewFlagSet(isa, flag.ExitOnError)
	out := fs.String("out", ".", "output directory")
	_ = fs.Parse(os.Args[1:])
	cfg := emit.Config{Argv: []string{"go", "run", "./" + isa, "-out", *out}, Pkg: "kernels", Dir: *out, Written: map[string]bool{}}
	for _, k := range spec.KernelsFor(isa) {
		for _, f := range families {
			if err := cfg.File(f.Emit(k, vecBytes), k.Func(f.Name)+"_amd64"); err != nil {
				log.Fatal(err)
			}
		}
	}
	for _, r := range spec.Reals {
		if _, ok := spec.KernelFor(isa, r.Name); !ok {
			continue
		}
		if err := cfg.File(Peak(isa, r), "peak_"+r.Short+"_"+isa+"_amd64"); err != nil {
			log.Fatal(err)
		}
	}
	patterns := []string{"peak_*_" + isa + "_amd64.*"}
	for _, f := range families {
		patterns = append(patterns, f.Name+"_*_"+isa+"_amd64.*")
	}
	for _, pattern := range patterns {
		if err := emit.Prune(*out, pattern, cfg.Written); err != nil {
			log.Fatal(err)
		}
	}
}
