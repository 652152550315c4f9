package runtime_test

import (
	"fmt"
	"math"
	"math/cmplx"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/tcontract/tcontract/generated/typed"
	"github.com/tcontract/tcontract/internal/spec"
	"github.com/tcontract/tcontract/runtime"
)

// The suite below checks every packing and write-back routine of generated/typed
// against plain loops. It is driven by the type table: each case runs for
// every row of spec.Types through the row's Ops, reading and writing elements
// through the row's memory layout (Real, and Complex for a pair), so a new row
// is tested without a line added here.

// elemType is one row of the type table with its layout.
type elemType struct {
	spec.Type
	ops   *typed.Ops
	z     int // bytes of one real
	parts int // reals per element
}

func elemTypes(t *testing.T) []elemType {
	var out []elemType
	for _, row := range spec.Types {
		ops := typed.OpsByName(row.Name)
		if ops == nil {
			t.Fatalf("%s: no generated routines (run go generate ./...)", row.Name)
		}
		if ops.Type != row {
			t.Fatalf("%s: generated for row %+v, the table has %+v (run go generate ./...)", row.Name, ops.Type, row)
		}
		r, ok := spec.RealByName(row.Real)
		if !ok || ops.RealSize != r.Size {
			t.Fatalf("%s: real size %d, want that of %q", row.Name, ops.RealSize, row.Real)
		}
		parts := 1
		if row.Complex {
			parts = 2
		}
		out = append(out, elemType{Type: row, ops: ops, z: r.Size, parts: parts})
	}
	return out
}

// alloc returns n bytes aligned for every element type.
func alloc(n int) []byte {
	s := make([]complex128, n/16+1)
	return unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), n)
}

// real and setReal access real r of b (r counts reals, not elements).
func (e elemType) real(b []byte, r int) float64 {
	p := unsafe.Pointer(&b[r*e.z])
	if e.z == 4 {
		return float64(*(*float32)(p))
	}
	return *(*float64)(p)
}

func (e elemType) setReal(b []byte, r int, v float64) {
	p := unsafe.Pointer(&b[r*e.z])
	if e.z == 4 {
		*(*float32)(p) = float32(v)
	} else {
		*(*float64)(p) = v
	}
}

// get and set access element i of b.
func (e elemType) get(b []byte, i int) complex128 {
	if e.parts == 1 {
		return complex(e.real(b, i), 0)
	}
	return complex(e.real(b, 2*i), e.real(b, 2*i+1))
}

func (e elemType) set(b []byte, i int, v complex128) {
	if e.parts == 1 {
		e.setReal(b, i, real(v))
		return
	}
	e.setReal(b, 2*i, real(v))
	e.setReal(b, 2*i+1, imag(v))
}

// round is v as the element type stores it.
func (e elemType) round(v complex128) complex128 {
	b := alloc(16)
	e.set(b, 0, v)
	return e.get(b, 0)
}

func (e elemType) random(rng *rand.Rand) complex128 {
	v := complex(2*rng.Float64()-1, 0)
	if e.parts == 2 {
		v += complex(0, 2*rng.Float64()-1)
	}
	return e.round(v)
}

// scalar is an alpha or beta of a case: nil, or a value of the element type.
type scalar struct {
	name string
	nil  bool
	v    complex128
}

func (s scalar) value() complex128 {
	if s.nil {
		return 1
	}
	return s.v
}

// ptr is the routine argument: nil, or a pointer to the value as stored.
func (s scalar) ptr(e elemType) *byte {
	if s.nil {
		return nil
	}
	b := alloc(16)
	e.set(b, 0, s.v)
	return &b[0]
}

// exact reports whether multiplying by s is exact (no rounding to allow).
func (s scalar) exact() bool { v := s.value(); return v == 1 || v == -1 }

func scalars(e elemType, rng *rand.Rand) []scalar {
	return []scalar{
		{name: "nil", nil: true},
		{name: "1", v: 1},
		{name: "-1", v: -1},
		{name: "random", v: e.random(rng)},
	}
}

// group is one direction of an operand (A's rows, B's columns, the depth,
// C's rows or columns) as the driver sees it: dims with extents and strides.
type group struct{ ext, stride []int }

