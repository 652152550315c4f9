package main

import (
	"github.com/mmcloughlin/avo/operand"

	"github.com/tcontract/tcontract/asm/internal/x86"
)

// packer emits PackA (op "a", w = MR) or PackB (op "b", w = NR) of the row.
func packer(pk *x86.Packer) {
	pk.Begin(pk.Doc("AVX-512", "rowStep == 1 (a masked vector copy per step) and kStep == 1 (register transposes) are fast; other steps go element by element.")...)
	packCopy(pk)
	if pk.Op == "a" {
		pk.Transpose(transposeA(pk))
	} else {
		pk.Transpose(transposeB(pk))
	}
	pk.Scalar()
}

// packCopy is the rowStep == 1 path: for each step p, the rows elements at
// src + p·kStep are one masked load per vector (lanes past rows are zeroed
// and never read) and one store; a vector that runs past w stores under a
// mask so the sliver is written exactly. Wide steps prefetch ahead
// (x86.WideAhead).
func packCopy(pk *x86.Packer) {
	c := pk.Ctx
	o := x86.OpsFor(c, pk.Size)
	L := pk.Lanes
	nvec := (pk.W + L - 1) / L
	if nvec > 6 {
		panic(pk.K.Name() + ": sliver too wide for one opmask per vector")
	}
	c.Label("copy")
	c.SHLQ(pk.Shift(), x86.KS)
	// K(v+1): lanes of vector v below rows; K7: the lanes of the last vector
	// below w.
	pk.LaneMasks(x86.Rows, nvec)
	tail := pk.W % L
	if tail != 0 {
		c.MOVL(operand.U32(1<<tail-1), x86.P0.As32())
		c.KMOVW(x86.P0.As32(), x86.Opmask(7))
	}
	S := pk.W * pk.Size
	if nvec == 1 && tail != 0 {
		// A sliver narrower than a vector (PackB): the narrowest vector that
		// holds a step, stored whole at each step but the last (the next
		// step's store overwrites the excess; a vector of at most two steps
		// never reaches past the sliver before the last), which stores
		// under the mask of w lanes.
		vec, V := x86.Z, 64
		switch {
		case S <= 16:
			vec, V = x86.X, 16
		case S <= 32:
			vec, V = x86.Y, 32
		}
		if V <= 2*S {
			narrow := func(u int) {
				r := vec(max(u, 0))
				o.MovZ(x86.Mem(x86.PS, 0), x86.Opmask(1), r)
				o.Mov(r, x86.Mem(x86.PD, max(u, 0)*S))
				c.ADDQ(x86.KS, x86.PS)
			}
			c.DECQ(x86.PK)
			pk.Loop("c", 4, S, narrow)
			o.MovZ(x86.Mem(x86.PS, 0), x86.Opmask(1), vec(0))
			o.Mov(vec(0), x86.Opmask(7), x86.Mem(x86.PD, 0))
			pk.Return()
			return
		}
	}
	// The slivers here are a line wide or more (PackB's narrower ones took
	// the path above): every line of the step WideAhead steps on.
	pk.AheadSetup(x86.P5, x86.WideAhead)
	step := func(u int) {
		d := 0
		if u > 0 {
			d = u * S
		}
		pk.PrefetchAhead(x86.P5, S)
		for v := 0; v < nvec; v++ {
			z := x86.Z(v + nvec*max(u, 0))
			o.MovZ(x86.Mem(x86.PS, 64*v), x86.Opmask(v+1), z)
			if v == nvec-1 && tail != 0 {
				o.Mov(z, x86.Opmask(7), x86.Mem(x86.PD, d+64*v))
			} else {
				o.Mov(z, x86.Mem(x86.PD, d+64*v))
			}
		}
		c.ADDQ(x86.KS, x86.PS)
	}
	pk.Loop("c", 4, S, step)
	pk.Return()
}
