package main

import (
	"fmt"

	"github.com/tcontract/tcontract/internal/spec"
)

// The register plan of a kernel. C's columns live in registers: column j of
// the MR×NR tile is va consecutive vectors acc(j,0…va-1), so one VLD1/VST1
// moves a column of C and the tile spills to a column-major stack tile in
// register order. The vectors below the accumulators hold one k step of the
// slivers: va vectors of Ã (MR rows) and vb vectors of B̃ (NR columns, lanes
// columns per vector). A by-element FMLA multiplies a whole column of Ã by one
// lane of B̃, so a 16-byte load of B̃ serves lanes columns without broadcasts.
type plan struct {
	k       spec.Kernel
	arr     arrangement
	va, vb  int   // vectors of Ã and of B̃ per k step
	regs    int   // vector registers the path may use: V0…V(regs-1)
	accBase int   // first accumulator register; the rest up to regs accumulate
	aSets   []int // first register of each set Ã alternates over, step by step
	bReg    int   // first register of B̃
}

func newPlan(k spec.Kernel) (plan, error) {
	r, ok := spec.RealByName(k.Real)
	if !ok {
		return plan{}, fmt.Errorf("%s: unknown real type %q", k.Name(), k.Real)
	}
	arr, err := arrangementFor(r.Size)
	if err != nil {
		return plan{}, fmt.Errorf("%s: %v", k.Name(), err)
	}
	isa := neonISA()
	if isa.VecBytes != 16 || isa.VecRegs > 32 || isa.Lanes(r.Size) != arr.lanes {
		return plan{}, fmt.Errorf("%s: the NEON row of spec.ISAs (%+v) does not describe 128-bit V registers", k.Name(), isa)
	}
	p := plan{k: k, arr: arr, regs: isa.VecRegs}
	switch {
	case k.MR <= 0 || k.NR <= 0:
		return plan{}, fmt.Errorf("%s: MR and NR must be positive", k.Name())
	case k.MR%arr.lanes != 0:
		return plan{}, fmt.Errorf("%s: MR must be a multiple of %d lanes", k.Name(), arr.lanes)
	case k.NR%arr.lanes != 0:
		return plan{}, fmt.Errorf("%s: NR must be a multiple of %d lanes", k.Name(), arr.lanes)
	case k.Unroll < 1:
		return plan{}, fmt.Errorf("%s: Unroll must be at least 1", k.Name())
	case k.PrefetchA < 0 || k.PrefetchB < 0 || k.PrefetchA%8 != 0 || k.PrefetchB%8 != 0:
		return plan{}, fmt.Errorf("%s: prefetch distances must be non-negative multiples of 8", k.Name())
	}
	p.va, p.vb = k.MR/arr.lanes, k.NR/arr.lanes
	// VLD1/VST1 move at most four registers at once.
	if p.va > 4 || p.vb > 4 {
		return plan{}, fmt.Errorf("%s: a sliver step must fit one VLD1 (at most 4 vectors)", k.Name())
	}
	nacc := k.NR * p.va
	p.accBase = p.regs - nacc
	if p.accBase < p.va+p.vb {
		return plan{}, fmt.Errorf("%s: %d accumulators and %d sliver vectors exceed %d registers", k.Name(), nacc, p.va+p.vb, p.regs)
	}
	// Ã alternates between two register sets when the file has room, so a
	// step's load never waits on the previous step's last read.
	p.aSets = []int{0}
	p.bReg = p.va
	if 2*p.va+p.vb <= p.accBase {
		p.aSets = append(p.aSets, p.va+p.vb)
	}
	return p, nil
}

// neonISA is the NEON row of the ISA table.
func neonISA() spec.ISA {
	isa, ok := spec.ISAByName(spec.NEON)
	if !ok {
		panic("internal/spec has no NEON ISA")
	}
	return isa
}