// offsets is the window [start, start+n) of the group's offsets, through the
// block-scatter builder the driver uses.
func (g group) offsets(start, n int) []int64 {
	off := make([]int64, n)
	runtime.Offsets(off, g.ext, g.stride, start)
	return off
}

// layout is how a block's two directions lie in memory: rows (A's rows or
// B's columns) and steps (the depth).
type layout struct {
	name        string
	rows, steps func(n, k int, rng *rand.Rand) group
	// injective layouts map every element to its own address (C must be).
	injective bool
}

func dense(ext, stride int) group { return group{[]int{ext}, []int{stride}} }

var layouts = []layout{
	{name: "unit-rows", injective: true, // column-major A, row-major B: copies
		rows:  func(n, k int, _ *rand.Rand) group { return dense(n+3, 1) },
		steps: func(n, k int, _ *rand.Rand) group { return dense(k+1, n+5) }},
	{name: "unit-steps", injective: true, // row-major A, column-major B: transposes
		rows:  func(n, k int, _ *rand.Rand) group { return dense(n+3, k+4) },
		steps: func(n, k int, _ *rand.Rand) group { return dense(k+1, 1) }},
	{name: "padded", injective: true,
		rows:  func(n, k int, _ *rand.Rand) group { return dense(n+3, 2) },
		steps: func(n, k int, _ *rand.Rand) group { return dense(k+1, 2*n+9) }},
	{name: "negative", injective: true,
		rows:  func(n, k int, _ *rand.Rand) group { return dense(n+3, -1) },
		steps: func(n, k int, _ *rand.Rand) group { return dense(k+1, -(n + 4)) }},
	{name: "negative-transposed", injective: true,
		rows:  func(n, k int, _ *rand.Rand) group { return dense(n+3, -(k + 2)) },
		steps: func(n, k int, _ *rand.Rand) group { return dense(k+1, -1) }},
	{name: "zero-rows", // broadcast along the rows
		rows:  func(n, k int, _ *rand.Rand) group { return dense(n+3, 0) },
		steps: func(n, k int, _ *rand.Rand) group { return dense(k+1, 3) }},
	{name: "zero-steps", // broadcast along the depth
		rows:  func(n, k int, _ *rand.Rand) group { return dense(n+3, 1) },
		steps: func(n, k int, _ *rand.Rand) group { return dense(k+1, 0) }},
	{name: "grouped", injective: true, // several dims: some slivers regular, some not
		rows: func(n, k int, _ *rand.Rand) group {
			return group{[]int{3, n/3 + 2}, []int{1, 7}}
		},
		steps: func(n, k int, _ *rand.Rand) group {
			return group{[]int{2, k/2 + 2}, []int{5 * (n + 20), 11 * (n + 20)}}
		}},
}

// block is one packing case: the offsets of its rows and steps, the steps the
// routine is told (possibly withheld, to force the gather paths), and a source
// buffer with every element it reads set.
type block struct {
	rowOff, rowBS, kOff []int64
	kStride             int64
	src                 []byte
	base                int // element index in src of offset 0
}

// uniform is the common step of off, 0 when there is none.
func uniform(off []int64) int64 {
	if len(off) < 2 {
		return 1
	}
	s := off[1] - off[0]
	for i := 2; i < len(off); i++ {
		if off[i]-off[i-1] != s {
			return 0
		}
	}
	return s
}

// span returns the least and greatest of off.
func span(off []int64) (lo, hi int64) {
	lo, hi = off[0], off[0]
	for _, o := range off {
		lo, hi = min(lo, o), max(hi, o)
	}
	return lo, hi
}

