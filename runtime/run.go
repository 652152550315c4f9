package runtime

import (
	"iter"
	"math"
	"unsafe"

	"github.com/tcontract/tcontract/generated/kernels"
	"github.com/tcontract/tcontract/generated/typed"
	"github.com/tcontract/tcontract/workspace"
)

// blocking is one call's blocking in elements of T.
type blocking = typed.Blocking

// Below parallelFlops a call runs on the calling goroutine alone: handing
// work to another thread costs about a microsecond, and a product this small
// takes only a few; a team of t needs t·parallelFlops. On an idle 2-core
// AVX-512 machine, 2 threads ran complex64 64³ (2.1 Mflop) 1.5 times and
// float32 and float64 128³ 1.9 times as fast as with 4e6, and real 64³
// stays on the caller (under 2e5, 2 threads ran it 1.6 times as fast, but
// that is a product of 5 µs). A team is only as fast as its slowest
// member: with the other core busy, calls that hand off run several times
// slower than alone, here as at any size.
const parallelFlops = 1e6

// Run performs C = alpha·A·B + beta·C for the contraction spec on the pool.
// t describes the element type; ops holds A, B and C; alpha and beta point
// at values of that type. Everything is validated before anything is
// written: on error C is unchanged.
func (p *Pool) Run(spec string, t *typed.Ops, ops *[3]Operand, alpha, beta unsafe.Pointer) error {
	if err := ISAError(); err != nil {
		return err
	}
	c, err := p.enter()
	if err != nil {
		return err
	}
	// Run itself has few returns, so its defer is open-coded (inline at
	// each return) rather than run through the runtime's defer records, a
	// cost a small product would see.
	defer p.leave(c)
	plan, err := c.planFor(spec, t, ops)
	if err != nil {
		return err
	}
	return c.runPlan(plan, t, ops, alpha, beta)
}

// planFor is the plan of a call of spec on ops: the call slot's last one
// when the call repeats it, without hashing.
func (c *call) planFor(spec string, t *typed.Ops, ops *[3]Operand) (*Plan, error) {
	if plan := c.last; plan != nil && plan.key.same(spec, t.Type.Name, ops) {
		return plan, nil
	}
	plan, err := lookupPlan(spec, t, ops)
	if err != nil {
		return nil, err
	}
	c.last = plan
	return plan, nil
}

// runPlan is Run on the call slot c, with the call's plan.
func (c *call) runPlan(plan *Plan, t *typed.Ops, ops *[3]Operand, alpha, beta unsafe.Pointer) error {
	if err := plan.checkCall(ops, t.Type.Size); err != nil {
		return err
	}
	if plan.Empty {
		return nil
	}
	if plan.reduce != nil {
		return c.runReduced(plan.reduce, t, ops, alpha, beta)
	}
	c.bind(plan, t, ops, alpha, beta)
	c.chooseTeam()
	if c.direct && (c.form == formComplex || c.form == formComplexRows) {
		return c.runComplexFew()
	}
	if c.direct || c.dots {
		if c.members == 1 {
			// Nothing to pack and nobody to hand work to: no workspace.
			if c.dots {
				c.dotsOf(0, 1)
			} else {
				c.directSolo()
			}
			return nil
		}
		c.req = workspace.Req{}
		return c.runTeam()
	}
	// Panels: one per member running alone over its batch elements, or two
	// that a shared team's rounds alternate between.
	nPanels := 1
	switch {
	case c.batchPar:
		nPanels = c.members
	case c.members > 1:
		nPanels = 2
	}
	// The buffers hold whole slivers: MR rows (NR columns) for each run.
	padded := c.blk
	padded.MC = c.tileM.count(c.blk.MC) * c.blk.MR
	padded.NC = c.tileN.count(c.blk.NC) * c.blk.NR
	// A B read in place (readsBInPlace) needs no panel.
	pn := nPanels
	if c.bInPlace {
		pn = 0
	}
	c.req = t.Req(padded, 1, pn, scatterLen(c.blk, c.mapLen()), 0)
	c.lease = c.pool.arena.TakeTeam(c.req, 1, nPanels)
	defer c.lease.Release()
	if c.req.BBytes > 0 {
		panel := c.lease.Panel(c.req.BBytes)
		per := len(panel) / nPanels
		for g := 0; g < nPanels; g++ {
			c.panels = append(c.panels, panel[g*per:(g+1)*per:(g+1)*per])
		}
	} else {
		for range nPanels {
			c.panels = append(c.panels, nil)
		}
	}
	return c.runTeam()
}

