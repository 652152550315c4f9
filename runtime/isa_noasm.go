//go:build purego || !(amd64 || arm64)

package runtime

// asmBuild is false: this build runs the pure-Go kernels only.
const asmBuild = false