// newBlock lays out n rows (sliver width w) by k steps. With scatter the row
// and step offsets are random permutations; with gather the routine is told
// no steps, so it must go through the offsets.
func newBlock(e elemType, l layout, w, n, k int, scatter, gather bool, rng *rand.Rand) block {
	var b block
	if scatter {
		// Fully irregular: offsets a random injective map, no common steps.
		perm := rng.Perm(n * k)
		b.rowOff = make([]int64, n)
		b.kOff = make([]int64, k)
		for i := range b.rowOff {
			b.rowOff[i] = int64(perm[i]) * 3
		}
		for p := range b.kOff {
			b.kOff[p] = int64(p*n*3+1) * int64(1+rng.IntN(2))
		}
		rng.Shuffle(k, func(i, j int) { b.kOff[i], b.kOff[j] = b.kOff[j], b.kOff[i] })
	} else {
		// A window that starts inside its groups: the driver's ic or pc > 0.
		rows, steps := l.rows(n, k, rng), l.steps(n, k, rng)
		b.rowOff = rows.offsets(2, n)
		b.kOff = steps.offsets(1, k)
	}
	b.rowBS = make([]int64, (n+w-1)/w)
	runtime.BlockStrides(b.rowBS, b.rowOff, w)
	b.kStride = uniform(b.kOff)
	if scatter || gather {
		clear(b.rowBS)
		b.kStride = 0
	}
	rlo, rhi := span(b.rowOff)
	klo, khi := span(b.kOff)
	// The buffer holds offset 0 too: src points at it, as the driver's
	// operand base points at an element of the operand.
	lo, hi := min(0, int(rlo+klo)), max(0, int(rhi+khi))
	const guard = 5
	b.base = guard - lo
	elems := hi - lo + 1 + 2*guard
	b.src = alloc(elems * e.Size)
	for i := range elems {
		e.set(b.src, i, e.random(rng))
	}
	return b
}

// srcPtr is the routine's src: the address of offset 0.
func (b block) srcPtr(e elemType) *byte {
	return (*byte)(unsafe.Add(unsafe.Pointer(&b.src[0]), b.base*e.Size))
}

func (b block) at(e elemType, i, p int) complex128 {
	return e.get(b.src, b.base+int(b.rowOff[i]+b.kOff[p]))
}

// guarded is a destination with canary bytes before and after it.
type guarded struct{ all, body []byte }

const canary = 0xA5

func newGuarded(n int) guarded {
	const g = 64
	all := alloc(n + 2*g)
	for i := range all {
		all[i] = canary
	}
	return guarded{all, all[g : g+n]}
}

func (g guarded) check(t *testing.T, what string) {
	t.Helper()
	n := len(g.all) - len(g.body)
	for i := range n / 2 {
		if g.all[i] != canary || g.all[len(g.all)-1-i] != canary {
			t.Fatalf("%s: wrote outside its destination", what)
		}
	}
}

// poison fills a destination with NaNs, so an element the routine should
// write and does not is caught.
func (e elemType) poison(b []byte) {
	for r := range len(b) / e.z {
		e.setReal(b, r, math.NaN())
	}
}

// closeTo reports whether got is want within tol relative to scale.
func closeTo(got, want, tol, scale float64) bool {
	if tol == 0 {
		return got == want
	}
	return math.Abs(got-want) <= tol*scale
}

type packShape struct{ w, n, k int }

var packShapes = []packShape{
	{1, 1, 1}, {1, 3, 2}, {3, 7, 6}, {4, 3, 5}, {4, 9, 3}, {8, 17, 3},
	{16, 16, 4}, {16, 40, 2}, {32, 32, 3}, {32, 70, 2}, {40, 40, 3}, {64, 70, 2},
}

// TestPack runs PackA and PackB of every element type on every layout,
// shape and alpha, with and without the steps that allow the strided paths,
// and checks every real of the packed slivers, padding included.
func TestPack(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, e := range elemTypes(t) {
		for _, side := range []string{"A", "B"} {
			t.Run(e.Name+"/"+side, func(t *testing.T) {
				for _, sh := range packShapes {
					for li, l := range append(layouts, layout{name: "scatter"}) {
						for _, gather := range []bool{false, true} {
							for _, alpha := range scalars(e, rng) {
								what := fmt.Sprintf("%s %s w=%d n=%d k=%d gather=%v alpha=%s",
									side, l.name, sh.w, sh.n, sh.k, gather, alpha.name)
								b := newBlock(e, l, sh.w, sh.n, sh.k, li == len(layouts), gather, rng)
								checkPack(t, e, side, sh, b, alpha, what)
							}
						}
					}
				}
			})
		}
	}
}

