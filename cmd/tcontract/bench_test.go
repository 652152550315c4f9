package main

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"image/png"
	"io"
	"math"
	"os"
	"path/filepath"
	goruntime "runtime"
	"strings"
	"testing"
	"time"

	"github.com/tcontract/tcontract"
	"github.com/tcontract/tcontract/internal/spec"
	"github.com/tcontract/tcontract/internal/tccg"
)

// tiny is a suite that runs in well under a second: two types (one real,
// one complex), two thread counts, two GEMM sizes and two TCCG cases shrunk
// to a few elements per extent, one short repetition each.
var tiny = []string{"bench", "-types", "float32,complex128", "-threads", "1,2",
	"-sizes", "8,16x8x4", "-cases", "1,ab-acd-dbc", "-scale", "0.05", "-reps", "1", "-time", "1ms"}

func tinyArgs(extra ...string) []string { return append(append([]string(nil), tiny...), extra...) }

func decodeReport(t *testing.T, stdout string) report {
	t.Helper()
	var rep report
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("output is not the JSON report: %v\n%s", err, stdout)
	}
	return rep
}

// TestBenchJSON runs the tiny suite end to end and checks every figure
// against what it must be: sizes from the TCCG table, flop counts,
// fractions of peak and ratios recomputed from the reported parts.
func TestBenchJSON(t *testing.T) {
	code, stdout, stderr := runCmd(t, context.Background(), tinyArgs("-format", "json")...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if stderr != "" {
		t.Errorf("stderr not empty (no progress off a terminal): %q", stderr)
	}
	rep := decodeReport(t, stdout)
	if rep.Stat != "best" || rep.Reps != 1 || rep.Scale != 0.05 || rep.MinTimeMS != 1 || rep.Interrupted {
		t.Errorf("header: %+v", rep)
	}
	// 2 types × 2 threads × (2 GEMM rows + 2 contractions + their 2 GEMMs).
	if rep.Planned != 24 || rep.Done != 24 {
		t.Errorf("planned %d, done %d; want 24 and 24", rep.Planned, rep.Done)
	}
	if len(rep.Results) != 16 {
		t.Fatalf("%d rows, want 16", len(rep.Results))
	}
	want := map[string]mnk{"gemm 8": {8, 8, 8}, "gemm 16": {16, 8, 4}}
	for _, c := range tccg.Cases() {
		if c.ID == 1 || c.ID == 13 {
			for _, typ := range []string{"float32", "complex128"} {
				ext := map[byte]int{}
				for l, e := range c.Extents(map[string]int{"float32": 4, "complex128": 8}[typ]) {
					ext[l] = max(1, int(math.Round(float64(e)*0.05)))
				}
				m, n, k := c.MNK(ext)
				want[typ+c.Name] = mnk{m, n, k}
			}
		}
	}
	seen := map[string]int{}
	for _, r := range rep.Results {
		key := "gemm " + map[int]string{8: "8", 16: "16"}[r.M]
		if r.Kind == "tccg" {
			key = r.Type + r.Name
		}
		seen[key]++
		if got := (mnk{r.M, r.N, r.K}); got != want[key] {
			t.Errorf("%s %s: size %v, want %v", r.Type, key, got, want[key])
		}
		flops := 2 * float64(r.M*r.N*r.K)
		if r.Type == "complex128" {
			flops *= 4
		}
		if r.Flops != flops {
			t.Errorf("%s %s: %v flops, want %v", r.Type, key, r.Flops, flops)
		}
		if !(r.Seconds > 0) || r.Calls < 1 || r.Reps != 1 || !(r.Peak > 0) {
			t.Errorf("%s %s: seconds %v, calls %d, peak %v", r.Type, key, r.Seconds, r.Calls, r.Peak)
		}
		if g := r.Flops / r.Seconds / 1e9; math.Abs(r.GFlops-g) > 1e-9*g {
			t.Errorf("%s %s: %v GFLOP/s, flops/seconds gives %v", r.Type, key, r.GFlops, g)
		}
		if f := r.GFlops / r.Peak; math.Abs(r.OfPeak-f) > 1e-9*f {
			t.Errorf("%s %s: of peak %v, want %v", r.Type, key, r.OfPeak, f)
		}
		// Checked, and within rounding: a sum of at most a few hundred
		// products in float32 or complex128. Some of 256 float32 sums
		// surely round, so a float32 row without error was not checked.
		if lim := map[string]float64{"float32": 1e-4, "complex128": 1e-12}[r.Type]; !(r.SpotErr >= 0 && r.SpotErr < lim) || r.Type == "float32" && r.SpotErr == 0 {
			t.Errorf("%s %s: spot error %v, want in (0, %g)", r.Type, key, r.SpotErr, lim)
		}
		if r.Kind == "tccg" {
			if !(r.GemmGFlops > 0) || math.Abs(r.VsGemm-r.GFlops/r.GemmGFlops) > 1e-9*r.VsGemm {
				t.Errorf("%s %s: gemm %v, vs gemm %v", r.Type, key, r.GemmGFlops, r.VsGemm)
			}
		} else if r.GemmGFlops != 0 || r.VsGemm != 0 {
			t.Errorf("GEMM row with a GEMM ratio: %+v", r)
		}
	}
	for key, n := range seen {
		if want := map[bool]int{true: 4, false: 2}[strings.HasPrefix(key, "gemm")]; n != want {
			t.Errorf("%s: %d rows, want %d", key, n, want)
		}
	}
	// One peak per real type and thread count, each in the rows that use it.
	// The probe runs before each of the 4 units of a type.
	if len(rep.Peaks) != 4 {
		t.Errorf("%d peaks, want 4 (2 real types × 2 thread counts): %+v", len(rep.Peaks), rep.Peaks)
	}
	for _, p := range rep.Peaks {
		if p.Probes != 4 || !(p.GFlops > 0) || p.ISA != rep.ISA {
			t.Errorf("peak %+v: want the best of 4 probes on %s", p, rep.ISA)
		}
	}
	for _, r := range rep.Results {
		real := map[string]string{"float32": "float32", "complex128": "float64"}[r.Type]
		found := false
		for _, p := range rep.Peaks {
			found = found || p.Real == real && p.Threads == r.Threads && p.GFlops == r.Peak
		}
		if !found {
			t.Errorf("%s %dT: peak %v is not one measured for %s", r.Type, r.Threads, r.Peak, real)
		}
	}
}

func TestBenchTable(t *testing.T) {
	code, stdout, stderr := runCmd(t, context.Background(), tinyArgs("-stat", "median", "-reps", "3")...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{
		"each time is the median of 3 repetitions",
		"fewer repetitions once a measurement has timed 1 s",
		"TCCG extents scaled by 0.05",
		"type", "GFLOP/s", "of peak", "vs GEMM", "spot err",
		"tccg 13 ab-acd-dbc", "tccg 1 abc-bda-dc", "16x8x4",
		"GFLOP/s counts 2mnk",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("table lacks %q:\n%s", want, stdout)
		}
	}
	rows := 0
	for _, line := range strings.Split(stdout, "\n") {
		if strings.HasPrefix(line, "float32 ") || strings.HasPrefix(line, "complex128 ") {
			rows++
			f := strings.Fields(line)
			reps := f[len(f)-5] // before GFLOP/s, peak, of peak and spot err
			if strings.Contains(line, "tccg") {
				reps = f[len(f)-6] // and vs GEMM
			}
			if reps != "3" {
				t.Errorf("row %q: reps %q, want 3", line, reps)
			}
			if isGemm := !strings.Contains(line, "tccg"); isGemm != strings.HasSuffix(f[len(f)-2], "%") {
				t.Errorf("a GEMM row has a ratio or a contraction none: %q", line)
			}
		}
	}
	if rows != 16 {
		t.Errorf("%d rows in the table, want 16:\n%s", rows, stdout)
	}
}

func TestBenchCSV(t *testing.T) {
	code, stdout, stderr := runCmd(t, context.Background(), tinyArgs("-format", "csv")...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	recs, err := csv.NewReader(strings.NewReader(stdout)).ReadAll()
	if err != nil {
		t.Fatalf("not CSV: %v\n%s", err, stdout)
	}
	if len(recs) != 17 {
		t.Fatalf("%d records, want a header and 16 rows", len(recs))
	}
	head := recs[0]
	col := map[string]int{}
	for i, h := range head {
		col[h] = i
	}
	for _, h := range []string{"type", "threads", "kind", "id", "m", "n", "k", "gflops", "peak_gflops", "of_peak", "vs_gemm", "stat", "spot_err"} {
		if _, ok := col[h]; !ok {
			t.Errorf("no column %q in %q", h, head)
		}
	}
	for _, r := range recs[1:] {
		if r[col["stat"]] != "best" || (r[col["kind"]] == "tccg") != (r[col["id"]] != "") {
			t.Errorf("row %q", r)
		}
	}
}

// TestBenchPlot: the plot is a PNG the standard decoder reads, with more
// than a blank canvas on it.
func TestBenchPlot(t *testing.T) {
	file := filepath.Join(t.TempDir(), "bench.png")
	code, _, stderr := runCmd(t, context.Background(), tinyArgs("-plot", file)...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("not a PNG: %v", err)
	}
	b := img.Bounds()
	if b.Dx() < 800 || b.Dy() < 400 {
		t.Errorf("image %v: too small for two panels", b)
	}
	colours := map[[4]uint32]bool{}
	for y := b.Min.Y; y < b.Max.Y; y += 3 {
		for x := b.Min.X; x < b.Max.X; x += 3 {
			r, g, bl, a := img.At(x, y).RGBA()
			colours[[4]uint32{r, g, bl, a}] = true
		}
	}
	if len(colours) < 8 {
		t.Errorf("only %d colours: the plot is (nearly) blank", len(colours))
	}
}

// TestBenchInterrupt: a cancelled context stops the suite after the unit
// in flight; what was measured is printed, and the exit code says so.
func TestBenchInterrupt(t *testing.T) {
	for _, format := range []string{"json", "table"} {
		ctx, cancel := context.WithCancel(context.Background())
		afterUnit = cancel
		code, stdout, stderr := runCmd(t, ctx, "bench", "-types", "float64", "-threads", "1",
			"-sizes", "8,16", "-cases", "1", "-scale", "0.05", "-reps", "1", "-time", "1ms", "-format", format)
		afterUnit = nil
		cancel()
		if code != exitInterrupted {
			t.Errorf("%s: exit %d, want %d", format, code, exitInterrupted)
		}
		if !strings.Contains(stderr, "interrupted: 1 of 4 measurements done") {
			t.Errorf("%s: stderr %q", format, stderr)
		}
		if format == "json" {
			rep := decodeReport(t, stdout)
			if !rep.Interrupted || len(rep.Results) != 1 || rep.Results[0].M != 8 {
				t.Errorf("report after the interrupt: %+v", rep)
			}
		} else if !strings.Contains(stdout, "8x8x8") || strings.Contains(stdout, "16x16x16") {
			t.Errorf("table after the interrupt:\n%s", stdout)
		}
	}
}

func TestBenchProgress(t *testing.T) {
	args := []string{"bench", "-types", "float64", "-threads", "1", "-sizes", "8,16", "-cases", "none",
		"-reps", "1", "-time", "1ms", "-format", "csv"}
	code, _, stderr := runCmd(t, context.Background(), append(args, "-progress", "on")...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"] 0/2 allocating operands", "] 1/2 float64 1T gemm 16x16x16", "[########################] 2/2"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("progress %q lacks %q", stderr, want)
		}
	}
	if !strings.HasSuffix(stderr, "\r\x1b[K") {
		t.Errorf("progress %q does not end by erasing the bar", stderr)
	}
	for _, mode := range []string{"off", "auto"} { // auto: a buffer is no terminal
		if _, _, stderr := runCmd(t, context.Background(), append(args, "-progress", mode)...); stderr != "" {
			t.Errorf("-progress %s wrote %q", mode, stderr)
		}
	}
}

func TestBenchList(t *testing.T) {
	code, stdout, _ := runCmd(t, context.Background(), "bench", "-list")
	if code != exitOK {
		t.Fatalf("exit %d", code)
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if len(lines) != 1+len(tccg.Cases()) || !strings.Contains(stdout, "13   ab-acd-dbc") || !strings.Contains(stdout, "312x296x92352") {
		t.Errorf("list:\n%s", stdout)
	}
}

// TestSuiteError: a unit that fails stops the suite with its error, and the
// rows measured before it are kept for the report.
func TestSuiteError(t *testing.T) {
	f64, _ := typeNamed("float64")
	cfg := benchConfig{
		types:   []spec.Type{f64, {Name: "float16", Real: "float32", Size: 2}},
		threads: []int{1},
		sizes:   []mnk{{8, 8, 8}},
		scale:   1,
		tm:      timing{reps: 1, minTime: time.Millisecond, stat: "best"},
	}
	rep, err := runSuite(context.Background(), cfg, newProgress(io.Discard, "off"))
	if err == nil || !strings.Contains(err.Error(), "float16") {
		t.Errorf("error %v, want one naming float16", err)
	}
	if len(rep.Results) != 1 || rep.Results[0].Type != "float64" || !(rep.Results[0].OfPeak > 0) {
		t.Errorf("rows kept: %+v", rep.Results)
	}
}

// TestBenchWarmsUp: a run spends -warm on untimed calls before its first
// measurement, once.
func TestBenchWarmsUp(t *testing.T) {
	t0 := time.Now()
	code, _, stderr := runCmd(t, context.Background(), "bench", "-sizes", "8", "-cases", "none", "-types", "float32",
		"-threads", "1", "-reps", "1", "-time", "1ms", "-budget", "0", "-progress", "off", "-warm", "400ms")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if d := time.Since(t0); d < 400*time.Millisecond {
		t.Errorf("a run with -warm 400ms took %v", d)
	}
}

// TestSuiteChecked runs every TCCG contraction at its full size as the
// benchmark lays it out, float32 on a team of two threads and float64 on
// one: the paths and team splits it times (streamed C, tall products
// fetched ahead, row maps on real runs) are the ones whose results the
// spot check then compares. (Both types on both counts, and the complex
// types, pass too, in four times as long: tcontract bench -cases all
// checks whatever it runs.)
func TestSuiteChecked(t *testing.T) {
	if testing.Short() {
		t.Skip("full-size operands, up to half a gigabyte, and 6 Tflop; not in -short")
	}
	if isa := tcontract.ISA(); isa == "generic" {
		t.Skipf("6 Tflop on the %s path's Go kernels would take an hour", isa)
	}
	runs := []struct {
		typ     string
		threads int
	}{{"float32", 2}, {"float64", 1}}
	// The largest operands first, so the store grows once.
	var st store
	for i := range 3 {
		most := 0
		for _, run := range runs {
			typ, _ := typeNamed(run.typ)
			rt, _ := spec.RealByName(typ.Real)
			for _, c := range tccg.Cases() {
				as, bs, cs := c.Shapes(c.Extents(rt.Size))
				most = max(most, volume([][]int{as, bs, cs}[i])*typ.Size)
			}
		}
		st.reserve(i, most)
	}
	for _, run := range runs {
		p := tcontract.NewPool(min(run.threads, goruntime.GOMAXPROCS(0)))
		defer p.Close()
		typ, _ := typeNamed(run.typ)
		rt, _ := spec.RealByName(typ.Real)
		for _, c := range tccg.Cases() {
			as, bs, cs := c.Shapes(c.Extents(rt.Size))
			pr, err := newContraction(&st, typ, c.Spec, as, bs, cs)
			if err != nil {
				t.Fatal(err)
			}
			if err := pr.call(p); err != nil {
				t.Fatalf("%s %d %s: %v", run.typ, c.ID, c.Name, err)
			}
			if e, err := pr.check(); err != nil || !(e > 0 && e < 1e-5) {
				t.Errorf("%s %d %s on %d threads: spot error %v, %v", run.typ, c.ID, c.Name, p.Threads(), e, err)
			}
		}
	}
}