// runTeam hands members 1.. to the helpers, runs member 0 on the calling
// goroutine, and waits for the helpers.
func (c *call) runTeam() error {
	c.pending.Store(int32(len(c.helpers)))
	for i, w := range c.helpers {
		w.start(c, i+1)
	}
	c.runMember(0, c.h)
	c.wait()
	c.pool.release(c)
	return nil
}

// tileOf is the register tile of t's kernel, in elements of t, with the
// path's other tile heights for t's real type.
func tileOf(t *typed.Ops) Tile {
	k, _ := KernelFor(t.Type.Real)
	cf := 1
	if t.Type.Complex {
		cf = 2
	}
	tile := Tile{MR: k.MR / cf, NR: k.NR, Size: t.Type.Size, Complex: t.Type.Complex}
	if cf == 1 {
		tile.Cross = packXLanes(k, t.RealSize)
	}
	tile.Lanes = max(1, vecLanes(k, t.RealSize)/cf)
	n := 0
	for _, v := range variants(k, cf) {
		if n < len(tile.Short) {
			tile.Short[n] = v.MR / cf
			n++
		}
	}
	return tile
}

// variants are the path's other rows for k's real type whose tiles hold
// whole elements of complexity cf, in table order. No allocation: it runs
// once per plan and per call that picks a tile.
func variants(k *kernels.Kernel, cf int) iter.Seq2[int, *kernels.Kernel] {
	return func(yield func(int, *kernels.Kernel) bool) {
		for i := range kernels.Kernels {
			v := &kernels.Kernels[i]
			if v != k && v.ISA == k.ISA && v.Real == k.Real && v.MR%cf == 0 && !yield(i, v) {
				return
			}
		}
	}
}

// bind fills the call record for one call.
func (c *call) bind(plan *Plan, t *typed.Ops, ops *[3]Operand, alpha, beta unsafe.Pointer) {
	c.plan = plan
	if c.ops != t {
		// The path is fixed for the process: a record keeps its type's
		// kernel, and its ones, zero and i, from call to call.
		c.ops = t
		c.mainKern, c.mainFn = KernelFor(t.Type.Real)
		// One, in the element type and in its real type: the real part
		// of a complex one is the real one, and its imaginary part is
		// zero.
		c.one, c.kone, c.kzero = scalar{}, scalar{}, scalar{}
		copy(c.one[:t.RealSize], realOne(t.RealSize))
		copy(c.kone[:t.RealSize], realOne(t.RealSize))
		// i, for a complex type (formComplexRows): its imaginary part
		// is the real one.
		c.imagUnit = scalar{}
		if t.Type.Complex {
			copy(c.imagUnit[t.RealSize:], realOne(t.RealSize))
		}
	}
	c.setKernel(c.mainKern, c.mainFn)
	c.tsize, c.rsize = t.Type.Size, t.RealSize
	c.cf = 1
	if t.Type.Complex {
		c.cf = 2
	}

	for o := 0; o < 3; o++ {
		src := o
		if plan.Swapped && o != opC {
			src = 1 - o
		}
		c.base[o] = unsafe.Add(ops[src].Data, ops[src].Offset*c.tsize)
	}

	// Each scalar is written from its source, never copied whole from
	// another just written: a 16-byte load of bytes that narrower stores
	// wrote a moment before is not forwarded and stalls the call.
	setScalar(&c.alpha, alpha, c.tsize)
	setScalar(&c.beta, beta, c.tsize)
	if c.cf == 1 {
		setScalar(&c.kalpha, alpha, c.tsize)
		setScalar(&c.kbeta, beta, c.tsize)
		c.alphaB, c.betaDirect = nil, true
		return
	}
	// Complex: a real alpha (zero imaginary part) is the kernel's, and B is
	// packed as it is (by the assembly packers where they apply); any
	// other alpha is folded into B's packing and the kernel's is 1. A beta
	// with a zero imaginary part is a real the kernel can apply.
	if allZero(c.alpha[c.rsize:c.tsize]) {
		setScalar(&c.kalpha, alpha, c.rsize)
		c.alphaB = nil
	} else {
		c.kalpha = c.kone // set when the type was, long before
		c.alphaB = &c.alpha[0]
	}
	c.betaDirect = allZero(c.beta[c.rsize:c.tsize])
	setScalar(&c.kbeta, beta, c.rsize)
}

