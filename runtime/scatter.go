package runtime

// Block-scatter vectors (design §3). A group of dims with extents ext[d] and
// strides stride[d] (dim 0 varies fastest) maps a linear index to an element
// offset; packing and write-back read an operand's rows or columns through a
// window of that map, plus a per-block stride that lets them take a strided
// fast path where the offsets of a block are evenly spaced.

// maxGroupRank bounds the dims of one group that Offsets walks without
// allocating. Labels are ASCII letters, so no group has more than 52 dims.
const maxGroupRank = 64

// Offsets sets dst[t] to the element offset of linear index start+t of the
// group (ext, stride), for every t < len(dst). The window must lie inside the
// group: start >= 0 and start+len(dst) <= the product of ext. A group without
// dims has one element, at offset 0.
//
// Only start is decomposed by division; every later offset follows from the
// previous one like an odometer, so the cost is one addition per element plus
// a carry at the end of each run of dim 0.
func Offsets(dst []int64, ext, stride []int, start int) {
	if len(dst) == 0 {
		return
	}
	// The coordinates live in an array sized to the group: Go zeroes it on
	// every call, and 512 bytes of it took a quarter of a call over a
	// window of 32 (16.7 ns, 12.4 without).
	switch rank := len(ext); {
	case rank == 0:
		clear(dst)
	case rank == 1:
		// A window of one dim is evenly spaced.
		s := int64(stride[0])
		off := int64(start) * s
		for i := range dst {
			dst[i] = off
			off += s
		}
	case rank <= smallGroupRank:
		var buf [smallGroupRank]int
		offsetsFrom(dst, ext, stride, start, buf[:rank])
	case rank <= maxGroupRank:
		var buf [maxGroupRank]int
		offsetsFrom(dst, ext, stride, start, buf[:rank])
	default:
		offsetsFrom(dst, ext, stride, start, make([]int, rank))
	}
}

// smallGroupRank bounds the groups whose coordinates Offsets keeps in a
// small array.
const smallGroupRank = 8

// offsetsFrom is Offsets over a group of at least one dim, with coord
// (one entry per dim) to count in.
func offsetsFrom(dst []int64, ext, stride []int, start int, coord []int) {
	rank := len(ext)
	var off int64
	rest := start
	for d := 0; d < rank; d++ {
		c := rest % ext[d]
		rest /= ext[d]
		coord[d] = c
		off += int64(c) * int64(stride[d])
	}
	e0, s0 := ext[0], int64(stride[0])
	c0 := coord[0]
	t := 0
	for {
		// One run along dim 0, from its current coordinate to its end or to
		// the end of the window.
		run := min(e0-c0, len(dst)-t)
		w := dst[t : t+run]
		for i := range w {
			w[i] = off
			off += s0
		}
		t += run
		if t == len(dst) {
			return
		}
		// Carry: dim 0 wrapped to 0; advance the next dim that does not wrap.
		off -= int64(e0) * s0
		c0 = 0
		for d := 1; d < rank; d++ {
			sd := int64(stride[d])
			coord[d]++
			off += sd
			if coord[d] < ext[d] {
				break
			}
			off -= int64(ext[d]) * sd
			coord[d] = 0
		}
	}
}

// BlockStrides sets dst[b] to the step of block b, the block being off[b*block
// : (b+1)*block] (the last one may be shorter): the common difference of
// consecutive offsets when they are evenly spaced with a non-zero step, 0 when
// they are not (a block whose offsets are all equal included), and 1 for a
// block of one element, which any step describes. It fills
// min(len(dst), ceil(len(off)/block)) entries.
func BlockStrides(dst []int64, off []int64, block int) {
	if block <= 0 {
		return
	}
	for b := range dst {
		lo := b * block
		if lo >= len(off) {
			return
		}
		blk := off[lo:min(lo+block, len(off))]
		if len(blk) == 1 {
			dst[b] = 1
			continue
		}
		step := blk[1] - blk[0]
		for i := 2; i < len(blk) && step != 0; i++ {
			if blk[i]-blk[i-1] != step {
				step = 0
			}
		}
		dst[b] = step
	}
}
