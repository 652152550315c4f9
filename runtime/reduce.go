package runtime

import (
	"slices"
	"strings"
	"unsafe"

	"github.com/tcontract/tcontract/generated/typed"
	"github.com/tcontract/tcontract/workspace"
)

// Labels summed out of one input, reduced first.
//
// A label only in A (or only in B) joins K with a step of 0 in the other
// input, so the GEMM loops sum it on the fly: correct, but every product
// is computed once for each of its values. "ij,jk->i" at 1000³ did a
// billion multiply-adds, 1.26 s at float32, for what is A times B's row
// sums (0.97 ms summed first: BenchmarkSummedOut). When that costs enough
// (reduceMinFlops), the plan instead sums the input over those labels
// into a buffer the size of what is left of it (the reduced input, dense,
// its labels in their order in the input), a
// contraction of its own whose every label of C is a batch label (the
// input against a 1 of zero strides: dots.go), and then runs the
// contraction on the reduced input. The buffer is the arena's, leased for
// the call, and bounded (reduceMaxBytes): a larger one is summed on the
// fly as before.

// reduceMinFlops is the least work a reduction saves, in flops of the
// plan summing on the fly less those of the plan on the reduced input,
// for the plan to reduce first: below it the extra run costs more than it
// saves.
const reduceMinFlops = 1e5

// reduceMaxBytes bounds the buffer of a reduced input.
const reduceMaxBytes = 64 << 20

// reduction is a plan's first step for input op (in the caller's order):
// sum sums op over its own labels into the buffer (view), main is the
// contraction on it.
type reduction struct {
	op        int
	view      View // the reduced input: dense, row-major
	ones      View // the 1 the sum multiplies op by: op's shape, zero strides
	sum, main *Plan
}

// planReduce sets the plan's reduction, if any: of A, else of B (the
// plan on the reduced input then plans B's). sp, views and tile are
// NewPlan's.
func (p *Plan) planReduce(sp Spec, views [3]View, tile Tile) error {
	if p.Empty {
		return nil
	}
	labels := [3]string{sp.A, sp.B, sp.C}
	for _, o := range []int{opA, opB} {
		other := labels[1-o]
		// Each group's index space is checked, but the kept labels may
		// span several groups: their product is checked here.
		var keep []byte
		keepSize, sumSize, fits := 1, 1, true
		for d := 0; d < len(labels[o]); d++ {
			l := labels[o][d]
			if strings.IndexByte(labels[o][:d], l) >= 0 {
				continue // a diagonal: the label counts once
			}
			if e := views[o].Shape[d]; strings.IndexByte(other, l) < 0 && strings.IndexByte(sp.C, l) < 0 {
				sumSize *= e // within K's checked space
			} else {
				keep = append(keep, l)
				var ok bool
				keepSize, ok = mulInt(keepSize, e)
				fits = fits && ok
			}
		}
		if !fits || sumSize < 2 || keepSize == 0 || keepSize > reduceMaxBytes/max(tile.Size, 1) {
			continue
		}
		r := &reduction{op: o}
		r.view = View{Len: keepSize, Shape: make([]int, len(keep))}
		for i, l := range keep {
			r.view.Shape[i] = views[o].Shape[strings.IndexByte(labels[o], l)]
		}
		// The plan is cached: it keeps no slice of the caller's.
		r.ones = View{Len: 1, Shape: slices.Clone(views[o].Shape), Strides: make([]int, len(views[o].Shape))}
		var err error
		if r.sum, err = NewPlan(Spec{A: labels[o], B: labels[o], C: string(keep)}, views[o], r.ones, r.view, tile); err != nil {
			return err
		}
		mainSp, mainViews := sp, views
		mainViews[o] = r.view
		if o == opA {
			mainSp.A = string(keep)
		} else {
			mainSp.B = string(keep)
		}
		if r.main, err = NewPlan(mainSp, mainViews[opA], mainViews[opB], mainViews[opC], tile); err != nil {
			return err
		}
		if p.Flops(false)-r.main.Flops(false) < reduceMinFlops {
			continue
		}
		p.reduce = r
		return nil
	}
	return nil
}

// runReduced runs a plan with a reduction: the sum into a buffer leased
// for the call, then the contraction on it.
func (c *call) runReduced(r *reduction, t *typed.Ops, ops *[3]Operand, alpha, beta unsafe.Pointer) error {
	lease := c.pool.arena.TakeTeam(workspace.Req{}, 1, 1)
	defer lease.Release()
	buf := lease.Panel(r.view.Len * t.Type.Size)
	one := unsafe.Pointer(unitOf(t.RealSize))
	reduced := Operand{View: r.view, Data: unsafe.Pointer(&buf[0])}
	sum := [3]Operand{ops[r.op], {View: r.ones, Data: one}, reduced}
	if err := c.runPlan(r.sum, t, &sum, one, unsafe.Pointer(&zeroScalar)); err != nil {
		return err
	}
	// The record runs a second plan: it starts from what a call leaves
	// (its panels among it: packed runs append theirs).
	c.reset()
	main := *ops
	main[r.op] = reduced
	return c.runPlan(r.main, t, &main, alpha, beta)
}
