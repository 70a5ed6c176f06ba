// Show's SVG report, the pictures a user reads: our score by game with a 95% band, results per colour and per
// opening, the opponent type the type learner believes, each model's prediction accuracy by game, and the
// mistakes the analyses found and the experience they left, by game.

package report

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"dossier/games/catalog"
	"dossier/memory"
	"dossier/memory/learn"
)

// The panels' titles and axis labels (the tests look for them).
const (
	titleScore     = "Our score by game"
	titleResults   = "Results per colour and per opening"
	titleTypes     = "Which opponent type the type learner believes"
	titleAccuracy  = "Prediction accuracy per model by game"
	titleAnalyses  = "Mistakes found and experience learned by game"
	labelEntries   = "experience entries (count)"
	labelGame      = "game number (all games with this opponent, oldest first)"
	labelScore     = "score (points per game)"
	labelGames     = "games (count)"
	labelBelief    = "probability (0-1)"
	labelTop1      = "top-1 accuracy (% of moves)"
	labelUpdate    = "model update (oldest first)"
	maxOpeningRows = 8
	maxTypeLines   = 7
	// openingPlies is how many first moves name an opening played from the game's usual start.
	openingPlies = 2
)

// SVG draws the report as an SVG picture: one panel per question, each with labelled axes.
func (rep Show) SVG() string {
	var c canvas
	c.top = 30
	prof := rep.Profile
	number := gameNumbers(prof.Games)
	scorePanel(&c, prof.Games)
	resultsPanel(&c, prof.Games, rep.games)
	typesPanel(&c, prof.Models[learn.ModelTypeProbs], number)
	accuracyPanel(&c, rep.Yardsticks, number)
	analysesPanel(&c, prof.Games, rep.Mistakes, rep.Experience)
	name := prof.Key
	if len(prof.Names) > 0 {
		name = prof.Names[len(prof.Names)-1]
	}
	return c.svg(fmt.Sprintf("dossier: %s (%d games)", name, len(prof.Games)))
}

// gameNumbers numbers the games by their identifiers, from 1, oldest first.
func gameNumbers(list []memory.GameSummary) map[string]int {
	out := make(map[string]int, len(list))
	for i, g := range list {
		out[g.ID] = i + 1
	}
	return out
}

// scoreTrend is our score over the finished games: each game's number and points, the running mean, and its
// 95% band.
type scoreTrend struct {
	X, Points, Mean, Lo, Hi []float64
}

// scoreHistory follows our running score over the finished games (a game of unknown result is left out). The
// band is the normal approximation's 95% interval (mean ± 1.96 standard errors) of the score with one win and
// one loss added (as Agresti and Coull do for a proportion), so that it is neither empty after one game nor
// shut after a run of wins.
func scoreHistory(list []memory.GameSummary) scoreTrend {
	var t scoreTrend
	var n, sum, sumSq float64
	for i, g := range list {
		if g.OurScore < 0 {
			continue
		}
		n++
		sum += g.OurScore
		sumSq += g.OurScore * g.OurScore
		m := (sum + 1) / (n + 2)
		variance := math.Max(0, (sumSq+1)/(n+2)-m*m)
		half := 1.96 * math.Sqrt(variance/(n+2))
		t.X = append(t.X, float64(i+1))
		t.Points = append(t.Points, g.OurScore)
		t.Mean = append(t.Mean, sum/n)
		t.Lo = append(t.Lo, math.Max(0, m-half))
		t.Hi = append(t.Hi, math.Min(1, m+half))
	}
	return t
}

