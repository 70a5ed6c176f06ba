// The memory subcommand: list, show, export, dump, import, forget, merge and compact the per-opponent memory,
// alone or while an engine owns the store (the memory reaches it through the owner).
package main

import (
	"bufio"
	"context"
	"dossier/bots/searchers"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"dossier/bots"
	"dossier/bots/match"
	"dossier/games"
	"dossier/games/catalog"
	"dossier/internal/cli"
	"dossier/memory"
	"dossier/memory/learn"
	"dossier/play"
)

const memoryUsage = `usage: dossier memory COMMAND [--memory DIR] [--json] [arguments]

The memory keeps a dossier on every opponent: the names it was seen under, its ratings, every game with
each of its moves and what we predicted, the results, and what the learners made of it. It lives in
$XDG_DATA_HOME/dossier (else ~/.local/share/dossier) unless --memory says otherwise, and these commands
work while an engine is using it.

Commands:
  ls                     every opponent: games, wins/draws/losses, last seen, rating, models
  show NAME [--svg FILE] one opponent: profile, results by game, side and time control, prediction
                         accuracy, the models' history as a chart (--svg writes it as a picture)
  games NAME [--out F]   the opponent's games as PGN (PDN for checkers), our predictions as comments
  dump [--out F]         the whole store as JSON lines (the format is in the README)
  import FILE            merge a dump (importing twice changes nothing; a bad line refuses the whole file)
  forget NAME --yes      remove an opponent with all its games and models
  merge ALIAS NAME       file ALIAS's games and names under NAME (two names of one opponent)
  compact                reclaim the space of deleted and rewritten records now
  identify FILE.pgn      which stored opponent played a side of the games (dossier memory identify --help)
`

// memoryCommand is one subcommand of dossier memory: its argument count and what it does with the open
// memory.
type memoryCommand struct {
	args int // the number of positional arguments
	run  func(m *memory.Memory, c *memoryContext) error
}

// memoryContext is what a memory command gets besides the memory: its arguments, flags and output.
type memoryContext struct {
	args   []string
	json   bool
	svg    string
	out    string
	yes    bool
	stdout io.Writer
}

// memoryCommands lists the subcommands of dossier memory.
var memoryCommands = map[string]memoryCommand{
	"ls":      {0, memoryLs},
	"show":    {1, memoryShow},
	"games":   {1, memoryGames},
	"dump":    {0, memoryDump},
	"import":  {1, memoryImport},
	"forget":  {1, memoryForget},
	"merge":   {2, memoryMerge},
	"compact": {0, memoryCompact},
}

func runMemory(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "identify" { // its own flags: see identify.go
		return runMemoryIdentify(args[1:], stdout, stderr)
	}
	cmd := cli.New("dossier memory", memoryUsage, stdout, stderr)
	dir := cmd.Flags.String("memory", "", "the memory directory (default $XDG_DATA_HOME/dossier, else ~/.local/share/dossier)")
	asJSON := cmd.Flags.Bool("json", false, "print JSON instead of text")
	svg := cmd.Flags.String("svg", "", "show: also write the chart as an SVG picture to this file")
	out := cmd.Flags.String("out", "", "games, dump: write to this file instead of standard output")
	yes := cmd.Flags.Bool("yes", false, "forget: really forget")
	if code, stop := cmd.Parse(args, 0, -1); stop {
		return code
	}
	if len(cmd.Args()) == 0 {
		return cmd.UsageError("which command? (ls, show, games, dump, import, forget, merge, compact)")
	}
	name := cmd.Args()[0]
	sub, ok := memoryCommands[name]
	if !ok {
		return cmd.UsageError("unknown command %q (ls, show, games, dump, import, forget, merge, compact)", name)
	}
	rest := cmd.Args()[1:]
	if len(rest) != sub.args {
		return cmd.UsageError("%s wants %d argument(s), got %d: %q", name, sub.args, len(rest), rest)
	}
	for flag, allowed := range map[string]bool{"svg": name == "show", "out": name == "games" || name == "dump", "yes": name == "forget"} {
		if cmd.Changed(flag) && !allowed {
			return cmd.UsageError("--%s is not a flag of %s", flag, name)
		}
	}
	if name == "forget" && !*yes {
		return cmd.UsageError("forget removes %q with all its games; add --yes to do it", rest[0])
	}
	m, err := memory.Open(memory.Options{Dir: *dir})
	if err != nil {
		return cmd.Fail("%v", err)
	}
	c := &memoryContext{args: rest, json: *asJSON, svg: *svg, out: *out, yes: *yes, stdout: stdout}
	runErr := sub.run(m, c)
	closeErr := m.Close()
	if runErr != nil {
		if errors.Is(runErr, memory.ErrUnknownOpponent) {
			return cmd.UsageError("%s: %v", name, runErr)
		}
		return cmd.Fail("%s: %v", name, runErr)
	}
	if closeErr != nil {
		return cmd.Fail("%v", closeErr)
	}
	return cli.ExitOK
}

