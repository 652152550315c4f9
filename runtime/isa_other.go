//go:build !amd64 && !arm64

package runtime

// cpuHas: other architectures have no assembly path.
func cpuHas(string) bool { return false }