// scorePanel draws the points of each game, the running mean and its band.
func scorePanel(c *canvas, list []memory.GameSummary) {
	c.title(titleScore + " (win 1, draw 0.5, loss 0; running mean with a 95% band)")
	t := scoreHistory(list)
	if len(t.X) == 0 {
		c.note("no finished games yet")
		return
	}
	p := c.newPlot(0.5, float64(len(list))+0.5, -0.05, 1.05)
	c.axes(p, labelGame, labelScore, niceTicks(1, float64(len(list)), 8, true), []float64{0, 0.25, 0.5, 0.75, 1},
		func(v float64) string { return fmt.Sprintf("%g", v) })
	c.band(p, t.X, t.Lo, t.Hi, palette[0])
	c.line(p, t.X, t.Mean, palette[0], 2)
	for i := range t.X {
		c.dots(p, t.X[i:i+1], t.Points[i:i+1], resultColour(t.Points[i]), 3)
	}
	c.legend(p.y, []legendEntry{
		{"win (1 point)", resultColour(1), "dot"}, {"draw (0.5)", resultColour(0.5), "dot"},
		{"loss (0)", resultColour(0), "dot"}, {"running mean score", palette[0], "line"},
		{"95% band of the mean", palette[0], "band"},
		{fmt.Sprintf("now %.2f after %d finished", t.Mean[len(t.Mean)-1], len(t.X)), "", "none"},
	})
}

// resultColour is the colour of a win, a draw, a loss or an unknown result.
func resultColour(score float64) string {
	switch score {
	case 1:
		return "#2ca02c"
	case 0.5:
		return "#a0a0a0"
	case 0:
		return "#d62728"
	}
	return "#dddddd"
}

// resultRow is one bar: games by their result.
type resultRow struct {
	Label                       string
	Wins, Draws, Losses, Others int
}

func (r resultRow) total() int { return r.Wins + r.Draws + r.Losses + r.Others }

func (r *resultRow) add(score float64) {
	switch score {
	case 1:
		r.Wins++
	case 0.5:
		r.Draws++
	case 0:
		r.Losses++
	default:
		r.Others++
	}
}

// tallyRows counts the results of the games by the label labelOf gives each, in the order the labels first
// come, each label preceded by its game's name and sep when the games are of several games.
func tallyRows[T any](list []T, summary func(T) memory.GameSummary, sep string, labelOf func(T) string) []resultRow {
	several := false
	for _, g := range list {
		several = several || summary(g).Game != summary(list[0]).Game
	}
	var rows []resultRow
	index := map[string]int{}
	for _, g := range list {
		label := labelOf(g)
		if several {
			label = summary(g).Game + sep + label
		}
		i, ok := index[label]
		if !ok {
			i = len(rows)
			index[label] = i
			rows = append(rows, resultRow{Label: label})
		}
		rows[i].add(summary(g).OurScore)
	}
	return rows
}

// colourRows counts the results by our side ("as white"), the game named too when there are several.
func colourRows(list []memory.GameSummary) []resultRow {
	rows := tallyRows(list, func(g memory.GameSummary) memory.GameSummary { return g }, " ",
		func(g memory.GameSummary) string { return "as " + sideName(g.Game, g.OurSide) })
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].Label < rows[j].Label })
	return rows
}

// openingOf names a stored game's opening: its first moves when it starts from its game's usual position,
// else its start position (the board of the FEN).
func openingOf(g memory.Game) string {
	prefix := ""
	if game, err := catalog.Lookup(g.Game); err == nil && g.StartFEN != "" && g.StartFEN != game.Start().FEN() {
		prefix = "from " + strings.Fields(g.StartFEN)[0]
	}
	if prefix != "" {
		return prefix
	}
	if len(g.Moves) == 0 {
		return "(no moves)"
	}
	return strings.Join(g.Moves[:min(openingPlies, len(g.Moves))], " ")
}

// openingRows counts the results by opening, the most played first; the openings past maxOpeningRows share a
// row.
func openingRows(list []memory.Game) []resultRow {
	rows := tallyRows(list, func(g memory.Game) memory.GameSummary { return g.GameSummary }, ": ", openingOf)
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].total() > rows[j].total() })
	if len(rows) > maxOpeningRows {
		rest := resultRow{Label: fmt.Sprintf("%d other openings", len(rows)-maxOpeningRows+1)}
		for _, r := range rows[maxOpeningRows-1:] {
			rest.Wins, rest.Draws, rest.Losses, rest.Others = rest.Wins+r.Wins, rest.Draws+r.Draws, rest.Losses+r.Losses, rest.Others+r.Others
		}
		rows = append(rows[:maxOpeningRows-1], rest)
	}
	return rows
}