// writeJSON prints v as indented JSON.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// memoryLs lists every opponent.
func memoryLs(m *memory.Memory, c *memoryContext) error {
	list, err := m.Opponents()
	if err != nil {
		return err
	}
	if c.json {
		if list == nil {
			list = []memory.Summary{}
		}
		return writeJSON(c.stdout, list)
	}
	if len(list) == 0 {
		fmt.Fprintf(c.stdout, "no opponents in %s yet\n", m.Dir())
		return nil
	}
	tw := tabwriter.NewWriter(c.stdout, 2, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "OPPONENT\tGAMES\tW/D/L\tSCORE\tLAST SEEN\tRATING\tKIND\tMODELS")
	for _, s := range list {
		rating := "-"
		if s.Elo > 0 {
			rating = fmt.Sprint(s.Elo)
		}
		models := strings.Join(s.Models, ",")
		if models == "" {
			models = "-"
		}
		kind := s.Kind
		if kind == "" {
			kind = "-"
		}
		fmt.Fprintf(tw, "%s\t%d\t%d/%d/%d\t%s\t%s\t%s\t%s\t%s\n", s.Name, s.Games, s.Wins, s.Draws, s.Losses,
			scoreText(s.Wins, s.Draws, s.Losses), s.LastSeen.Local().Format("2006-01-02 15:04"), rating, kind, models)
	}
	return tw.Flush()
}

// scoreText writes our score percentage over decided and drawn games, or "-" without any.
func scoreText(w, d, l int) string {
	if w+d+l == 0 {
		return "-"
	}
	return fmt.Sprintf("%.0f%%", 100*(float64(w)+0.5*float64(d))/float64(w+d+l))
}

// resultLine is one row of show's results table: games of one game, side and time control.
type resultLine struct {
	Game        string `json:"game"`
	Side        string `json:"our_side"`
	TimeControl string `json:"time_control"`
	Games       int    `json:"games"`
	Wins        int    `json:"wins"`
	Draws       int    `json:"draws"`
	Losses      int    `json:"losses"`
	Unknown     int    `json:"unknown"`
}

// predictionStats is how well our predicted replies matched the opponent's moves.
type predictionStats struct {
	Moves     int     `json:"moves"`
	Predicted int     `json:"predicted"`
	Correct   int     `json:"correct"`
	Accuracy  float64 `json:"accuracy"`
}

// showReport is show's JSON.
type showReport struct {
	Profile    *memory.Profile `json:"profile"`
	Results    []resultLine    `json:"results"`
	Prediction predictionStats `json:"prediction"`
	Series     []chartSeries   `json:"series"`
	// Yardsticks are how well each opponent model predicted the opponent, game by game, oldest first.
	Yardsticks []yardstickLine `json:"yardsticks"`
	// Learned are the latest state of each learned model, in short.
	Learned []learnedLine `json:"learned"`
}

// yardstickLine is one game's yardstick: each model's score, minimax's first.
type yardstickLine struct {
	GameID string       `json:"game_id"`
	Game   string       `json:"game"`
	Scores []modelScore `json:"scores"`
}

// modelScore is one model's score in a game.
type modelScore struct {
	Model string `json:"model"`
	learn.Score
}

