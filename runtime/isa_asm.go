//go:build !purego && (amd64 || arm64)

package runtime

// asmBuild is true when this build carries the assembly kernels of its
// architecture.
const asmBuild = true
