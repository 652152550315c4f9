package runtime

import (
	"fmt"
	"math"
	"sort"
	"strings"
)

// Operand indices in the per-operand arrays of a plan.
const (
	opA = iota
	opB
	opC
)

var opNames = [3]string{"A", "B", "C"}

// View is a type-erased tensor view: what validation and planning need to
// know of a Tensor.
type View struct {
	Len     int   // elements in the backing slice
	Shape   []int // extents
	Strides []int // elements per step along each dim; nil means dense row-major
	Offset  int   // index of the element at all-zero coordinates
}

// Dim is one dimension of an index group: its extent and its stride in each
// operand (0 where the operand does not have it, which broadcasts).
type Dim struct {
	Ext int
	S   [3]int
}

// Group is the set of dims that together form one index of the matrix
// product (batch, M, N or K), fastest-varying first. Ext and S repeat Dims in
// the form the block-scatter builder takes.
type Group struct {
	Dims []Dim
	Ext  []int
	S    [3][]int
	Size int // product of the extents (1 for an empty group)
	// Lines, when not 0, is how many leading indices share C's cache
	// lines after an interleave for C (interleave.go): members of a team
	// that wrote parts of one such block would contend for its lines.
	Lines int
	// Cross, when not 0, is the rows of C's unit dim that lead the group,
	// followed by a cut of the input's unit dim, for the cross-sliver
	// packer (crossplan.go).
	Cross int
}

// Plan is everything about a contraction that depends only on the spec, the
// shapes and the strides: it is computed once and cached.
type Plan struct {
	Batch, M, N, K Group
	// Swapped means the plan computes Cᵀ = Bᵀ·Aᵀ: the operands A and B and the
	// groups M and N were exchanged so that C's fastest dim is in M, the
	// kernel's vector direction. Group strides S[opA] then refer to B.
	Swapped bool
	// Empty means C has no elements: a call does nothing.
	Empty bool
	// lo and hi are the lowest and highest offsets (relative to the view's
	// Offset) an operand reaches; has is false when it reaches none.
	lo, hi [3]int
	has    [3]bool

	key planKey
	// reduce, when not nil, sums an input over its own labels first
	// (reduce.go).
	reduce *reduction
}

// Flops is the number of real multiply-adds, times two, one call performs for
// an element type with the given complexity.
func (p *Plan) Flops(complex bool) float64 {
	f := 2 * float64(p.Batch.Size) * float64(p.M.Size) * float64(p.N.Size) * float64(p.K.Size)
	if complex {
		f *= 4
	}
	return f
}

