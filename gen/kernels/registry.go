package main

import (
	"sort"

	. "github.com/dave/jennifer/jen"

	"github.com/tcontract/tcontract/internal/spec"
)

// registry is registry.go: the types of docs/internals.md and the tables of
// every kernel row and probe, in table order. The assembly functions come
// from asmKernels and asmPeaks, which each architecture's file fills.
func registry() *File {
	f := newFile("")
	f.PackageComment("Package kernels holds the generated GEMM micro-kernels: assembly for the")
	f.PackageComment("ISAs of the kernel table (internal/spec), a pure-Go twin of each, the peak")
	f.PackageComment("probes, and the registry below. Every file here is generated.")

	f.Comment("Func computes C := alpha·Ã·B̃ + beta·C on the top-left m×n part of one MR×NR tile.")
	f.Comment("")
	f.Comment("a points at an MR×k packed sliver (a[p*MR+i]), b at an NR×k sliver (b[p*NR+j]);")
	f.Comment("C(i,j) is at element offset i*rsc + j*csc of c; alpha and beta point at one real")
	f.Comment("each, and beta == 0 never reads C. docs/internals.md has the whole contract.")
	f.Type().Id("Func").Func().Params(funcParams()...)

	f.Comment("DirectFunc computes C := alpha·A·B + beta·C on m×n (any sizes) in MR×NR tiles")
	f.Comment("from unpacked operands: A(i,p) at a[i+p*lda] (rows i >= m never read), B(p,j)")
	f.Comment("at b[p*rsb+j*csb] (columns j >= n never read), C as for Func. Strides are in")
	f.Comment("reals, any sign; docs/internals.md has the whole contract. ahead is a distance in")
	f.Comment("bytes: where A's steps are pages apart, the kernel also asks, into L2, for A's")
	f.Comment("lines that far on from those it loads (the next rows to compute); no result changes.")
	f.Type().Id("DirectFunc").Func().Params(directParams()...)

	f.Comment("PackFunc packs one sliver of width w (MR for A, NR for B): dst[p*w+i] is the")
	f.Comment("element at src[i*rowStep+p*kStep] (in reals) for i < rows, p < k, and 0 for")
	f.Comment("rows <= i < w. docs/internals.md says which steps are fast.")
	f.Type().Id("PackFunc").Func().Params(packParams()...)

	f.Comment("PackXFunc packs slivers j < slivers (at most a vector's lanes) of width MR whose")
	f.Comment("rows lie one real apart from sliver to sliver: sliver j, at dst + j·sliverStep")
	f.Comment("bytes, gets [p*MR+i] = src[j+i*rowStep+p*kStep] (in reals) for i < rows, p < k,")
	f.Comment("and 0 for rows <= i < MR. The line ahead bytes on from each one read is requested")
	f.Comment("into L2, which changes nothing. docs/internals.md has the whole contract.")
	f.Type().Id("PackXFunc").Func().Params(packxParams()...)

	f.Comment("RunsFunc is Func for a tile whose rows are not evenly spaced in C: each vector of")
	f.Comment("a column is stored to at most two runs of C, placed by the row map rows (byte")
	f.Comment("offsets from c and lane masks, four words per vector), column j at cols[j]")
	f.Comment("bytes further; n columns are written. The next map, RowMapWords·MR/lanes + 1")
	f.Comment("words on, must be readable too: the lines of its rows in these columns are")
	f.Comment("prefetched. docs/internals.md has the whole contract.")
	f.Type().Id("RunsFunc").Func().Params(runsParams()...)

	f.Comment("TilesFunc is Func on a column of tiles that share B's sliver: tile t < tiles")
	f.Comment("reads the packed A sliver at a + t·MR·k reals and writes C at c + offs[t] bytes,")
	f.Comment("with the same rsc, csc, m, n, alpha and beta. docs/internals.md has the whole")
	f.Comment("contract.")
	f.Type().Id("TilesFunc").Func().Params(tilesParams()...)

	f.Comment("StreamFunc is TilesFunc for whole tiles of adjacent rows (rsc 1, m MR) at beta 0,")
	f.Comment("through non-temporal stores to columns that start on a line; each k step, on")
	f.Comment("through the tiles, also asks, into L2, for the line at ahead + i·aheadStep bytes")
	f.Comment("(i counting the steps): a row of the block the driver packs next. docs/internals.md")
	f.Comment("has the whole contract.")
	f.Type().Id("StreamFunc").Func().Params(streamParams()...)

	f.Comment("MapsFunc is TilesFunc for tiles whose rows are not evenly spaced in C, when no")
	f.Comment("half vector straddles two runs: tile t < tiles reads the packed A sliver at")
	f.Comment("a + t·MR·k reals and its row map at rows + t·(RowMapWords·MR/lanes + 1) words, two")
	f.Comment("byte offsets from c per vector (its low and its high half); column j < n adds")
	f.Comment("cols[j] bytes, and cols[RunsAhead*NR+j], j < NR, must be readable too. Every row")
	f.Comment("of the n columns is written. docs/internals.md has the whole contract.")
	f.Type().Id("MapsFunc").Func().Params(mapsParams()...)

	f.Comment("RowMapWords is the words of a row map per vector of a tile column: the byte")
	f.Comment("offsets from c of the vector's first lane in its low and its high run, then the")
	f.Comment("masks of the lanes each run holds.")
	f.Const().Id("RowMapWords").Op("=").Lit(spec.RowMapWords)

	f.Comment("RunsAhead is how many slivers of columns ahead the half-map kernel prefetches")
	f.Comment("C's lines: it reads cols[RunsAhead*NR+j] for j < NR besides its own columns.")
	f.Const().Id("RunsAhead").Op("=").Lit(spec.RunsAhead)

	f.Comment("Kernel is one row of the kernel table with its functions.")
	f.Type().Id("Kernel").Struct(
		Qual(specPath, "Kernel").Comment("the table row"),
		Id("Name").String().Comment("Kernel.Name()"),
		Id("Asm").Id("Func").Comment("nil where this build has no assembly for it"),
		Id("Go").Id("Func").Comment("the pure-Go twin"),
		Id("Direct").Id("DirectFunc").Comment("nil where this build has no assembly for it"),
		Id("DirectGo").Id("DirectFunc").Comment("the pure-Go twin of the direct kernel"),
		Id("PackA").Id("PackFunc").Comment("A slivers of MR rows; nil without assembly"),
		Id("PackB").Id("PackFunc").Comment("B slivers of NR columns; nil without assembly"),
		Id("PackAGo").Id("PackFunc").Comment("the pure-Go twin of PackA"),
		Id("PackBGo").Id("PackFunc").Comment("the pure-Go twin of PackB"),
		Id("Pack1e").Id("PackFunc").Comment("complex A slivers of MR/2 rows in 1m's 1e layout; nil without assembly"),
		Id("Pack1eGo").Id("PackFunc").Comment("the pure-Go twin of Pack1e"),
		Id("Pack1r").Id("PackFunc").Comment("complex B slivers of NR columns in 1m's 1r layout; nil without assembly"),
		Id("Pack1rGo").Id("PackFunc").Comment("the pure-Go twin of Pack1r"),
		Id("PackX").Id("PackXFunc").Comment("A slivers across, a vector's lanes at once; nil without assembly"),
		Id("PackXGo").Id("PackXFunc").Comment("the pure-Go twin of PackX; nil where the row has no PackX"),
		Id("Runs").Id("RunsFunc").Comment("the kernel with a row map; nil without assembly"),
		Id("RunsGo").Id("RunsFunc").Comment("the pure-Go twin of Runs; nil where the row has no Runs"),
		Id("Tiles").Id("TilesFunc").Comment("the kernel on a column of tiles; nil without assembly"),
		Id("TilesGo").Id("TilesFunc").Comment("the pure-Go twin of Tiles; nil where the row has no Tiles"),
		Id("Stream").Id("StreamFunc").Comment("Tiles for whole tiles of adjacent rows, beta 0, through non-temporal stores; nil without assembly (its twin is TilesGo)"),
		Id("Maps").Id("MapsFunc").Comment("the column kernel with half-vector row maps; nil without assembly"),
		Id("MapsGo").Id("MapsFunc").Comment("the pure-Go twin of Maps; nil where the row has no Maps"),
	)

	var rows []Code
	for i, k := range spec.Kernels {
		asm := Code(Nil())
		if isa(k.ISA).Arch != "" {
			asm = Id("asmKernels").Index(Lit(i))
		}
		dir, pa, pb, p1e, p1r := Code(Nil()), Code(Nil()), Code(Nil()), Code(Nil()), Code(Nil())
		if hasDirect(k) {
			dir = Id("asmDirect").Index(Lit(i))
			pa = Id("asmPackA").Index(Lit(i))
			pb = Id("asmPackB").Index(Lit(i))
		}
		runs, runsGo := Code(Nil()), Code(Nil())
		if hasRuns(k) {
			runs, runsGo = Id("asmRuns").Index(Lit(i)), Id(runsName(k)+"_go")
		}
		px, pxGo := Code(Nil()), Code(Nil())
		if hasPackX(k) {
			px, pxGo = Id("asmPackX").Index(Lit(i)), Id(packName(k, "x")+"_go")
		}
		tiles, tilesGo := Code(Nil()), Code(Nil())
		if hasTiles(k) {
			tiles, tilesGo = Id("asmTiles").Index(Lit(i)), Id(tilesName(k)+"_go")
		}
		stream := Code(Nil())
		if hasStream(k) {
			stream = Id("asmStream").Index(Lit(i))
		}
		maps, mapsGo := Code(Nil()), Code(Nil())
		if hasMaps(k) {
			maps, mapsGo = Id("asmMaps").Index(Lit(i)), Id(mapsName(k)+"_go")
		}
		if has1m(k) {
			p1e = Id("asmPack1e").Index(Lit(i))
			p1r = Id("asmPack1r").Index(Lit(i))
		}
		rows = append(rows, Values(ordered(
			"Kernel", Qual(specPath, "Kernel").Values(
				Id("ISA").Op(":").Lit(k.ISA), Id("Real").Op(":").Lit(k.Real),
				Id("MR").Op(":").Lit(k.MR), Id("NR").Op(":").Lit(k.NR), Id("Unroll").Op(":").Lit(k.Unroll),
				Id("PrefetchA").Op(":").Lit(k.PrefetchA), Id("PrefetchB").Op(":").Lit(k.PrefetchB),
				Id("MC").Op(":").Lit(k.MC), Id("KC").Op(":").Lit(k.KC), Id("NC").Op(":").Lit(k.NC),
			),
			"Name", Lit(k.Name()),
			"Asm", asm,
			"Go", Id(k.Name()+"_go"),
			"Direct", dir,
			"DirectGo", Id(directName(k)+"_go"),
			"PackA", pa,
			"PackB", pb,
			"PackAGo", Id(packName(k, "a")+"_go"),
			"PackBGo", Id(packName(k, "b")+"_go"),
			"Pack1e", p1e,
			"Pack1eGo", Id(packName(k, "1e")+"_go"),
			"Pack1r", p1r,
			"Pack1rGo", Id(packName(k, "1r")+"_go"),
			"PackX", px,
			"PackXGo", pxGo,
			"Runs", runs,
			"RunsGo", runsGo,
			"Tiles", tiles,
			"TilesGo", tilesGo,
			"Stream", stream,
			"Maps", maps,
			"MapsGo", mapsGo,
		)...))
	}
	f.Comment("Kernels is every row of the kernel table, in table order.")
	f.Var().Id("Kernels").Op("=").Index().Id("Kernel").Values(multiline(rows)...)

	f.Comment("Lookup returns the row of one ISA and real type, or nil when there is none.")
	f.Func().Id("Lookup").Params(List(Id("isa"), Id("real")).String()).Op("*").Id("Kernel").Block(
		For(Id("i").Op(":=").Range().Id("Kernels")).Block(
			If(Id("Kernels").Index(Id("i")).Dot("ISA").Op("==").Id("isa").Op("&&").
				Id("Kernels").Index(Id("i")).Dot("Real").Op("==").Id("real")).Block(
				Return(Op("&").Id("Kernels").Index(Id("i"))),
			),
		),
		Return(Nil()),
	)

	f.Comment("Peak is the peak probe of one ISA and real type: Fn(iters) runs iters trips of")
	f.Comment("independent FMAs (multiply-adds on the generic path), FlopsPerIter flops each.")
	f.Type().Id("Peak").Struct(
		List(Id("ISA"), Id("Real")).String(),
		Id("Fn").Func().Params(Id("iters").Int()).Comment("nil where this build has no assembly for it"),
		Id("FlopsPerIter").Int(),
	)
	var probes []Code
	for i, p := range peaks() {
		fn := Code(Id(peakName(p.ISA.Name, p.Real)))
		if p.ISA.Arch != "" {
			fn = Id("asmPeaks").Index(Lit(i))
		}
		probes = append(probes, Values(
			Id("ISA").Op(":").Lit(p.ISA.Name), Id("Real").Op(":").Lit(p.Real.Name),
			Id("Fn").Op(":").Add(fn),
			Id("FlopsPerIter").Op(":").Lit(2*p.ISA.PeakAccs()*p.ISA.Lanes(p.Real.Size)),
		))
	}
	f.Comment("Peaks is the probe of every ISA and real type that has a kernel row.")
	f.Var().Id("Peaks").Op("=").Index().Id("Peak").Values(multiline(probes)...)
	return f
}

