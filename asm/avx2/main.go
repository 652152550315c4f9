// Command avx2 emits the AVX2 GEMM micro-kernels of the kernel table
// (internal/spec), their column kernels (plain and with row maps), direct
// kernels and packers (1m's 1e and 1r too), and the AVX2 peak probes as Go
// assembly with stubs, one file pair per function: <name>_amd64.s and
// <name>_amd64.go.
//
// Usage (from generate.go): go run -C asm ./avx2 -out ../generated/kernels
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
	fs := flag.NewFlagSet("avx2", flag.ExitOnError)
	out := fs.String("out", ".", "output directory")
	_ = fs.Parse(os.Args[1:])
	cfg := emit.Config{Argv: []string{"go", "run", "./avx2", "-out", *out}, Pkg: "kernels", Dir: *out, Written: map[string]bool{}}
	for _, k := range spec.KernelsFor(spec.AVX2) {
		g := x86.New(k, 32)
		kernel(g)
		if err := cfg.File(g.Ctx, k.Name()+"_amd64"); err != nil {
			log.Fatal(err)
		}
		t := x86.New(k, 32)
		tiles(t)
		if err := cfg.File(t.Ctx, x86.TilesName(k)+"_amd64"); err != nil {
			log.Fatal(err)
		}
		mp := x86.New(k, 32)
		maps(mp)
		if err := cfg.File(mp.Ctx, x86.MapsName(k)+"_amd64"); err != nil {
			log.Fatal(err)
		}
		d := x86.New(k, 32)
		direct(d)
		if err := cfg.File(d.Ctx, x86.DirectName(k)+"_amd64"); err != nil {
			log.Fatal(err)
		}
		for _, op := range []string{"a", "b"} {
			pk := x86.NewPacker(k, op, 32)
			packer(pk)
			if err := cfg.File(pk.Ctx, x86.PackName(k, op)+"_amd64"); err != nil {
				log.Fatal(err)
			}
		}
		pk := x86.NewPacker(k, "a", 32)
		packx(pk)
		if err := cfg.File(pk.Ctx, x86.PackXName(k)+"_amd64"); err != nil {
			log.Fatal(err)
		}
		pk = x86.NewPacker(k, "a", 32)
		pack1e(pk)
		if err := cfg.File(pk.Ctx, x86.Pack1eName(k)+"_amd64"); err != nil {
			log.Fatal(err)
		}
		pk = x86.NewPacker(k, "b", 32)
		pack1r(pk)
		if err := cfg.File(pk.Ctx, x86.Pack1rName(k)+"_amd64"); err != nil {
			log.Fatal(err)
		}
	}
	for _, r := range spec.Reals {
		if _, ok := spec.KernelFor(spec.AVX2, r.Name); !ok {
			continue
		}
		c := x86.Peak(spec.AVX2, r)
		if err := cfg.File(c, "peak_"+r.Short+"_avx2_amd64"); err != nil {
			log.Fatal(err)
		}
	}
	for _, pattern := range []string{"gemm_*_avx2_amd64.*", "tiles_*_avx2_amd64.*", "maps_*_avx2_amd64.*", "direct_*_avx2_amd64.*", "pack?_*_avx2_amd64.*", "pack1e_*_avx2_amd64.*", "pack1r_*_avx2_amd64.*", "peak_*_avx2_amd64.*"} {
		if err := emit.Prune(*out, pattern, cfg.Written); err != nil {
			log.Fatal(err)
		}
	}
}