// setScalar sets dst to the n bytes at src and the rest of dst to zero,
// with fixed-size moves of at most 8 bytes (a copy of a variable length
// calls memmove; a 16-byte load right after the caller's two 8-byte
// stores of a complex128 would stall).
func setScalar(dst *scalar, src unsafe.Pointer, n int) {
	d := unsafe.Pointer(dst)
	lo, hi := (*[8]byte)(d), (*[8]byte)(unsafe.Add(d, 8))
	switch n {
	case 4:
		*lo = [8]byte{}
		*(*[4]byte)(d) = *(*[4]byte)(src)
		*hi = [8]byte{}
	case 8:
		*lo = *(*[8]byte)(src)
		*hi = [8]byte{}
	case 16:
		*lo = *(*[8]byte)(src)
		*hi = *(*[8]byte)(unsafe.Add(src, 8))
	default:
		*dst = scalar{}
		copy(dst[:n], unsafe.Slice((*byte)(src), n))
	}
}

// unit32 and unit64 are 1 of any element type whose reals are 4 or 8
// bytes: the IEEE encoding of a real 1 (little endian, as on every target
// with assembly kernels; the pure-Go paths read it back with the same byte
// order through unsafe), then zeros (an imaginary part, if any).
// zeroScalar is 0 of any element type.
var (
	unit32     = scalar{0, 0, 0x80, 0x3f}
	unit64     = scalar{0, 0, 0, 0, 0, 0, 0xf0, 0x3f}
	zeroScalar scalar
)

// unitOf is 1 of an element type whose reals are size bytes.
func unitOf(size int) *scalar {
	if size == 4 {
		return &unit32
	}
	return &unit64
}

// realOne is the encoding of 1 in a real of size bytes.
func realOne(size int) []byte { return unitOf(size)[:size] }

func allZero(b []byte) bool {
	for _, x := range b {
		if x != 0 {
			return false
		}
	}
	return true
}

// chooseTeam picks the team size (as many idle workers as the problem can
// use) and the blocking, and lays out the rounds' units.
func (c *call) chooseTeam() {
	p := c.plan
	mr, nr := c.kern.MR/c.cf, c.kern.NR
	flops := p.Flops(c.cf == 2)
	want := 1
	if flops >= parallelFlops {
		want = min(c.pool.threads, int(math.Min(flops/parallelFlops, 1<<20)))
		if !c.batchWorthwhile(want) {
			want = min(want, ceilDiv(p.M.Size, mr)*ceilDiv(p.N.Size, nr))
		}
	}
	c.pool.acquire(c, want-1)
	c.members = 1 + len(c.helpers)
	c.batchPar = c.members > 1 && c.batchWorthwhile(c.members)
	var tb blocks
	if testBlocks != nil {
		tb = *testBlocks
	}
	if k := &c.chosenFor; k.plan == p && k.ops == c.ops && k.main == c.mainKern &&
		k.members == c.members && k.batchPar == c.batchPar && k.testBlocks == tb {
		// Compared field by field: a key built here and compared whole
		// is read back in wider words than it was written, which stalls
		// (setOperand says why): 6% of a float32 GEMM 1³.
		c.choice = c.chosen
	} else {
		if testChoose != nil {
			testChoose()
		}
		c.choose()
		c.chosen = c.choice
		c.chosenFor = choiceKey{plan: p, ops: c.ops, main: c.mainKern, members: c.members, batchPar: c.batchPar, testBlocks: tb}
	}
	// What depends on the scalars or on the call in flight.
	c.bInPlace = !c.direct && !c.dots && c.readsBInPlace()
	if !c.direct && !c.dots && c.members > 1 && !c.batchPar && p.K.Size > 0 {
		rounds := p.Batch.Size * ceilDiv(p.N.Size, c.blk.NC) * ceilDiv(p.K.Size, c.blk.KC)
		c.sync.prepare(c.members, rounds, c.units)
	}
}

