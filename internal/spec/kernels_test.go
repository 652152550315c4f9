package spec

import "testing"

func TestKernelNames(t *testing.T) {
	k := Kernel{ISA: AVX512, Real: "float32", MR: 64, NR: 6}
	if got, want := k.Name(), "gemm_f32_64x6_avx512"; got != want {
		t.Errorf("Name() = %q, want %q", got, want)
	}
	for family, want := range map[string]string{
		"gemm":   "gemm_f32_64x6_avx512",
		"tiles":  "tiles_f32_64x6_avx512",
		"packx":  "packx_f32_64x6_avx512",
		"stream": "stream_f32_64x6_avx512",
	} {
		if got := k.Func(family); got != want {
			t.Errorf("Func(%q) = %q, want %q", family, got, want)
		}
	}
	// Every row names its functions apart from every other row's.
	seen := map[string]bool{}
	for _, r := range Kernels {
		if seen[r.Func("tiles")] {
			t.Errorf("two rows named %s", r.Func("tiles"))
		}
		seen[r.Func("tiles")] = true
	}
}
