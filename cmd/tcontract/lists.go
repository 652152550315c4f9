package main

import (
	"fmt"
	goruntime "runtime"
	"strconv"
	"strings"

	"github.com/tcontract/tcontract/internal/spec"
	"github.com/tcontract/tcontract/internal/tccg"
)

// The parsers of the list-valued flags. Each returns an error that names
// the offending item, so a typo is easy to spot.

// items splits a comma-separated list, dropping blanks.
func items(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// parseTypes reads element types by Go name ("complex64") or short name
// ("c64"); "all" is every row of the type table.
func parseTypes(s string) ([]spec.Type, error) {
	if strings.TrimSpace(s) == "all" {
		var out []spec.Type
		for _, t := range spec.Types {
			if benchable(t.Name) {
				out = append(out, t)
			}
		}
		return out, nil
	}
	var out []spec.Type
	seen := map[string]bool{}
	for _, f := range items(s) {
		t, ok := typeNamed(f)
		if !ok {
			var names []string
			for _, t := range spec.Types {
				names = append(names, t.Name)
			}
			return nil, fmt.Errorf("unknown type %q (want %s, or all)", f, strings.Join(names, ", "))
		}
		if !benchable(t.Name) {
			return nil, fmt.Errorf("type %s has no benchmark operands in this command yet", t.Name)
		}
		if !seen[t.Name] {
			seen[t.Name] = true
			out = append(out, t)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no types given")
	}
	return out, nil
}

func typeNamed(name string) (spec.Type, bool) {
	for _, t := range spec.Types {
		if strings.EqualFold(name, t.Name) || strings.EqualFold(name, t.Short) {
			return t, true
		}
	}
	return spec.Type{}, false
}

// parseThreads reads thread counts; "max" is GOMAXPROCS.
func parseThreads(s string) ([]int, error) {
	var out []int
	seen := map[int]bool{}
	for _, f := range items(s) {
		n := goruntime.GOMAXPROCS(0)
		if f != "max" {
			var err error
			n, err = strconv.Atoi(f)
			if err != nil || n < 1 {
				return nil, fmt.Errorf("bad thread count %q (want a number >= 1, or max)", f)
			}
		}
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no thread counts given")
	}
	return out, nil
}

// defaultThreads is 1 and all threads.
func defaultThreads() string {
	if goruntime.GOMAXPROCS(0) == 1 {
		return "1"
	}
	return "1,max"
}

// mnk is the size of a matrix product: C (m×n) = A (m×k) · B (k×n).
type mnk struct{ M, N, K int }

func (s mnk) String() string { return fmt.Sprintf("%dx%dx%d", s.M, s.N, s.K) }

// parseSizes reads GEMM sizes: "N" (square) or "MxNxK"; "none" is no GEMM
// rows (contractions still get their same-size GEMM).
func parseSizes(s string) ([]mnk, error) {
	if strings.TrimSpace(s) == "none" {
		return nil, nil
	}
	var out []mnk
	for _, f := range items(s) {
		parts := strings.Split(strings.ReplaceAll(f, "×", "x"), "x")
		if len(parts) != 1 && len(parts) != 3 {
			return nil, fmt.Errorf("bad size %q (want N or MxNxK)", f)
		}
		var v [3]int
		for i, p := range parts {
			n, err := strconv.Atoi(p)
			if err != nil || n < 1 {
				return nil, fmt.Errorf("bad size %q (want N or MxNxK, each >= 1)", f)
			}
			v[i] = n
		}
		if len(parts) == 1 {
			v[1], v[2] = v[0], v[0]
		}
		out = append(out, mnk{v[0], v[1], v[2]})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no sizes given (use none for no GEMM rows)")
	}
	return out, nil
}

// parseCases reads TCCG cases by id ("13") or name ("ab-acd-dbc"); "all"
// is every case, "none" none.
func parseCases(s string) ([]tccg.Case, error) {
	all := tccg.Cases()
	switch strings.TrimSpace(s) {
	case "all":
		return all, nil
	case "none":
		return nil, nil
	}
	var out []tccg.Case
	seen := map[int]bool{}
	for _, f := range items(s) {
		c, ok := caseNamed(all, f)
		if !ok {
			return nil, fmt.Errorf("unknown case %q (tcontract bench -list shows the cases)", f)
		}
		if !seen[c.ID] {
			seen[c.ID] = true
			out = append(out, c)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no cases given (use none for no contractions)")
	}
	return out, nil
}

func caseNamed(all []tccg.Case, name string) (tccg.Case, bool) {
	id, err := strconv.Atoi(name)
	for _, c := range all {
		if err == nil && c.ID == id || c.Name == name || c.Spec == name {
			return c, true
		}
	}
	return tccg.Case{}, false
}
