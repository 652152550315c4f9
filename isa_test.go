package tcontract_test

import (
	"os"
	"testing"

	tc "github.com/tcontract/tcontract"
)

// TestISAForced: the path TCONTRACT_ISA forces is the one the package
// runs. Reading the variable inside a test also makes go test's cache key
// on it: the path is chosen at package init, which the cache does not see,
// so a forced-path run could otherwise be answered from a cached run of
// another path.
func TestISAForced(t *testing.T) {
	env := os.Getenv("TCONTRACT_ISA")
	if err := tc.ISAError(); err != nil {
		t.Fatalf("TCONTRACT_ISA=%q: %v", env, err)
	}
	if env != "" && tc.ISA() != env {
		t.Fatalf("TCONTRACT_ISA=%q, but the path in use is %q", env, tc.ISA())
	}
}
