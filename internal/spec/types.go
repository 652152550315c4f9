package spec

// Type is one row of the element-type table.
type Type struct {
	// Name is the Go type as the public API spells it ("complex64"): a
	// predeclared type, or a type declared in package Pkg.
	Name string
	// Pkg is the import path of the package that declares Name; empty for a
	// predeclared type. Generated code stores and computes through the type's
	// memory layout (one Real, or a real and an imaginary Real), so any type
	// with that layout can be a row.
	Pkg string
	// Short is the suffix generated identifiers use for this type ("C64").
	Short string
	// Size is the size of one element in bytes.
	Size int
	// Complex types are stored as (real, imaginary) pairs of Real and are
	// computed on Real's kernels through the 1m induced method.
	Complex bool
	// Real is the real type this type's kernels compute in ("float32").
	Real string
	// Tol is the relative tolerance of a result against a plain-loop
	// reference, per term summed: tests accept |got-want| <= Tol·(terms+1)·scale.
	Tol float64
}

// Types is the element-type table, in the order generated switches list them.
var Types = []Type{
	{Name: "float32", Short: "F32", Size: 4, Real: "float32", Tol: 2e-6},
	{Name: "float64", Short: "F64", Size: 8, Real: "float64", Tol: 4e-15},
	{Name: "complex64", Short: "C64", Size: 8, Complex: true, Real: "float32", Tol: 2e-6},
	{Name: "complex128", Short: "C128", Size: 16, Complex: true, Real: "float64", Tol: 4e-15},
}

// Real is one real type the kernels compute in.
type Real struct {
	Name  string // Go type ("float32")
	Short string // suffix in generated names ("f32")
	Size  int    // bytes
}

// Reals lists the real types the kernel table may name.
var Reals = []Real{
	{Name: "float32", Short: "f32", Size: 4},
	{Name: "float64", Short: "f64", Size: 8},
}

// TypeByName returns the row of the type table named name.
func TypeByName(name string) (Type, bool) {
	for _, t := range Types {
		if t.Name == name {
			return t, true
		}
	}
	return Type{}, false
}

// RealByName returns the real type named name.
func RealByName(name string) (Real, bool) {
	for _, r := range Reals {
		if r.Name == name {
			return r, true
		}
	}
	return Real{}, false
}
