package main

import (
	"bufio"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strconv"

	"github.com/tcontract/tcontract/internal/spec"
	"github.com/tcontract/tcontract/runtime"
)

// runPeak measures the FMA peak probe of every path this machine runs (or
// those named), per real type, on each thread count.
func runPeak(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("tcontract peak", flag.ContinueOnError)
	fs.SetOutput(stderr)
	threads := fs.String("threads", defaultThreads(), "thread counts, comma-separated (max: GOMAXPROCS)")
	isas := fs.String("isa", "", "paths to probe, comma-separated (default: every path this machine runs)")
	format := fs.String("format", "table", "output format: table, csv or json")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), "usage: tcontract peak [flags]\n\n"+
			"Measures the FMA throughput of each ISA path's peak probe per real type: the\n"+
			"best of several short repetitions, in GFLOP/s. Complex types compute on their\n"+
			"real type's kernels (1m method), so their peak is the real one.\n\nflags:\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "tcontract peak: "+format+"\n", a...)
		return exitUsage
	}
	if fs.NArg() > 0 {
		return fail("unexpected argument %q (flags only; see -h)", fs.Arg(0))
	}
	ths, err := parseThreads(*threads)
	if err != nil {
		return fail("-threads: %v", err)
	}
	paths := runtime.Available()
	if *isas != "" {
		var want []string
		for _, name := range items(*isas) {
			if _, ok := spec.ISAByName(name); !ok {
				return fail("-isa: unknown path %q", name)
			}
			if !slices.Contains(paths, name) {
				return fail("-isa: path %q cannot run here (available: %v)", name, paths)
			}
			want = append(want, name)
		}
		paths = want
	}
	if *format != "table" && *format != "csv" && *format != "json" {
		return fail("-format %q: want table, csv or json", *format)
	}

	var rows []peakRow
	for _, isa := range paths {
		for _, real := range spec.Reals {
			if !hasProbe(isa, real.Name) {
				continue
			}
			for _, th := range ths {
				if ctx.Err() != nil {
					break
				}
				g, err := runtime.PeakOn(isa, real.Name, th)
				if err != nil {
					fmt.Fprintf(stderr, "tcontract peak: %v\n", err)
					return exitFail
				}
				rows = append(rows, peakRow{ISA: isa, Real: real.Name, Threads: th, GFlops: g})
			}
		}
	}
	if err := writePeaks(stdout, rows, ths, *format); err != nil {
		fmt.Fprintf(stderr, "tcontract peak: %v\n", err)
		return exitFail
	}
	if ctx.Err() != nil {
		fmt.Fprintf(stderr, "tcontract peak: interrupted\n")
		return exitInterrupted
	}
	return exitOK
}

// hasProbe reports whether the kernel table has a row, hence a probe, for
// a path and real type.
func hasProbe(isa, real string) bool {
	_, ok := spec.KernelFor(isa, real)
	return ok
}

func writePeaks(w io.Writer, rows []peakRow, threads []int, format string) error {
	switch format {
	case "json":
		e := json.NewEncoder(w)
		e.SetIndent("", "  ")
		if rows == nil {
			rows = []peakRow{}
		}
		return e.Encode(rows)
	case "csv":
		cw := csv.NewWriter(w)
		cw.Write([]string{"isa", "real", "threads", "gflops"})
		for _, r := range rows {
			cw.Write([]string{r.ISA, r.Real, strconv.Itoa(r.Threads), strconv.FormatFloat(r.GFlops, 'g', 6, 64)})
		}
		cw.Flush()
		return cw.Error()
	}
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "%-8s %-8s", "path", "type")
	for _, th := range threads {
		fmt.Fprintf(bw, " %12s", threadWord(th))
	}
	fmt.Fprintln(bw)
	for i := 0; i < len(rows); {
		r := rows[i]
		fmt.Fprintf(bw, "%-8s %-8s", r.ISA, r.Real)
		for _, th := range threads {
			if i < len(rows) && rows[i].ISA == r.ISA && rows[i].Real == r.Real && rows[i].Threads == th {
				fmt.Fprintf(bw, " %12.1f", rows[i].GFlops)
				i++
			} else {
				fmt.Fprintf(bw, " %12s", "-")
			}
		}
		fmt.Fprintln(bw)
	}
	fmt.Fprint(bw, "\nGFLOP/s of the FMA probe: the best of several short repetitions. complex64 and\n"+
		"complex128 run on the float32 and float64 kernels, so these are their peaks too.\n")
	return bw.Flush()
}
