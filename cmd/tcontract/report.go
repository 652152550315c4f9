package main

import (
	"bufio"
	"cmp"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"

	"github.com/tcontract/tcontract/internal/spec"
)

func writeReport(w io.Writer, rep *report, format string) error {
	switch format {
	case "csv":
		return writeCSV(w, rep)
	case "json":
		e := json.NewEncoder(w)
		e.SetIndent("", "  ")
		return e.Encode(rep)
	}
	return writeTable(w, rep)
}

// sorted orders rows by type (table order), then threads, keeping the
// measured order (GEMM sizes, then cases) within a group.
func sorted(rows []result) []result {
	rank := func(name string) int {
		return slices.IndexFunc(spec.Types, func(t spec.Type) bool { return t.Name == name })
	}
	out := slices.Clone(rows)
	slices.SortStableFunc(out, func(a, b result) int {
		return cmp.Or(cmp.Compare(rank(a.Type), rank(b.Type)), cmp.Compare(a.Threads, b.Threads))
	})
	return out
}

// label is a row's case column: "gemm" or "tccg 13 ab-acd-dbc".
func (r result) label() string {
	if r.Kind == "tccg" {
		return fmt.Sprintf("tccg %d %s", r.ID, r.Name)
	}
	return r.Kind
}

func (r result) size() string { return mnk{r.M, r.N, r.K}.String() }

// writeTable prints the rows for a reader, with a header that says how the
// figures were taken and a legend that says how to read them.
func writeTable(w io.Writer, rep *report) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "isa %s; each time is the %s of %d repetitions (reps), each of enough calls to last at least %g ms",
		rep.ISA, rep.Stat, rep.Reps, rep.MinTimeMS)
	if rep.BudgetMS > 0 {
		fmt.Fprintf(bw, ";\nfewer repetitions once a measurement has timed %g s", rep.BudgetMS/1e3)
	}
	fmt.Fprintln(bw)
	if rep.Scale != 1 {
		fmt.Fprintf(bw, "TCCG extents scaled by %g\n", rep.Scale)
	}
	fmt.Fprintln(bw)
	const head = "%-10s %3s  %-24s %-16s %9s %4s %8s %7s %8s %8s %9s\n"
	const row = "%-10s %3d  %-24s %-16s %9s %4d %8.1f %7.1f %7.0f%% %8s %9.0e\n"
	fmt.Fprintf(bw, head, "type", "thr", "case", "m x n x k", "ms/call", "reps", "GFLOP/s", "peak", "of peak", "vs GEMM", "spot err")
	prev := ""
	for _, r := range sorted(rep.Results) {
		group := fmt.Sprint(r.Type, r.Threads)
		if prev != "" && group != prev {
			fmt.Fprintln(bw)
		}
		prev = group
		vs := ""
		if r.Kind == "tccg" && r.VsGemm > 0 {
			vs = strconv.FormatFloat(r.VsGemm, 'f', 2, 64)
		}
		fmt.Fprintf(bw, row, r.Type, r.Threads, r.label(), r.size(),
			millis(r.Seconds), r.Reps, r.GFlops, r.Peak, 100*r.OfPeak, vs, r.SpotErr)
	}
	fmt.Fprint(bw, `
GFLOP/s counts 2mnk real flops per call (8mnk for complex types). peak is the
best of the FMA peak probes this run took (one before each case) for the same
real type and number of threads; of peak is GFLOP/s over it. vs GEMM is a
contraction's GFLOP/s over a GEMM of the same m, n, k, type and threads
(dense row-major operands), their repetitions timed in turns. After each
measurement 256 sampled elements of C are compared with a dot product in
float64 (complex128); spot err is the largest difference relative to the sum
of the products' magnitudes, and a difference beyond what rounding allows
stops the run with an error.
`)
	if rep.Interrupted {
		fmt.Fprintf(bw, "\ninterrupted: %d of %d measurements done\n", rep.Done, rep.Planned)
	}
	return bw.Flush()
}

// millis is a time in milliseconds with three significant digits, in plain
// notation ("5710", "98.8", "0.00549").
func millis(secs float64) string {
	ms := secs * 1e3
	switch {
	case ms >= 100:
		return strconv.FormatFloat(ms, 'f', 0, 64)
	case ms >= 10:
		return strconv.FormatFloat(ms, 'f', 1, 64)
	case ms >= 1:
		return strconv.FormatFloat(ms, 'f', 2, 64)
	}
	return strconv.FormatFloat(ms, 'g', 3, 64)
}

// writeCSV prints one header line and one line per row; the summary
// statistic is a column so each line stands alone.
func writeCSV(w io.Writer, rep *report) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"isa", "type", "threads", "kind", "id", "name", "spec", "m", "n", "k",
		"flops", "seconds", "calls", "stat", "reps", "gflops", "peak_gflops", "of_peak", "gemm_gflops", "vs_gemm", "spot_err"})
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', 6, 64) }
	for _, r := range sorted(rep.Results) {
		id := ""
		if r.Kind == "tccg" {
			id = strconv.Itoa(r.ID)
		}
		cw.Write([]string{rep.ISA, r.Type, strconv.Itoa(r.Threads), r.Kind, id, r.Name, r.Spec,
			strconv.Itoa(r.M), strconv.Itoa(r.N), strconv.Itoa(r.K),
			f(r.Flops), f(r.Seconds), strconv.Itoa(r.Calls), rep.Stat, strconv.Itoa(r.Reps),
			f(r.GFlops), f(r.Peak), f(r.OfPeak), f(r.GemmGFlops), f(r.VsGemm), f(r.SpotErr)})
	}
	cw.Flush()
	return cw.Error()
}