// checkPack runs one routine on one block and checks every real it packed.
func checkPack(t *testing.T, e elemType, side string, sh packShape, b block, alpha scalar, what string) {
	w, n, k := sh.w, sh.n, sh.k
	slivers := (n + w - 1) / w
	// Reals per step of one sliver: w, or 1m's 2w×2 (A) and w×2 (B).
	perStep := w
	if e.Complex {
		perStep = 2 * w
		if side == "A" {
			perStep = 4 * w
		}
	}
	dst := newGuarded(slivers * k * perStep * e.z)
	e.poison(dst.body)
	fn := e.ops.PackA
	if side == "B" {
		fn = e.ops.PackB
	}
	fn(&dst.body[0], b.srcPtr(e), w, n, k, b.rowOff, b.rowBS, b.kOff, b.kStride, alpha.ptr(e))
	dst.check(t, what)

	tol := e.Tol * 4
	if alpha.exact() {
		tol = 0
	}
	av := alpha.value()
	for s := range slivers {
		for p := range k {
			step := (s*k + p) * perStep
			for i := range w {
				row := s*w + i
				var v complex128
				if row < n {
					v = e.round(av * b.at(e, row, p))
				}
				scale := cmplx.Abs(av) * 2
				// Where each part of v lands, and with what sign.
				type part struct {
					r    int
					want float64
				}
				var parts []part
				switch {
				case !e.Complex:
					parts = []part{{step + i, real(v)}}
				case side == "A": // 1e: column 2p then column 2p+1
					parts = []part{{step + 2*i, real(v)}, {step + 2*i + 1, imag(v)},
						{step + 2*w + 2*i, -imag(v)}, {step + 2*w + 2*i + 1, real(v)}}
				default: // 1r: row 2p then row 2p+1
					parts = []part{{step + i, real(v)}, {step + w + i, imag(v)}}
				}
				for _, pt := range parts {
					got := e.real(dst.body, pt.r)
					if row >= n && got != 0 || !closeTo(got, pt.want, tol, scale) {
						t.Fatalf("%s %s: sliver %d step %d row %d: real %d = %v, want %v",
							e.Name, what, s, p, i, pt.r, got, pt.want)
					}
				}
			}
		}
	}
}

// cBlock is a write-back case: C's rows and columns and a buffer holding every
// element they reach.
type cBlock struct {
	rowOff, colOff       []int64
	rowStride, colStride int64
	c                    []byte
	base                 int
}

func newCBlock(e elemType, l layout, m, n int, scatter, gather bool, rng *rand.Rand) cBlock {
	var b cBlock
	if scatter {
		perm := rng.Perm(m * n)
		b.rowOff, b.colOff = make([]int64, m), make([]int64, n)
		// Rows at distinct multiples of 1, columns of m+1 shuffled: every
		// (i, j) reaches its own element, and no step is common.
		for i := range b.rowOff {
			b.rowOff[i] = int64(perm[i] % (m + 1))
		}
		seen := map[int64]bool{}
		for i := range b.rowOff {
			for seen[b.rowOff[i]] {
				b.rowOff[i] = (b.rowOff[i] + 1) % int64(m+1)
			}
			seen[b.rowOff[i]] = true
		}
		for j := range b.colOff {
			b.colOff[j] = int64(j * (m + 1))
		}
		rng.Shuffle(n, func(i, j int) { b.colOff[i], b.colOff[j] = b.colOff[j], b.colOff[i] })
	} else {
		b.rowOff = l.rows(m, n, rng).offsets(2, m)
		b.colOff = l.steps(m, n, rng).offsets(1, n)
	}
	b.rowStride, b.colStride = uniform(b.rowOff), uniform(b.colOff)
	if scatter || gather {
		b.rowStride, b.colStride = 0, 0
	}
	rlo, rhi := span(b.rowOff)
	clo, chi := span(b.colOff)
	lo, hi := min(0, int(rlo+clo)), max(0, int(rhi+chi))
	const guard = 5
	b.base = guard - lo
	b.c = alloc((hi - lo + 1 + 2*guard) * e.Size)
	return b
}

func (b cBlock) ptr(e elemType) *byte {
	return (*byte)(unsafe.Add(unsafe.Pointer(&b.c[0]), b.base*e.Size))
}