// multiline puts each element of a composite literal on its own line.
func multiline(elems []Code) []Code {
	out := make([]Code, 0, len(elems)+1)
	for _, e := range elems {
		out = append(out, Line().Add(e))
	}
	return append(out, Line())
}

// asmBindings is one registry_<arch>.go per assembly architecture
// (//go:build !purego): the assembly kernels and probes of that
// architecture's ISAs by row index, nil for the rest.
func asmBindings() map[string]*File {
	arches := map[string]bool{}
	for _, i := range spec.ISAs {
		if i.Arch != "" {
			arches[i.Arch] = true
		}
	}
	out := map[string]*File{}
	for arch := range arches {
		f := newFile("!purego")
		var ks, ps []Code
		for i, k := range spec.Kernels {
			if isa(k.ISA).Arch == arch {
				ks = append(ks, Line().Lit(i).Op(":").Id(k.Name()))
			}
		}
		for i, p := range peaks() {
			if p.ISA.Arch == arch {
				ps = append(ps, Line().Lit(i).Op(":").Id(peakName(p.ISA.Name, p.Real)))
			}
		}
		f.Commentf("asmKernels holds the %s assembly kernels by row of Kernels.", arch)
		f.Var().Id("asmKernels").Op("=").Index(Lit(len(spec.Kernels))).Id("Func").Values(append(ks, Line())...)
		var ds, pas, pbs, p1es, p1rs, pxs, rs, ts, ss, ms []Code
		for i, k := range spec.Kernels {
			if isa(k.ISA).Arch == arch && hasDirect(k) {
				ds = append(ds, Line().Lit(i).Op(":").Id(directName(k)))
				pas = append(pas, Line().Lit(i).Op(":").Id(packName(k, "a")))
				pbs = append(pbs, Line().Lit(i).Op(":").Id(packName(k, "b")))
			}
			if isa(k.ISA).Arch == arch && has1m(k) {
				p1es = append(p1es, Line().Lit(i).Op(":").Id(packName(k, "1e")))
				p1rs = append(p1rs, Line().Lit(i).Op(":").Id(packName(k, "1r")))
			}
			if isa(k.ISA).Arch == arch && hasPackX(k) {
				pxs = append(pxs, Line().Lit(i).Op(":").Id(packName(k, "x")))
			}
			if isa(k.ISA).Arch == arch && hasRuns(k) {
				rs = append(rs, Line().Lit(i).Op(":").Id(runsName(k)))
			}
			if isa(k.ISA).Arch == arch && hasTiles(k) {
				ts = append(ts, Line().Lit(i).Op(":").Id(tilesName(k)))
			}
			if isa(k.ISA).Arch == arch && hasStream(k) {
				ss = append(ss, Line().Lit(i).Op(":").Id(streamName(k)))
			}
			if isa(k.ISA).Arch == arch && hasMaps(k) {
				ms = append(ms, Line().Lit(i).Op(":").Id(mapsName(k)))
			}
		}
		for _, l := range []*[]Code{&ds, &pas, &pbs, &p1es, &p1rs, &pxs, &rs, &ts, &ss, &ms} {
			if len(*l) > 0 {
				*l = append(*l, Line())
			}
		}
		f.Commentf("asmDirect, asmPackA, asmPackB, asmPack1e, asmPack1r, asmPackX, asmRuns, asmTiles, asmStream and asmMaps hold the %s direct kernels, packers, row-map and column kernels by row of Kernels.", arch)
		f.Var().Defs(
			Id("asmDirect").Op("=").Index(Lit(len(spec.Kernels))).Id("DirectFunc").Values(ds...),
			Id("asmPackA").Op("=").Index(Lit(len(spec.Kernels))).Id("PackFunc").Values(pas...),
			Id("asmPackB").Op("=").Index(Lit(len(spec.Kernels))).Id("PackFunc").Values(pbs...),
			Id("asmPack1e").Op("=").Index(Lit(len(spec.Kernels))).Id("PackFunc").Values(p1es...),
			Id("asmPack1r").Op("=").Index(Lit(len(spec.Kernels))).Id("PackFunc").Values(p1rs...),
			Id("asmPackX").Op("=").Index(Lit(len(spec.Kernels))).Id("PackXFunc").Values(pxs...),
			Id("asmRuns").Op("=").Index(Lit(len(spec.Kernels))).Id("RunsFunc").Values(rs...),
			Id("asmTiles").Op("=").Index(Lit(len(spec.Kernels))).Id("TilesFunc").Values(ts...),
			Id("asmStream").Op("=").Index(Lit(len(spec.Kernels))).Id("StreamFunc").Values(ss...),
			Id("asmMaps").Op("=").Index(Lit(len(spec.Kernels))).Id("MapsFunc").Values(ms...),
		)
		f.Commentf("asmPeaks holds the %s assembly probes by row of Peaks.", arch)
		f.Var().Id("asmPeaks").Op("=").Index(Lit(len(peaks()))).Func().Params(Int()).Values(append(ps, Line())...)
		out[arch] = f
	}
	return out
}