// testChoose, when set by a test, is called each time a call makes its
// choice rather than reuse its record's last one.
var testChoose func()

// choose makes the call's choice (chooseTeam): the direct path, or the
// packed path's tile, blocking and units; on the AVX-512 path, AVX2's
// row for runs that only its half maps fit (halfmaps.go).
func (c *call) choose() {
	c.chooseOn()
	if k := c.halfMapsRow(); k != nil {
		c.setKernel(k, funcOf(k))
		c.chooseOn()
	}
}

// setKernel makes k (fn its function on the path) the call's kernel row:
// its tile and column kernel with it.
func (c *call) setKernel(k *kernels.Kernel, fn kernels.Func) {
	c.kern, c.fn, c.tilesFn = k, fn, k.Tiles
	c.mrR, c.nrR = k.MR, k.NR
}

// chooseOn is choose for the call's kernel row (c.kern): shortTile and
// crossTile pick among that row's path.
func (c *call) chooseOn() {
	p := c.plan
	mr, nr := c.kern.MR/c.cf, c.kern.NR
	c.rowMaps, c.runsFn, c.mapsFn, c.groupSl = false, nil, nil, 0
	c.units, c.unitCols, c.unitAlign, c.ownSlivers = 0, 0, 0, false
	c.direct, c.dots = false, c.dotsFit()
	if c.dots {
		return
	}
	c.direct = c.directFits()
	if c.direct {
		return
	}

	kb := blocksFor(c.kern)
	kcMax := max(1, kb.KC/c.cf)
	kc := balance(p.K.Size, kcMax, 1)
	if g := c.depthCrossSteps(); g > 0 && g <= kcMax && p.K.Size > kcMax {
		// Every KC block whole groups of the depth-cross packer's runs:
		// a block's rest would be gathered element by element.
		kc = balance(p.K.Size, kcMax/g*g, g)
	}
	mCost := runCosts{depth: kc, realSize: c.rsize, pack: opA, across: nr, reuse: ceilDiv(p.N.Size, nr), cf: c.cf, rows: true}
	k := crossTile(&p.M, c.kern, c.cf)
	if k == nil {
		k = shortTile(&p.M, c.kern, c.cf, mCost)
	}
	if k != c.kern {
		c.setKernel(k, funcOf(k))
		mr, nr = k.MR/c.cf, k.NR
		kb = blocksFor(k)
	}
	c.tileM, _ = alignRuns(&p.M, mr, mCost, c.kern)
	fit := rowMapsFit(&p.M, c.kern, c.cf, c.rsize)
	c.tileN, _ = alignRuns(&p.N, nr, runCosts{depth: kc, realSize: c.rsize, pack: opB, across: mr, reuse: ceilDiv(p.M.Size, mr), cf: c.cf, mapped: fit}, c.kern)
	// Maps only where some tile straddles runs: a GEMM-shaped call
	// builds none.
	c.rowMaps = fit && (straddles(&p.M, c.tileM) || straddles(&p.N, c.tileN))
	if c.rowMaps {
		c.runsFn, c.mapsFn, c.mapLanes = c.kern.Runs, c.kern.Maps, vecLanes(c.kern, c.rsize)
		c.mapWords = rowMapWords(c.mrR, c.mapLanes)
	}
	// MC and NC count rows and columns: as many slivers as the cache
	// sizes allow, in whole runs when the slivers follow runs.
	mcMax, ncMax := kb.MC, kb.NC
	if len(p.M.Dims) > 0 && p.M.Dims[0].S[opC] == 1 && p.M.Cross == 0 {
		mcMax = shallowMC(kb.MC, kb.KC, kc*c.cf)
	}
	if gathersA(p) && p.M.Cross == 0 {
		ncMax = shallowNC(kb.NC, kb.KC, kc*c.cf)
	}
	c.blk = blocking{
		MR: mr,
		NR: nr,
		MC: balance(p.M.Size, maxRows(c.tileM, mcMax/c.cf/mr), c.tileM.block()),
		KC: kc,
		NC: balance(p.N.Size, maxRows(c.tileN, ncMax/nr), c.tileN.block()),
	}
	// A group ordered for the cross-sliver packer: MC blocks of whole
	// groups of slivers, so that none is packed by a partial group. A
	// group taller than MC (AVX-512: 16 float32 slivers of 48 rows) is
	// one block when the block's bytes stay within the L2 share MC and
	// KC allow, as they do at TCCG's shallow depths: otherwise each line
	// of the input is loaded by two or three blocks, a part each.
	if p.M.Cross == mr && c.cf == 1 {
		if g := packXLanes(c.kern, c.rsize) * mr; g > 0 {
			switch {
			case c.blk.MC >= g:
				c.blk.MC -= c.blk.MC % g
			case g*kc <= kb.MC/c.cf*kb.KC && p.M.Size >= g:
				c.blk.MC = g
			}
		}
	}
	// A shared round needs a few units per member to balance: short M is
	// made up with runs of B slivers. Blocks of C's shared lines (an
	// interleaved group) stay within one unit: MC and NC hold whole ones,
	// and so do the runs of B slivers.
	c.unitAlign = 1
	if c.members > 1 && !c.batchPar {
		if l, _ := c.tileM.whole(p.M.Lines); l > 0 && c.blk.MC >= l {
			c.blk.MC -= c.blk.MC % l
		}
		if l, sl := c.tileN.whole(p.N.Lines); l > 0 && c.blk.NC >= l {
			c.unitAlign = sl
			if c.blk.NC >= l*c.members {
				l *= c.members // as many blocks of lines as members
			}
			c.blk.NC -= c.blk.NC % l
		}
	}
	c.groupSl = c.groupedSlivers(c.blk.KC)
	blocks := ceilDiv(p.M.Size, max(c.blk.MC, 1))
	c.unitCols = 1
	if c.members > 1 && !c.batchPar && !(blocks%c.members == 0 && gathersA(p)) {
		c.unitCols = max(1, min(ceilDiv(4*c.members, blocks), c.tileN.count(c.blk.NC)/c.unitAlign))
	}
	if c.members > 1 && !c.batchPar && blocks > 0 {
		c.unitCols = c.splitColumns(blocks, c.unitCols, c.tileN.count(c.blk.NC)/c.unitAlign)
	}
	c.units = blocks * c.unitCols
	// One MC block: units pack their own slivers (teamSync). On 2
	// threads, TCCG's abcd-dbea-ec went from 45-57 to 78-96 GFLOP/s at
	// float32 and 29-35 to 44-58 at float64, abcde-ecbfa-fd from 43-54 to
	// 62-77 and 26-30 to 33-52, and float32 GEMM 4096×64×4096 from
	// 215-226 to 241-283.
	c.ownSlivers = c.members > 1 && !c.batchPar && blocks == 1
}

