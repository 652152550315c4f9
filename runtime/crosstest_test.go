package runtime

import (
	"unsafe"

	"github.com/tcontract/tcontract/generated/kernels"
	"github.com/tcontract/tcontract/generated/typed"
)

// crossPacking is a packA call on a copy of kernel row whose PackX (the
// pure-Go twin) counts its calls and the slivers (or depth runs) they
// pack, and keeps each call's destination, depth and ahead; PackA is the
// twin where the build has no assembly.
type crossPacking struct {
	c            *call
	calls, lanes int
	made         []packXCall
}

type packXCall struct {
	dst             *byte
	k, kStep, ahead int
}

func newCrossPacking(row *kernels.Kernel, ops *typed.Ops, size int) *crossPacking {
	x := &crossPacking{}
	k := *row
	if k.PackA == nil {
		k.PackA = row.PackAGo // no assembly in this build: the twin
	}
	k.PackX = func(dst, src *byte, n, rows, kk, rowStep, kStep, sliverStep, ahead int) {
		x.calls++
		x.lanes += n
		x.made = append(x.made, packXCall{dst, kk, kStep, ahead})
		row.PackXGo(dst, src, n, rows, kk, rowStep, kStep, sliverStep, ahead)
	}
	mr := row.MR
	x.c = &call{choice: choice{kern: &k, tileM: plainTiling(mr), mrR: mr}, cf: 1, tsize: size, rsize: size, ops: ops}
	x.c.blk.MR = mr
	return x
}

// packCompare packs the MC block of mc rows at sc's row offsets over the
// depth offsets kA from src into dst through x's call, and compares it
// with a plain gather (zeros past a sliver's rows). It returns the first
// element that differs, as sliver s, row i and step p, or ok.
func packCompare[T real](x *crossPacking, dst, src []T, sc *scatter, kA []int64, mc int) (s, i, p int, got, want T, ok bool) {
	c, tl, mr := x.c, x.c.tileM, x.c.mrR
	size := int(unsafe.Sizeof(T(0)))
	kc := len(kA)
	c.packA(unsafe.Slice((*byte)(unsafe.Pointer(&dst[0])), size*len(dst)), unsafe.Pointer(&src[0]), sc, kA, uniformStep(kA), mc, kc)
	for s = 0; s < tl.count(mc); s++ {
		i0, rows := tl.span(s, mc)
		for p = 0; p < kc; p++ {
			for i = 0; i < mr; i++ {
				want = 0
				if i < rows {
					want = src[sc.aRow[i0+i]+kA[p]]
				}
				if got = dst[(s*kc+p)*mr+i]; got != want {
					return s, i, p, got, want, false
				}
			}
		}
	}
	return 0, 0, 0, 0, 0, true
}