// fill sets every element of C to a random value, or to NaN (to prove that
// beta == 0 never reads C).
func (b cBlock) fill(e elemType, nan bool, rng *rand.Rand) {
	for i := range len(b.c) / e.Size {
		v := e.random(rng)
		if nan {
			v = cmplx.NaN()
		}
		e.set(b.c, i, v)
	}
}

// checkC checks every element of C: want(i, j) where (i, j) reaches it,
// unchanged bytes everywhere else.
func (b cBlock) checkC(t *testing.T, e elemType, old []byte, want func(i, j int) (complex128, float64), tol float64, what string) {
	t.Helper()
	at := map[int][2]int{}
	for i, r := range b.rowOff {
		for j, c := range b.colOff {
			at[b.base+int(r+c)] = [2]int{i, j}
		}
	}
	for x := range len(b.c) / e.Size {
		ij, hit := at[x]
		if !hit {
			for k := x * e.Size; k < (x+1)*e.Size; k++ {
				if b.c[k] != old[k] {
					t.Fatalf("%s %s: element %d, which no (i, j) reaches, changed", e.Name, what, x-b.base)
				}
			}
			continue
		}
		w, scale := want(ij[0], ij[1])
		got := e.get(b.c, x)
		if !closeTo(real(got), real(w), tol, scale) || !closeTo(imag(got), imag(w), tol, scale) {
			t.Fatalf("%s %s: C(%d, %d) = %v, want %v", e.Name, what, ij[0], ij[1], got, w)
		}
	}
}

type cShape struct{ m, n int }

var cShapes = []cShape{{1, 1}, {3, 5}, {8, 4}, {16, 12}, {5, 1}, {1, 7}}

// cLayouts are the layouts of C: injective ones, and the scatter case.
func cLayouts() []layout {
	var out []layout
	for _, l := range layouts {
		if l.injective {
			out = append(out, l)
		}
	}
	return append(out, layout{name: "scatter"})
}

func betas(e elemType, rng *rand.Rand) []scalar {
	return []scalar{
		{name: "0", v: 0},
		{name: "1", v: 1},
		{name: "nil", nil: true},
		{name: "random", v: e.random(rng)},
	}
}

func TestWriteBack(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, e := range elemTypes(t) {
		t.Run(e.Name, func(t *testing.T) {
			cl := cLayouts()
			for _, sh := range cShapes {
				for li, l := range cl {
					for _, gather := range []bool{false, true} {
						for _, alpha := range scalars(e, rng) {
							for _, beta := range betas(e, rng) {
								what := fmt.Sprintf("%s m=%d n=%d gather=%v alpha=%s beta=%s",
									l.name, sh.m, sh.n, gather, alpha.name, beta.name)
								checkWriteBack(t, e, sh, newCBlock(e, l, sh.m, sh.n, li == len(cl)-1, gather, rng), alpha, beta, what, rng)
							}
						}
					}
				}
			}
		})
	}
}

func checkWriteBack(t *testing.T, e elemType, sh cShape, b cBlock, alpha, beta scalar, what string, rng *rand.Rand) {
	m, n := sh.m, sh.n
	zero := !beta.nil && beta.v == 0
	b.fill(e, zero, rng)
	old := append([]byte(nil), b.c...)
	// The kernel's tile: column-major reals with a padded leading dimension.
	ldt := m*e.parts + 3
	tile := alloc(ldt * n * e.z)
	for r := range ldt * n {
		e.setReal(tile, r, real(e.random(rng)))
	}
	tileAt := func(i, j int) complex128 {
		if e.parts == 1 {
			return complex(e.real(tile, j*ldt+i), 0)
		}
		return complex(e.real(tile, j*ldt+2*i), e.real(tile, j*ldt+2*i+1))
	}
	e.ops.WriteBack(b.ptr(e), b.rowOff, b.rowStride, b.colOff, b.colStride, m, n, &tile[0], ldt, alpha.ptr(e), beta.ptr(e))
	tol := e.Tol * 4
	if alpha.exact() && zero {
		tol = 0
	}
	av, bv := alpha.value(), beta.value()
	b.checkC(t, e, old, func(i, j int) (complex128, float64) {
		ax := av * tileAt(i, j)
		if zero {
			return ax, cmplx.Abs(ax) * 2
		}
		c := e.get(old, b.base+int(b.rowOff[i]+b.colOff[j]))
		return ax + bv*c, (cmplx.Abs(ax) + cmplx.Abs(bv*c)) * 2
	}, tol, what)
}

