// Package emit writes avo contexts to Go assembly files and their stubs.
//
// avo's own command line writes one file per run and derives its header from
// the program's path; the kernel generators write one file pair per kernel,
// so they build one context per file and hand it here. The header names the
// command as generate.go runs it (relative paths only), so every run
// reproduces the files byte for byte.
package emit

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"

	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/pass"
	"github.com/mmcloughlin/avo/printer"
)

// Config names the generating command and the package of the output.
type Config struct {
	// Argv is the command that regenerates the files, as generate.go runs it.
	Argv []string
	// Pkg is the Go package name of the output directory.
	Pkg string
	// Dir is the output directory.
	Dir string
	// Written collects the names of the files written, for Prune.
	Written map[string]bool
}

// File compiles ctx and writes <stem>.s and <stem>.go into cfg.Dir,
// recording both names in cfg.Written when it is not nil.
func (cfg Config) File(ctx *build.Context, stem string) error {
	if cfg.Written != nil {
		cfg.Written[stem+".s"] = true
		cfg.Written[stem+".go"] = true
	}
	f, err := ctx.Result()
	if err != nil {
		return fmt.Errorf("%s: %w", stem, err)
	}
	if err := pass.Compile.Execute(f); err != nil {
		return fmt.Errorf("%s: %w", stem, err)
	}
	pc := printer.Config{Argv: cfg.Argv, Pkg: cfg.Pkg}
	for _, out := range []struct {
		ext string
		p   printer.Printer
	}{
		{".s", printer.NewGoAsm(pc)},
		{".go", printer.NewStubs(pc)},
	} {
		b, err := out.p.Print(f)
		if err != nil {
			return fmt.Errorf("%s%s: %w", stem, out.ext, err)
		}
		if err := WriteIfChanged(filepath.Join(cfg.Dir, stem+out.ext), b); err != nil {
			return err
		}
	}
	return nil
}

// Prune removes the files in dir matching pattern (filepath.Match syntax)
// that keep does not list: the output of a table row that no longer
// exists, which would otherwise linger and still compile.
func Prune(dir, pattern string, keep map[string]bool) error {
	old, err := filepath.Glob(filepath.Join(dir, pattern))
	if err != nil {
		return err
	}
	for _, path := range old {
		if !keep[filepath.Base(path)] {
			if err := os.Remove(path); err != nil {
				return err
			}
		}
	}
	return nil
}

// WriteIfChanged writes b to path unless the file already holds exactly b,
// so regenerating leaves modification times (and build caches) alone.
func WriteIfChanged(path string, b []byte) error {
	if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, b) {
		return nil
	}
	return os.WriteFile(path, b, 0o644)
}
