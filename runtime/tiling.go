package runtime

// tiling maps slivers to the rows (or columns) of a group they hold. Plain
// tiling gives sliver s the rows [s·r, s·r+r). When the group's fastest dim
// has runs of e0 rows that a tile of r would straddle, aligned tiling
// restarts at every run: per = ⌈e0/r⌉ slivers to a run, the last of them
// short, so every tile lies inside one run and stays evenly spaced in C.
type tiling struct {
	r   int // rows of a full sliver
	e0  int // run length, or 0 for plain tiling
	per int // slivers per run
}

func plainTiling(r int) tiling { return tiling{r: r} }

func alignedTiling(r, e0 int) tiling { return tiling{r: r, e0: e0, per: ceilDiv(e0, r)} }

// aligned reports whether slivers restart at runs.
func (t tiling) aligned() bool { return t.e0 > 0 }

// count is how many slivers hold n rows (n a multiple of e0, or the
// group's last block).
func (t tiling) count(n int) int {
	if t.e0 == 0 {
		return ceilDiv(n, t.r)
	}
	return n/t.e0*t.per + ceilDiv(n%t.e0, t.r)
}

// span is the first row and the row count of sliver s among n rows.
func (t tiling) span(s, n int) (start, rows int) {
	if t.e0 == 0 {
		start = s * t.r
		return start, min(t.r, n-start)
	}
	run, sub := s/t.per, s%t.per
	start = run*t.e0 + sub*t.r
	return start, min(t.r, t.e0-sub*t.r, n-start)
}

// block is the unit block sizes are a multiple of: a tile, or a run.
func (t tiling) block() int {
	if t.e0 == 0 {
		return t.r
	}
	return t.e0
}

// slivers is how many slivers a block of n rows needs at most.
func (t tiling) slivers(n int) int { return t.count(n) }

// steps fills steps[s] with the common step of sliver s's offsets (0 when
// they are not evenly spaced, 1 for a single row), like BlockStrides.
func (t tiling) steps(steps, off []int64) {
	if t.e0 == 0 {
		BlockStrides(steps, off, t.r)
		return
	}
	n := len(off)
	for s := range steps {
		start, rows := t.span(s, n)
		steps[s] = uniformStep(off[start : start+rows])
	}
}

// stepsOf fills steps like steps, for the n rows of group g from row
// start along operand o's strides, without reading their offsets when
// every sliver lies within one run of g's first dim: plain tiling, a group
// of one dim or runs of whole tiles, and slivers starting at a multiple of
// r. Each step is then that dim's stride (1 for a sliver of one row). It
// spares TCCG's abcde-ecbfa-fd (3 million rows at float32) a scan of every
// row's offset twice: 1.02-1.04 times as fast at float32, float64 (waiting
// on memory) unchanged.
func (t tiling) stepsOf(steps, off []int64, g *Group, o, start int) {
	if t.e0 != 0 || len(g.Dims) == 0 || start%t.r != 0 || len(g.Dims) > 1 && g.Ext[0]%t.r != 0 {
		t.steps(steps, off)
		return
	}
	s0, n := int64(g.S[o][0]), len(off)
	for s := range steps {
		steps[s] = s0
		if min(t.r, n-s*t.r) == 1 {
			steps[s] = 1
		}
	}
}

// whole returns the fewest rows that hold whole blocks of n rows and whole
// slivers, and the slivers they make; 0, 0 when n is 0 or runs and blocks
// do not line up.
func (t tiling) whole(n int) (rows, slivers int) {
	if n <= 0 {
		return 0, 0
	}
	if t.e0 > 0 {
		if n%t.e0 != 0 {
			return 0, 0
		}
		return n, n / t.e0 * t.per
	}
	rows = n / gcd(n, t.r) * t.r
	return rows, rows / t.r
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}
