// Command neon writes the NEON micro-kernels of internal/spec's kernel table
// as Go arm64 assembly, with their Go declarations, and the NEON peak probes:
//
//	go run ./neon -out ../generated/kernels
//
// Go's arm64 assembler lacks by-element FMLA and vector FMUL, so this is a
// plain text emitter that writes those as WORD directives (see encode.go)
// rather than an avo program.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/tcontract/tcontract/internal/spec"
)

// suffix ends every file this program owns in the output directory.
const suffix = "_" + spec.NEON + "_arm64"

func main() {
	out := flag.String("out", "", "output directory (generated/kernels)")
	flag.Parse()
	if *out == "" || flag.NArg() != 0 {
		fmt.Fprintln(os.Stderr, "usage: neon -out dir")
		os.Exit(2)
	}
	files, err := render()
	if err == nil {
		err = write(*out, files)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "neon:", err)
		os.Exit(1)
	}
}

// render produces every file, by name, from the tables.
func render() (map[string][]byte, error) {
	files := map[string][]byte{}
	seen := map[string]bool{}
	for _, k := range spec.KernelsFor(spec.NEON) {
		text, err := gemm(k)
		if err != nil {
			return nil, err
		}
		files[k.Name()+"_arm64.s"] = text
		files[k.Name()+"_arm64.go"] = gemmStub(k)
		if seen[k.Real] {
			continue
		}
		seen[k.Real] = true
		r, _ := spec.RealByName(k.Real)
		text, err = peak(r)
		if err != nil {
			return nil, err
		}
		files[peakName(r)+"_arm64.s"] = text
		files[peakName(r)+"_arm64.go"] = peakStub(r)
	}
	return files, nil
}

// write replaces this program's files in dir: it removes the ones a changed
// table no longer names, so regenerating leaves no stale kernel behind.
func write(dir string, files map[string][]byte) error {
	for _, ext := range []string{".s", ".go"} {
		old, err := filepath.Glob(filepath.Join(dir, "*"+suffix+ext))
		if err != nil {
			return err
		}
		for _, f := range old {
			if _, keep := files[filepath.Base(f)]; !keep {
				if err := os.Remove(f); err != nil {
					return err
				}
			}
		}
	}
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if err := os.WriteFile(filepath.Join(dir, n), files[n], 0o644); err != nil {
			return err
		}
	}
	return nil
}