// resultsPanel draws stacked bars of wins, draws and losses: by our colour, then by opening.
func resultsPanel(c *canvas, summaries []memory.GameSummary, stored []memory.Game) {
	c.title(titleResults + " (stacked wins, draws, losses)")
	if len(summaries) == 0 {
		c.note("no games yet")
		return
	}
	byColour, byOpening := colourRows(summaries), openingRows(stored)
	most := 1
	for _, r := range append(append([]resultRow{}, byColour...), byOpening...) {
		most = max(most, r.total())
	}
	// The bars end where the plots do, less the room of the counts written right of the longest.
	const rowH, barLeft, countsWidth = 20, 262, 90
	barW := float64(plotLeft + plotWidth - barLeft - countsWidth)
	legendTop := float64(c.top)
	top := float64(c.top) + 4
	section := func(heading string, rows []resultRow) {
		c.text(12, top+13, ` font-style="italic" fill="#444"`, heading)
		top += rowH
		for _, r := range rows {
			// A label cut short keeps its whole text as the row's tooltip (a start position's FEN).
			c.printf(`<g><title>%s</title>`, xmlEscape(r.Label))
			c.text(barLeft-8, top+13, ` text-anchor="end"`, shorten(r.Label, 38))
			c.printf("</g>\n")
			x := float64(barLeft)
			for _, part := range []struct {
				n     int
				score float64
			}{{r.Wins, 1}, {r.Draws, 0.5}, {r.Losses, 0}, {r.Others, -1}} {
				if part.n == 0 {
					continue
				}
				w := barW * float64(part.n) / float64(most)
				c.printf(`<rect x="%.1f" y="%.1f" width="%.1f" height="%d" fill="%s"><title>%d</title></rect>`+"\n",
					x, top+2, w, rowH-5, resultColour(part.score), part.n)
				x += w
			}
			c.text(x+5, top+13, ` fill="#444"`, fmt.Sprintf("%d/%d/%d  %s", r.Wins, r.Draws, r.Losses, scoreText(r.Wins, r.Draws, r.Losses)))
			top += rowH
		}
	}
	section("by our colour", byColour)
	if len(byOpening) > 0 {
		section(fmt.Sprintf("by opening (the first %d moves, or the start position)", openingPlies), byOpening)
	}
	p := plot{x: barLeft, y: legendTop, w: barW, h: top - legendTop, xmin: 0, xmax: float64(most), ymin: 0, ymax: 1}
	for _, t := range niceTicks(0, float64(most), 6, true) {
		x := p.px(t)
		c.printf(`<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#999"/>`+"\n", x, top, x, top+4)
		c.text(x, top+16, ` text-anchor="middle" class="tick"`, fmt.Sprintf("%g", t))
	}
	c.printf(`<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#999"/>`+"\n", p.x, top, p.x+p.w, top)
	c.text(p.x+p.w/2, top+36, ` text-anchor="middle" class="axis-label"`, labelGames+"; right of a bar: W/D/L and our score")
	c.legend(legendTop, []legendEntry{{"win", resultColour(1), "box"}, {"draw", resultColour(0.5), "box"},
		{"loss", resultColour(0), "box"}, {"result unknown", resultColour(-1), "box"}})
	c.top = int(top) + axisBelow
}

// beliefSeries is the type learner's belief over its history: one line per preset.
type beliefSeries struct {
	X      []float64
	XLabel string
	Names  []string
	Values [][]float64 // by name, then by point
}

