// The drawing kit of show's SVG report: a canvas of stacked panels, plot areas with labelled axes and ticks,
// lines, bands, dots, stacked bars and legends.

package report

import (
	"fmt"
	"math"
	"strings"
)

// The report's geometry in pixels: the picture's width, the plot's left edge (room for the y axis's label
// and ticks), the plot's width (the legend sits right of it), and the height of a line plot.
const (
	svgWidth    = 860
	plotLeft    = 78
	plotWidth   = 540
	plotHeight  = 170
	legendLeft  = plotLeft + plotWidth + 18
	panelGap    = 26
	titleHeight = 22
	// axisBelow is the room under a plot for the x ticks and the x axis's label.
	axisBelow = 46
)

// palette are the colours of the series, in order.
var palette = []string{"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
	"#bcbd22", "#17becf"}

// canvas is the SVG picture being drawn: panels are stacked from the top.
type canvas struct {
	b   strings.Builder
	top int // where the next panel starts
}

func (c *canvas) printf(format string, a ...any) { fmt.Fprintf(&c.b, format, a...) }

// text writes a text element at (x, y) with extra attributes.
func (c *canvas) text(x, y float64, attrs, s string) {
	c.printf(`<text x="%.1f" y="%.1f"%s>%s</text>`+"\n", x, y, attrs, xmlEscape(s))
}

// title starts a panel with its title and returns the top of its drawing area.
func (c *canvas) title(s string) int {
	c.top += panelGap
	c.text(12, float64(c.top)+14, ` font-size="14" font-weight="bold" class="panel-title"`, s)
	c.top += titleHeight
	return c.top
}

// note writes a line of grey text in a panel (a panel without data says so) and moves below it.
func (c *canvas) note(s string) {
	c.text(plotLeft, float64(c.top)+16, ` fill="#666"`, s)
	c.top += 24
}

// svg wraps what was drawn into the picture.
func (c *canvas) svg(heading string) string {
	height := c.top + 20
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="11">`+"\n",
		svgWidth, height, svgWidth, height)
	b.WriteString(`<rect width="100%" height="100%" fill="white"/>` + "\n")
	fmt.Fprintf(&b, `<text x="12" y="24" font-size="17" font-weight="bold">%s</text>`+"\n", xmlEscape(heading))
	b.WriteString(c.b.String())
	b.WriteString("</svg>\n")
	return b.String()
}

// plot is a plot area on the canvas and the ranges its axes show.
type plot struct {
	x, y, w, h             float64
	xmin, xmax, ymin, ymax float64
}

// newPlot reserves a line plot of the usual size at the canvas's top.
func (c *canvas) newPlot(xmin, xmax, ymin, ymax float64) plot {
	if xmax <= xmin {
		xmin, xmax = xmin-1, xmin+1
	}
	p := plot{x: plotLeft, y: float64(c.top) + 6, w: plotWidth, h: plotHeight, xmin: xmin, xmax: xmax, ymin: ymin, ymax: ymax}
	c.top += 6 + plotHeight + axisBelow
	return p
}

func (p plot) px(x float64) float64 { return p.x + p.w*(x-p.xmin)/(p.xmax-p.xmin) }

// py maps y into the plot, a value out of the axis's range onto its edge.
func (p plot) py(y float64) float64 {
	y = math.Max(p.ymin, math.Min(p.ymax, y))
	return p.y + p.h - p.h*(y-p.ymin)/(p.ymax-p.ymin)
}

// axes draws the frame, the grid at yTicks, the ticks of both axes and their labels.
func (c *canvas) axes(p plot, xLabel, yLabel string, xTicks, yTicks []float64, yFormat func(float64) string) {
	c.printf(`<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="none" stroke="#999"/>`+"\n", p.x, p.y, p.w, p.h)
	for _, t := range yTicks {
		y := p.py(t)
		c.printf(`<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#e5e5e5"/>`+"\n", p.x, y, p.x+p.w, y)
		c.printf(`<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#999"/>`+"\n", p.x-4, y, p.x, y)
		c.text(p.x-7, y+4, ` text-anchor="end" class="tick"`, yFormat(t))
	}
	for _, t := range xTicks {
		x := p.px(t)
		c.printf(`<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#999"/>`+"\n", x, p.y+p.h, x, p.y+p.h+4)
		c.text(x, p.y+p.h+16, ` text-anchor="middle" class="tick"`, fmt.Sprintf("%g", t))
	}
	c.text(p.x+p.w/2, p.y+p.h+36, ` text-anchor="middle" class="axis-label"`, xLabel)
	cy := p.y + p.h/2
	c.text(16, cy, fmt.Sprintf(` text-anchor="middle" class="axis-label" transform="rotate(-90 16 %.1f)"`, cy), yLabel)
}

