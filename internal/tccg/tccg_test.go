package tccg

import (
	"strings"
	"testing"
)

func TestCases(t *testing.T) {
	cs := Cases()
	if len(cs) != 24 {
		t.Fatalf("%d cases, want the 24 of the public half", len(cs))
	}
	for _, c := range cs {
		arrow := strings.Index(c.Spec, "->")
		parts := strings.Split(c.Spec[:arrow], ",")
		if want := c.Spec[arrow+2:] + "-" + parts[0] + "-" + parts[1]; want != c.Name {
			t.Errorf("case %d: name %q, spec gives %q", c.ID, c.Name, want)
		}
		for _, ext := range []map[byte]int{c.F64, c.F32} {
			for _, l := range strings.ReplaceAll(strings.ReplaceAll(c.Spec, ",", ""), "->", "") {
				if ext[byte(l)] <= 0 {
					t.Errorf("case %d: no extent for %q", c.ID, l)
				}
			}
		}
	}
	// abc-bda-dc at float64: m = a·b, n = c, k = d.
	m, n, k := cs[0].MNK(cs[0].F64)
	if m != 312*312 || n != 24 || k != 312 {
		t.Errorf("case 1 mnk = %d %d %d", m, n, k)
	}
}
