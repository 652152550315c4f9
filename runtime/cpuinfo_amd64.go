//go:build !purego

package runtime

import "github.com/tcontract/tcontract/generated/cpu"

// cpuidCaches reads the cache sizes through CPUID: the deterministic cache
// parameters (leaf 4 on Intel, 0x8000001D on AMD and Hygon with topology
// extensions), else AMD's legacy leaves 0x80000005/6.
func cpuidCaches() (l1d, l2, l3 int, from string) {
	return cpuidCachesWith(cpu.CPUID)
}