// line draws a polyline through the points (xs[i], ys[i]); a point of NaN breaks it.
func (c *canvas) line(p plot, xs, ys []float64, colour string, width float64) {
	var run []string
	flush := func() {
		if len(run) > 0 {
			c.printf(`<polyline fill="none" stroke="%s" stroke-width="%.1f" points="%s"/>`+"\n", colour, width, strings.Join(run, " "))
		}
		run = nil
	}
	for i := range xs {
		if math.IsNaN(ys[i]) {
			flush()
			continue
		}
		run = append(run, fmt.Sprintf("%.1f,%.1f", p.px(xs[i]), p.py(ys[i])))
	}
	flush()
}

// dots draws a small circle at every point.
func (c *canvas) dots(p plot, xs, ys []float64, colour string, r float64) {
	for i := range xs {
		c.printf(`<circle cx="%.1f" cy="%.1f" r="%.1f" fill="%s"/>`+"\n", p.px(xs[i]), p.py(ys[i]), r, colour)
	}
}

// band fills the area between lo and hi over xs.
func (c *canvas) band(p plot, xs, lo, hi []float64, colour string) {
	if len(xs) == 0 {
		return
	}
	pts := make([]string, 0, 2*len(xs))
	for i := range xs {
		pts = append(pts, fmt.Sprintf("%.1f,%.1f", p.px(xs[i]), p.py(hi[i])))
	}
	for i := len(xs) - 1; i >= 0; i-- {
		pts = append(pts, fmt.Sprintf("%.1f,%.1f", p.px(xs[i]), p.py(lo[i])))
	}
	c.printf(`<polygon fill="%s" fill-opacity="0.25" stroke="none" points="%s"/>`+"\n", colour, strings.Join(pts, " "))
}

// legendEntry is one line of a legend: a swatch of colour (a line, a dot, a box) and its text.
type legendEntry struct {
	text, colour, shape string // shape: "line", "dot", "box", "band" (a pale box), "none"
}

// legend draws entries right of the plot that starts at top.
func (c *canvas) legend(top float64, entries []legendEntry) {
	for i, e := range entries {
		y := top + 10 + float64(i)*17
		switch e.shape {
		case "dot":
			c.printf(`<circle cx="%d" cy="%.1f" r="4" fill="%s"/>`+"\n", legendLeft+9, y-4, e.colour)
		case "box":
			c.printf(`<rect x="%d" y="%.1f" width="18" height="10" fill="%s"/>`+"\n", legendLeft, y-9, e.colour)
		case "band":
			c.printf(`<rect x="%d" y="%.1f" width="18" height="10" fill="%s" fill-opacity="0.25"/>`+"\n", legendLeft, y-9, e.colour)
		case "none":
		default:
			c.printf(`<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="%s" stroke-width="2.5"/>`+"\n", legendLeft, y-4, legendLeft+18, y-4, e.colour)
		}
		c.text(legendLeft+24, y, ` class="legend"`, shorten(e.text, 30))
	}
}

// niceTicks returns about n round tick values covering lo..hi (steps of 1, 2 or 5 times a power of ten; whole
// numbers when integers is set).
func niceTicks(lo, hi float64, n int, integers bool) []float64 {
	if hi <= lo || n < 1 {
		return []float64{lo}
	}
	raw := (hi - lo) / float64(n)
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step := mag
	for _, m := range []float64{1, 2, 5, 10} {
		if m*mag >= raw {
			step = m * mag
			break
		}
	}
	if integers {
		step = math.Max(1, math.Round(step))
	}
	var out []float64
	for t := math.Ceil(lo/step) * step; t <= hi+step*1e-9; t += step {
		out = append(out, math.Round(t/step)*step)
	}
	return out
}

// shorten cuts s to n runes, ending it with an ellipsis when cut.
func shorten(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// xmlEscape escapes text for an SVG text element.
func xmlEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;").Replace(s)
}