func (p plan) acc(j, r int) int { return p.accBase + j*p.va + r }
func (p plan) size() int        { return p.arr.size }
func (p plan) tileBytes() int   { return p.k.MR * p.k.NR * p.size() }

// Scalar instruction names of the real type.
func (p plan) fmov() string {
	if p.size() == 4 {
		return "FMOVS"
	}
	return "FMOVD"
}
func (p plan) fcmp() string {
	if p.size() == 4 {
		return "FCMPS"
	}
	return "FCMPD"
}
func (p plan) fmadd() string {
	if p.size() == 4 {
		return "FMADDS"
	}
	return "FMADDD"
}
func (p plan) log2size() int {
	if p.size() == 4 {
		return 2
	}
	return 3
}

// Integer registers (R18 is the platform's, R26–R30 Go's):
//
//	R0 k          R1 Ã          R2 B̃          R3 unrolled trips  R4 remaining steps
//	R5 alpha/tmp  R6 beta       R7 C column   R8 csc in bytes    R9 n (columns left)
//	R10 tile      R11 m         R12 rsc (bytes in the scalar path)
//	R13 prefetch cursor         R14 C element R15 tile element   R19 rows left

// gemm emits the kernel of one table row.
func gemm(k spec.Kernel) ([]byte, error) {
	p, err := newPlan(k)
	if err != nil {
		return nil, err
	}
	name := k.Name()
	arr := p.arr.goArr
	w := &asmWriter{}
	w.raw("%s\n//go:build !purego\n\n#include \"textflag.h\"\n\n", header)
	w.raw("// func %s(k int, a, b, c *byte, rsc, csc, m, n int, alpha, beta *byte)\n", name)
	w.raw("//\n// C := alpha·Ã·B̃ + beta·C on the top-left m×n of a %d×%d %s tile.\n", k.MR, k.NR, k.Real)
	w.raw("// V%d–V%d accumulate: column j of the tile is V%d+%d·j … +%d.\n", p.accBase, p.regs-1, p.accBase, p.va, p.va-1)
	w.raw("// Ã steps load into V%d", p.aSets[0])
	for _, s := range p.aSets[1:] {
		w.raw(" and V%d alternately", s)
	}
	w.raw(", B̃ steps into V%d–V%d.\n", p.bReg, p.bReg+p.vb-1)
	w.raw("TEXT ·%s(SB), NOSPLIT, $%d-80\n", name, p.tileBytes())

	w.ins("MOVD k+0(FP), R0")
	w.ins("MOVD a+8(FP), R1")
	w.ins("MOVD b+16(FP), R2")
	w.ins("MOVD c+24(FP), R7")
	w.ins("MOVD csc+40(FP), R8")
	w.ins("LSL $%d, R8, R8", p.log2size())
	w.blank()

	w.comment("Touch the columns of C early: the write-back then finds them in cache.")
	w.ins("MOVD R7, R13")
	colBytes := k.MR * p.size()
	for j := 0; j < k.NR; j++ {
		w.ins("PRFM (R13), PLDL1KEEP")
		// A column may straddle two lines: touch its last 8 bytes too.
		if last := (colBytes - 1) &^ 7; last > 0 {
			w.ins("PRFM %d(R13), PLDL1KEEP", last)
		}
		if j < k.NR-1 {
			w.ins("ADD R8, R13, R13")
		}
	}
	w.blank()

	w.comment("Clear the accumulators.")
	for v := p.accBase; v < p.regs; v++ {
		w.ins("VEOR V%d.B16, V%d.B16, V%d.B16", v, v, v)
	}
	w.blank()

	w.comment("R3 trips of %d steps, then R4 single steps.", k.Unroll)
	w.ins("MOVD $%d, R5", k.Unroll)
	w.ins("UDIV R5, R0, R3")
	w.ins("MSUB R3, R0, R5, R4")
	w.ins("CBZ R3, tail")
	w.blank()
	w.label("loop")
	p.prefetch(w, "R1", k.PrefetchA, k.Unroll*k.MR*p.size())
	p.prefetch(w, "R2", k.PrefetchB, k.Unroll*k.NR*p.size())
	for s := 0; s < k.Unroll; s++ {
		p.step(w, s, s > 0, s < k.Unroll-1)
	}
	w.ins("SUBS $1, R3, R3")
	w.ins("BNE loop")
	w.blank()
	w.label("tail")
	w.ins("CBZ R4, scale")
	w.label("tailloop")
	p.step(w, 0, false, false)
	w.ins("SUBS $1, R4, R4")
	w.ins("BNE tailloop")
	w.blank()

	w.label("scale")
	w.comment("acc *= alpha; V1 = beta in every lane (F1 is its lane 0).")
	w.ins("MOVD alpha+64(FP), R5")
	w.ins("VLD1R (R5), [V0.%s]", arr)
	for v := p.accBase; v < p.regs; v++ {
		w.word(fmulVec(p.arr, v, v, 0), "FMUL V%d.%s, V%d.%s, V0.%s", v, p.arr.gnu, v, p.arr.gnu, p.arr.gnu)
	}
	w.ins("MOVD beta+72(FP), R6")
	w.ins("VLD1R (R6), [V1.%s]", arr)
	w.ins("MOVD m+48(FP), R11")
	w.ins("MOVD n+56(FP), R9")
	w.ins("MOVD rsc+32(FP), R12")
	w.comment("Columns of C are contiguous and whole: vector write-back.")
	w.ins("CMP $1, R12")
	w.ins("BNE scalar")
	w.ins("CMP $%d, R11", k.MR)
	w.ins("BNE scalar")
	w.ins("%s $(0.0), F1", p.fcmp())
	w.ins("BEQ vecbeta0")
	w.blank()

	w.comment("C(:,j) = acc(:,j) + beta·C(:,j) for j < n.")
	load := p.accBase - p.va // any free vectors below the accumulators
	if load < 2 {
		load = 2
	}
	for j := 0; j < k.NR; j++ {
		w.ins("CMP $%d, R9", j)
		w.ins("BLE done")
		w.ins("VLD1 (R7), %s", vlist(load, p.va, arr))
		for r := 0; r < p.va; r++ {
			w.ins("VFMLA V1.%s, V%d.%s, V%d.%s", arr, load+r, arr, p.acc(j, r), arr)
		}
		w.ins("VST1 %s, (R7)", vlist(p.acc(j, 0), p.va, arr))
		if j < k.NR-1 {
			w.ins("ADD R8, R7, R7")
		}
	}
	w.ins("RET")
	w.blank()

	w.label("vecbeta0")
	w.comment("beta == 0: C(:,j) = acc(:,j), C is never read.")
	for j := 0; j < k.NR; j++ {
		w.ins("CMP $%d, R9", j)
		w.ins("BLE done")
		w.ins("VST1 %s, (R7)", vlist(p.acc(j, 0), p.va, arr))
		if j < k.NR-1 {
			w.ins("ADD R8, R7, R7")
		}
	}
	w.ins("RET")
	w.blank()

	w.label("scalar")
	w.comment("Partial tile or strided rows: spill to the stack tile (column-major,")
	w.comment("leading dimension %d) and write element by element.", k.MR)
	w.ins("MOVD $tile-%d(SP), R10", p.tileBytes())
	for v := p.accBase; v < p.regs; v += 4 {
		n := min(4, p.regs-v)
		w.ins("VST1.P %s, %d(R10)", vlist(v, n, arr), n*16)
	}
	w.ins("MOVD $tile-%d(SP), R10", p.tileBytes())
	w.ins("LSL $%d, R12, R12", p.log2size())
	w.ins("CMP $0, R9")
	w.ins("BLE done")
	w.ins("CMP $0, R11")
	w.ins("BLE done")
	w.ins("%s $(0.0), F1", p.fcmp())
	w.ins("BEQ scalarbeta0")
	w.blank()
	p.scalarLoop(w, "s", true)
	w.label("scalarbeta0")
	p.scalarLoop(w, "z", false)
	w.label("done")
	w.ins("RET")
	return w.b.Bytes(), nil
}

