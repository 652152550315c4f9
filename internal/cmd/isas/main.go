// Command isas prints the instruction-set paths this machine and build can
// run, best first, one per line. The Makefile runs the tests once per path,
// forcing each with TCONTRACT_ISA.
package main

import (
	"fmt"

	"github.com/tcontract/tcontract/runtime"
)

func main() {
	for _, isa := range runtime.Available() {
		fmt.Println(isa)
	}
}
