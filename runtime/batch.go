package runtime

// batchCursor walks a batch group's elements in order and keeps each
// operand's offset to the current one, an addition per operand a step and a
// carry at the end of each dim. Decomposing every index instead (offsetAt: a
// division per dim and operand) took 9% of the time of 16 batched float32
// 8×8×8 products.
type batchCursor struct {
	g     *Group
	off   [3]int
	coord [maxBatchCursorRank]int
}

// maxBatchCursorRank bounds the batch dims a cursor walks. A cursor is
// zeroed where it is declared, so it is kept small; a batch of more dims
// is decomposed index by index (the cursor's slow mode).
const maxBatchCursorRank = 8

// start places the cursor at batch element idx.
func (b *batchCursor) start(g *Group, idx int) {
	b.g = g
	if len(g.Ext) > maxBatchCursorRank {
		for o := 0; o < 3; o++ {
			b.off[o] = offsetAt(g.Ext, g.S[o], idx)
		}
		b.coord[0] = idx
		return
	}
	// One decomposition gives the coordinates and all three offsets.
	b.off = [3]int{}
	for d, e := range g.Ext {
		x := idx % e
		idx /= e
		b.coord[d] = x
		b.off[opA] += x * g.S[opA][d]
		b.off[opB] += x * g.S[opB][d]
		b.off[opC] += x * g.S[opC][d]
	}
}

// next moves the cursor to the following element. Past the group's last
// element the offsets are those of its first.
func (b *batchCursor) next() {
	g := b.g
	if len(g.Ext) > maxBatchCursorRank {
		b.coord[0]++
		for o := 0; o < 3; o++ {
			b.off[o] = offsetAt(g.Ext, g.S[o], b.coord[0])
		}
		return
	}
	for d, e := range g.Ext {
		b.off[opA] += g.S[opA][d]
		b.off[opB] += g.S[opB][d]
		b.off[opC] += g.S[opC][d]
		if b.coord[d]++; b.coord[d] < e {
			return
		}
		b.coord[d] = 0
		b.off[opA] -= e * g.S[opA][d]
		b.off[opB] -= e * g.S[opB][d]
		b.off[opC] -= e * g.S[opC][d]
	}
}

// nextRun moves the cursor from any element of a run of dim 0 to the first
// element of the next run: to the run's last element, then on as next
// moves. It walks a group of at least one dim.
func (b *batchCursor) nextRun() {
	g := b.g
	last := g.Ext[0] - 1
	if len(g.Ext) > maxBatchCursorRank {
		b.coord[0] += last - b.coord[0]%g.Ext[0]
	} else {
		for o := 0; o < 3; o++ {
			b.off[o] += (last - b.coord[0]) * g.S[o][0]
		}
		b.coord[0] = last
	}
	b.next()
}
