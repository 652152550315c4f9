// Command avx512 emits the AVX-512 GEMM micro-kernels of the kernel table
// (internal/spec) and the AVX-512 peak probes as Go assembly with stubs, one
// file pair per function: <name>_amd64.s and <name>_amd64.go.
//
// Usage (from generate.go): go run -C asm ./avx512 -out ../generated/kernels
package main

import (
	"flag"
	"log"
	"os"

	"github.com/tcontract/tcontract/asm/internal/emit"
	"github.com/tcontract/tcontract/asm/internal/x86"
	"github.com/tcontract/tcontract/internal/spec"
)

func main() {
	// avo's build package registers its own flags on the default set.
	fs := flag.NewFlagSet("avx512", flag.ExitOnError)
	out := fs.String("out", ".", "output directory")
	_ = fs.Parse(os.Args[1:])
	cfg := emit.Config{Argv: []string{"go", "run", "./avx512", "-out", *out}, Pkg: "kernels", Dir: *out, Written: map[string]bool{}}
	for _, k := range spec.KernelsFor(spec.AVX512) {
		g := x86.New(k, 64)
		kernel(g)
		if err := cfg.File(g.Ctx, k.Name()+"_amd64"); err != nil {
			log.Fatal(err)
		}
		t := x86.New(k, 64)
		tiles(t)
		if err := cfg.File(t.Ctx, x86.TilesName(k)+"_amd64"); err != nil {
			log.Fatal(err)
		}
		st := x86.New(k, 64)
		stream(st)
		if err := cfg.File(st.Ctx, x86.StreamName(k)+"_amd64"); err != nil {
			log.Fatal(err)
		}
		r := x86.New(k, 64)
		runsKernel(r)
		if err := cfg.File(r.Ctx, x86.RunsName(k)+"_amd64"); err != nil {
			log.Fatal(err)
		}
		d := x86.New(k, 64)
		direct(d)
		if err := cfg.File(d.Ctx, x86.DirectName(k)+"_amd64"); err != nil {
			log.Fatal(err)
		}
		for _, op := range []string{"a", "b"} {
			pk := x86.NewPacker(k, op, 64)
			packer(pk)
			if err := cfg.File(pk.Ctx, x86.PackName(k, op)+"_amd64"); err != nil {
				log.Fatal(err)
			}
		}
		pk := x86.NewPacker(k, "a", 64)
		packx(pk)
		if err := cfg.File(pk.Ctx, x86.PackXName(k)+"_amd64"); err != nil {
			log.Fatal(err)
		}
		pk = x86.NewPacker(k, "a", 64)
		pack1e(pk)
		if err := cfg.File(pk.Ctx, x86.Pack1eName(k)+"_amd64"); err != nil {
			log.Fatal(err)
		}
		pk = x86.NewPacker(k, "b", 64)
		pack1r(pk)
		if err := cfg.File(pk.Ctx, x86.Pack1rName(k)+"_amd64"); err != nil {
			log.Fatal(err)
		}
	}
	for _, r := range spec.Reals {
		if _, ok := spec.KernelFor(spec.AVX512, r.Name); !ok {
			continue
		}
		c := x86.Peak(spec.AVX512, r)
		if err := cfg.File(c, "peak_"+r.Short+"_avx512_amd64"); err != nil {
			log.Fatal(err)
		}
	}
	for _, pattern := range []string{"gemm_*_avx512_amd64.*", "tiles_*_avx512_amd64.*", "stream_*_avx512_amd64.*", "direct_*_avx512_amd64.*", "runs_*_avx512_amd64.*", "pack?_*_avx512_amd64.*", "pack1e_*_avx512_amd64.*", "pack1r_*_avx512_amd64.*", "peak_*_avx512_amd64.*"} {
		if err := emit.Prune(*out, pattern, cfg.Written); err != nil {
			log.Fatal(err)
		}
	}
}