// NewPlan validates a contraction's spec, shapes and strides and groups its
// labels. Bounds against the backing slices and overlap between operands are
// checked per call (CheckCall), since they depend on offsets and addresses.
//
// tile is the register tile (in elements of the type) the plan is for: the
// orientation (C = A·B or Cᵀ = Bᵀ·Aᵀ) weighs how well each fills it. A zero
// tile decides by C's strides alone.
func NewPlan(sp Spec, a, b, c View, tile Tile) (*Plan, error) {
	labels := [3]string{sp.A, sp.B, sp.C}
	views := [3]*View{&a, &b, &c}
	var strides [3][]int
	var ext [128]int
	for i := range ext {
		ext[i] = -1
	}
	for o := 0; o < 3; o++ {
		v := views[o]
		if len(v.Shape) != len(labels[o]) {
			return nil, fmt.Errorf("%w: %s has rank %d but the spec %q gives it %d labels", ErrShape, opNames[o], len(v.Shape), sp.String(), len(labels[o]))
		}
		if v.Strides != nil && len(v.Strides) != len(v.Shape) {
			return nil, fmt.Errorf("%w: %s has %d strides for %d dims", ErrShape, opNames[o], len(v.Strides), len(v.Shape))
		}
		for d, e := range v.Shape {
			l := labels[o][d]
			if e < 0 {
				return nil, fmt.Errorf("%w: %s dim %d (label %q) has negative extent %d", ErrShape, opNames[o], d, l, e)
			}
			if ext[l] >= 0 && ext[l] != e {
				return nil, fmt.Errorf("%w: label %q has extent %d in %s dim %d but %d elsewhere", ErrShape, l, e, opNames[o], d, ext[l])
			}
			ext[l] = e
		}
		s, err := resolveStrides(v.Shape, v.Strides, opNames[o])
		if err != nil {
			return nil, err
		}
		strides[o] = s
	}

	p := &Plan{}
	for o := 0; o < 3; o++ {
		lo, hi, has, err := reach(views[o].Shape, strides[o], opNames[o])
		if err != nil {
			return nil, err
		}
		p.lo[o], p.hi[o], p.has[o] = lo, hi, has
	}
	if p.has[opC] && !injective(c.Shape, strides[opC]) {
		return nil, fmt.Errorf("%w: the strides %v of C map two coordinates of shape %v to one element", ErrOverlap, strides[opC], ints(c.Shape))
	}
	for _, e := range c.Shape {
		if e == 0 {
			p.Empty = true
		}
	}

	// Per label: its stride in each operand (repeats add: a diagonal) and its role.
	var lstride [128][3]int
	var in [128][3]bool
	var order []byte
	for o := 0; o < 3; o++ {
		for d := 0; d < len(labels[o]); d++ {
			l := labels[o][d]
			if !in[l][opA] && !in[l][opB] && !in[l][opC] {
				order = append(order, l)
			}
			in[l][o] = true
			st, ok := addInt(lstride[l][o], strides[o][d])
			if !ok {
				return nil, fmt.Errorf("%w: the strides of label %q in %s overflow", ErrBounds, l, opNames[o])
			}
			lstride[l][o] = st
		}
	}
	var batch, m, n, k []Dim
	for _, l := range order {
		d := Dim{Ext: ext[l], S: lstride[l]}
		switch r := in[l]; {
		case r[opA] && r[opB] && r[opC]:
			batch = append(batch, d)
		case r[opA] && r[opC]:
			m = append(m, d)
		case r[opB] && r[opC]:
			n = append(n, d)
		default:
			// In A and B (contracted), or in only one of them: a label
			// summed out of one input is a contracted dim the other operand
			// broadcasts (stride 0), so it is reduced on the fly by the
			// same loops, with no transposed copy; where that repeats
			// enough work, the input is summed first (planReduce).
			k = append(k, d)
		}
	}
	// Each group's dims are ordered by the strides of the operand that
	// moves the most data through them: C for M and N unless the depth
	// makes the input the larger (A: M·K elements against C's M·N). Keyed
	// by the input, its packing runs on the assembly packers and C's rows
	// are written strided but, interleaved, from lines in cache; keyed by
	// C, the input is gathered element by element, which costs more per
	// element than a strided write (TCCG's abcde-ecbfa-fd, K = 2N: 0.24
	// of GEMM keyed by C, 0.59 keyed by A).
	mKey, mOther := opC, opA
	if extentOf(k) > extentOf(n) {
		mKey, mOther = opA, opC
	}
	nKey, nOther := opC, opB
	if extentOf(k) > extentOf(m) {
		nKey, nOther = opB, opC
	}
	// A group where C and the input have different unit dims is keyed by
	// C when the input can be packed across slivers (crossplan.go): when
	// the data chose the input, and when it chose C at a depth of
	// crossKeyedDepth or more, where the input would otherwise be gathered
	// element by element.
	mKeyed, nKeyed := mKey, nKey
	deep := extentOf(k) >= crossKeyedDepth
	crossM := tile.Cross > 0 && (mKey == opA || deep) && crossFits(m, opA)
	if crossM {
		mKey, mOther = opC, opA
	}
	crossN := tile.Cross > 0 && (nKey == opB || deep) && crossFits(n, opB)
	if crossN {
		nKey, nOther = opC, opB
	}
	var err error
	if p.Batch, err = makeGroup(batch, opC, opA, "batch"); err != nil {
		return nil, err
	}
	if p.M, err = makeGroup(m, mKey, mOther, "M"); err != nil {
		return nil, err
	}
	if p.N, err = makeGroup(n, nKey, nOther, "N"); err != nil {
		return nil, err
	}
	kKey, kOther := opA, opB
	if minAbsStride(k, opB) < minAbsStride(k, opA) {
		kKey, kOther = opB, opA
	}
	if p.K, err = makeGroup(k, kKey, kOther, "K"); err != nil {
		return nil, err
	}
	if _, ok := mulInt(p.Batch.Size, p.M.Size); !ok {
		return nil, fmt.Errorf("%w: the index space of C overflows", ErrBounds)
	}
	// Lines of the operand the key order does not favour are used whole
	// within a block (interleave.go), when that operand moves a fair share
	// of the data: its elements against a quarter of the key operand's.
	em, en, ek := float64(extentOf(m)), float64(extentOf(n)), float64(extentOf(k))
	// A group crossOrder leaves as it is goes back to the key the data
	// chose.
	if crossM {
		p.M.crossOrder(opA, tile)
		if crossM = p.M.Cross > 0; !crossM && mKeyed != mKey {
			mKey, mOther = mKeyed, otherOperand(mKeyed, opA)
			if p.M, err = makeGroup(m, mKey, mOther, "M"); err != nil {
				return nil, err
			}
		}
	}
	if crossN {
		p.N.crossOrder(opB, tile)
		if crossN = p.N.Cross > 0; !crossN && nKeyed != nKey {
			nKey, nOther = nKeyed, otherOperand(nKeyed, opB)
			if p.N, err = makeGroup(n, nKey, nOther, "N"); err != nil {
				return nil, err
			}
		}
	}
	share := [3]float64{opA: ek, opB: ek, opC: en}
	if !crossM && share[mOther]*4 >= share[mKey] {
		p.M.interleave(mKey, mOther, tile.Size, rowsBlock(mOther, ek), false)
	}
	share = [3]float64{opA: ek, opB: ek, opC: em}
	if !crossN && share[nOther]*4 >= share[nKey] {
		p.N.interleave(nKey, nOther, tile.Size, rowsBlock(nOther, ek), false)
	}
	share = [3]float64{opA: em, opB: en}
	if share[kOther]*4 >= share[kKey] {
		p.K.interleave(kKey, kOther, tile.Size, interleaveDepth, true)
	}

	if err := p.planReduce(sp, [3]View{a, b, c}, tile); err != nil {
		return nil, err
	}
	if p.swapPays(tile) {
		p.Swapped = true
		p.M, p.N = p.N, p.M
		for _, g := range []*Group{&p.Batch, &p.M, &p.N, &p.K} {
			for i := range g.Dims {
				g.Dims[i].S[opA], g.Dims[i].S[opB] = g.Dims[i].S[opB], g.Dims[i].S[opA]
			}
			g.S[opA], g.S[opB] = g.S[opB], g.S[opA]
		}
	}
	return p, nil
}

