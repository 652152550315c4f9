package main

import (
	goruntime "runtime"
	"slices"
	"testing"

	"github.com/tcontract/tcontract/internal/spec"
)

func TestParseSizes(t *testing.T) {
	got, err := parseSizes(" 64, 4096x64x4096,8×4×2")
	if err != nil {
		t.Fatal(err)
	}
	if want := []mnk{{64, 64, 64}, {4096, 64, 4096}, {8, 4, 2}}; !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	if got, err := parseSizes("none"); err != nil || got != nil {
		t.Errorf("none: %v %v", got, err)
	}
	for _, bad := range []string{"", "x", "4x4", "1x2x3x4", "-3", "8x0x8", "1e3"} {
		if _, err := parseSizes(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestParseTypes(t *testing.T) {
	got, err := parseTypes("c64,float64,C64")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Name != "complex64" || got[1].Name != "float64" {
		t.Errorf("got %v", got)
	}
	// all is every row of the table the command has operands for; a row
	// added to the table alone (its Go type unknown here) is left out.
	all, _ := parseTypes("all")
	var want []string
	for _, typ := range spec.Types {
		if benchable(typ.Name) {
			want = append(want, typ.Name)
		}
	}
	var names []string
	for _, typ := range all {
		names = append(names, typ.Name)
	}
	if !slices.Equal(names, want) || len(names) < 4 {
		t.Errorf("all: %v, want %v", names, want)
	}
}

func TestParseThreads(t *testing.T) {
	got, err := parseThreads("1,max,1")
	if err != nil {
		t.Fatal(err)
	}
	want := []int{1, goruntime.GOMAXPROCS(0)}
	if goruntime.GOMAXPROCS(0) == 1 {
		want = want[:1]
	}
	if !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

func TestParseCases(t *testing.T) {
	got, err := parseCases("13, ab-acd-dbc,acd,db->abc")
	if err == nil {
		t.Errorf("a spec with a comma split in two should not parse: %v", got)
	}
	got, err = parseCases("13,ab-acd-dbc,31")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].ID != 13 || got[1].ID != 31 {
		t.Errorf("got %v", got)
	}
	if all, _ := parseCases("all"); len(all) != 24 {
		t.Errorf("all: %d cases", len(all))
	}
	if none, err := parseCases("none"); none != nil || err != nil {
		t.Errorf("none: %v %v", none, err)
	}
}
