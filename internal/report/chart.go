// The history of an opponent's models as text charts: the series drawn from a profile and a terminal
// sparkline (the SVG report is svgreport.go's).

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
	case learn.EvenModel:
		return []string{".time_controls."} // not its fold mark
	case learn.EvenResultModel:
		return []string{".score"}
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
