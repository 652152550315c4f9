// Package tccg is the public half of the TCCG tensor-contraction benchmark
// (Springer and Bientinesi): contraction specs with the extents the anchors
// were measured at, embedded so the command and the benchmarks need no files.
package tccg

import (
	_ "embed"
	"fmt"
	"strconv"
	"strings"
)

//go:embed tccg-public.tsv
var table string

// Case is one contraction of the suite.
type Case struct {
	ID    int
	Name  string // "abcd-dbea-ec": C-A-B labels
	Spec  string // einsum form "dbea,ec->abcd"
	Group string // where it comes from (ccsd, intensli, ...)
	// Extents per label, for float64 runs and for float32 runs.
	F64, F32 map[byte]int
}

// Extents returns the extents for an element type of the given real size
// (8: the float64 extents, 4: the float32 ones).
func (c Case) Extents(realSize int) map[byte]int {
	if realSize == 4 {
		return c.F32
	}
	return c.F64
}

// Shapes returns the shapes of A, B and C for the given extents.
func (c Case) Shapes(ext map[byte]int) (a, b, cs []int) {
	arrow := strings.Index(c.Spec, "->")
	comma := strings.IndexByte(c.Spec, ',')
	shape := func(labels string) []int {
		s := make([]int, len(labels))
		for i := range labels {
			s[i] = ext[labels[i]]
		}
		return s
	}
	return shape(c.Spec[:comma]), shape(c.Spec[comma+1 : arrow]), shape(c.Spec[arrow+2:])
}

// MNK returns the sizes of the equivalent matrix product: the products of
// the free extents of A (m), of B (n) and of the contracted ones (k).
func (c Case) MNK(ext map[byte]int) (m, n, k int) {
	arrow := strings.Index(c.Spec, "->")
	comma := strings.IndexByte(c.Spec, ',')
	a, b, out := c.Spec[:comma], c.Spec[comma+1:arrow], c.Spec[arrow+2:]
	m, n, k = 1, 1, 1
	for l, e := range ext {
		inA, inB, inC := strings.IndexByte(a, l) >= 0, strings.IndexByte(b, l) >= 0, strings.IndexByte(out, l) >= 0
		switch {
		case inA && inC && !inB:
			m *= e
		case inB && inC && !inA:
			n *= e
		case inA && inB && !inC:
			k *= e
		}
	}
	return m, n, k
}

// Cases parses the embedded table.
func Cases() []Case {
	cs, err := parse(table)
	if err != nil {
		panic(err)
	}
	return cs
}

func parse(text string) ([]Case, error) {
	var out []Case
	for n, line := range strings.Split(text, "\n") {
		if line == "" || strings.HasPrefix(line, "#") || strings.HasPrefix(line, "id\t") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 6 {
			return nil, fmt.Errorf("tccg line %d: %d fields, want 6", n+1, len(f))
		}
		id, err := strconv.Atoi(f[0])
		if err != nil {
			return nil, fmt.Errorf("tccg line %d: id: %v", n+1, err)
		}
		f64, err := parseExtents(f[3])
		if err != nil {
			return nil, fmt.Errorf("tccg line %d: %v", n+1, err)
		}
		f32, err := parseExtents(f[4])
		if err != nil {
			return nil, fmt.Errorf("tccg line %d: %v", n+1, err)
		}
		out = append(out, Case{ID: id, Name: f[1], Spec: f[2], Group: f[5], F64: f64, F32: f32})
	}
	return out, nil
}

func parseExtents(s string) (map[byte]int, error) {
	ext := map[byte]int{}
	for _, kv := range strings.Split(s, ",") {
		l, v, ok := strings.Cut(kv, ":")
		if !ok || len(l) != 1 {
			return nil, fmt.Errorf("bad extent %q", kv)
		}
		e, err := strconv.Atoi(v)
		if err != nil || e < 0 {
			return nil, fmt.Errorf("bad extent %q", kv)
		}
		ext[l[0]] = e
	}
	return ext, nil
}
