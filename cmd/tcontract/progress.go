package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"golang.org/x/term"
)

// progress draws a one-line bar on stderr: measurements done of planned,
// and the one in flight. It is redrawn in place with a carriage return, so
// it is drawn only on a terminal (or when asked for), never into a log.
type progress struct {
	w     io.Writer
	on    bool
	total int
	done  int
	label string
}

const barWidth = 24

// newProgress decides whether to draw: "on", "off", or "auto" (when w is a
// terminal).
func newProgress(w io.Writer, mode string) *progress {
	on := mode == "on"
	if mode == "auto" {
		if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
			on = true
		}
	}
	return &progress{w: w, on: on}
}

func (p *progress) start(total int) {
	p.total = total
	p.draw()
}

// show names the measurement in flight.
func (p *progress) show(label string) {
	p.label = label
	p.draw()
}

// step counts one measurement done.
func (p *progress) step() {
	p.done++
	p.draw()
}

func (p *progress) draw() {
	if !p.on || p.total == 0 {
		return
	}
	fill := min(barWidth, p.done*barWidth/p.total)
	// \r returns to the line's start; \x1b[K erases what a longer label left.
	fmt.Fprintf(p.w, "\r\x1b[K[%s%s] %d/%d %s", strings.Repeat("#", fill), strings.Repeat(".", barWidth-fill),
		p.done, p.total, p.label)
}

// clear erases the bar so what follows starts on a clean line.
func (p *progress) clear() {
	if p.on && p.total > 0 {
		fmt.Fprint(p.w, "\r\x1b[K")
	}
}