// crossKeyedDepth is the least depth at which a group keyed by C for its
// data is packed across slivers too (NewPlan). TCCG's abcd-aebf-fdec at
// float64 (depth 5184, M and K equal, so keyed by C) ran 1.05 times as
// fast packed across slivers (medians of 6 runs on one thread); the
// ccsd_t cases (depth 24) ran 0.57 to 1.23 times as fast, 0.89 as a
// geometric mean, against their tiles restarting at runs or straddling
// them through maps.
const crossKeyedDepth = 256

// otherOperand is the operand of a group's pair {opC, in} that is not key.
func otherOperand(key, in int) int {
	if key == opC {
		return in
	}
	return opC
}

// rowsBlock bounds the rows of an interleave in M or N whose lines belong
// to operand o, for a K of depth elements. C's lines are written by every
// tile of a few blocks and stay in L2 (interleaveRows). An input's lines are read when
// its block is packed, and the next block is packed only after the whole
// panel of the other side has streamed through the caches: at a depth
// that makes packing matter, a block of shared lines must lie within one
// packed block (interleavePackRows; TCCG's abcd-aebf-fdec, where C's run d
// was 84 or 72 long and B's lines of c were used a line per packed block,
// 1.07-1.12 times faster at float32 and 1.12-1.3 at float64, and other
// ccsd cases of depth 384 and more 1.05-1.07). At small depth C's runs
// matter more than the input's lines (ccsd_t at depth 24: 0.9 with the
// shorter block), so the rule stops there.
func rowsBlock(o int, depth float64) int {
	if o != opC && depth >= interleavePackDepth {
		return interleavePackRows
	}
	return interleaveRows
}