// typeBeliefs reads the type learner's states: the probability of each preset (summed over the depths the
// learner tries it at), by game number where the states name their game, else by update. At most
// maxTypeLines presets are drawn, the most believed at some point; the rest share a line.
func typeBeliefs(points []memory.ModelPoint, number map[string]int) beliefSeries {
	var states []learn.TypeLearnerState
	var xs []float64
	byGame := false
	for _, pt := range points {
		byGame = byGame || number[pt.GameID] > 0
	}
	for _, pt := range points {
		var st learn.TypeLearnerState
		if json.Unmarshal(pt.State, &st) != nil || len(st.Probabilities) != len(st.Types) {
			continue
		}
		x := float64(len(xs) + 1)
		if byGame {
			if number[pt.GameID] == 0 {
				continue // a mid-game state: the game's final one follows
			}
			x = float64(number[pt.GameID])
		}
		states, xs = append(states, st), append(xs, x)
	}
	out := beliefSeries{X: xs, XLabel: labelUpdate}
	if byGame {
		out.XLabel = labelGame
	}
	peak := map[string]float64{}
	var names []string
	for _, st := range states {
		sums := map[string]float64{}
		for i, t := range st.Types {
			sums[t.Eval.Name] += st.Probabilities[i]
		}
		for name, p := range sums {
			if _, ok := peak[name]; !ok {
				names = append(names, name)
			}
			peak[name] = math.Max(peak[name], p)
		}
	}
	sort.SliceStable(names, func(i, j int) bool {
		if peak[names[i]] != peak[names[j]] {
			return peak[names[i]] > peak[names[j]]
		}
		return names[i] < names[j]
	})
	shown := names
	others := len(names) > maxTypeLines
	if others {
		shown = names[:maxTypeLines-1]
	}
	out.Names = append([]string{}, shown...)
	if others {
		out.Names = append(out.Names, fmt.Sprintf("%d other presets", len(names)-len(shown)))
	}
	out.Values = make([][]float64, len(out.Names))
	for _, st := range states {
		sums := map[string]float64{}
		for i, t := range st.Types {
			sums[t.Eval.Name] += st.Probabilities[i]
		}
		rest := 0.0
		for name, p := range sums {
			if !slices.Contains(shown, name) {
				rest += p
			}
		}
		for i, name := range shown {
			out.Values[i] = append(out.Values[i], sums[name])
		}
		if others {
			out.Values[len(shown)] = append(out.Values[len(shown)], rest)
		}
	}
	return out
}

// typesPanel draws the type learner's belief in each preset over the games.
func typesPanel(c *canvas, points []memory.ModelPoint, number map[string]int) {
	c.title(titleTypes + " (by preset, summed over search depths)")
	b := typeBeliefs(points, number)
	if len(b.X) == 0 {
		c.note("no type learner states stored yet")
		return
	}
	p := c.newPlot(b.X[0]-0.5, b.X[len(b.X)-1]+0.5, 0, 1)
	c.axes(p, b.XLabel, labelBelief, niceTicks(b.X[0], b.X[len(b.X)-1], 8, true), []float64{0, 0.25, 0.5, 0.75, 1},
		func(v float64) string { return fmt.Sprintf("%g", v) })
	var legend []legendEntry
	for i, name := range b.Names {
		colour := palette[i%len(palette)]
		c.line(p, b.X, b.Values[i], colour, 2)
		if len(b.X) == 1 {
			c.dots(p, b.X, b.Values[i], colour, 3)
		}
		legend = append(legend, legendEntry{fmt.Sprintf("%s (now %.2f)", name, b.Values[i][len(b.X)-1]), colour, "line"})
	}
	c.legend(p.y, legend)
}

// accuracySeries is each model's top-1 accuracy over the games with a yardstick.
type accuracySeries struct {
	X      []float64
	XLabel string
	Models []string
	Top1   [][]float64 // by model, then by game; NaN where the model has no score
}

// accuracyHistory reads the yardsticks: each model's top-1 accuracy in percent, by game number where the
// yardsticks name their game, else by yardstick.
func accuracyHistory(lines []YardstickLine, number map[string]int) accuracySeries {
	out := accuracySeries{XLabel: labelGame}
	for _, y := range lines {
		if number[y.GameID] == 0 {
			out.XLabel = labelUpdate
		}
	}
	index := map[string]int{}
	for i, y := range lines {
		x := float64(i + 1)
		if out.XLabel == labelGame {
			x = float64(number[y.GameID])
		}
		out.X = append(out.X, x)
		for _, s := range y.Scores {
			if _, ok := index[s.Model]; !ok {
				index[s.Model] = len(out.Models)
				out.Models = append(out.Models, s.Model)
				column := make([]float64, i, len(lines))
				for k := range column {
					column[k] = math.NaN()
				}
				out.Top1 = append(out.Top1, column)
			}
		}
		for m := range out.Models {
			out.Top1[m] = append(out.Top1[m], math.NaN())
		}
		for _, s := range y.Scores {
			out.Top1[index[s.Model]][i] = 100 * s.Top1
		}
	}
	return out
}

