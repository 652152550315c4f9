package runtime

import (
	"sync/atomic"
	"unsafe"

	"github.com/tcontract/tcontract/generated/kernels"
	"github.com/tcontract/tcontract/generated/typed"
	"github.com/tcontract/tcontract/workspace"
)

// scalar holds one value of any element type (complex128 is the largest).
type scalar [16]byte

// call is one contraction bound to its operands, its blocking and its team:
// everything a team member reads. Records are reused by the pool, so a call
// allocates nothing in steady state.
type call struct {
	pool *Pool
	slot *callSlot         // the pool slot holding this record, if any
	h    *workspace.Worker // the calling goroutine's worker slot
	// last is the plan of this record's previous call: a caller repeating
	// a call finds it without hashing.
	last     *Plan
	plan     *Plan
	ops      *typed.Ops
	mainKern *kernels.Kernel // the type's kernel on the path in use
	mainFn   kernels.Func

	// Element sizes in bytes; cf is 2 for complex types, whose kernels run
	// on twice the rows and twice the depth (the 1m method), else 1.
	tsize, rsize, cf int

	// choice is what chooseTeam decided for this call; chosen and
	// chosenFor keep the last decision made and what it was made for.
	choice
	chosen    choice
	chosenFor choiceKey

	// base[o] is the address of the element at all-zero coordinates of A, B
	// and C in the plan's order (A and B exchanged when the plan is swapped).
	base [3]unsafe.Pointer

	alpha, beta, one scalar
	// The kernel computes in reals: kalpha is alpha for real types and for
	// complex ones with a real alpha, else 1, alpha then folded into B's
	// packing (alphaB, nil when the kernel applies alpha).
	kalpha, kone, kzero scalar
	alphaB              *byte
	// cross is formComplex's X, in a panel leased for the call, and
	// crossTile its members' tiles of Cᵀ when the kernel cannot write C, or
	// of R (formComplexRows; matvec_complex.go, matvec_complex_rows.go).
	cross, crossTile unsafe.Pointer
	// imagUnit is i in the record's complex type (formComplexRows), set
	// with its type (bind).
	imagUnit scalar
	// kbeta is the real beta the kernel applies on the first K block when it
	// can write C directly; betaDirect is false when a complex beta is not
	// real, and those tiles go through the tile and WriteBack.
	kbeta      scalar
	betaDirect bool

	// members is the team's size. Members share each round's work (units:
	// an MC block of rows times one of unitCols runs of B slivers), unless
	// batchPar: then each member is a team of one over its own batch
	// elements.
	members  int
	batchPar bool
	// bInPlace: a product whose B the direct kernel reads in place against
	// each packed sliver of A (inplaceb.go): a real one whose A rows are
	// strided, a complex one's B as its 1r layout.
	bInPlace bool
	sync     teamSync
	req      workspace.Req
	lease    *workspace.TeamLease
	panels   [][]byte // packed-B panel buffers

	helpers []*poolWorker
	pending atomic.Int32
	done    chan struct{}
}

// choice is what chooseTeam decides from the plan, the element type, the
// path's kernel and the team's size alone (choiceKey): a record that
// repeats a call takes its last choice whole rather than weigh tiles and
// blocks again, which took 8–12% of a small product on the packed path
// (complex64 GEMM 32³, a 4⁶ contraction).
type choice struct {
	// kern is the call's kernel: the type's (mainKern), or a shorter tile
	// for a C of short runs (shortTile).
	kern *kernels.Kernel
	fn   kernels.Func
	// tilesFn is kern's column kernel (nil where it has none): one call
	// for a run of like tiles that share a B sliver (tiles.go).
	tilesFn kernels.TilesFunc

	blk      typed.Blocking // in elements of T
	mrR, nrR int            // the kernel's tile in reals
	// tileM and tileN map slivers to the rows and columns of T they hold:
	// whole tiles, or tiles restarting at every run of M's (N's) fastest
	// dim, so that no tile straddles two runs (see alignRuns).
	tileM, tileN tiling
	// rowMaps: tiles of M straddle runs of C's rows and the kernel with a
	// row map (runsFn), or the column kernel with half maps (mapsFn, one
	// of the two nil), writes them directly; mapWords is one sliver's map.
	rowMaps            bool
	runsFn             kernels.RunsFunc
	mapsFn             kernels.MapsFunc
	mapWords, mapLanes int
	// groupSl is the slivers of B a group of grouped tiles holds, 0 for
	// BLIS's order (grouped.go).
	groupSl int

	// units: an MC block of rows times one of unitCols runs of B slivers.
	// unitAlign is the slivers a unit's run is a multiple of, so that no
	// two units write one block of C's shared lines.
	units, unitCols, unitAlign int
	// ownSlivers: each unit packs its own B slivers, not the team the
	// whole panel (one MC block: no two units read one sliver).
	ownSlivers bool
	direct     bool       // the direct path: nothing packed
	form       directForm // on it, how the kernel takes the product (matvec.go)
	dots       bool       // products of one element of C each (dots.go)
	tall       bool       // on it, a tall product row tile by row tile (directTall)
	step       int        // on it, the depth of a step of directGemm's tiles
	// tallAhead: how many runs ahead a tall product's members fetch A
	// (tallahead.go); 0 for none.
	tallAhead int
}

// choiceKey is what a choice depends on. The plan fixes the shapes and
// strides (a plan rebuilt for them is a new one, so an old choice is never
// taken for it); ops the element type; main the path; testBlocks the
// blocksizes a test set (testBlocks), zero when none.
type choiceKey struct {
	plan       *Plan
	ops        *typed.Ops
	main       *kernels.Kernel
	members    int
	batchPar   bool
	testBlocks blocks
}

func newCall(p *Pool, threads int) *call {
	return &call{
		pool:    p,
		h:       p.arena.NewWorker(),
		panels:  make([][]byte, 0, threads),
		helpers: make([]*poolWorker, 0, threads),
		done:    make(chan struct{}, 1),
	}
}

// reset drops the references a finished call holds, so a pooled record does
// not keep operands alive.
func (c *call) reset() {
	c.plan, c.alphaB, c.lease = nil, nil, nil
	c.base = [3]unsafe.Pointer{}
	for i := range c.panels {
		c.panels[i] = nil
	}
	c.panels = c.panels[:0]
}

// runMember runs member m of the team with worker slot h.
func (c *call) runMember(m int, h *workspace.Worker) {
	c.pool.arena.WithWorker(h, c.req, func(b workspace.WorkerBufs) {
		c.member(m, b)
	})
}

// finish is a helper's last act on a call.
func (c *call) finish() {
	if c.pending.Add(-1) == 0 {
		c.done <- struct{}{}
	}
}

// wait returns when every helper has finished: it polls first, since helpers
// usually finish within microseconds of the caller, then blocks.
func (c *call) wait() {
	if len(c.helpers) == 0 {
		return
	}
	if poll(func() bool {
		select {
		case <-c.done:
			return true
		default:
			return false
		}
	}) {
		return
	}
	<-c.done
}