// Tile is a register tile in elements: MR rows (the vector direction) by NR
// columns, with what the orientation choice weighs besides.
type Tile struct {
	MR, NR int
	// Short lists the rows of the path's other tiles for the same real
	// type (0: none), which the runtime takes for short M (shortTile).
	Short [3]int
	Lanes int // elements per vector register
	Size  int // bytes per element
	// Cross is how many slivers the path's cross-sliver packer takes at
	// once (0: it has none, or the type is complex).
	Cross int
	// Complex: the type is complex, packed for the real kernels by the
	// 1m method whatever N (only the few-column forms of
	// matvec_complex.go read its A in place, and they take either
	// orientation).
	Complex bool
}

// swapPays decides the orientation. The kernel keeps C's columns in vector
// registers, so C's fastest dim belongs in M: a C whose rows are not
// adjacent is written element by element, a few cycles an element when
// the rows share pages, and a TLB and cache miss each when every row is a
// page or more away (a stride of a multiple of 4 KiB also maps every row
// to one L1 set). Measured on TCCG shapes, that costs about 16 cycles an
// element against the depth's FMAs. But a short M wastes rows of every
// tile: Cᵀ is computed instead when it fills the tiles (the best of the
// path's tile heights) enough better to pay for that.
func (p *Plan) swapPays(t Tile) bool {
	rsM, rsN := rowStride(&p.M), rowStride(&p.N)
	if t.MR <= 0 || t.NR <= 0 || t.Lanes <= 0 || t.Size <= 0 {
		return rsN < rsM
	}
	depth := float64(min(max(p.K.Size, 1), 384))
	// Packing across rows is weighed where K is one dim and both
	// orientations' columns exceed a vector, or the type is complex (see
	// below).
	weighAcross := len(p.K.Dims) == 1 && (t.Complex || min(p.M.Size, p.N.Size) > t.Lanes)
	score := func(m, n, rs int, across bool) float64 {
		f := fill(m, t.MR)
		for _, r := range t.Short {
			if r > 0 {
				f = math.Max(f, fill(m, r))
			}
		}
		s := f * fill(n, t.NR)
		if rs != 1 {
			// Cycles per element written: 2, up to 16 once rows are a
			// page apart; the tile's FMAs take depth/(2·Lanes) each.
			bytes := math.Min(float64(rs)*float64(t.Size), pageBytes)
			w := 2 + 14*bytes/pageBytes
			s *= depth / (depth + 2*float64(t.Lanes)*w)
		}
		if across && weighAcross {
			// Each element of the tiles' A is packed across its rows once
			// per block of columns and used by n of them: n/(2·Lanes)
			// cycles of FMAs. The packing is weighed at gatherCycles an
			// element, less than it took here (float64 A with rows 12 KB
			// apart: about 1.6 ns an element), but enough to decide.
			// A short N leaves few FMAs to each: GEMM 4096×n×4096 with A
			// and C row-major kept in this orientation (C's rows n apart,
			// the tiles full) ran at 0.40-0.46 of the peak probe at
			// float32 with n = 24 and 36, and 0.48-0.54 at float64 with n
			// = 36 and 40, packing A a third of the time; as Cᵀ, at
			// 0.71-0.82 and 0.79-0.93. A real type's is not weighed
			// where either side fits a vector (the matrix-vector forms
			// read A in place, matvec.go; GEMM 100×13×100 with A and B
			// packed across rows ran at 0.29 of the peak unswapped, 0.52
			// as Cᵀ); a complex type's is (1m packs A whatever N, and
			// the few-column forms that read it in place take either
			// orientation, matvec_complex.go): complex64 GEMM
			// 1000×7×1000 and 2000×5×2000 on the tiles ran at 0.21 and
			// 0.14 unswapped, 0.76 and 0.37 as Cᵀ. Nor where K has
			// several dims (packed across depth: crosspack.go).
			fma := float64(n) / float64(2*t.Lanes)
			s *= fma / (fma + gatherCycles)
		}
		return s
	}
	return score(p.N.Size, p.M.Size, rsN, packsAcross(&p.N, opB)) > score(p.M.Size, p.N.Size, rsM, packsAcross(&p.M, opA))
}

