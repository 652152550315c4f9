package runtime

// A round's units are MC blocks of A, each times a part of the panel's
// columns; the members take them in turn. Splitting the columns balances
// the team: 13 blocks on 2 threads leave one member computing the 13th
// while the other waits. But every member that takes a part of a block
// packs the whole block for itself. splitColumns weighs the two.

// splitColumns returns how many parts of the panel's columns a unit takes:
// cols (what gives each member a few units), or the team's size (at most
// most) when the team then finishes 1% sooner (teamTime). The estimate is
// rough: float64 4096³ on 2 threads, 0.4% sooner in halves by it, ran no
// measurably faster in them. float64 GEMM at 2048 on 2 threads, 13 blocks
// of 160 rows, ran at 101-102 GFLOP/s in whole blocks and 108-109 in
// halves; float32 at 4096 (13 blocks of 320) from 190-209 to 213-219. TCCG's abc-bda-dc, whose panels
// are 24 columns wide, ran 0.68 times as fast in halves. A block A holds
// with a unit step along neither its rows nor its depth (gathersA) is
// never split: its packing reads lines for a few elements each, and
// TCCG's abcd-aebf-fdec at float32, 21 such blocks, ran 0.9-0.95 times as
// fast in halves.
func (c *call) splitColumns(blocks, cols, most int) int {
	split := min(c.members, most)
	if split <= cols || gathersA(c.plan) {
		return cols
	}
	if c.teamTime(blocks, split) < 0.99*c.teamTime(blocks, cols) {
		return split
	}
	return cols
}

// teamTime is the time a team of c.members takes for a panel's units,
// blocks of MC rows (the last perhaps short) each in parts of its columns,
// relative to the kernel's time shared perfectly: the member with the most
// rows (unitSpan), plus its packing. Packing a block costs about a cycle
// an element where the assembly packers copy it, gatherCycles where some
// slivers straddle runs and are gathered, against the kernel's
// nc/(2·lanes) cycles (two FMA pipes of lanes reals) for each element's
// row of nc columns; a member that takes part of a block packs all of it.
func (c *call) teamTime(blocks, parts int) float64 {
	m := c.plan.M.Size
	span := unitSpan(blocks, m-(blocks-1)*c.blk.MC, c.blk.MC, parts, c.members)
	kernel := float64(span) / float64(parts) / (float64(m) / float64(c.members))
	pack := 1.0
	if straddles(&c.plan.M, c.tileM) {
		pack = gatherCycles // the straddling slivers are gathered
	}
	lanes := max(1, vecLanes(c.kern, c.rsize))
	nc := max(1, min(c.blk.NC, c.plan.N.Size))
	packed := float64(min(parts, c.members)) // members packing each block
	return kernel + packed*pack*float64(2*lanes)/float64(nc*c.cf)
}

// unitSpan is how many row parts the busiest of members computes when
// they take, in turn, blocks-1 blocks of mc rows and one of last rows, each
// in parts equal parts: the last block's parts go to the members that
// took the fewest.
func unitSpan(blocks, last, mc, parts, members int) int {
	full, short := (blocks-1)*parts, parts
	if last >= mc {
		full, short = full+parts, 0
	}
	q, r := full/members, full%members
	span := q * mc
	if r > 0 {
		span += mc
	}
	if short > 0 {
		idle := members - r // members with q blocks, at least one
		span = max(span, q*mc+ceilDiv(short, idle)*last)
	}
	return span
}
