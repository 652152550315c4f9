package main

import (
	"fmt"

	"github.com/mmcloughlin/avo/attr"
	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"

	"github.com/tcontract/tcontract/asm/internal/x86"
)

// The kStep == 1 paths: row j's next L steps are loaded into Z(j), rows past
// rows are zeroed (the chain of x86.Transpose), and the registers are
// turned into the sliver's vectors: an L×L transpose for PackA (blocks of
// L rows), permutes that interleave the w < L rows for PackB.

// rowOps are the loads, the tail mask (K1: the first TC lanes) and the
// zeroing shared by both packers.
func rowOps(pk *x86.Packer, o x86.Ops) x86.TransposeOps {
	c := pk.Ctx
	return x86.TransposeOps{
		L:        pk.Lanes,
		Load:     func(j int, addr operand.Mem) { o.Mov(addr, x86.Z(j)) },
		LoadTail: func(j int, addr operand.Mem) { o.MovZ(addr, x86.Opmask(1), x86.Z(j)) },
		TailMask: func() {
			c.MOVQ(operand.I32(-1), x86.TT)
			c.BZHIQ(x86.TC, x86.TT, x86.TT)
			c.KMOVW(x86.TT.As32(), x86.Opmask(1))
		},
		Zero: func(j int) { c.VPXORD(x86.Z(j), x86.Z(j), x86.Z(j)) },
	}
}

// transposeA is PackA's: blocks of L rows, one L×L transpose per chunk,
// the steps' vectors stored w reals apart.
func transposeA(pk *x86.Packer) x86.TransposeOps {
	c := pk.Ctx
	o := x86.OpsFor(c, pk.Size)
	t := rowOps(pk, o)
	t.Block = t.L
	var out []reg.VecPhysical
	t.Transpose = func() {
		if pk.Size == 4 {
			out = transpose16x16(c)
		} else {
			out = transpose8x8(c)
		}
	}
	t.StoreChunk = func(tail bool) {
		pk.StoreSteps(t.L, tail, func(s int, addr operand.Mem) { o.Mov(out[s], addr) })
	}
	t.StoreZero = func(addr operand.Mem) {
		c.VPXORD(x86.Z(31), x86.Z(31), x86.Z(31))
		o.Mov(x86.Z(31), addr)
	}
	return t
}

// transpose16x16 transposes the float32 rows Z0–Z15 (lane p of Z(i) is
// element (i, p)) in four stages of 16 shuffles, and returns the registers
// holding steps 0…15 (lane i of step p's register is element (i, p)).
func transpose16x16(c *build.Context) []reg.VecPhysical {
	z := x86.Z
	// Rows 2i, 2i+1 interleaved: in each 128-bit lane, steps 0,1 (lo) or
	// 2,3 (hi) of the pair.
	for i := 0; i < 8; i++ {
		c.VUNPCKLPS(z(2*i+1), z(2*i), z(16+2*i))
		c.VUNPCKHPS(z(2*i+1), z(2*i), z(16+2*i+1))
	}
	// Rows 4g…4g+3 at step 4l+s in lane l of Z(4g+s).
	for g := 0; g < 4; g++ {
		t := 16 + 4*g
		c.VUNPCKLPD(z(t+2), z(t), z(4*g))
		c.VUNPCKHPD(z(t+2), z(t), z(4*g+1))
		c.VUNPCKLPD(z(t+3), z(t+1), z(4*g+2))
		c.VUNPCKHPD(z(t+3), z(t+1), z(4*g+3))
	}
	return blockTranspose(c, func(u operand.U8, a, b, d reg.VecPhysical) { c.VSHUFF32X4(u, b, a, d) }, 4)
}

// transpose8x8 is transpose16x16 for the float64 rows Z0–Z7.
func transpose8x8(c *build.Context) []reg.VecPhysical {
	z := x86.Z
	// Rows 2g, 2g+1 at step 2l+s in lane l of Z(16+2g+s).
	for g := 0; g < 4; g++ {
		c.VUNPCKLPD(z(2*g+1), z(2*g), z(16+2*g))
		c.VUNPCKHPD(z(2*g+1), z(2*g), z(16+2*g+1))
	}
	return blockTranspose(c, func(u operand.U8, a, b, d reg.VecPhysical) { c.VSHUFF64X2(u, b, a, d) }, 2)
}

