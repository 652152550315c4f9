package runtime

// Fetching the next run of A on the tall direct path (directTall).
//
// The tall path reads A in place, a run of e0 rows at each depth step, and
// when those steps lie pages apart (TCCG's abcd-ebad-ce: 3 MB at float64)
// each step of a run is a few lines on a page of their own, which the
// hardware prefetchers do not follow. The kernel's own requests, eight
// steps ahead, come a few hundred cycles before the loads, less than
// memory takes to answer. So a member passes the direct kernel, as its
// argument ahead, the distance to the run it will compute tallAhead runs
// on, and the kernel's far loops request that run's lines into L2, one for
// each line they load, through the k loop of every column tile
// (docs/internals.md, "Direct kernels"). The requests are spread over the
// computation of the run: while the next run's lines come, this one's
// FMAs run.
//
// Before, the member requested those lines itself, a listed share of them
// before each column tile (each tile its own kernel call), in bursts that
// held the core's miss buffers: TCCG abcd-ebad-ce ran at 0.56–0.65 of its
// GEMM at float64 and 0.59–0.78 at float32 (1 and 2 threads, in turns),
// and with the requests in the kernel at 0.69–0.84 and 0.80–0.92.

// tallAheadBytes is how much of A a member has asked for ahead of the run
// it computes, at least one run. TCCG's abcd-ebad-ce ran 1.15–1.18 times
// as fast at float32 (runs of 32 KB, two ahead) and 1.12–1.15 at float64
// (41 KB, one ahead) on one and two threads than with nothing fetched;
// one or three runs ahead at float32 and two at float64 ran a few percent
// slower.
const tallAheadBytes = 64 << 10

// planTallAhead sets c.tallAhead, how many runs ahead a tall product's
// members fetch A (0: none): when the CPU can prefetch, A's depth steps
// are a page apart or more (nearer ones the hardware follows), and the
// run computed and the one fetched fit L2 together.
func (c *call) planTallAhead() {
	c.tallAhead = 0
	p := c.plan
	if !canPrefetch || !c.tall {
		return
	}
	e0 := p.M.Dims[0].Ext
	lda := p.K.Dims[0].S[opA]
	run := e0 * min(p.K.Size, directKC) * c.tsize
	if absInt(lda)*c.tsize < pageBytes || 2*run > Caches().L2 {
		return
	}
	c.tallAhead = max(1, tallAheadBytes/run)
}