// learnedLine is the latest state of one learned model in short.
type learnedLine struct {
	Model  string    `json:"model"`
	At     time.Time `json:"at"`
	GameID string    `json:"game_id,omitempty"`
	// Moves counts the opponent moves the model learned from.
	Moves int `json:"moves"`
	// Types are the type learner's most probable types (preset@depth) and their probabilities.
	Types []typeProbability `json:"types,omitempty"`
	// Depth is the depth learner's learned depth.
	Depth int `json:"depth,omitempty"`
	// Summary is the state in one line.
	Summary string `json:"summary"`
}

// typeProbability is one opponent type and its learned probability.
type typeProbability struct {
	Type        string  `json:"type"`
	Probability float64 `json:"probability"`
}

// maxShownTypes bounds the types a learned type-probability line names.
const maxShownTypes = 3

// yardstickLines reads the yardsticks of the profile, oldest first; a state that does not read is skipped.
func yardstickLines(prof *memory.Profile) []yardstickLine {
	var out []yardstickLine
	for _, pt := range prof.Models[learn.ModelYardstick] {
		var y learn.GameYardstick
		if json.Unmarshal(pt.State, &y) != nil {
			continue
		}
		// The baselines first, minimax's then our search's own predictions, then the learned models by name.
		baselines := []string{learn.MinimaxModelName, bots.SearchModelName}
		names := make([]string, 0, len(y.Scores))
		for name := range y.Scores {
			if !slices.Contains(baselines, name) {
				names = append(names, name)
			}
		}
		sort.Strings(names)
		for i := len(baselines) - 1; i >= 0; i-- {
			if _, ok := y.Scores[baselines[i]]; ok {
				names = append([]string{baselines[i]}, names...)
			}
		}
		line := yardstickLine{GameID: pt.GameID, Game: y.Game}
		for _, name := range names {
			line.Scores = append(line.Scores, modelScore{Model: name, Score: y.Scores[name]})
		}
		out = append(out, line)
	}
	return out
}

// learnedLines summarises the latest state of each learner the Player keeps (type probabilities, depth,
// discrepancy counts); a state that does not read is said so.
func learnedLines(prof *memory.Profile) []learnedLine {
	var out []learnedLine
	for _, name := range []string{learn.ModelTypeProbs, learn.ModelDepth, searchers.DiscrepancyModelName} {
		points := prof.Models[name]
		if len(points) == 0 {
			continue
		}
		pt := points[len(points)-1]
		line := learnedLine{Model: name, At: pt.At, GameID: pt.GameID}
		switch name {
		case learn.ModelTypeProbs:
			var st learn.TypeLearnerState
			if err := json.Unmarshal(pt.State, &st); err != nil {
				line.Summary = "unreadable: " + err.Error()
				break
			}
			line.Moves = st.Moves
			for i, t := range st.Types {
				line.Types = append(line.Types, typeProbability{Type: fmt.Sprintf("%s@%d", t.Eval.Name, t.Depth), Probability: st.Probabilities[i]})
			}
			sort.SliceStable(line.Types, func(i, j int) bool { return line.Types[i].Probability > line.Types[j].Probability })
			line.Types = line.Types[:min(len(line.Types), maxShownTypes)]
			parts := make([]string, len(line.Types))
			for i, t := range line.Types {
				parts[i] = fmt.Sprintf("%s %.2f", t.Type, t.Probability)
			}
			line.Summary = fmt.Sprintf("%s (of %d types, %d moves)", strings.Join(parts, ", "), len(st.Types), st.Moves)
		case learn.ModelDepth:
			var st learn.DepthLearnerState
			if err := json.Unmarshal(pt.State, &st); err != nil {
				line.Summary = "unreadable: " + err.Error()
				break
			}
			line.Moves, line.Depth = st.Examples, 1
			for d, c := range st.Counts {
				if c > st.Counts[line.Depth-1] {
					line.Depth = d + 1
				}
			}
			line.Summary = fmt.Sprintf("depth %d with %s's evaluation (of 1..%d, %d moves)", line.Depth, st.Eval.Name, st.MaxDepth, st.Examples)
		case searchers.DiscrepancyModelName:
			var c searchers.DiscrepancyCounts
			if err := json.Unmarshal(pt.State, &c); err != nil {
				line.Summary = "unreadable: " + err.Error()
				break
			}
			line.Moves = c.Observations
			line.Summary = fmt.Sprintf("%d moves counted in %d games, %s at depth %d", c.Observations, c.Games, c.Evaluation, c.ReplyDepth)
		}
		out = append(out, line)
	}
	return out
}

