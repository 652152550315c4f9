//go:build purego || !amd64

package runtime

// cpuidCaches: without the CPUID instruction (other architectures, purego)
// the sizes come from sysfs or the defaults.
func cpuidCaches() (l1d, l2, l3 int, from string) { return 0, 0, 0, "cpuid" }
