// Command typed generates package generated/typed from the type table in
// internal/spec: the Scalar constraint and the dispatcher OpsOf, and per
// element type the packing, write-back and workspace-request routines of the
// GEMM driver (docs/internals.md). Run it through `go generate ./...`:
//
//	go run -C gen ./typed -out ../generated/typed
//
// It writes only files whose contents change and removes the files it wrote
// before for rows that are gone.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/tcontract/tcontract/internal/spec"
)

func main() {
	out := flag.String("out", "", "directory of the generated package")
	flag.Parse()
	if *out == "" {
		fmt.Fprintln(os.Stderr, "typed: -out is required")
		os.Exit(2)
	}
	if err := write(*out, spec.Types); err != nil {
		fmt.Fprintln(os.Stderr, "typed:", err)
		os.Exit(1)
	}
}

// write generates the package for types into dir.
func write(dir string, types []spec.Type) error {
	files, err := Generate(types)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	old, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return err
	}
	for _, path := range old {
		if _, keep := files[filepath.Base(path)]; keep {
			continue
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if strings.HasPrefix(string(b), "// "+header) {
			if err := os.Remove(path); err != nil {
				return err
			}
		}
	}
	for name, src := range files {
		path := filepath.Join(dir, name)
		if cur, err := os.ReadFile(path); err == nil && bytes.Equal(cur, src) {
			continue
		}
		if err := os.WriteFile(path, src, 0o644); err != nil {
			return err
		}
	}
	return nil
}