// accuracyPanel draws each model's top-1 accuracy by game.
func accuracyPanel(c *canvas, lines []YardstickLine, number map[string]int) {
	c.title(titleAccuracy + " (top-1: the model's most likely move was the move played)")
	a := accuracyHistory(lines, number)
	if len(a.X) == 0 {
		c.note("no yardsticks stored yet (they are filed at the end of each game the models learned from)")
		return
	}
	p := c.newPlot(minOf(a.X)-0.5, maxOf(a.X)+0.5, 0, 100)
	c.axes(p, a.XLabel, labelTop1, niceTicks(minOf(a.X), maxOf(a.X), 8, true), []float64{0, 25, 50, 75, 100},
		func(v float64) string { return fmt.Sprintf("%g%%", v) })
	var legend []legendEntry
	for i, model := range a.Models {
		colour := palette[i%len(palette)]
		c.line(p, a.X, a.Top1[i], colour, 1.8)
		var xs, ys []float64
		var sum float64
		for j, v := range a.Top1[i] {
			if !math.IsNaN(v) {
				xs, ys, sum = append(xs, a.X[j]), append(ys, v), sum+v
			}
		}
		c.dots(p, xs, ys, colour, 2.5)
		legend = append(legend, legendEntry{fmt.Sprintf("%s (mean %.0f%%)", model, sum/float64(max(len(ys), 1))), colour, "line"})
	}
	c.legend(p.y, legend)
}

// analysesPanel draws, by game, the experience entries each game's analysis left in the opponent's table (bars)
// and the games whose analysis blamed one of our moves (a red mark above the bar, the mistake as its tooltip).
func analysesPanel(c *canvas, list []memory.GameSummary, mistakes []MistakeLine, x ExperienceSummary) {
	c.title(titleAnalyses + " (what the analysis of each finished game filed)")
	lost := 0
	for _, g := range list {
		if g.OurScore == 0 {
			lost++
		}
	}
	placed := 0
	for _, m := range mistakes {
		if m.Number > 0 {
			placed++
		}
	}
	if len(x.ByGame) == 0 && placed == 0 {
		c.note(fmt.Sprintf("no analysis has filed anything yet (%d lost games; %d entries from preparation)", lost, x.Prepared))
		return
	}
	most := 1
	for _, g := range x.ByGame {
		most = max(most, g.Entries)
	}
	top := float64(most) * 1.15
	p := c.newPlot(0.5, float64(len(list))+0.5, 0, top)
	c.axes(p, labelGame, labelEntries, niceTicks(1, float64(len(list)), 8, true), niceTicks(0, float64(most), 4, true),
		func(v float64) string { return fmt.Sprintf("%g", v) })
	barW := math.Max(1, math.Min(14, 0.7*p.w/float64(len(list))))
	entries := map[int]int{}
	for _, g := range x.ByGame {
		entries[g.Number] = g.Entries
		c.printf(`<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s"><title>game %d: %d entries</title></rect>`+"\n",
			p.px(float64(g.Number))-barW/2, p.py(float64(g.Entries)), barW, p.py(0)-p.py(float64(g.Entries)), palette[0],
			g.Number, g.Entries)
	}
	for _, m := range mistakes {
		if m.Number == 0 {
			continue
		}
		cx, cy := p.px(float64(m.Number)), p.py(float64(entries[m.Number]))-8
		c.printf(`<g><title>game %d: %s</title><path d="M%.1f,%.1f l5,-9 l-10,0 z" fill="%s"/></g>`+"\n",
			m.Number, xmlEscape(m.Text), cx, cy+4, resultColour(0))
	}
	c.legend(p.y, []legendEntry{
		{"entries its analysis filed", palette[0], "box"},
		{fmt.Sprintf("a mistake of ours found (%d)", placed), resultColour(0), "box"},
		{fmt.Sprintf("%d lost games", lost), "", "none"},
		{fmt.Sprintf("%d entries from preparation", x.Prepared), "", "none"},
	})
}