// blockTranspose finishes a transpose whose in-lane stages left, for each
// group g of e rows (4 groups; e reals per 128-bit lane) and s < e, a
// register whose lane l holds the group's rows at step e·l+s: Z(e·g+s) for
// float32 (e = 4), Z(16+e·g+s) for float64 (e = 2). Two stages of 128-bit
// lane shuffles (a 4×4 transpose of lanes) give step e·l+s as the
// concatenation over g of lane l. shuf(imm, a, b, dst) takes lanes 0–1
// from a and 2–3 from b.
func blockTranspose(c *build.Context, shuf func(u operand.U8, a, b, d reg.VecPhysical), e int) []reg.VecPhysical {
	z := x86.Z
	// Where the in-lane stages left group g, sub-step s, and where the two
	// lane stages write.
	in, mid, outBase := 0, 16, 0
	if e == 2 {
		in, mid, outBase = 16, 0, 16
	}
	src := func(g, s int) reg.VecPhysical { return z(in + e*g + s) }
	out := make([]reg.VecPhysical, 4*e)
	for s := 0; s < e; s++ {
		m := func(i int) reg.VecPhysical { return z(mid + 4*s + i) }
		shuf(0x44, src(0, s), src(1, s), m(0)) // lanes 0,1 of groups 0, 1
		shuf(0xee, src(0, s), src(1, s), m(1)) // lanes 2,3 of groups 0, 1
		shuf(0x44, src(2, s), src(3, s), m(2))
		shuf(0xee, src(2, s), src(3, s), m(3))
		for l := 0; l < 4; l++ {
			d := z(outBase + e*l + s)
			imm := operand.U8(0x88) // lanes 0, 2 of each source
			if l%2 == 1 {
				imm = 0xdd // lanes 1, 3
			}
			shuf(imm, m(l/2), m(2+l/2), d)
			out[e*l+s] = d
		}
	}
	return out
}