// shallowMC is the largest MC (in reals) at a depth of kc reals, when C's
// rows of M's fastest dim are adjacent: the table's MC is for its KC, and
// A's block of MC×KC reals is what the L2 share holds, so a shallower block
// may hold more rows, up to MaxShallowMC times MC. C wants them: each B
// sliver's pass writes MC rows of each of its columns, pieces a column
// stride apart, and many short pieces are written slowly. Float64 GEMM
// 9216×4096×24 (C of 302 MB) on two Zen 5 threads wrote C at 13 GB/s in
// pieces of 160 rows, 62-79 GFLOP/s, and ran 130-134 with pieces 8 times as
// long (float32 160-184 to 251-257; on one thread 57-68 to 71-77 and
// 109-142 to 136-169); 4096×4096×32 on two threads 85-112 to 145-152
// (float64) and 182-272 to 291 (float32). 16 times was no faster. TCCG's
// ccsd_t contractions (depth 24, C's rows in runs of 16 or 20, which tiles
// straddle), over nine cases: 1.55 times as fast at float64 on two threads
// (geometric mean; 1.16 on one), 1.22 at float32 on two (1.05 on one).
// A group packed across slivers keeps its own rule (whole lane groups in
// the L2 share, below), and so the table's MC.
func shallowMC(mc, kcMax, kc int) int {
	return mc * shallowFactor(kcMax, kc, MaxShallowMC)
}

