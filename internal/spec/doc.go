// Package spec holds the project's tables: the element types and the
// micro-kernels with their blocksizes. It is the one source of truth that the
// generators (asm/, gen/) and the runtime both read, so it is plain Go with no
// dependencies.
//
// Adding an element type is adding a row to Types and running
// `go generate ./...`; adding a kernel is adding a row to Kernels (and, for a
// new ISA, a generator that emits it).
package spec
