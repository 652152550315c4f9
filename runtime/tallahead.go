package runtime

import "unsafe"

// Fetching the next run of A on the tall direct path (directTall).
//
// The tall path reads A in place, a run of e0 rows at each depth step, and
// when those steps lie pages apart (TCCG's abcd-ebad-ce: 2.7 MB at
// float32) each step of a run is a few lines on a page of their own, which
// the hardware prefetchers do not follow. The kernel's own requests, eight
// steps ahead, come a few hundred cycles before the loads, less than
// memory takes to answer. So the member asks, into L2, for the lines of
// the run it will compute tallAhead.dist runs on, a share before each
// column tile (each column tile then its own kernel call): a burst of all
// of them at once would hold the core's miss buffers while the kernel's
// loads wait (ahead.go).

// tallAheadBytes is how much of A a member has asked for ahead of the run
// it computes, at least one run. TCCG's abcd-ebad-ce ran 1.15–1.18 times
// as fast at float32 (runs of 32 KB, two ahead) and 1.12–1.15 at float64
// (41 KB, one ahead) on one and two threads; one or three runs ahead at
// float32 and two at float64 ran a few percent slower.
const tallAheadBytes = 64 << 10

// tallAheadLines is the longest run, in lines, that is fetched ahead: the
// length of lineOffsets.
const tallAheadLines = 32

// lineOffsets are the offsets, in bytes, of a run's lines from its first
// element, whatever its alignment: a line apart (the first nLines of them,
// one more than the run's bytes need, are a run's).
var lineOffsets = func() (o [tallAheadLines]int64) {
	for i := range o {
		o[i] = int64(i * lineBytes)
	}
	return o
}()

// tallAhead is what directTall fetches ahead: how many of lineOffsets a
// run takes, the offsets of its depth steps in bytes, and how many runs
// ahead. dist 0: nothing is fetched. Set once per call, then only read by
// the members.
type tallAhead struct {
	steps       [directKC]int64
	nLines      int
	nSteps      int
	dist        int
	columnTiles int // the kernel calls, and shares, of a run
}

// planTallAhead fills c.tallAhead for a tall product: fetched when the CPU can
// prefetch, A's depth steps are a page apart or more (nearer ones the
// hardware follows), and a run is at most tallAheadLines lines.
func (c *call) planTallAhead() {
	t := &c.tallAhead
	t.dist = 0
	p := c.plan
	if !canPrefetch || !c.tall {
		return
	}
	e0 := p.M.Dims[0].Ext
	lda := p.K.Dims[0].S[opA]
	kc := min(p.K.Size, directKC)
	lines := ceilDiv(e0*c.tsize, lineBytes) + 1
	if absInt(lda)*c.tsize < pageBytes || lines > tallAheadLines {
		return
	}
	for i := range kc {
		t.steps[i] = int64(i * lda * c.tsize)
	}
	t.nLines, t.nSteps = lines, kc
	t.dist = max(1, tallAheadBytes/(e0*kc*c.tsize))
	t.columnTiles = ceilDiv(p.N.Size, c.kern.NR)
}

// fetch asks for share j of t.columnTiles of the lines of the run whose
// element at the step's depth is at run, over kc steps.
func (t *tallAhead) fetch(run unsafe.Pointer, j, kc int) {
	if k0, k1 := split(kc, t.columnTiles, j, 1); k0 < k1 {
		prefetchL2(run, t.lines(), t.steps[k0:k1])
	}
}

// lines are the offsets of a run's lines from its first element.
func (t *tallAhead) lines() []int64 { return lineOffsets[:t.nLines] }