// noAsm is registry_noasm.go: no assembly on other targets or under purego.
func noAsm() *File {
	var arches []string
	seen := map[string]bool{}
	for _, i := range spec.ISAs {
		if i.Arch != "" && !seen[i.Arch] {
			seen[i.Arch] = true
			arches = append(arches, i.Arch)
		}
	}
	sort.Strings(arches)
	c := "purego || !("
	for i, a := range arches {
		if i > 0 {
			c += " || "
		}
		c += a
	}
	c += ")"
	f := newFile(c)
	f.Comment("Without assembly every kernel runs its pure-Go twin.")
	f.Var().Defs(
		Id("asmKernels").Index(Lit(len(spec.Kernels))).Id("Func"),
		Id("asmPeaks").Index(Lit(len(peaks()))).Func().Params(Int()),
		Id("asmDirect").Index(Lit(len(spec.Kernels))).Id("DirectFunc"),
		Id("asmPackA").Index(Lit(len(spec.Kernels))).Id("PackFunc"),
		Id("asmPackB").Index(Lit(len(spec.Kernels))).Id("PackFunc"),
		Id("asmPack1e").Index(Lit(len(spec.Kernels))).Id("PackFunc"),
		Id("asmPack1r").Index(Lit(len(spec.Kernels))).Id("PackFunc"),
		Id("asmPackX").Index(Lit(len(spec.Kernels))).Id("PackXFunc"),
		Id("asmRuns").Index(Lit(len(spec.Kernels))).Id("RunsFunc"),
		Id("asmTiles").Index(Lit(len(spec.Kernels))).Id("TilesFunc"),
		Id("asmStream").Index(Lit(len(spec.Kernels))).Id("StreamFunc"),
		Id("asmMaps").Index(Lit(len(spec.Kernels))).Id("MapsFunc"),
	)
	return f
}
