package runtime

import (
	"math/bits"
	"unsafe"

	"github.com/tcontract/tcontract/generated/kernels"
)

// typedPack is the typed packer of one side (typed.Ops.PackA or PackB).
type typedPack = func(dst, src *byte, w, n, kc int, off, bs, k []int64, kStride int64, alpha *byte)

// gatherSteps is how many depth steps gatherSlivers packs across all of
// a window's slivers before it moves on to the next steps, when a sliver's
// lines (one a row and step) would fill half the L2 (gatherBytes). Slivers
// that follow one another often read the same lines: TCCG abcd-aebf-fdec
// keys M by C's run of d (84 rows at float32, which no tile height
// divides, so not cut for the cross packer), and each of B's lines holds
// 16 values of c, the next dim, read by the block's 4 slivers of one
// value each. A sliver at a time, each read its lines again after the
// sliver before had read 384 steps of 48 rows (1.2 MB of lines, past
// L2); 8 steps at a time they stay in L1 from one sliver to the next.
// TCCG abcd-aebf-fdec at float32 ran 1.1-1.3 times as fast on one thread
// and 1.1-1.2 on two (the typed packing took 11% of its time instead of
// 18%); at float64 1.05-1.2 in one comparison, within the noise in two
// others. At the ccsd_t cases' depth of 24 a sliver's lines stay in L2
// anyway, and packed in ranges (B's panels too) they gained nothing.
const gatherSteps = 8

// gatherBytes is the size of a sliver's lines from which gatherSlivers
// packs gatherSteps at a time (a test lowers it).
var gatherBytes = func() int { return Caches().L2 / 2 }

// packSlivers packs slivers [s0, s1) in runs of like slivers: those the
// assembly packer pk is fast for (fastRuns) through it; each of the others
// through special(s) when it reports that it took the sliver, else through
// the typed packer typed, in windows of up to 64 such slivers
// (gatherSlivers). A sliver straddling two runs of its group has no single
// step and is gathered, but its block's other slivers need not be.
func (c *call) packSlivers(pk kernels.PackFunc, typed typedPack, dst []byte, base unsafe.Pointer, t tiling, n, s0, s1, sliver, w int, off, bs, k []int64, kStride int64, alpha *byte, special func(s int) bool) {
	// Each sliver whole, unless its lines are too many to stay in L2 until
	// the next one reads them: then slivers win+i, for each bit i of mask,
	// wait to be packed together.
	ranges := w*len(k)*lineBytes >= gatherBytes()
	win, mask := s0, uint64(0)
	for s := s0; s < s1; {
		e := s
		for e < s1 && fastRuns(bs[e:e+1], k, kStride) {
			e++
		}
		if e > s {
			c.packRuns(pk, dst, base, t, n, s, e, sliver, w, off, bs, k, kStride)
			s = e
			continue
		}
		if special(s) {
			s++
			continue
		}
		if !ranges {
			c.gatherSlivers(typed, dst, base, t, n, sliver, w, off, bs, k, kStride, alpha, s, 1)
			s++
			continue
		}
		if s-win >= 64 {
			c.gatherSlivers(typed, dst, base, t, n, sliver, w, off, bs, k, kStride, alpha, win, mask)
			mask = 0
		}
		if mask == 0 {
			win = s
		}
		mask |= 1 << (s - win)
		s++
	}
	c.gatherSlivers(typed, dst, base, t, n, sliver, w, off, bs, k, kStride, alpha, win, mask)
}

// gatherSlivers packs slivers win+i, for each bit i of mask, through the
// typed packer: a single one whole, several gatherSteps of depth at a time
// across all of them.
func (c *call) gatherSlivers(typed typedPack, dst []byte, base unsafe.Pointer, t tiling, n, sliver, w int, off, bs, k []int64, kStride int64, alpha *byte, win int, mask uint64) {
	if mask == 0 {
		return
	}
	kc := len(k)
	steps := gatherSteps
	if mask&(mask-1) == 0 {
		steps = kc // one sliver: no lines to share
	}
	for p0 := 0; p0 < kc; p0 += steps {
		p1 := min(kc, p0+steps)
		for m := mask; m != 0; m &= m - 1 {
			s := win + bits.TrailingZeros64(m)
			i, rows := t.span(s, n)
			typed(&dst[s*sliver+p0*c.cf*w*c.rsize], (*byte)(base), w, rows, p1-p0,
				off[i:i+rows], bs[s:s+1], k[p0:p1], kStride, alpha)
		}
	}
}