// shallowFactor is how many times the table's block a depth of kc reals
// may take, against the table's kcMax: kcMax/kc, from 1 to most.
func shallowFactor(kcMax, kc, most int) int {
	return min(most, max(1, kcMax/max(kc, 1)))
}

// MaxShallowMC bounds shallowMC's factor on the table's MC.
const MaxShallowMC = 8

// shallowNC is the largest NC (in columns) at a depth of kc reals when A's
// blocks are gathered element by element (gathersA; not a group the
// cross-sliver packer takes): the table's NC is for its KC, and B's panel
// of KC×NC reals is what the L3 share holds, so a shallower panel may hold
// more columns, up to MaxShallowNC times NC. Each NC panel packs every
// block of A again, and a gather costs far more than the assembly
// packers' copy: TCCG's ccsd_t contractions (depth 24, A gathered, four or
// five panels of the table's NC) then pack A once, and over their nine
// cases ran 1.03–1.05 times as fast at float32 and 1.00–1.04 at float64 on
// one thread, 1.04–1.08 and 1.05–1.07 on two (geometric means of their
// ratios to GEMM, two runs in turns). A's copied blocks keep the table's
// NC: at that depth a GEMM's B panel stays in L2 beside A's block, and
// float32 GEMM 9600×9600×24 ran 0.9 times as fast with NC four times
// wider, its panel in L3.
func shallowNC(nc, kcMax, kc int) int {
	return nc * shallowFactor(kcMax, kc, MaxShallowNC)
}

// MaxShallowNC bounds shallowNC's factor on the table's NC.
const MaxShallowNC = 8

// gathersA reports whether the packed A blocks are gathered element by
// element: A has a unit step neither along M's leading dim nor along K's.
// Each member that takes a unit of an MC block packs that block for
// itself, so units that split a block's columns repeat its packing once
// per member. That is cheap for blocks the assembly packers copy, but a
// gather can cost a quarter of the block's FMAs: TCCG's ab-acd-dbc at
// float32 on 2 threads, two blocks, ran at 143-187 GFLOP/s in units of a
// quarter block and 180-215 in whole blocks (float64 and complex, whose
// gather weighs less, the same). So when the blocks split evenly among the
// members, a unit is a whole block. Otherwise the shorter units still pay
// for balance: float32 GEMM at 512, two blocks the packers copy, ran 0.12
// slower in whole blocks.
func gathersA(p *Plan) bool {
	if len(p.M.Dims) == 0 || len(p.K.Dims) == 0 {
		return false
	}
	return absInt(p.M.Dims[0].S[opA]) != 1 && absInt(p.K.Dims[0].S[opA]) != 1
}

