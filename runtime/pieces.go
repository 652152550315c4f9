package runtime

import "unsafe"

// Slivers made of a few pieces.
//
// A sliver that straddles two runs of its group (rows i..e0-1 of one run,
// 0..j of the next) has no single row step, so the assembly packers, which
// take one, cannot pack it, and gathering it element by element costs
// several times what the rest of its block does (TCCG's abc-adc-bd at
// float64 on 32-row tiles: 8% of the call for a tenth of the slivers).
// Each piece is still a run of adjacent elements, so each step of the
// sliver is a copy per piece.

// minPiece is the shortest average piece copied as one: below it, a copy
// per piece costs more than gathering its elements.
const minPiece = 4

// maxPieces bounds the pieces of a sliver copied piecewise: rows/minPiece
// for the tallest tile (64 rows).
const maxPieces = 16

// copyPieces packs a sliver of real elements whose rows (off, in elements
// from base) are a few runs of adjacent elements, w reals to a step: step
// p of the run of rows [i0, i1) is the bytes from off[i0]+k[p], and rows
// past len(off) are zero. It reports false, packing nothing, when the
// runs are too many or too short.
func (c *call) copyPieces(dst []byte, base unsafe.Pointer, off, k []int64, w int) bool {
	rows := len(off)
	var starts [maxPieces + 1]int
	n := 0
	for i := 0; i < rows; i++ {
		if i == 0 || off[i] != off[i-1]+1 {
			if n == maxPieces {
				return false
			}
			starts[n] = i
			n++
		}
	}
	if n*minPiece > rows {
		return false
	}
	starts[n] = rows
	size := int64(c.tsize)
	step := w * c.tsize
	for p, kp := range k {
		d := dst[p*step : (p+1)*step]
		for r := 0; r < n; r++ {
			i0, i1 := starts[r], starts[r+1]
			src := unsafe.Slice((*byte)(unsafe.Add(base, (off[i0]+kp)*size)), (i1-i0)*c.tsize)
			copy(d[i0*c.tsize:], src)
		}
		clear(d[rows*c.tsize:])
	}
	return true
}
