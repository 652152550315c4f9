package main

import (
	"cmp"
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"github.com/tcontract/tcontract/internal/spec"
)

// writePlot draws one panel per element type: GFLOP/s against size, a
// colour per thread count, GEMM rows as a line through their points, TCCG
// contractions as separate marks, and the measured peak as a dashed line.
// The size of a product is the cube root of m·n·k, so a square GEMM of side
// s sits at s and every product on one axis.
func writePlot(file string, rep *report) error {
	var types []string
	for _, t := range spec.Types {
		if slices.ContainsFunc(rep.Results, func(r result) bool { return r.Type == t.Name }) {
			types = append(types, t.Name)
		}
	}
	cols := min(2, len(types))
	rows := (len(types) + cols - 1) / cols
	plots := make([][]*plot.Plot, rows)
	for i := range plots {
		plots[i] = make([]*plot.Plot, cols)
	}
	for i, typ := range types {
		p, err := typePanel(rep, typ)
		if err != nil {
			return err
		}
		plots[i/cols][i%cols] = p
	}

	const panelW, panelH = 14 * vg.Centimeter, 9 * vg.Centimeter
	img := vgimg.NewWith(vgimg.UseWH(panelW*vg.Length(cols), panelH*vg.Length(rows)), vgimg.UseDPI(150))
	dc := draw.New(img)
	tiles := draw.Tiles{Rows: rows, Cols: cols, PadX: vg.Centimeter / 2, PadY: vg.Centimeter / 2,
		PadTop: vg.Centimeter / 4, PadBottom: vg.Centimeter / 4, PadLeft: vg.Centimeter / 4, PadRight: vg.Centimeter / 2}
	canvases := plot.Align(plots, tiles, dc)
	for r := range plots {
		for c, p := range plots[r] {
			if p != nil {
				p.Draw(canvases[r][c])
			}
		}
	}

	f, err := os.Create(file)
	if err != nil {
		return err
	}
	if _, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// cubeSide is the side of the cube with a product's volume m·n·k.
func cubeSide(r result) float64 {
	return math.Cbrt(float64(r.M) * float64(r.N) * float64(r.K))
}

func typePanel(rep *report, typ string) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("%s on %s (%s of %d)", typ, rep.ISA, rep.Stat, rep.Reps)
	p.X.Label.Text = "size: cube root of m·n·k"
	p.Y.Label.Text = "GFLOP/s"
	p.X.Scale = plot.LogScale{}
	p.Legend.Top, p.Legend.Left = true, true
	p.Legend.TextStyle.Font.Size = vg.Points(8)
	p.Add(plotter.NewGrid())

	var threads []int
	xmin, xmax, ymax := math.Inf(1), 0.0, 0.0
	for _, r := range rep.Results {
		if r.Type != typ {
			continue
		}
		if !slices.Contains(threads, r.Threads) {
			threads = append(threads, r.Threads)
		}
		x := cubeSide(r)
		xmin, xmax = min(xmin, x), max(xmax, x)
		ymax = max(ymax, r.GFlops, r.Peak)
	}
	slices.Sort(threads)
	xmin, xmax = xmin/1.25, xmax*1.25
	p.X.Min, p.X.Max = xmin, xmax
	p.X.Tick.Marker = powersOfTwo{}
	p.Y.Min, p.Y.Max = 0, ymax*1.45 // headroom above the peak for the legend
	p.Y.Tick.Marker = plainTicks{}

	for i, th := range threads {
		col := plotutil.Color(i)
		// Square GEMMs make the line; other shapes share its x (a
		// 4096×4096×64 GEMM sits at 1024) and are marks of their own.
		var square, other, tc plotter.XYs
		peak := 0.0
		for _, r := range rep.Results {
			if r.Type != typ || r.Threads != th {
				continue
			}
			pt := plotter.XY{X: cubeSide(r), Y: r.GFlops}
			switch {
			case r.Kind == "tccg":
				tc = append(tc, pt)
			case r.M == r.N && r.N == r.K:
				square = append(square, pt)
			default:
				other = append(other, pt)
			}
			peak = max(peak, r.Peak)
		}
		slices.SortFunc(square, func(a, b plotter.XY) int { return cmp.Compare(a.X, b.X) })
		if len(square) > 0 {
			l, s, err := plotter.NewLinePoints(square)
			if err != nil {
				return nil, err
			}
			l.Color, s.Color = col, col
			s.Shape = draw.CircleGlyph{}
			p.Add(l, s)
			p.Legend.Add(fmt.Sprintf("GEMM, square, %s", threadWord(th)), l, s)
		}
		for _, set := range []struct {
			pts   plotter.XYs
			shape draw.GlyphDrawer
			name  string
		}{
			{other, draw.BoxGlyph{}, "GEMM, other shapes"},
			{tc, draw.TriangleGlyph{}, "TCCG contraction"},
		} {
			if len(set.pts) == 0 {
				continue
			}
			s, err := plotter.NewScatter(set.pts)
			if err != nil {
				return nil, err
			}
			s.Color = col
			s.Shape = set.shape
			s.Radius = vg.Points(3.5)
			p.Add(s)
			p.Legend.Add(fmt.Sprintf("%s, %s", set.name, threadWord(th)), s)
		}
		if peak > 0 {
			l, err := plotter.NewLine(plotter.XYs{{X: xmin, Y: peak}, {X: xmax, Y: peak}})
			if err != nil {
				return nil, err
			}
			l.Color = col
			l.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
			p.Add(l)
			p.Legend.Add(fmt.Sprintf("peak %.0f GFLOP/s, %s", peak, threadWord(th)), l)
		}
	}
	return p, nil
}

func threadWord(n int) string {
	if n == 1 {
		return "1 thread"
	}
	return fmt.Sprintf("%d threads", n)
}

// powersOfTwo ticks a log axis at every power of two, labelled, since the
// GEMM sizes people pick are powers of two.
type powersOfTwo struct{}

func (powersOfTwo) Ticks(lo, hi float64) []plot.Tick {
	var ticks []plot.Tick
	for v := math.Exp2(math.Floor(math.Log2(lo))); v <= hi; v *= 2 {
		if v >= lo {
			ticks = append(ticks, plot.Tick{Value: v, Label: fmt.Sprintf("%g", v)})
		}
	}
	return ticks
}

// plainTicks are the default ticks with labels in the shortest form ("250",
// not "250.00").
type plainTicks struct{}

func (plainTicks) Ticks(lo, hi float64) []plot.Tick {
	ticks := plot.DefaultTicks{}.Ticks(lo, hi)
	for i := range ticks {
		if ticks[i].Label != "" {
			ticks[i].Label = strconv.FormatFloat(ticks[i].Value, 'g', -1, 64)
		}
	}
	return ticks
}