// sideName names a side in a game's own terms.
func sideName(game string, side int) string {
	first, second := "first", "second"
	switch game {
	case "chess":
		first, second = "white", "black"
	case "checkers":
		first, second = "black", "white"
	}
	if side == 0 {
		return first
	}
	return second
}

// memoryShow prints one opponent's profile.
func memoryShow(m *memory.Memory, c *memoryContext) error {
	prof, err := m.Profile(c.args[0])
	if err != nil {
		return err
	}
	gameList, err := m.Games(prof.Key)
	if err != nil {
		return err
	}
	report := showReport{Profile: prof, Results: resultsTable(prof.Games), Prediction: predictions(gameList),
		Series: modelSeries(prof), Yardsticks: yardstickLines(prof), Learned: learnedLines(prof)}
	if c.svg != "" {
		if err := os.WriteFile(c.svg, []byte(chartSVG(prof.Key, report.Series)), 0o644); err != nil {
			return err
		}
	}
	if c.json {
		return writeJSON(c.stdout, report)
	}
	w := c.stdout
	fmt.Fprintf(w, "%s\n", prof.Key)
	fmt.Fprintf(w, "  names:     %s\n", strings.Join(prof.Names, ", "))
	if len(prof.Aliases) > 0 {
		fmt.Fprintf(w, "  aliases:   %s\n", strings.Join(prof.Aliases, ", "))
	}
	if prof.Title != "" || prof.Kind != "" {
		fmt.Fprintf(w, "  title:     %s  kind: %s\n", orDash(prof.Title), orDash(prof.Kind))
	}
	if n := len(prof.Ratings); n > 0 {
		r := prof.Ratings[n-1]
		fmt.Fprintf(w, "  rating:    %d (%s, %s; %d ratings seen)\n", r.Elo, r.Source, r.At.Local().Format("2006-01-02"), n)
	}
	fmt.Fprintf(w, "  seen:      %s to %s\n", prof.FirstSeen.Local().Format("2006-01-02 15:04"), prof.LastSeen.Local().Format("2006-01-02 15:04"))
	fmt.Fprintf(w, "  games:     %d\n", len(prof.Games))
	if len(report.Results) > 0 {
		tw := tabwriter.NewWriter(w, 2, 8, 2, ' ', 0)
		fmt.Fprintln(tw, "    GAME\tOUR SIDE\tTIME CONTROL\tGAMES\tW/D/L\tSCORE\tUNKNOWN")
		for _, r := range report.Results {
			fmt.Fprintf(tw, "    %s\t%s\t%s\t%d\t%d/%d/%d\t%s\t%d\n", r.Game, r.Side, orDash(r.TimeControl), r.Games,
				r.Wins, r.Draws, r.Losses, scoreText(r.Wins, r.Draws, r.Losses), r.Unknown)
		}
		tw.Flush()
	}
	p := report.Prediction
	if p.Moves > 0 {
		fmt.Fprintf(w, "  predicted: %d of %d opponent moves had a prediction; %d right (%.1f%%)\n", p.Predicted, p.Moves,
			p.Correct, 100*p.Accuracy)
	}
	if len(report.Yardsticks) > 0 {
		fmt.Fprintln(w, "  yardstick: how each model predicted the opponent's moves, game by game")
		tw := tabwriter.NewWriter(w, 2, 8, 2, ' ', 0)
		fmt.Fprintln(tw, "    GAME\tMODEL\tMOVES\tTOP-1\tTOP-3\tLOG-LIKELIHOOD")
		for i, y := range report.Yardsticks {
			for j, s := range y.Scores {
				label := ""
				if j == 0 {
					label = fmt.Sprintf("%d %s", i+1, y.Game)
				}
				fmt.Fprintf(tw, "    %s\t%s\t%d\t%.1f%%\t%.1f%%\t%.3f\n", label, s.Model, s.Moves, 100*s.Top1, 100*s.Top3, s.LogLikelihood)
			}
		}
		tw.Flush()
	}
	if len(report.Learned) > 0 {
		fmt.Fprintln(w, "  learned:")
		for _, l := range report.Learned {
			fmt.Fprintf(w, "    %-12s %s\n", l.Model, l.Summary)
		}
	}
	if len(report.Series) > 0 {
		fmt.Fprintln(w, "  history:")
		for _, s := range report.Series {
			fmt.Fprintf(w, "    %-28s %s  %.3g..%.3g (%d points)\n", s.Name, sparkline(s.Values), minOf(s.Values), maxOf(s.Values), len(s.Values))
		}
	}
	if c.svg != "" {
		fmt.Fprintf(w, "  chart written to %s\n", c.svg)
	}
	return nil
}

