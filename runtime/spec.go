package runtime

import (
	"fmt"
	"strings"
)

// Spec is a parsed contraction spec "<A labels>,<B labels>-><C labels>". The
// label strings are substrings of the spec, so parsing allocates nothing.
type Spec struct {
	A, B, C string
}

// ParseSpec parses and checks a spec: labels are ASCII letters; a label may
// repeat in A or B (a diagonal) but not in C, and every label of C must appear
// in A or B. Errors wrap ErrSpec.
func ParseSpec(s string) (Spec, error) {
	arrow := strings.Index(s, "->")
	if arrow < 0 {
		return Spec{}, fmt.Errorf("%w %q: no \"->\"", ErrSpec, s)
	}
	in, out := s[:arrow], s[arrow+2:]
	comma := strings.IndexByte(in, ',')
	if comma < 0 {
		return Spec{}, fmt.Errorf("%w %q: inputs need the form \"A,B\"", ErrSpec, s)
	}
	sp := Spec{A: in[:comma], B: in[comma+1:], C: out}
	for _, part := range []struct {
		name, labels string
	}{{"A", sp.A}, {"B", sp.B}, {"C", sp.C}} {
		for i := 0; i < len(part.labels); i++ {
			if !isLabel(part.labels[i]) {
				return Spec{}, fmt.Errorf("%w %q: %q in the labels of %s is not an ASCII letter", ErrSpec, s, part.labels[i], part.name)
			}
		}
	}
	for i := 0; i < len(sp.C); i++ {
		l := sp.C[i]
		if strings.IndexByte(sp.C[i+1:], l) >= 0 {
			return Spec{}, fmt.Errorf("%w %q: label %q appears twice in C", ErrSpec, s, l)
		}
		if strings.IndexByte(sp.A, l) < 0 && strings.IndexByte(sp.B, l) < 0 {
			return Spec{}, fmt.Errorf("%w %q: label %q appears only in C", ErrSpec, s, l)
		}
	}
	return sp, nil
}

func isLabel(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// String gives the spec back in its canonical form.
func (s Spec) String() string { return s.A + "," + s.B + "->" + s.C }
