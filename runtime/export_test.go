package runtime

import (
	"unsafe"

	"github.com/tcontract/tcontract/generated/typed"
)

// DriverPack returns a function that packs, as a call of the driver does,
// an n×kc block of A (sideB false) or a kc×n panel of B of the named type
// from src into dst: through the kernel row's assembly packers where they
// take the block, else the typed packers. off and bs are the rows'
// (columns') element offsets and per-sliver steps, kOff the depth offsets
// and kStride their common step (0 if none). BenchmarkPack times it beside
// the typed packers alone.
func DriverPack(name string, sideB bool, dst []byte, src unsafe.Pointer, n, kc int, off, bs, kOff []int64, kStride int64) func() {
	ops := typed.OpsByName(name)
	c := &call{ops: ops}
	c.mainKern, c.mainFn = KernelFor(ops.Type.Real)
	c.kern, c.fn = c.mainKern, c.mainFn
	c.tsize, c.rsize, c.cf = ops.Type.Size, ops.RealSize, 1
	if ops.Type.Complex {
		c.cf = 2
	}
	c.mrR, c.nrR = c.kern.MR, c.kern.NR
	c.blk = typed.Blocking{MR: c.mrR / c.cf, NR: c.nrR, MC: n, KC: kc, NC: n}
	c.tileM, c.tileN = plainTiling(c.blk.MR), plainTiling(c.blk.NR)
	if sideB {
		sc := &scatter{bCol: off, bColBS: bs}
		slivers := c.tileN.count(n)
		return func() { c.packB(dst, src, sc, kOff, 0, slivers, n, kc) }
	}
	sc := &scatter{aRow: off, aRowBS: bs}
	return func() { c.packA(dst, src, sc, kOff, kStride, n, kc) }
}
