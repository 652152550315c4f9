package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/tcontract/tcontract"
	"github.com/tcontract/tcontract/internal/spec"
	"github.com/tcontract/tcontract/internal/tccg"
)

// The default suite: the anchors' GEMM sizes (square and the two skinny
// shapes) and the ten TCCG cases the anchors were measured on, float32 and
// float64, on one thread and on all: about a minute on a 2-core machine at
// the speeds the anchors quote.
const (
	defaultTypes = "float32,float64"
	defaultSizes = "64,256,1024,2048,4096x4096x64,4096x64x4096"
	defaultCases = "1,3,7,9,11,13,17,19,31,35"
)

// benchConfig is a parsed bench command line.
type benchConfig struct {
	types    []spec.Type
	threads  []int
	sizes    []mnk
	cases    []tccg.Case
	scale    float64
	tm       timing
	format   string
	plotFile string
	progress string
}

// parseBench reads bench's flags. ok is false when the command is done
// (help, -list, or an error already reported) and code is its exit code.
func parseBench(args []string, stdout, stderr io.Writer) (cfg benchConfig, code int, ok bool) {
	fs := flag.NewFlagSet("tcontract bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	types := fs.String("types", defaultTypes, "element types, comma-separated (float32, float64, complex64, complex128, or all)")
	threads := fs.String("threads", defaultThreads(), "thread counts, comma-separated (max: GOMAXPROCS)")
	sizes := fs.String("sizes", defaultSizes, "GEMM sizes: N (square) or MxNxK, comma-separated, or none")
	cases := fs.String("cases", defaultCases, "TCCG contractions by id or name, comma-separated, or all, or none")
	fs.Float64Var(&cfg.scale, "scale", 1, "multiply every TCCG extent by this factor (at least 1 each)")
	fs.IntVar(&cfg.tm.reps, "reps", 3, "timed repetitions per measurement")
	fs.DurationVar(&cfg.tm.minTime, "time", 50*time.Millisecond, "least duration of one repetition (enough calls to fill it)")
	fs.DurationVar(&cfg.tm.budget, "budget", time.Second, "stop repeating a measurement once its timed calls took this long (0: always -reps)")
	fs.StringVar(&cfg.tm.stat, "stat", "best", "summary of the repetitions: best or median")
	fs.DurationVar(&cfg.tm.warm, "warm", 500*time.Millisecond, "untimed calls before the first measurement (a process runs slower at first)")
	fs.StringVar(&cfg.format, "format", "table", "output format: table, csv or json")
	fs.StringVar(&cfg.plotFile, "plot", "", "also draw GFLOP/s against size per type into this PNG file")
	fs.StringVar(&cfg.progress, "progress", "auto", "progress bar on stderr: auto (when a terminal), on or off")
	list := fs.Bool("list", false, "list the TCCG cases and exit")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), "usage: tcontract bench [flags]\n\n"+
			"Benchmarks GEMM and the TCCG contractions and prints GFLOP/s, the fraction of\n"+
			"the peak measured in the same run (same real type and threads) and, for a\n"+
			"contraction, its ratio to a GEMM of the same m, n, k.\n\nflags:\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return cfg, exitOK, false
		}
		return cfg, exitUsage, false // the flag package has printed why
	}
	fail := func(format string, a ...any) (benchConfig, int, bool) {
		fmt.Fprintf(stderr, "tcontract bench: "+format+"\n", a...)
		return cfg, exitUsage, false
	}
	if fs.NArg() > 0 {
		return fail("unexpected argument %q (flags only; see -h)", fs.Arg(0))
	}
	if *list {
		listCases(stdout)
		return cfg, exitOK, false
	}
	var err error
	if cfg.types, err = parseTypes(*types); err != nil {
		return fail("-types: %v", err)
	}
	if cfg.threads, err = parseThreads(*threads); err != nil {
		return fail("-threads: %v", err)
	}
	if cfg.sizes, err = parseSizes(*sizes); err != nil {
		return fail("-sizes: %v", err)
	}
	if cfg.cases, err = parseCases(*cases); err != nil {
		return fail("-cases: %v", err)
	}
	if len(cfg.sizes) == 0 && len(cfg.cases) == 0 {
		return fail("nothing to run: -sizes and -cases are both none")
	}
	if !(cfg.scale > 0) {
		return fail("-scale %v: want a factor > 0", cfg.scale)
	}
	if cfg.tm.reps < 1 {
		return fail("-reps %d: want at least 1", cfg.tm.reps)
	}
	if cfg.tm.minTime <= 0 {
		return fail("-time %v: want a positive duration", cfg.tm.minTime)
	}
	if cfg.tm.warm < 0 {
		return fail("-warm %v: want a duration >= 0", cfg.tm.warm)
	}
	if cfg.tm.budget < 0 {
		return fail("-budget %v: want a duration >= 0", cfg.tm.budget)
	}
	if cfg.tm.stat != "best" && cfg.tm.stat != "median" {
		return fail("-stat %q: want best or median", cfg.tm.stat)
	}
	if cfg.format != "table" && cfg.format != "csv" && cfg.format != "json" {
		return fail("-format %q: want table, csv or json", cfg.format)
	}
	if cfg.progress != "auto" && cfg.progress != "on" && cfg.progress != "off" {
		return fail("-progress %q: want auto, on or off", cfg.progress)
	}
	if cfg.plotFile != "" {
		if !strings.EqualFold(filepath.Ext(cfg.plotFile), ".png") {
			return fail("-plot %q: the plot is a PNG file; name it *.png", cfg.plotFile)
		}
		// Fail now, not after a minute of measuring.
		if st, err := os.Stat(filepath.Dir(cfg.plotFile)); err != nil || !st.IsDir() {
			return fail("-plot %q: no such directory %q", cfg.plotFile, filepath.Dir(cfg.plotFile))
		}
	}
	return cfg, exitOK, true
}

