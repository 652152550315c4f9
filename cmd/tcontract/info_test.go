package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"strconv"
	"strings"
	"testing"

	"github.com/tcontract/tcontract"
	"github.com/tcontract/tcontract/internal/spec"
	"github.com/tcontract/tcontract/runtime"
)

func TestInfo(t *testing.T) {
	code, stdout, stderr := runCmd(t, context.Background(), "info")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	want := []string{"cpu ", "features ", "path      " + tcontract.ISA() + ": ", "caches    L1d ", "pool      "}
	for _, ps := range runtime.Paths() {
		want = append(want, ps.Name+" ", ps.Why)
	}
	for _, typ := range spec.Types {
		b := runtime.BlockingOf(typ)
		want = append(want, typ.Name, b.Kernel.Name,
			"tile "+strconv.Itoa(b.MR)+"x"+strconv.Itoa(b.NR)+", MC "+strconv.Itoa(b.MC)+", KC "+strconv.Itoa(b.KC)+", NC "+strconv.Itoa(b.NC))
	}
	ci := runtime.Caches()
	want = append(want, "("+ci.L1dFrom+")", "("+ci.L2From+")", "("+ci.L3From+")")
	for _, w := range want {
		if !strings.Contains(stdout, w) {
			t.Errorf("info lacks %q:\n%s", w, stdout)
		}
	}
}

// TestInfoForced: TCONTRACT_ISA=generic is reported as forced, with the
// pure-Go kernels.
func TestInfoForced(t *testing.T) {
	cmd := mainCmd(t, []string{"TCONTRACT_ISA=generic"}, "info")
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	out := stdout.String()
	for _, w := range []string{"path      generic: forced by TCONTRACT_ISA=generic", "gemm_f64_4x4_generic", "pure Go"} {
		if !strings.Contains(out, w) {
			t.Errorf("info lacks %q:\n%s", w, out)
		}
	}
}

func TestPeak(t *testing.T) {
	code, stdout, stderr := runCmd(t, context.Background(), "peak", "-threads", "1", "-format", "csv")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	recs, err := csv.NewReader(strings.NewReader(stdout)).ReadAll()
	if err != nil {
		t.Fatalf("not CSV: %v\n%s", err, stdout)
	}
	got := map[string]bool{}
	for _, r := range recs[1:] {
		g, err := strconv.ParseFloat(r[3], 64)
		if err != nil || !(g > 0) || r[2] != "1" {
			t.Errorf("row %q", r)
		}
		got[r[0]+" "+r[1]] = true
	}
	n := 0
	for _, isa := range runtime.Available() {
		for _, real := range spec.Reals {
			if hasProbe(isa, real.Name) {
				n++
				if !got[isa+" "+real.Name] {
					t.Errorf("no peak for %s %s", isa, real.Name)
				}
			}
		}
	}
	if len(recs) != n+1 {
		t.Errorf("%d records, want a header and %d rows", len(recs), n)
	}
}

func TestPeakTable(t *testing.T) {
	code, stdout, stderr := runCmd(t, context.Background(), "peak", "-isa", "generic", "-threads", "1,2")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := strings.Split(stdout, "\n")
	if f := strings.Fields(lines[0]); strings.Join(f, " ") != "path type 1 thread 2 threads" {
		t.Errorf("header %q", lines[0])
	}
	for i, real := range []string{"float32", "float64"} {
		f := strings.Fields(lines[1+i])
		if len(f) != 4 || f[0] != "generic" || f[1] != real {
			t.Fatalf("row %q", lines[1+i])
		}
		for _, v := range f[2:] {
			if g, err := strconv.ParseFloat(v, 64); err != nil || !(g > 0) {
				t.Errorf("row %q: %q is no rate", lines[1+i], v)
			}
		}
	}
}
