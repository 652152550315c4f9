package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tcontract/tcontract/internal/spec"
)

// TestGeneratedIsCurrent checks that the committed package is what the
// generator makes of the table now.
func TestGeneratedIsCurrent(t *testing.T) {
	files, err := Generate(spec.Types)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join("..", "..", "generated", "typed")
	for name, src := range files {
		cur, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || !bytes.Equal(cur, src) {
			t.Errorf("%s is stale: run go generate ./...", name)
		}
	}
	old, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	for _, path := range old {
		if _, ok := files[filepath.Base(path)]; !ok {
			t.Errorf("%s is not generated from the table any more", path)
		}
	}
}

// TestGenerateRejects checks the table's consistency checks.
func TestGenerateRejects(t *testing.T) {
	bad := []spec.Type{
		{Name: "float16", Short: "F16", Size: 2, Real: "float16"},                   // unknown real
		{Name: "complex64", Short: "C64", Size: 4, Complex: true, Real: "float32"},  // wrong size
		{Name: "float32", Short: "x32", Size: 4, Real: "float32"},                   // lower-case short
		{Name: "float32", Short: "F32", Size: 4, Real: "float32", Pkg: "example/u"}, // duplicate name
	}
	for _, row := range bad {
		if _, err := Generate(append(spec.Types[:len(spec.Types):len(spec.Types)], row)); err == nil {
			t.Errorf("row %+v accepted", row)
		}
	}
}

// extPath is the module the extensibility test builds in. It lies under the
// project's path so that it may import the project's internal packages, as
// the generated package does.
const extPath = "github.com/tcontract/tcontract/exttest"

// TestExtraRows proves that a new element type needs only a row: it adds two
// rows for types declared outside the project, a named real type and a named
// complex one, generates the package into a temporary module, and builds,
// vets and tests it there, with a test that packs and writes back through the
// new types' routines.
func TestExtraRows(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	units := extPath + "/units"
	rows := append(spec.Types[:len(spec.Types):len(spec.Types)],
		spec.Type{Name: "Celsius", Pkg: units, Short: "Cel", Size: 8, Real: "float64", Tol: 4e-15},
		spec.Type{Name: "Phasor", Pkg: units, Short: "Pha", Size: 8, Complex: true, Real: "float32", Tol: 2e-6},
	)
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"go.mod": "module " + extPath + "\n\ngo 1.26\n\n" +
			"require github.com/tcontract/tcontract v0.0.0-00010101000000-000000000000\n\n" +
			"replace github.com/tcontract/tcontract => " + filepath.ToSlash(root) + "\n",
		"go.sum":            string(sum),
		"units/units.go":    "package units\n\ntype Celsius float64\n\ntype Phasor complex64\n",
		"typed/use_test.go": useTest,
	}
	for name, text := range files {
		path := filepath.Join(tmp, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := write(filepath.Join(tmp, "typed"), rows); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"build", "./..."}, {"vet", "./..."}, {"test", "-count=1", "./..."}} {
		cmd := exec.Command("go", args...)
		cmd.Dir = tmp
		// Everything the module needs is in the module cache already.
		cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod", "GOPROXY=off", "GOSUMDB=off")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
}

// useTest runs in the temporary module: the new types' routines pack and
// write back like their underlying types' do.
const useTest = `package typed_test

import (
	"testing"
	"unsafe"

	"github.com/tcontract/tcontract/exttest/typed"
	"github.com/tcontract/tcontract/exttest/units"
)

func TestCelsius(t *testing.T) {
	ops := typed.OpsOf[units.Celsius]()
	src := []units.Celsius{1, 2, 3, 4, 5, 6} // 3×2, column-major
	dst := make([]units.Celsius, 4*2)
	alpha := units.Celsius(2)
	ops.PackA(bytes(dst), bytes(src), 4, 3, 2, []int64{0, 1, 2}, []int64{1}, []int64{0, 3}, 3, (*byte)(unsafe.Pointer(&alpha)))
	want := []units.Celsius{2, 4, 6, 0, 8, 10, 12, 0}
	for i := range want {
		if dst[i] != want[i] {
			t.Fatalf("packed %v, want %v", dst, want)
		}
	}
	c := []units.Celsius{1, 1}
	tile := []units.Celsius{3, 4}
	ops.WriteBack(bytes(c), []int64{0, 1}, 1, []int64{0}, 1, 2, 1, bytes(tile), 2, nil, nil)
	if c[0] != 4 || c[1] != 5 {
		t.Fatalf("written back %v", c)
	}
}

func TestPhasor(t *testing.T) {
	ops := typed.OpsOf[units.Phasor]()
	src := []units.Phasor{1 + 2i, 3 + 4i} // 1×2 (k = 2)
	dst := make([]float32, 2*2*2*2)       // 1e: 2mr×2kc reals, mr = 2
	ops.PackA(bytes(dst), bytes(src), 2, 1, 2, []int64{0}, []int64{1}, []int64{0, 1}, 1, nil)
	want := []float32{1, 2, 0, 0, -2, 1, 0, 0, 3, 4, 0, 0, -4, 3, 0, 0}
	for i := range want {
		if dst[i] != want[i] {
			t.Fatalf("packed %v, want %v", dst, want)
		}
	}
	if v := typed.ViewPha(unsafe.Slice((*byte)(unsafe.Pointer(&src[0])), 16)); &v[0] != &src[0] {
		t.Fatal("view does not share memory")
	}
}

func bytes[T any](s []T) *byte { return (*byte)(unsafe.Pointer(&s[0])) }
`
