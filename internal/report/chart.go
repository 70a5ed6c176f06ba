// The history of an opponent's models as charts: the series drawn from a profile, a terminal sparkline and an
// SVG picture.

package report

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"dossier/bots/searchers"
	"dossier/memory"
	"dossier/memory/learn"
)

// ChartSeries is one line of show's chart.
type ChartSeries struct {
	Name   string    `json:"name"`
	Values []float64 `json:"values"`
}

// modelSeries returns the chart's lines: our running score over the opponent's finished games, then every
// number in the models' states over their history (a model's state is its learner's JSON; its numbers, by
// their path in it, are what can be drawn).
func modelSeries(prof *memory.Profile) []ChartSeries {
	var out []ChartSeries
	var points, games float64
	var score []float64
	for _, g := range prof.Games {
		if g.OurScore < 0 {
			continue
		}
		points += g.OurScore
		games++
		score = append(score, points/games)
	}
	if len(score) > 0 {
		out = append(out, ChartSeries{Name: "our score", Values: score})
	}
	names := make([]string, 0, len(prof.Models))
	for name := range prof.Models {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		series := map[string][]float64{}
		var order []string
		for _, pt := range prof.Models[name] {
			var v any
			if json.Unmarshal(pt.State, &v) != nil {
				continue
			}
			flattenNumbers(name, v, func(path string, x float64) {
				if !drawn(name, path) {
					return
				}
				if _, ok := series[path]; !ok {
					order = append(order, path)
				}
				series[path] = append(series[path], x)
			})
		}
		for _, path := range order {
			out = append(out, ChartSeries{Name: path, Values: series[path]})
		}
	}
	return out
}

// drawnPaths returns, for a model the Player learns, the parts of its states' paths worth a chart (the rest
// is configuration: the types' weights, the ranges' edges); nil draws a model whole.
func drawnPaths(model string) []string {
	switch model {
	case learn.ModelTypeProbs:
		return []string{".probabilities["}
	case learn.ModelDepth:
		return []string{".counts["}
	case searchers.DiscrepancyModelName:
		return []string{".observations"}
	case learn.ModelYardstick:
		return []string{".top1", ".loglik"}
	}
	return nil
}

// drawn reports whether the number at path in a state of model is charted.
func drawn(model, path string) bool {
	keep := drawnPaths(model)
	if keep == nil {
		return true
	}
	for _, k := range keep {
		if strings.Contains(path, k) {
			return true
		}
	}
	return false
}

// maxChartSeries bounds the numbers of one model that are drawn (a model of many numbers is summarised by
// its first ones).
const maxChartSeries = 12

// flattenNumbers calls emit with every number in v and its path.
func flattenNumbers(prefix string, v any, emit func(string, float64)) {
	count := 0
	var walk func(string, any)
	walk = func(path string, v any) {
		if count >= maxChartSeries {
			return
		}
		switch x := v.(type) {
		case float64:
			count++
			emit(path, x)
		case []any:
			for i, e := range x {
				walk(fmt.Sprintf("%s[%d]", path, i), e)
			}
		case map[string]any:
			keys := make([]string, 0, len(x))
			for k := range x {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				walk(path+"."+k, x[k])
			}
		}
	}
	walk(prefix, v)
}

// sparkBlocks are the eight heights of a terminal sparkline.
var sparkBlocks = []rune("▁▂▃▄▅▆▇█")

// maxSparkWidth is how many points a sparkline shows at most (the latest ones).
const maxSparkWidth = 60

// sparkline draws values as a line of block characters, scaled between their minimum and maximum.
func sparkline(values []float64) string {
	if len(values) > maxSparkWidth {
		values = values[len(values)-maxSparkWidth:]
	}
	lo, hi := minOf(values), maxOf(values)
	var b strings.Builder
	for _, v := range values {
		i := 0
		if hi > lo {
			i = int((v - lo) / (hi - lo) * float64(len(sparkBlocks)-1))
		}
		b.WriteRune(sparkBlocks[max(0, min(i, len(sparkBlocks)-1))])
	}
	return b.String()
}

func minOf(v []float64) float64 {
	m := v[0]
	for _, x := range v {
		m = min(m, x)
	}
	return m
}

func maxOf(v []float64) float64 {
	m := v[0]
	for _, x := range v {
		m = max(m, x)
	}
	return m
}

// ChartSVG draws the series as one small chart each, stacked, with their ranges: an SVG picture.
func ChartSVG(title string, series []ChartSeries) string {
	const width, rowH, left, pad = 640, 90, 170, 10
	colours := []string{"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"}
	height := pad*2 + 24 + rowH*max(len(series), 1)
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="11">`+"\n", width, height)
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" fill="white"/>`+"\n")
	fmt.Fprintf(&b, `<text x="%d" y="%d" font-size="14">%s</text>`+"\n", pad, pad+14, xmlEscape("dossier: "+title))
	if len(series) == 0 {
		fmt.Fprintf(&b, `<text x="%d" y="%d">no finished games or models yet</text>`+"\n", pad, pad+50)
	}
	for i, s := range series {
		top := pad + 24 + i*rowH
		plotW, plotH := width-left-pad, rowH-24
		lo, hi := minOf(s.Values), maxOf(s.Values)
		fmt.Fprintf(&b, `<text x="%d" y="%d">%s</text>`+"\n", pad, top+plotH/2, xmlEscape(s.Name))
		fmt.Fprintf(&b, `<text x="%d" y="%d" fill="#666">%.3g..%.3g</text>`+"\n", pad, top+plotH/2+14, lo, hi)
		fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="#ccc"/>`+"\n", left, top, plotW, plotH)
		var pts []string
		for j, v := range s.Values {
			x := float64(left)
			if len(s.Values) > 1 {
				x += float64(plotW) * float64(j) / float64(len(s.Values)-1)
			}
			y := float64(top + plotH/2)
			if hi > lo {
				y = float64(top+plotH) - float64(plotH)*(v-lo)/(hi-lo)
			}
			pts = append(pts, fmt.Sprintf("%.1f,%.1f", x, y))
		}
		fmt.Fprintf(&b, `<polyline fill="none" stroke="%s" stroke-width="1.5" points="%s"/>`+"\n", colours[i%len(colours)], strings.Join(pts, " "))
	}
	b.WriteString("</svg>\n")
	return b.String()
}

// xmlEscape escapes text for an SVG text element.
func xmlEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;").Replace(s)
}