func runBench(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	cfg, code, ok := parseBench(args, stdout, stderr)
	if !ok {
		return code
	}
	if err := tcontract.ISAError(); err != nil {
		fmt.Fprintf(stderr, "tcontract bench: %v\n", err)
		return exitFail
	}
	prog := newProgress(stderr, cfg.progress)
	rep, err := runSuite(ctx, cfg, prog)
	prog.clear()
	if err != nil {
		// What was measured before the failure is still worth having.
		if len(rep.Results) > 0 {
			writeReport(stdout, rep, cfg.format)
		}
		fmt.Fprintf(stderr, "tcontract bench: %v\n", err)
		return exitFail
	}
	if err := writeReport(stdout, rep, cfg.format); err != nil {
		fmt.Fprintf(stderr, "tcontract bench: writing the results: %v\n", err)
		return exitFail
	}
	if cfg.plotFile != "" {
		if len(rep.Results) == 0 {
			fmt.Fprintf(stderr, "tcontract bench: nothing measured, no plot written\n")
		} else if err := writePlot(cfg.plotFile, rep); err != nil {
			fmt.Fprintf(stderr, "tcontract bench: -plot: %v\n", err)
			return exitFail
		}
	}
	if rep.Interrupted {
		fmt.Fprintf(stderr, "tcontract bench: interrupted: %d of %d measurements done\n", rep.Done, rep.Planned)
		return exitInterrupted
	}
	return exitOK
}

// listCases prints the TCCG cases with their GEMM sizes and cost.
func listCases(w io.Writer) {
	fmt.Fprintf(w, "%-4s %-18s %-20s %-8s %-26s %-26s\n", "id", "name", "spec", "group", "float64 m x n x k", "float32 m x n x k")
	for _, c := range tccg.Cases() {
		m8, n8, k8 := c.MNK(c.F64)
		m4, n4, k4 := c.MNK(c.F32)
		fmt.Fprintf(w, "%-4d %-18s %-20s %-8s %-26s %-26s\n", c.ID, c.Name, c.Spec, c.Group,
			mnk{m8, n8, k8}.String(), mnk{m4, n4, k4}.String())
	}
}
