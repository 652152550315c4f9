package runtime

import (
	"testing"

	"github.com/tcontract/tcontract/generated/kernels"
)

func kernelNamed(t *testing.T, name string) *kernels.Kernel {
	t.Helper()
	for i := range kernels.Kernels {
		if k := &kernels.Kernels[i]; k.Name == name {
			return k
		}
	}
	t.Fatalf("no kernel %s", name)
	return nil
}

// rowGroup is an M group of C-adjacent runs: extents ext, C strides cs, A
// strides as (none of them 1, so no packing gather is weighed).
func rowGroup(ext, cs, as []int) *Group {
	g := &Group{Size: 1}
	for i, e := range ext {
		var d Dim
		d.Ext, d.S[opC], d.S[opA] = e, cs[i], as[i]
		g.Dims = append(g.Dims, d)
		g.Size *= e
	}
	return g
}

// shortTile weighs each tile's own overhead and how far apart the runs that
// straddling tiles write lie. The expectations are the tiles measured
// fastest on TCCG's ccsd_t shapes (depth 24): the float32 48-row tile on
// runs of 480 that lie pages apart (ten a run, where the 64-row tile
// straddles one in 7.5), the tallest on runs of 20, the float64 16-row
// tile on runs of 16 that lie pages apart, the 32-row one on runs 2 KB
// apart; and the first row at full depth, the 32-row float32 tile for an
// M of 24.
func TestShortTileWeighsTileCalls(t *testing.T) {
	f32 := kernelNamed(t, "gemm_f32_64x6_avx512")
	f64 := kernelNamed(t, "gemm_f64_32x6_avx512")
	if f32.Runs == nil || f64.Runs == nil {
		t.Skip("this build has no x86 assembly, so no row-map kernels")
	}
	for _, tc := range []struct {
		name     string
		k        *kernels.Kernel
		g        *Group
		size, kc int
		wantRows int
	}{
		{"f32 efga-gdbc", f32, rowGroup([]int{480, 24}, []int{1, 3840000}, []int{576, 1}), 4, 24, 48},
		{"f32 efgc-gdab", f32, rowGroup([]int{480, 20}, []int{1, 9600}, []int{480, 1}), 4, 24, 48},
		{"f32 dega-gfbc", f32, rowGroup([]int{20, 400}, []int{1, 9600}, []int{400, 2}), 4, 24, 64},
		{"f32 short M", f32, rowGroup([]int{24}, []int{1}, []int{7}), 4, 384, 32},
		{"f32 deep", f32, rowGroup([]int{1536}, []int{1}, []int{7}), 4, 384, 64},
		{"f64 dega-gfbc", f64, rowGroup([]int{16, 256}, []int{1, 6144}, []int{256, 2}), 8, 24, 16},
		{"f64 degc-gfab", f64, rowGroup([]int{16, 384}, []int{1, 98304}, []int{384, 2}), 8, 24, 16},
		{"f64 dfgb-geac", f64, rowGroup([]int{16, 24, 16}, []int{1, 256, 98304}, []int{384, 6144, 2}), 8, 24, 32},
		{"f64 efgc-gdab", f64, rowGroup([]int{384, 16}, []int{1, 6144}, []int{384, 1}), 8, 24, 32},
	} {
		o := runCosts{depth: tc.kc, realSize: tc.size, pack: opA, across: 6, reuse: 1000, cf: 1, rows: true}
		if got := shortTile(tc.g, tc.k, 1, o); got.MR != tc.wantRows {
			t.Errorf("%s: %d-row tile, want %d", tc.name, got.MR, tc.wantRows)
		}
	}
}