// orDash returns s, or "-" when it is empty.
func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// resultsTable groups the games by game, our side and time control.
func resultsTable(list []memory.GameSummary) []resultLine {
	byKey := map[string]*resultLine{}
	var keys []string
	for _, g := range list {
		key := g.Game + "\x00" + fmt.Sprint(g.OurSide) + "\x00" + g.TimeControl
		r, ok := byKey[key]
		if !ok {
			r = &resultLine{Game: g.Game, Side: sideName(g.Game, g.OurSide), TimeControl: g.TimeControl}
			byKey[key] = r
			keys = append(keys, key)
		}
		r.Games++
		switch g.OurScore {
		case 1:
			r.Wins++
		case 0.5:
			r.Draws++
		case 0:
			r.Losses++
		default:
			r.Unknown++
		}
	}
	sort.Strings(keys)
	out := make([]resultLine, len(keys))
	for i, k := range keys {
		out[i] = *byKey[k]
	}
	return out
}

// predictions measures our predicted replies against the opponent's moves.
func predictions(list []memory.Game) predictionStats {
	var s predictionStats
	for _, g := range list {
		for _, r := range g.Records {
			if !r.ByOpponent {
				continue
			}
			s.Moves++
			if r.Predicted != "" {
				s.Predicted++
				if r.Predicted == r.Move {
					s.Correct++
				}
			}
		}
	}
	if s.Predicted > 0 {
		s.Accuracy = float64(s.Correct) / float64(s.Predicted)
	}
	return s
}

// chartSeries is one line of show's chart.
type chartSeries struct {
	Name   string    `json:"name"`
	Values []float64 `json:"values"`
}

