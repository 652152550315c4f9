package main

import (
	"fmt"
	"strings"

	"github.com/dave/jennifer/jen"
	"github.com/tcontract/tcontract/internal/spec"
)

// elem is one row of the type table with what the emitters derive from it.
type elem struct {
	spec.Type
	R string // the real type's Go name ("float32")
	Z int    // bytes of one real
}

// elems checks the table and derives every row. Everything the emitters
// write for a row follows from its memory layout (Real, and Complex for a
// pair of them), so a new row needs no code of its own.
func elems(types []spec.Type) ([]elem, error) {
	var out []elem
	names, shorts := map[string]bool{}, map[string]bool{}
	for _, t := range types {
		r, ok := spec.RealByName(t.Real)
		if !ok {
			return nil, fmt.Errorf("type %s: unknown real type %q", t.Name, t.Real)
		}
		parts := 1
		if t.Complex {
			parts = 2
		}
		if t.Size != parts*r.Size {
			return nil, fmt.Errorf("type %s: size %d is not %d × %d (%s)", t.Name, t.Size, parts, r.Size, r.Name)
		}
		if t.Short == "" || strings.ToUpper(t.Short[:1]) != t.Short[:1] {
			return nil, fmt.Errorf("type %s: Short %q must start with an upper-case letter", t.Name, t.Short)
		}
		key := t.Name
		if names[key] || shorts[t.Short] {
			return nil, fmt.Errorf("type %s: name or short name %q used twice", t.Name, t.Short)
		}
		names[key], shorts[t.Short] = true, true
		out = append(out, elem{Type: t, R: r.Name, Z: r.Size})
	}
	return out, nil
}

// T is the element type as generated code spells it.
func (e elem) T() *jen.Statement {
	if e.Pkg == "" {
		return jen.Id(e.Name)
	}
	return jen.Qual(e.Pkg, e.Name)
}

// suffixed is a generated identifier of this element type: "pack" → "packF32".
func (e elem) suffixed(stem string) string { return stem + e.Short }

// file is the stem of this type's file names: "f32", "c128".
func (e elem) file() string { return strings.ToLower(e.Short) }
