package spec

import (
	"fmt"
	"strings"
)

// ISA names, from the most capable down. TCONTRACT_ISA accepts these names.
const (
	AVX512  = "avx512"
	AVX2    = "avx2"
	NEON    = "neon"
	Generic = "generic"
)

// ISA describes one instruction-set path.
type ISA struct {
	Name string
	// Arch is the GOARCH its assembly is built for ("" for the pure-Go path,
	// which builds everywhere).
	Arch string
	// VecBytes is the width of one vector register (0 for scalar Go).
	VecBytes int
	// VecRegs is how many vector (or, for scalar Go, floating-point)
	// registers code on this path can keep values in: AVX2 has only Y0–Y15
	// (Y16+ need AVX-512VL), and Go on amd64 keeps X15 zero.
	VecRegs int
}

// PeakAccs is how many accumulators the ISA's peak probe keeps:
// PeakAccumulators, or fewer where the register file cannot hold them next
// to the two multiplicands.
func (i ISA) PeakAccs() int {
	return min(PeakAccumulators, i.VecRegs-2)
}

// Lanes is how many reals of size bytes one vector holds (1 for scalar Go).
func (i ISA) Lanes(size int) int {
	if i.VecBytes == 0 {
		return 1
	}
	return i.VecBytes / size
}

// ISAs lists every instruction-set path, the most capable first.
var ISAs = []ISA{
	{Name: AVX512, Arch: "amd64", VecBytes: 64, VecRegs: 32},
	{Name: AVX2, Arch: "amd64", VecBytes: 32, VecRegs: 16},
	{Name: NEON, Arch: "arm64", VecBytes: 16, VecRegs: 32},
	{Name: Generic, VecRegs: 14},
}

// PeakAccumulators is how many independent FMA chains the peak probe keeps in
// flight: fewer than 12 does not reach peak on the machines measured.
const PeakAccumulators = 24

// The row-map kernels' contract (docs/internals.md), shared by their
// generator and the registry: RowMapWords int64 words per vector of a tile
// column (the byte offsets of its low and high run, their lane masks), and
// RunsAhead, how many slivers of columns ahead the half-map kernel (AVX2)
// prefetches C's lines (it reads cols[RunsAhead·NR+j], j < NR, besides its
// own columns; the AVX-512 row-map kernel prefetches the next sliver's
// rows instead).
const (
	RowMapWords = 4
	RunsAhead   = 3
)

// Kernel is one row of the kernel table: a GEMM micro-kernel for one ISA and
// one real type, with the blocksizes the driver starts from.
//
// The kernel computes C := alpha·Ã·B̃ + beta·C for one MR×NR tile from packed
// slivers: Ã holds MR consecutive rows for each of k steps, B̃ NR consecutive
// columns for each step. MR is the vector direction: C's columns live in
// registers. MC, KC and NC are defaults in real elements; the runtime derives
// its own from the cache sizes and keeps MC a multiple of MR and NC of NR.
type Kernel struct {
	ISA    string
	Real   string // a name in Reals
	MR, NR int
	// Unroll is how many k steps one trip of the kernel's main loop does.
	Unroll int
	// PrefetchA and PrefetchB are how far ahead, in bytes, the main loop
	// prefetches the packed slivers (0: no prefetch).
	PrefetchA, PrefetchB int
	MC, KC, NC           int
}

// Kernels is the kernel table. Every row is emitted by the generator of its
// ISA (asm/avx512, asm/avx2, asm/neon) with a pure-Go twin (gen/kernels);
// the generic rows have only the pure-Go form. The first row of an ISA and
// real type is its kernel; later rows are shorter tiles the runtime takes
// when C's fastest dim is too short to fill the first one (a tensor of
// small extents), where a tile straddling two runs would be irregular.
var Kernels = []Kernel{
	{ISA: AVX512, Real: "float32", MR: 64, NR: 6, Unroll: 4, PrefetchA: 1024, PrefetchB: 384, MC: 320, KC: 384, NC: 4092},
	{ISA: AVX512, Real: "float64", MR: 32, NR: 6, Unroll: 4, PrefetchA: 1024, PrefetchB: 384, MC: 160, KC: 384, NC: 4092},
	{ISA: AVX512, Real: "float32", MR: 32, NR: 6, Unroll: 4, PrefetchA: 1024, PrefetchB: 384, MC: 320, KC: 384, NC: 4092},
	{ISA: AVX512, Real: "float32", MR: 48, NR: 6, Unroll: 4, PrefetchA: 1024, PrefetchB: 384, MC: 336, KC: 384, NC: 4092},
	{ISA: AVX512, Real: "float64", MR: 16, NR: 6, Unroll: 4, PrefetchA: 1024, PrefetchB: 384, MC: 160, KC: 384, NC: 4092},
	{ISA: AVX512, Real: "float64", MR: 24, NR: 6, Unroll: 4, PrefetchA: 1024, PrefetchB: 384, MC: 168, KC: 384, NC: 4092},
	{ISA: AVX2, Real: "float32", MR: 16, NR: 6, Unroll: 4, PrefetchA: 512, PrefetchB: 192, MC: 288, KC: 384, NC: 4092},
	{ISA: AVX2, Real: "float32", MR: 24, NR: 3, Unroll: 4, PrefetchA: 512, PrefetchB: 96, MC: 288, KC: 384, NC: 4092},
	{ISA: AVX2, Real: "float64", MR: 8, NR: 6, Unroll: 4, PrefetchA: 256, PrefetchB: 192, MC: 144, KC: 384, NC: 4092},
	{ISA: NEON, Real: "float32", MR: 8, NR: 12, Unroll: 4, PrefetchA: 256, PrefetchB: 384, MC: 256, KC: 384, NC: 4092},
	{ISA: NEON, Real: "float64", MR: 8, NR: 6, Unroll: 4, PrefetchA: 256, PrefetchB: 192, MC: 128, KC: 384, NC: 4092},
	{ISA: Generic, Real: "float32", MR: 4, NR: 4, Unroll: 1, MC: 256, KC: 256, NC: 4096},
	{ISA: Generic, Real: "float64", MR: 4, NR: 4, Unroll: 1, MC: 128, KC: 256, NC: 4096},
}

// Name is the kernel's identity in file and function names:
// "gemm_f32_32x12_avx512".
func (k Kernel) Name() string {
	r, _ := RealByName(k.Real)
	return fmt.Sprintf("gemm_%s_%dx%d_%s", r.Short, k.MR, k.NR, k.ISA)
}

// Func is the name of one of the row's functions, of the family that
// takes Name's "gemm" place: Func("tiles") is "tiles_f32_32x12_avx512",
// Func("packa") its A packer. The kernel generators (asm) and the registry
// generator (gen/kernels) both name functions through it, so that the two
// modules cannot disagree.
func (k Kernel) Func(family string) string {
	return family + strings.TrimPrefix(k.Name(), "gemm")
}

// KernelsFor returns the rows of one ISA, in table order.
func KernelsFor(isa string) []Kernel {
	var out []Kernel
	for _, k := range Kernels {
		if k.ISA == isa {
			out = append(out, k)
		}
	}
	return out
}

// KernelFor returns the kernel of one ISA and real type: its first row.
func KernelFor(isa, real string) (Kernel, bool) {
	for _, k := range Kernels {
		if k.ISA == isa && k.Real == real {
			return k, true
		}
	}
	return Kernel{}, false
}

// ISAByName returns the ISA row named name.
func ISAByName(name string) (ISA, bool) {
	for _, i := range ISAs {
		if i.Name == name {
			return i, true
		}
	}
	return ISA{}, false
}
