package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	goruntime "runtime"
	"strings"

	"github.com/tcontract/tcontract"
	"github.com/tcontract/tcontract/internal/spec"
	"github.com/tcontract/tcontract/runtime"
)

// runInfo prints what the library sees and chooses on this machine.
func runInfo(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("tcontract info", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), "usage: tcontract info\n\n"+
			"Prints the CPU model and features, the ISA path chosen and why, the kernel\n"+
			"tiles and blocksizes per element type, the cache sizes read and their\n"+
			"source, and the default pool size.\n")
	}
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return exitOK
		}
		return exitUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "tcontract info: unexpected argument %q (info takes none)\n", fs.Arg(0))
		return exitUsage
	}
	w := bufio.NewWriter(stdout)
	writeInfo(w)
	if err := w.Flush(); err != nil {
		fmt.Fprintf(stderr, "tcontract info: %v\n", err)
		return exitFail
	}
	return exitOK
}

func writeInfo(w io.Writer) {
	model := cpuModel()
	if model == "" {
		model = "(not reported by this system)"
	}
	fmt.Fprintf(w, "cpu       %s\n", model)
	fmt.Fprintf(w, "          %s/%s, %d logical CPUs, %s\n", goruntime.GOOS, goruntime.GOARCH, goruntime.NumCPU(), goruntime.Version())
	if feats := cpuFeatures(); len(feats) > 0 {
		fmt.Fprintf(w, "features  %s\n", wrap(strings.Join(feats, " "), 68, "          "))
	} else {
		fmt.Fprintf(w, "features  (none this architecture reports)\n")
	}

	fmt.Fprintln(w)
	fmt.Fprintf(w, "path      %s: %s\n", tcontract.ISA(), pathReason())
	for _, ps := range runtime.Paths() {
		mark := "no "
		if ps.Runs {
			mark = "yes"
		}
		fmt.Fprintf(w, "          %-8s %s  %s\n", ps.Name, mark, ps.Why)
	}

	fmt.Fprintln(w)
	fmt.Fprintf(w, "kernels   per element type, the kernel of path %s and its blocking in elements\n", tcontract.ISA())
	fmt.Fprintf(w, "          (MC, KC, NC are the largest blocks; each call balances them to its shape,\n")
	fmt.Fprintf(w, "          a shallow one whose C rows run adjacent takes MC up to %d times taller,\n", runtime.MaxShallowMC)
	fmt.Fprintf(w, "          and one whose A is gathered element by element NC up to %d times wider)\n", runtime.MaxShallowNC)
	for _, t := range spec.Types {
		b := runtime.BlockingOf(t)
		form := "assembly"
		if !b.Asm {
			form = "pure Go"
		}
		how := ""
		if t.Complex {
			how = ", 1m method"
		}
		fmt.Fprintf(w, "          %-10s %-22s %s%s: tile %dx%d, MC %d, KC %d, NC %d\n",
			t.Name, b.Kernel.Name, form, how, b.MR, b.NR, b.MC, b.KC, b.NC)
	}

	fmt.Fprintln(w)
	ci := runtime.Caches()
	fmt.Fprintf(w, "caches    L1d %s (%s), L2 %s (%s), L3 %s (%s)\n",
		bytesText(ci.L1d), ci.L1dFrom, bytesText(ci.L2), ci.L2From, bytesText(ci.L3), ci.L3From)

	p := tcontract.NewPool(0)
	fmt.Fprintf(w, "pool      %d threads (the default pool: GOMAXPROCS %d)\n", p.Threads(), goruntime.GOMAXPROCS(0))
	p.Close()
}

// pathReason says why the path in use was chosen.
func pathReason() string {
	env, set := os.LookupEnv("TCONTRACT_ISA")
	if err := tcontract.ISAError(); err != nil {
		return fmt.Sprintf("the best this CPU and build run; but %v, so every call fails", err)
	}
	if set && strings.TrimSpace(env) != "" {
		return fmt.Sprintf("forced by TCONTRACT_ISA=%s", env)
	}
	return "the best path this CPU and build run (TCONTRACT_ISA unset)"
}

// bytesText is a size in KiB, MiB or GiB.
func bytesText(n int) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d B", n)
}

// wrap breaks a space-separated line to width, indenting continuation
// lines.
func wrap(s string, width int, indent string) string {
	var b strings.Builder
	col := 0
	for i, word := range strings.Fields(s) {
		if i > 0 {
			if col+1+len(word) > width {
				b.WriteString("\n" + indent)
				col = 0
			} else {
				b.WriteByte(' ')
				col++
			}
		}
		b.WriteString(word)
		col += len(word)
	}
	return b.String()
}
