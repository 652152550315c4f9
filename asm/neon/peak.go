package main

import (
	"fmt"

	"github.com/tcontract/tcontract/internal/spec"
)

// peakName is the probe's function name: "peak_f32_neon".
func peakName(r spec.Real) string { return fmt.Sprintf("peak_%s_%s", r.Short, spec.NEON) }

// peak emits the FMA-throughput probe of one real type: each iteration runs
// spec.PeakAccumulators independent vector FMLAs, so the chains never wait on
// each other and the loop runs at the core's FMA issue rate. The registry
// counts 2·PeakAccs()·lanes flops per iteration from the same table.
func peak(r spec.Real) ([]byte, error) {
	arr, err := arrangementFor(r.Size)
	if err != nil {
		return nil, err
	}
	isa := neonISA()
	n := isa.PeakAccs()
	first := isa.VecRegs - n
	if first < 2 {
		return nil, fmt.Errorf("%s: %d accumulators leave no source registers", peakName(r), n)
	}
	a := arr.goArr
	w := &asmWriter{}
	w.raw("%s\n//go:build !purego\n\n#include \"textflag.h\"\n\n", header)
	w.raw("// func %s(iters int)\n", peakName(r))
	w.raw("//\n// Each iteration does %d FMLA.%s into V%d–V%d: %d flops.\n", n, arr.gnu, first, isa.VecRegs-1, n*arr.lanes*2)
	w.raw("TEXT ·%s(SB), NOSPLIT, $0-8\n", peakName(r))
	w.ins("MOVD iters+0(FP), R0")
	for _, v := range append([]int{0, 1}, seq(first, isa.VecRegs)...) {
		w.ins("VEOR V%d.B16, V%d.B16, V%d.B16", v, v, v)
	}
	w.ins("CMP $0, R0")
	w.ins("BLE done")
	w.label("loop")
	for v := first; v < isa.VecRegs; v++ {
		w.ins("VFMLA V0.%s, V1.%s, V%d.%s", a, a, v, a)
	}
	w.ins("SUBS $1, R0, R0")
	w.ins("BNE loop")
	w.label("done")
	w.ins("RET")
	return w.b.Bytes(), nil
}

func seq(from, to int) []int {
	var s []int
	for i := from; i < to; i++ {
		s = append(s, i)
	}
	return s
}