// packsAcross reports whether packing operand o along group g (the tiles'
// rows) reads across o's rows: g is one dim, not a unit step of o, so the
// packers transpose (or, with no unit step along depth either, gather:
// gathersA). A group of several dims is ordered, interleaved or packed
// across slivers for its operands (makeGroup, interleave.go,
// crossplan.go), and was measured so.
func packsAcross(g *Group, o int) bool {
	return len(g.Dims) == 1 && absInt(g.Dims[0].S[o]) != 1
}

// rowStride is C's stride between a tile's rows when g is the tile's row
// group: the stride of its fastest dim (MaxInt when it has none).
func rowStride(g *Group) int {
	if len(g.Dims) == 0 {
		return math.MaxInt
	}
	if s := absInt(g.Dims[0].S[opC]); s != 0 {
		return s
	}
	return math.MaxInt
}

// fill is the share of tile rows (or columns) that x rows use.
func fill(x, t int) float64 {
	if x <= 0 {
		return 1
	}
	return float64(x) / float64(ceilDiv(x, t)*t)
}

// extentOf is the number of index values of dims, saturating instead of
// overflowing (it only weighs choices; makeGroup checks sizes).
func extentOf(dims []Dim) int {
	n := 1
	for _, d := range dims {
		if v, ok := mulInt(n, d.Ext); ok && v >= 0 {
			n = v
		} else {
			return math.MaxInt
		}
	}
	return n
}

// resolveStrides returns explicit strides: a copy of given, or dense
// row-major ones when given is nil.
func resolveStrides(shape, given []int, name string) ([]int, error) {
	s := make([]int, len(shape))
	if given != nil {
		copy(s, given)
		return s, nil
	}
	step := 1
	for d := len(shape) - 1; d >= 0; d-- {
		s[d] = step
		if shape[d] > 0 {
			var ok bool
			if step, ok = mulInt(step, shape[d]); !ok {
				return nil, fmt.Errorf("%w: the dense strides of %s (shape %v) overflow", ErrBounds, name, ints(shape))
			}
		}
	}
	return s, nil
}

// reach returns the lowest and highest offsets, relative to the view's
// offset, that shape and strides address; has is false when some extent is 0.
func reach(shape, strides []int, name string) (lo, hi int, has bool, err error) {
	for _, e := range shape {
		if e == 0 {
			return 0, 0, false, nil
		}
	}
	for d, e := range shape {
		span, ok := mulInt(e-1, strides[d])
		if ok {
			if span < 0 {
				lo, ok = addInt(lo, span)
			} else {
				hi, ok = addInt(hi, span)
			}
		}
		if !ok {
			return 0, 0, false, fmt.Errorf("%w: %s dim %d (extent %d, stride %d) overflows an index", ErrBounds, name, d, e, strides[d])
		}
	}
	return lo, hi, true, nil
}