// prefetch touches the cache lines one unrolled trip will read distance bytes
// ahead of ptr (which points at the trip's first step).
func (p plan) prefetch(w *asmWriter, ptr string, distance, tripBytes int) {
	if distance == 0 {
		return
	}
	for off := 0; off < tripBytes; off += 64 {
		w.ins("PRFM %d(%s), PLDL1KEEP", distance+off, ptr)
	}
}

// step emits one k step: NR·va by-element FMLAs, column by column, on the
// step's MR reals of Ã and NR of B̃ (loaded with post-increment). Inside an
// unrolled trip the next step's loads are issued during this one, so an
// in-order core does not stall on them at the step boundary: Ã into the
// other register set (where there is one) before the FMLAs, each vector of
// B̃ right after the FMLAs that last read its register. A trip's last step
// loads nothing ahead: the next step may not exist, and the slivers must not
// be read past their end. loaded says the previous step issued these loads.
func (p plan) step(w *asmWriter, s int, loaded, next bool) {
	arr := p.arr.goArr
	a := p.aSets[s%len(p.aSets)]
	twoSets := len(p.aSets) > 1
	if !loaded || !twoSets {
		w.ins("VLD1.P %d(R1), %s", p.k.MR*p.size(), vlist(a, p.va, arr))
	}
	if !loaded {
		w.ins("VLD1.P %d(R2), %s", p.k.NR*p.size(), vlist(p.bReg, p.vb, arr))
	}
	if next && twoSets {
		w.ins("VLD1.P %d(R1), %s", p.k.MR*p.size(), vlist(p.aSets[(s+1)%len(p.aSets)], p.va, arr))
	}
	for j := 0; j < p.k.NR; j++ {
		bv, idx := p.bReg+j/p.arr.lanes, j%p.arr.lanes
		for r := 0; r < p.va; r++ {
			d := p.acc(j, r)
			w.word(fmlaElem(p.arr, d, a+r, bv, idx), "FMLA V%d.%s, V%d.%s, V%d.%s[%d]",
				d, p.arr.gnu, a+r, p.arr.gnu, bv, p.arr.elem, idx)
		}
		if next && idx == p.arr.lanes-1 {
			w.ins("VLD1.P 16(R2), [V%d.%s]", bv, arr)
		}
	}
}