func TestScale(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, e := range elemTypes(t) {
		t.Run(e.Name, func(t *testing.T) {
			cl := cLayouts()
			for _, sh := range cShapes {
				for li, l := range cl {
					for _, gather := range []bool{false, true} {
						for _, beta := range append(betas(e, rng), scalar{name: "-1", v: -1}) {
							what := fmt.Sprintf("%s m=%d n=%d gather=%v beta=%s", l.name, sh.m, sh.n, gather, beta.name)
							b := newCBlock(e, l, sh.m, sh.n, li == len(cl)-1, gather, rng)
							zero := !beta.nil && beta.v == 0
							b.fill(e, zero, rng)
							old := append([]byte(nil), b.c...)
							e.ops.Scale(b.ptr(e), b.rowOff, b.rowStride, b.colOff, b.colStride, sh.m, sh.n, beta.ptr(e))
							tol := e.Tol * 4
							if zero || beta.exact() {
								tol = 0
							}
							bv := beta.value()
							b.checkC(t, e, old, func(i, j int) (complex128, float64) {
								if zero {
									return 0, 0
								}
								c := e.get(old, b.base+int(b.rowOff[i]+b.colOff[j]))
								return bv * c, cmplx.Abs(bv*c) * 2
							}, tol, what)
						}
					}
				}
			}
		})
	}
}

// extent is how many bytes of dst a packing routine writes for an n×k block
// in slivers of w: the index after the last byte it changed.
func extent(e elemType, side string, w, n, k int) int {
	const room = 1 << 16
	dst := newGuarded(room)
	for i := range dst.body {
		dst.body[i] = canary
	}
	off := make([]int64, n)
	for i := range off {
		off[i] = int64(i)
	}
	kOff := make([]int64, k)
	for p := range kOff {
		kOff[p] = int64(p * n)
	}
	bs := make([]int64, (n+w-1)/w)
	runtime.BlockStrides(bs, off, w)
	src := alloc(n * k * e.Size)
	for i := range n * k {
		e.set(src, i, complex(1, 1)) // the canary byte is in no part of 1
	}
	fn := e.ops.PackA
	if side == "B" {
		fn = e.ops.PackB
	}
	fn(&dst.body[0], &src[0], w, n, k, off, bs, kOff, uniform(kOff), nil)
	last := 0
	for i, c := range dst.body {
		if c != canary {
			last = i + 1
		}
	}
	return last
}

// TestReq checks each type's workspace request against what its routines
// use: ABytes is exactly what PackA writes for an MC×KC block, BBytes pn
// times what PackB writes for a KC×NC panel, TileBytes the kernel's tile.
func TestReq(t *testing.T) {
	for _, e := range elemTypes(t) {
		for _, blk := range []typed.Blocking{
			{MR: 8, NR: 4, MC: 20, KC: 7, NC: 10},
			{MR: 4, NR: 6, MC: 16, KC: 3, NC: 12},
			{MR: 1, NR: 1, MC: 3, KC: 2, NC: 5},
		} {
			for _, team := range [][2]int{{1, 1}, {1, 2}, {2, 1}, {2, 3}} {
				pm, pn := team[0], team[1]
				r := e.ops.Req(blk, pm, pn, 123, 456)
				a := extent(e, "A", blk.MR, blk.MC, blk.KC)
				b := extent(e, "B", blk.NR, blk.NC, blk.KC)
				tile := blk.MR * blk.NR * e.Size // 2MR reals of NR columns when complex
				barriers := 0
				if pm > 1 {
					barriers = pn
				}
				if r.ABytes != a || r.BBytes != pn*b || r.TileBytes != tile ||
					r.WorkerScatter != 123 || r.TeamScatter != 456 || r.Barriers != barriers {
					t.Fatalf("%s %+v pm=%d pn=%d: %+v; want A %d, B %d, tile %d, barriers %d",
						e.Name, blk, pm, pn, r, a, pn*b, tile, barriers)
				}
			}
		}
	}
}
