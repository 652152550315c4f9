package tcontract

// The generators, in the order they must run. Each is its own program in a
// nested module (asm/ requires avo, gen/ requires jennifer), so importers of
// this module never download them. `make generate` runs these lines.
//go:generate go run -C asm ./avx512 -out ../generated/kernels
//go:generate go run -C asm ./avx2 -out ../generated/kernels
//go:generate go run -C asm ./neon -out ../generated/kernels
//go:generate go run -C asm ./cpuid -out ../generated/cpu
//go:generate go run -C asm ./cachectl -out ../generated/cpu
//go:generate go run -C gen ./kernels -out ../generated/kernels
//go:generate go run -C gen ./typed -out ../generated/typed