// transposeB is PackB's (w < L): the w row registers hold L steps each,
// and the sliver's next w·L reals are w vectors of the sequence (p·w + j).
// Rows are paired first (two-source permutes, giving each pair's steps in
// order), then each output vector gathers its 64-bit pieces from the few
// pair registers that hold them.
func transposeB(pk *x86.Packer) x86.TransposeOps {
	c := pk.Ctx
	o := x86.OpsFor(c, pk.Size)
	t := rowOps(pk, o)
	t.Block = pk.W
	w, L := pk.W, pk.Lanes
	if w%2 != 0 || w > 8 {
		panic(fmt.Sprintf("%s: PackB interleaves an even number of rows up to 8, not %d", pk.K.Name(), w))
	}
	tab := newPermTable(c, x86.PackName(pk.K, pk.Op)+"_perm")
	// Stage 1: pair t, half h holds steps h·L/2 … of rows 2t, 2t+1,
	// interleaved: lane 2q+e is element (2t+e, h·L/2+q).
	pair := func(t, h int) reg.VecPhysical { return x86.Z(8 + 2*t + h) }
	var idx1 [2]int
	for h := 0; h < 2; h++ {
		lanes := make([]int, L)
		for q := 0; q < L/2; q++ {
			for e := 0; e < 2; e++ {
				lanes[2*q+e] = e*L + h*L/2 + q
			}
		}
		idx1[h] = tab.add(lanes, pk.Size)
	}
	// Stage 2, in 64-bit pieces (8 per register): piece u of output v holds
	// reals v·L + u·(8/size)… of the sequence; find its pair register and
	// piece.
	per := 8 / pk.Size // reals per piece
	type src struct{ reg, piece int }
	need := make([][8]src, w)
	for v := 0; v < w; v++ {
		for u := 0; u < 8; u++ {
			q := v*L + u*per // first real of the piece
			p, j := q/w, q%w
			h, stepInHalf := p/(L/2), p%(L/2)
			// Lane of element (j, p) in pair(j/2, h) is 2·stepInHalf + j%2;
			// as a 64-bit piece that is lane·size/8.
			lane := 2*stepInHalf + j%2
			need[v][u] = src{reg: 2*(j/2) + h, piece: lane * pk.Size / 8}
		}
	}
	out := func(v int) reg.VecPhysical { return x86.Z(16 + v) }
	// The permutes, planned first so that their index vectors can be loaded
	// into registers once, before the loop. A VPERMI2 overwrites its index,
	// so it works on a copy (a register move, which costs no execution
	// port); a VPERMT2 overwrites its first table, the output built so far.
	type permute struct {
		i2      bool // VPERMI2 (fresh output) or VPERMT2 (into the output)
		real    bool // real-sized lanes (stage 1) or 64-bit pieces
		idx     int
		a, b, d reg.VecPhysical
	}
	var plan []permute
	for tp := 0; tp < w/2; tp++ {
		for h := 0; h < 2; h++ {
			plan = append(plan, permute{true, true, idx1[h], x86.Z(2 * tp), x86.Z(2*tp + 1), pair(tp, h)})
		}
	}
	for v := 0; v < w; v++ {
		var regs []int
		for _, s := range need[v] {
			if !containsInt(regs, s.reg) {
				regs = append(regs, s.reg)
			}
		}
		if len(regs) == 1 {
			regs = append(regs, regs[0])
		}
		first := make([]int, 8)
		for u, s := range need[v] {
			if s.reg == regs[0] {
				first[u] = s.piece
			} else if s.reg == regs[1] {
				first[u] = 8 + s.piece
			}
		}
		plan = append(plan, permute{true, false, tab.add(first, 8), x86.Z(8 + regs[0]), x86.Z(8 + regs[1]), out(v)})
		for _, r := range regs[2:] {
			next := make([]int, 8)
			for u, s := range need[v] {
				next[u] = u // keep what is there
				if s.reg == r {
					next[u] = 8 + s.piece
				}
			}
			plan = append(plan, permute{false, false, tab.add(next, 8), out(v), x86.Z(8 + r), out(v)})
		}
	}
	free := []reg.VecPhysical{x86.Z(6), x86.Z(7), x86.Z(14), x86.Z(15)}
	for i := 22; i < 32; i++ {
		free = append(free, x86.Z(i))
	}
	if tab.n > len(free) {
		panic(fmt.Sprintf("%s: %d permute indices, %d registers", pk.K.Name(), tab.n, len(free)))
	}
	t.Setup = func() {
		for i := 0; i < tab.n; i++ {
			c.VMOVDQU64(tab.at(i), free[i])
		}
	}
	t.Transpose = func() {
		for _, op := range plan {
			idx := free[op.idx]
			switch {
			case op.i2 && op.real && pk.Size == 4:
				c.VMOVDQA64(idx, op.d)
				c.VPERMI2PS(op.b, op.a, op.d)
			case op.i2:
				c.VMOVDQA64(idx, op.d)
				c.VPERMI2PD(op.b, op.a, op.d)
			default:
				c.VPERMT2PD(op.b, idx, op.d)
			}
		}
	}
	t.StoreChunk = func(tail bool) {
		if !tail {
			for v := 0; v < w; v++ {
				o.Mov(out(v), x86.Mem(x86.PD, 64*v))
			}
			return
		}
		// The tail's TC steps are w·TC reals: whole vectors, then one under
		// a mask.
		c.IMUL3Q(operand.U32(w), x86.TC, x86.TT)
		for v := 0; v < w; v++ {
			c.CMPQ(x86.TT, operand.U32(v*L))
			c.JLE(operand.LabelRef("tnext"))
			c.MOVQ(x86.TT, x86.RS)
			c.SUBQ(operand.U32(v*L), x86.RS)
			c.MOVQ(operand.I32(-1), x86.RS3)
			c.BZHIQ(x86.RS, x86.RS3, x86.RS3)
			c.KMOVW(x86.RS3.As32(), x86.Opmask(2))
			o.Mov(out(v), x86.Opmask(2), x86.Mem(x86.PD, 64*v))
		}
	}
	return t
}

func containsInt(s []int, x int) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}

// permTable is a read-only table of 64-byte permute index vectors.
type permTable struct {
	c     *build.Context
	mem   operand.Mem
	n     int
	known map[string]int
}

func newPermTable(c *build.Context, name string) *permTable {
	mem := c.StaticGlobal(name)
	c.DataAttributes(attr.RODATA | attr.NOPTR)
	return &permTable{c: c, mem: mem, known: map[string]int{}}
}

// add appends one index vector of 64/size entries (reusing an equal one)
// and returns its number.
func (t *permTable) add(lanes []int, size int) int {
	key := fmt.Sprint(size, lanes)
	if i, ok := t.known[key]; ok {
		return i
	}
	if len(lanes)*size != 64 {
		panic("permute index vector is not 64 bytes")
	}
	for _, l := range lanes {
		if size == 4 {
			t.c.AppendDatum(operand.U32(l))
		} else {
			t.c.AppendDatum(operand.U64(l))
		}
	}
	t.known[key] = t.n
	t.n++
	return t.n - 1
}

func (t *permTable) at(i int) operand.Mem { return t.mem.Offset(64 * i) }