// injective reports whether no two coordinates of shape map to one offset.
// Dims sorted by |stride| whose every stride clears the span of the smaller
// ones are injective; layouts that interleave in other ways are checked
// exactly when their span is small enough to mark, and refused otherwise.
func injective(shape, strides []int) bool {
	type ds struct{ e, s int }
	var dims []ds
	for d, e := range shape {
		if e > 1 {
			s := strides[d]
			if s < 0 {
				s = -s
			}
			if s == 0 {
				return false
			}
			dims = append(dims, ds{e, s})
		}
	}
	sort.Slice(dims, func(i, j int) bool { return dims[i].s < dims[j].s })
	span := 0
	ok := true
	for _, d := range dims {
		if d.s <= span {
			ok = false
			break
		}
		span += (d.e - 1) * d.s
	}
	if ok {
		return true
	}
	const maxMarked = 1 << 24
	span = 0
	for _, d := range dims {
		span += (d.e - 1) * d.s
		if span >= maxMarked {
			return false
		}
	}
	seen := make([]uint64, span/64+1)
	idx := make([]int, len(dims))
	for off := 0; ; {
		if seen[off/64]&(1<<(off%64)) != 0 {
			return false
		}
		seen[off/64] |= 1 << (off % 64)
		d := 0
		for ; d < len(dims); d++ {
			idx[d]++
			off += dims[d].s
			if idx[d] < dims[d].e {
				break
			}
			off -= dims[d].e * dims[d].s
			idx[d] = 0
		}
		if d == len(dims) {
			return true
		}
	}
}

// makeGroup drops unit extents, orders the dims by the key operand's stride
// (fastest first, ties by the other operand), and merges neighbours that are
// contiguous in every operand, so a row-major GEMM-shaped contraction becomes
// exactly a GEMM.
func makeGroup(dims []Dim, key, other int, name string) (Group, error) {
	var g Group
	for _, d := range dims {
		if d.Ext != 1 {
			g.Dims = append(g.Dims, d)
		}
	}
	sort.SliceStable(g.Dims, func(i, j int) bool {
		ki, kj := absInt(g.Dims[i].S[key]), absInt(g.Dims[j].S[key])
		if ki != kj {
			return ki < kj
		}
		return absInt(g.Dims[i].S[other]) < absInt(g.Dims[j].S[other])
	})
	merged := g.Dims[:0]
	for _, d := range g.Dims {
		if n := len(merged); n > 0 && contiguous(merged[n-1], d) {
			merged[n-1].Ext *= d.Ext
			continue
		}
		merged = append(merged, d)
	}
	g.Dims = merged
	g.Size = 1
	for _, d := range g.Dims {
		s, ok := mulInt(g.Size, d.Ext)
		if !ok {
			return Group{}, fmt.Errorf("%w: the %s index space overflows", ErrBounds, name)
		}
		g.Size = s
		g.Ext = append(g.Ext, d.Ext)
		for o := 0; o < 3; o++ {
			g.S[o] = append(g.S[o], d.S[o])
		}
	}
	if g.Size == 0 {
		// An empty group needs no dims: it is never iterated.
		g.Dims, g.Ext, g.S = nil, nil, [3][]int{}
	}
	return g, nil
}

// contiguous reports whether slow continues fast in every operand: then the
// two dims are one dim of extent fast.Ext·slow.Ext.
func contiguous(fast, slow Dim) bool {
	for o := 0; o < 3; o++ {
		want, ok := mulInt(fast.S[o], fast.Ext)
		if !ok || slow.S[o] != want {
			return false
		}
	}
	_, ok := mulInt(fast.Ext, slow.Ext)
	return ok
}

func minAbsStride(dims []Dim, o int) int {
	m := math.MaxInt
	for _, d := range dims {
		if s := absInt(d.S[o]); s != 0 && s < m {
			m = s
		}
	}
	return m
}

func absInt(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func addInt(a, b int) (int, bool) {
	s := a + b
	if (s > a) != (b > 0) {
		return 0, false
	}
	return s, true
}

func mulInt(a, b int) (int, bool) {
	if a == 0 || b == 0 {
		return 0, true
	}
	p := a * b
	if p/b != a || (a == -1 && b == math.MinInt) || (b == -1 && a == math.MinInt) {
		return 0, false
	}
	return p, true
}

// describe is a short account of a plan for diagnostics.
func (p *Plan) describe() string {
	var sb strings.Builder
	for _, g := range []struct {
		name string
		g    *Group
	}{{"batch", &p.Batch}, {"M", &p.M}, {"N", &p.N}, {"K", &p.K}} {
		fmt.Fprintf(&sb, "%s=%d%v ", g.name, g.g.Size, g.g.Ext)
	}
	if p.Swapped {
		sb.WriteString("swapped")
	}
	return strings.TrimSpace(sb.String())
}