// alignRuns chooses how slivers of r rows tile a group, and its cost per
// useful row against a perfect fit. When the group's fastest dim has runs
// of e0 rows that are not whole tiles, a tile straddling two runs is
// irregular in C: the kernel writes it into its tile buffer and a write-back
// scatters it, about a tile's worth of cycles, a share fpc/depth of the
// kernel's own time (fpc its flops per cycle). Its sliver is irregular in
// the packed operand too: where whole runs would be packed by the
// assembly packers (a unit stride in the operand, pack), it is gathered,
// about gatherCycles an element, shared by the reuse tiles across (the
// other tile side) that read the sliver. Slivers restarting at every run
// waste the rows short of whole tiles instead, and are written directly.
// The cheaper one wins.
func alignRuns(g *Group, r int, o runCosts, k *kernels.Kernel) (tiling, float64) {
	if len(g.Dims) < 2 || o.depth <= 0 {
		return plainTiling(r), 1
	}
	e0 := g.Dims[0].Ext
	lanes := vecLanes(k, o.realSize)
	if e0%r == 0 || lanes == 0 {
		return plainTiling(r), 1
	}
	fpc := 4 * lanes // two FMA pipes, two flops each
	straddling := min(1, float64(r)/float64(e0))
	plain := 1 + float64(fpc)/float64(o.depth)*straddling
	if o.mapped || o.rows && rowMapsFit(g, k, o.cf, o.realSize) {
		// The straddling tiles are written directly through their row
		// maps, a few cycles more each (rowMapCycles); the others by the
		// plain kernel. Runs pages apart cost the AVX-512 row-map kernel
		// more (rowMapFarCycles), not AVX2's half maps, which prefetch
		// every vector's lines: on TCCG's abcdef-degc-gfab (float32, runs
		// of 20, 750 KB apart) charging them picked the 24-row tile
		// restarting at every run, 0.59 times as fast.
		extra := float64(rowMapCycles)
		if o.rows && farRuns(g, o.realSize*o.cf) && k.Maps == nil {
			extra = rowMapFarCycles
		}
		plain = 1 + straddling*extra/fmaCycles(k.MR, k.NR, o.depth*o.cf, lanes)
	}
	if absInt(g.Dims[0].S[o.pack]) == 1 && o.across > 0 && o.reuse > 0 {
		plain += straddling * 2 * float64(lanes) * gatherCycles / float64(o.across*o.reuse)
	}
	aligned := float64(ceilDiv(e0, r)*r) / float64(e0)
	if aligned < plain {
		return alignedTiling(r, e0), aligned
	}
	return plainTiling(r), plain
}

// rowMapCycles is what a tile written through its row map costs over a
// plain one (its second masked store per vector, its prefetches), and
// rowMapFarCycles the same when its runs lie pages apart: its vectors then
// store to two places that neither the prefetches nor the hardware bring
// in. Measured at depth 24 (TCCG's ccsd_t shapes, float64, a 32-row tile
// of 288 FMA cycles): 16-row tiles fitting runs of 16 beat 32-row ones
// straddling two runs by 5-10% with the runs 48 KB or more apart, and lose
// by 10-15% with them 2 KB apart. Per tile, so deep tiles hardly notice.
// A far straddling tile is also the first to write its second run, whose
// lines no prefetch has asked for: at 80, float32 runs of 480 rows 38 KB
// apart (TCCG abcdef-efgc-gdab, -gdac-efgb) took 64-row tiles, one in 7.5
// straddling, and ran at 0.77–0.83 of GEMM's rate on one thread; at 150
// they take 48-row tiles, ten a run, and ran at 0.90–1.01 (two threads:
// 0.64–0.88 to 0.72–1.12; in turns). Runs of 20 keep 64-row tiles up to
// about 250 (grouped.go).
const (
	rowMapCycles    = 12
	rowMapFarCycles = 150
)

// farRuns reports whether the runs of g's fastest dim lie pages apart in C
// (elements of size bytes): the stride of the next dim spans a page.
func farRuns(g *Group, size int) bool {
	return len(g.Dims) > 1 && absInt(g.Dims[1].S[opC])*size >= pageBytes
}

// pageBytes is the smallest page, within which runs count as near.
const pageBytes = 4096