// modelSeries returns the chart's lines: our running score over the opponent's finished games, then every
// number in the models' states over their history (a model's state is its learner's JSON; its numbers, by
// their path in it, are what can be drawn).
func modelSeries(prof *memory.Profile) []chartSeries {
	var out []chartSeries
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
		out = append(out, chartSeries{Name: "our score", Values: score})
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
			out = append(out, chartSeries{Name: path, Values: series[path]})
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

// chartSVG draws the series as one small chart each, stacked, with their ranges: an SVG picture.
func chartSVG(title string, series []chartSeries) string {
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

// outputFile returns where a command writes: the --out file (created) or standard output, and its closer.
func outputFile(c *memoryContext) (io.Writer, func() error, error) {
	if c.out == "" {
		return c.stdout, func() error { return nil }, nil
	}
	f, err := os.Create(c.out)
	if err != nil {
		return nil, nil, err
	}
	bw := bufio.NewWriter(f)
	return bw, func() error { return errors.Join(bw.Flush(), f.Close()) }, nil
}

// memoryGames exports an opponent's games as PGN (PDN for checkers) with our predictions as comments.
func memoryGames(m *memory.Memory, c *memoryContext) error {
	prof, err := m.Profile(c.args[0])
	if err != nil {
		return err
	}
	list, err := m.Games(prof.Key)
	if err != nil {
		return err
	}
	w, closeOut, err := outputFile(c)
	if err != nil {
		return err
	}
	for i, g := range list {
		text, err := formatStoredGame(g, prof, i+1)
		if err != nil {
			closeOut()
			return fmt.Errorf("game %s: %w", g.ID, err)
		}
		if _, err := io.WriteString(w, text); err != nil {
			closeOut()
			return err
		}
	}
	return closeOut()
}

// formatStoredGame writes one stored game as PGN or PDN, with a comment after each opponent move that had a
// prediction ("predicted X", and our evaluation) and the opponent's thinking time.
func formatStoredGame(g memory.Game, prof *memory.Profile, number int) (string, error) {
	game, err := catalog.Lookup(g.Game)
	if err != nil {
		return "", err
	}
	start, err := game.ParsePosition(g.StartFEN)
	if err != nil {
		return "", fmt.Errorf("start position: %w", err)
	}
	rec := match.GameRecord{Number: number, Start: start, Player1: games.First}
	opponentName := prof.Key
	if len(prof.Names) > 0 {
		opponentName = prof.Names[len(prof.Names)-1]
	}
	ours := games.Side(g.OurSide)
	rec.Names[ours], rec.Names[ours.Other()] = "dossier", opponentName
	if ours != games.First {
		rec.Player1 = games.Second
	}
	comments := map[int]string{}
	for _, r := range g.Records {
		if !r.ByOpponent {
			continue
		}
		var parts []string
		if r.Predicted != "" {
			verdict := "missed"
			if r.Predicted == r.Move {
				verdict = "as predicted"
			}
			parts = append(parts, fmt.Sprintf("predicted %s (%s)", r.Predicted, verdict))
		}
		if r.Probability >= 0 {
			parts = append(parts, fmt.Sprintf("p=%.3f", r.Probability))
		}
		if r.TimeMS >= 0 {
			parts = append(parts, fmt.Sprintf("%.1fs", float64(r.TimeMS)/1000))
		}
		comments[r.Ply] = strings.Join(parts, ", ")
	}
	p := start.Clone()
	for i, text := range g.Moves {
		m, err := p.ParseMove(text)
		if err != nil {
			return "", fmt.Errorf("move %d %q: %w", i+1, text, err)
		}
		rec.Moves = append(rec.Moves, m)
		rec.Comments = append(rec.Comments, comments[i])
		p.Play(m)
	}
	rec.Result = parseResult(g.Result)
	rec.Termination = match.Termination(g.Reason)
	rec.Detail = g.Reason
	if game.Name() == "checkers" {
		return match.FormatPDN(rec, "dossier memory "+g.ID)
	}
	return match.FormatPGN(game, rec, "dossier memory "+g.ID)
}

// parseResult reads a PGN result.
func parseResult(s string) games.Result {
	switch s {
	case "1-0":
		return games.FirstWins
	case "0-1":
		return games.SecondWins
	case "1/2-1/2":
		return games.Draw
	}
	return games.Ongoing
}

// memoryDump writes the whole store as JSON lines.
func memoryDump(m *memory.Memory, c *memoryContext) error {
	w, closeOut, err := outputFile(c)
	if err != nil {
		return err
	}
	if err := m.Dump(w); err != nil {
		closeOut()
		return err
	}
	return closeOut()
}

// memoryImport merges a dump.
func memoryImport(m *memory.Memory, c *memoryContext) error {
	f, err := os.Open(c.args[0])
	if err != nil {
		return err
	}
	defer f.Close()
	stats, err := m.Import(bufio.NewReader(f))
	if err != nil {
		return err
	}
	if c.json {
		return writeJSON(c.stdout, stats)
	}
	fmt.Fprintf(c.stdout, "imported %s: %d records read, %d added or changed, %d already there\n", c.args[0],
		stats.Records, stats.Added, stats.Unchanged)
	return nil
}

// memoryForget removes an opponent.
func memoryForget(m *memory.Memory, c *memoryContext) error {
	key := play.NameKey(c.args[0])
	if err := m.Forget(key); err != nil {
		return err
	}
	if !c.json {
		fmt.Fprintf(c.stdout, "forgot %s\n", key)
	}
	return nil
}

// memoryMerge files one opponent's records under another's name.
func memoryMerge(m *memory.Memory, c *memoryContext) error {
	alias, into := play.NameKey(c.args[0]), play.NameKey(c.args[1])
	if err := m.Merge(alias, into); err != nil {
		return err
	}
	if !c.json {
		fmt.Fprintf(c.stdout, "merged %s into %s\n", alias, into)
	}
	return nil
}

// memoryCompact reclaims space now.
func memoryCompact(m *memory.Memory, c *memoryContext) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	if err := m.Flush(ctx); err != nil {
		return err
	}
	if err := m.Compact(); err != nil {
		return err
	}
	if !c.json {
		fmt.Fprintf(c.stdout, "compacted %s\n", m.Dir())
	}
	return nil
}