// scalarLoop writes C(i,j) = tile(i,j) [+ beta·C(i,j)] for i < m, j < n, with
// R7 at C(0,0), R10 at the tile, R8/R12 the column/row strides in bytes,
// R9 = n > 0 and R11 = m > 0. Prefix keeps its labels apart.
func (p plan) scalarLoop(w *asmWriter, prefix string, withBeta bool) {
	fm := p.fmov()
	w.label(prefix + "col")
	w.ins("MOVD R7, R14")
	w.ins("MOVD R10, R15")
	w.ins("MOVD R11, R19")
	w.label(prefix + "row")
	w.ins("%s.P %d(R15), F2", fm, p.size())
	if withBeta {
		w.ins("%s (R14), F3", fm)
		w.ins("%s F1, F2, F3, F2 // F2 += F3·beta", p.fmadd())
	}
	w.ins("%s F2, (R14)", fm)
	w.ins("ADD R12, R14, R14")
	w.ins("SUBS $1, R19, R19")
	w.ins("BNE %srow", prefix)
	w.ins("ADD R8, R7, R7")
	w.ins("ADD $%d, R10, R10", p.k.MR*p.size())
	w.ins("SUBS $1, R9, R9")
	w.ins("BNE %scol", prefix)
	w.ins("RET")
	w.blank()
}