// tileCallCycles is what a tile costs besides its FMAs: the call, clearing
// the accumulators and storing them. It matters at small depth, where
// taller tiles pay it over more rows: at depth 24 (TCCG's ccsd_t) the
// float32 64-row tile runs 1.15-1.2 times the rate of the 32-row one on
// runs of 480 rows that the 32-row tile fits and the 64-row one straddles
// every 7.5 tiles (abcdef-efga-gdbc, -efgc-gdab, -gdac-efgb).
const tileCallCycles = 60

// fmaCycles is the time of a tile's FMAs, rows·cols reals at depth steps:
// two FMA pipes of lanes reals each.
func fmaCycles(rows, cols, depth, lanes int) float64 {
	return max(1, float64(depth)*float64(rows)*float64(cols)/float64(2*lanes))
}

// tileCost is a tile's time against its FMAs alone.
func tileCost(rows, cols, depth, lanes int) float64 {
	return 1 + tileCallCycles/fmaCycles(rows, cols, depth, lanes)
}

// gatherCycles is about what the typed packers take per element gathered.
const gatherCycles = 2

// runCosts is what alignRuns weighs besides the group: the depth of a
// block, the real type's size, the operand packed along the group, the
// other tile side and how many tiles share a packed sliver; cf (2 for
// complex); rows when the group is M (C's rows, which a row map can
// place), mapped when it is N and its tiles are written through row maps
// and column offsets.
type runCosts struct {
	depth, realSize, pack, across, reuse int
	cf                                   int
	rows, mapped                         bool
}

// maxRows is how many rows (columns) a block of at most slivers slivers
// holds: whole runs when the slivers follow runs.
func maxRows(t tiling, slivers int) int {
	slivers = max(1, slivers)
	if !t.aligned() {
		return slivers * t.r
	}
	return max(1, slivers/t.per) * t.e0
}

// shortTile picks, among the path's rows for k's real type (k first), the
// tile whose rows cost least for M: runs (alignRuns), the last tile's
// unused rows, which decide a short M, and each tile's own overhead
// (tileCost), which favours tall tiles at small depth. The first row wins
// ties: its tile is the fastest when it fits.
func shortTile(g *Group, k *kernels.Kernel, cf int, o runCosts) *kernels.Kernel {
	if g.Size <= 0 || o.depth <= 0 {
		return k
	}
	cost := func(v *kernels.Kernel) float64 {
		r := v.MR / cf
		t, c := alignRuns(g, r, o, v)
		if !t.aligned() {
			// Aligned tiling counts its short tiles; plain tiling
			// wastes only the last one's rows.
			c *= float64(ceilDiv(g.Size, r)*r) / float64(g.Size)
		}
		if lanes := vecLanes(v, o.realSize); lanes > 0 {
			c *= tileCost(v.MR, v.NR, o.depth*cf, lanes)
		}
		return c
	}
	best, bestCost := k, cost(k)
	for _, v := range variants(k, cf) {
		if c := cost(v); c < bestCost {
			best, bestCost = v, c
		}
	}
	return best
}

// funcOf is a row's kernel on the path in use: its assembly where built.
func funcOf(k *kernels.Kernel) kernels.Func {
	if k.Asm != nil {
		return k.Asm
	}
	return k.Go
}

// batchWorthwhile reports whether a team of t should split the batch
// (each member running whole products) rather than each product.
func (c *call) batchWorthwhile(t int) bool {
	nb := c.plan.Batch.Size
	if nb < t {
		return false
	}
	per := c.plan.Flops(c.cf == 2) / float64(nb)
	return nb%t == 0 || nb >= 4*t || per < parallelFlops
}

// balance splits total into blocks of at most max (a multiple of align),
// all nearly equal and rounded up to align, so the last block is not a
// sliver.
func balance(total, max, align int) int {
	if total <= 0 {
		return 0
	}
	n := ceilDiv(total, max)
	b := ceilDiv(ceilDiv(total, n), align) * align
	return min(b, max)
}
