package runtime

import (
	"fmt"
	"testing"
	"unsafe"

	"github.com/tcontract/tcontract/generated/typed"
)

// The driver packs a block whose slivers straddle runs of their group (rows
// in two or more pieces) beside slivers it packs in assembly, and a sliver
// of pieces too short to copy, exactly as a plain gather would: every row
// of every sliver, padding rows zero, for A and B, each real type, unit and
// strided depth, a block of a few slivers and one of more than the 64 that
// packSlivers gathers together, each sliver whole and (gatherBytes
// lowered) the depth in ranges of gatherSteps.
func TestDriverPacksPieces(t *testing.T) {
	for _, name := range []string{"float32", "float64"} {
		ops := typed.OpsByName(name)
		for _, sideB := range []bool{false, true} {
			for _, run := range []int{20, 3, 45} {
				for _, kStep := range []int64{1, 37} {
					for _, slivers := range []int{3, 70} {
						for _, ranges := range []bool{false, true} {
							t.Run(fmt.Sprintf("%s/B=%v/run%d/k%d/s%d/ranges=%v", name, sideB, run, kStep, slivers, ranges), func(t *testing.T) {
								if ranges {
									defer func(f func() int) { gatherBytes = f }(gatherBytes)
									gatherBytes = func() int { return 0 }
								}
								checkDriverPack(t, ops, sideB, run, kStep, slivers)
							})
						}
					}
				}
			}
		}
	}
}

func checkDriverPack(t *testing.T, ops *typed.Ops, sideB bool, run int, kStep int64, full int) {
	c := &call{ops: ops}
	c.mainKern, c.mainFn = KernelFor(ops.Type.Real)
	c.kern, c.fn = c.mainKern, c.mainFn
	c.tsize, c.rsize, c.cf = ops.Type.Size, ops.RealSize, 1
	c.mrR, c.nrR = c.kern.MR, c.kern.NR
	w := c.mrR
	if sideB {
		w = c.nrR
	}
	// n rows in runs of run adjacent elements, runs 1000 apart; kc depth
	// steps kStep apart (1: the rows' elements transposed, else strided).
	n, kc := full*w+5, 2*gatherSteps+3
	off := make([]int64, n)
	for i := range off {
		off[i] = int64(i/run*1000 + i%run)
	}
	k := make([]int64, kc)
	for p := range k {
		k[p] = int64(p) * kStep * 2000
		if kStep == 1 {
			k[p] = int64(p) * 50000
		}
	}
	srcLen := int(off[n-1]+k[kc-1]) + 1
	src := make([]byte, srcLen*c.tsize)
	for i := range src {
		src[i] = byte(i*7 + 3)
	}
	c.blk = typed.Blocking{MR: c.mrR, NR: c.nrR, MC: n, KC: kc, NC: n}
	c.tileM, c.tileN = plainTiling(c.mrR), plainTiling(c.nrR)
	slivers := ceilDiv(n, w)
	bs := make([]int64, slivers)
	if sideB {
		c.tileN.steps(bs, off)
	} else {
		c.tileM.steps(bs, off)
	}
	sliver := w * kc * c.tsize
	dst := make([]byte, slivers*sliver)
	for i := range dst {
		dst[i] = 0xee
	}
	base := unsafe.Pointer(&src[0])
	if sideB {
		c.packB(dst, base, &scatter{bCol: off, bColBS: bs}, k, 0, slivers, n, kc)
	} else {
		c.packA(dst, base, &scatter{aRow: off, aRowBS: bs}, k, uniformStep(k), n, kc)
	}
	for s := 0; s < slivers; s++ {
		for p := 0; p < kc; p++ {
			for i := 0; i < w; i++ {
				got := dst[s*sliver+(p*w+i)*c.tsize:][:c.tsize]
				want := make([]byte, c.tsize)
				if r := s*w + i; r < n {
					copy(want, src[int(off[r]+k[p])*c.tsize:])
				}
				if string(got) != string(want) {
					t.Fatalf("sliver %d step %d row %d: % x, want % x", s, p, i, got, want)
				}
			}
		}
	}
}
