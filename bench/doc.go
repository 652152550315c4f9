// Package bench compares tcontract with gonum's pure-Go BLAS in the same
// run. It is its own module so that gonum stays a benchmark-only dependency:
// the library's go.mod requires golang.org/x/sys alone.
package bench
