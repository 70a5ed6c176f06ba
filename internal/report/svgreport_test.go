// Tests of show's SVG report: a well-formed picture with its panels' titles and axis labels, and the numbers
// it draws (the score's band, the results per colour and opening, the type beliefs, the accuracy by game).

package report

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"reflect"
	"strings"
	"testing"

	"dossier/engine"
	"dossier/memory"
	"dossier/memory/learn"
)

const chessStart = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

// sampleShow is a report on a chess opponent of n games (a pattern of results, both colours, three openings),
// a type learner's state and a yardstick after every game.
func sampleShow(t *testing.T, n int) Show {
	t.Helper()
	scores := []float64{1, 0.5, 0, 1, 1, -1, 0.5, 1, 0, 1}
	openings := [][]string{{"e2e4", "e7e5", "g1f3"}, {"d2d4", "d7d5"}, {"e2e4", "c7c5", "g1f3"}}
	types := []learn.MinimaxPlayer{{Eval: engine.Evaluation{Name: "strongest"}, Depth: 1},
		{Eval: engine.Evaluation{Name: "strongest"}, Depth: 3}, {Eval: engine.Evaluation{Name: "mat-tot25"}, Depth: 2},
		{Eval: engine.Evaluation{Name: "f1 <&>"}, Depth: 1}}
	prof := &memory.Profile{Key: "stockfish 16", Names: []string{"Stockfish 16"}, Models: map[string][]memory.ModelPoint{}}
	var stored []memory.Game
	for i := range n {
		id := fmt.Sprintf("g%02d", i)
		sum := memory.GameSummary{ID: id, Game: "chess", OurSide: i % 2, TimeControl: "2+0.05", OurScore: scores[i%len(scores)]}
		prof.Games = append(prof.Games, sum)
		g := memory.Game{GameSummary: sum, StartFEN: chessStart, Moves: openings[i%len(openings)]}
		if i == 4 {
			g.StartFEN = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
		}
		stored = append(stored, g)
		a := float64(i+1) / float64(n+1)
		st := learn.TypeLearnerState{Types: types, Mode: learn.FastLearning, Rate: 0.1, PS: 0.5, Probabilities: []float64{0.25 * (1 - a), 0.25*(1-a) + a, 0.25 * (1 - a), 0.25 * (1 - a)}}
		prof.Models[learn.ModelTypeProbs] = append(prof.Models[learn.ModelTypeProbs],
			memory.ModelPoint{GameID: "", State: mustRaw(t, st)}, // a mid-game state: not drawn
			memory.ModelPoint{GameID: id, State: mustRaw(t, st)})
		y := learn.GameYardstick{Game: "chess", Scores: map[string]learn.Score{
			learn.MinimaxModelName: {Moves: 20, Top1: 0.30}, learn.ModelTypeProbs: {Moves: 20, Top1: 0.3 + 0.4*float64(i)/float64(n)}}}
		if i >= 2 {
			y.Scores[learn.ModelDepth] = learn.Score{Moves: 20, Top1: 0.5}
		}
		prof.Models[learn.ModelYardstick] = append(prof.Models[learn.ModelYardstick], memory.ModelPoint{GameID: id, State: mustRaw(t, y)})
	}
	prof.Mistakes = []memory.Mistake{{GameID: "g02", Game: "chess", Ply: 4, FEN: chessStart, Move: "f2f3", Value: -50,
		Best: "e2e4", BestValue: 30, Depth: 12}}
	return NewShow(prof, stored, sampleExperience(prof))
}

// sampleExperience is the experience of the sample's opponent: 5 entries from the analysis of game 3 (g02), 2
// from game 9's (g08), 3 from preparation, one from a game no longer stored, and every opponent's table
// (which show leaves out).
func sampleExperience(prof *memory.Profile) []memory.Experience {
	var out []memory.Experience
	add := func(key, id string, n int) {
		for range n {
			out = append(out, memory.Experience{OpponentKey: key, Game: "chess", GameID: id, Depth: 10})
		}
	}
	add(prof.Key, "g02", 5)
	add(prof.Key, "g08", 2)
	add(prof.Key, "prepared-1700000000", 3)
	add(prof.Key, "gone", 1)
	add("", "g02", 4)
	return out
}

func mustRaw(t *testing.T, v any) json.RawMessage {
	t.Helper()
	return json.RawMessage(mustJSON(t, v))
}

// svgTexts parses svg as XML and returns the text of its text elements and the count of each element.
func svgTexts(t *testing.T, svg string) ([]string, map[string]int) {
	t.Helper()
	d := xml.NewDecoder(strings.NewReader(svg))
	var texts []string
	count := map[string]int{}
	inText := false
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("not well-formed XML: %v\n%s", err, svg)
		}
		switch x := tok.(type) {
		case xml.StartElement:
			count[x.Name.Local]++
			inText = x.Name.Local == "text"
			if inText {
				texts = append(texts, "")
			}
		case xml.CharData:
			if inText {
				texts[len(texts)-1] += string(x)
			}
		case xml.EndElement:
			inText = false
		}
	}
	return texts, count
}

func TestChartSVGIsWellFormed(t *testing.T) {
	empty := NewShow(&memory.Profile{Key: `dossier & "friends"`}, nil, nil)
	tests := []struct {
		name string
		rep  Show
		// want are texts the picture shows; lines the polylines it draws at least.
		want  []string
		lines int
	}{
		{"no games yet", empty, []string{titleScore, titleResults, titleTypes, titleAccuracy, "no finished games yet",
			"no games yet", "no type learner states stored yet", `dossier: dossier & "friends" (0 games)`}, 0},
		{"twelve games", sampleShow(t, 12), []string{"dossier: Stockfish 16 (12 games)", titleScore, titleResults,
			titleTypes, titleAccuracy, labelGame, labelScore, labelGames, labelBelief, labelTop1,
			"by our colour", "as white", "as black", "e2e4 e7e5", "d2d4 d7d5", "from rnbqkbnr/pppp1ppp/8/4p3/", // a long label is cut
			"strongest (now 0.96)", "f1 <&> (now 0.02)", "minimax (mean 30%)", "typeprobs (mean 48%)", "depth (mean 50%)", "100%",
			"running mean score", "95% band of the mean", "win", "draw", "loss",
			titleAnalyses, labelEntries, "a mistake of ours found (1)", "3 entries from preparation", "2 lost games"}, 1 + 3 + 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			svg := tc.rep.SVG()
			texts, count := svgTexts(t, svg)
			all := strings.Join(texts, "\n")
			for _, w := range tc.want {
				if !strings.Contains(all, w) {
					t.Errorf("no text %q in the picture; its texts:\n%s", w, all)
				}
			}
			if tc.rep.games != nil && !strings.Contains(svg, "<title>from rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR</title>") {
				t.Errorf("the start position's row has no tooltip with its whole FEN board")
			}
			if count["polyline"] < tc.lines {
				t.Errorf("%d polylines, want at least %d", count["polyline"], tc.lines)
			}
			if strings.Contains(all, "typeprobs.probabilities") || strings.Contains(all, "counts[") {
				t.Errorf("the picture still draws the learners' internal fields:\n%s", all)
			}
		})
	}
}

func TestExperienceSummary(t *testing.T) {
	rep := sampleShow(t, 12)
	x := rep.Experience
	want := ExperienceSummary{Entries: 11, Prepared: 3, Unplaced: 1, ByGame: []GameExperience{{3, "g02", 5}, {9, "g08", 2}}}
	if !reflect.DeepEqual(x, want) {
		t.Fatalf("experience %+v, want %+v", x, want)
	}
	svg := rep.SVG()
	if !strings.Contains(svg, "<title>game 3: 5 entries</title>") || !strings.Contains(svg, "<title>game 3: 1.f3? ") {
		t.Errorf("no bar of game 3's 5 entries or no mark of its mistake in the picture")
	}
	var text strings.Builder
	rep.WriteText(&text, "")
	if line := "experience: 11 entries the search reads against this opponent: 7 from the analyses of 2 games, 3 from preparation"; !strings.Contains(text.String(), line) {
		t.Errorf("the text report lacks %q:\n%s", line, text.String())
	}
}

func TestScoreHistory(t *testing.T) {
	tests := []struct {
		name   string
		scores []float64
		x      []float64
		mean   []float64
		// lo and hi are the last band's edges.
		lo, hi float64
	}{
		{"one win", []float64{1}, []float64{1}, []float64{1}, 0.1333, 1},
		// The band is around the score with a win and a loss added: 2.5 points of 5, 0.5 ± 1.96·0.2.
		{"win, unknown, draw, loss", []float64{1, -1, 0.5, 0}, []float64{1, 3, 4}, []float64{1, 0.75, 0.5}, 0.108, 0.892},
		{"ten wins: the band stays open", []float64{1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10},
			[]float64{1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, 0.7603, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var list []memory.GameSummary
			for _, s := range tc.scores {
				list = append(list, memory.GameSummary{OurScore: s})
			}
			got := scoreHistory(list)
			if mustJSON(t, got.X) != mustJSON(t, tc.x) || mustJSON(t, got.Mean) != mustJSON(t, tc.mean) {
				t.Errorf("x %v mean %v, want %v %v", got.X, got.Mean, tc.x, tc.mean)
			}
			if n := len(got.Lo); math.Abs(got.Lo[n-1]-tc.lo) > 1e-3 || math.Abs(got.Hi[n-1]-tc.hi) > 1e-3 {
				t.Errorf("last band %.4f..%.4f, want %.4f..%.4f", got.Lo[n-1], got.Hi[n-1], tc.lo, tc.hi)
			}
		})
	}
}

func TestResultRows(t *testing.T) {
	rep := sampleShow(t, 12)
	colour := colourRows(rep.Profile.Games)
	opening := openingRows(rep.games)
	tests := []struct {
		name string
		got  []resultRow
		want []resultRow
	}{
		// Scores 1 .5 0 1 1 -1 .5 1 0 1 1 .5 (-1: unknown): white plays the even games (1 0 1 .5 0 1), black
		// the odd ones (.5 1 -1 1 1 .5).
		{"by colour", colour, []resultRow{{"as black", 3, 2, 0, 1}, {"as white", 3, 1, 2, 0}}},
		// The openings go round: e4 e5 in games 0 3 6 9 (1 1 .5 1), d4 d5 in 1 7 10 (.5 1 1; game 4 starts
		// from a position of its own), c5 in 2 5 8 11 (0 -1 0 .5); the most played first.
		{"by opening", opening, []resultRow{{"e2e4 e7e5", 3, 1, 0, 0}, {"e2e4 c7c5", 0, 1, 2, 1},
			{"d2d4 d7d5", 2, 1, 0, 0}, {"from rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR", 1, 0, 0, 0}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if mustJSON(t, tc.got) != mustJSON(t, tc.want) {
				t.Errorf("rows %s, want %s", mustJSON(t, tc.got), mustJSON(t, tc.want))
			}
		})
	}
}

func TestTypeBeliefsAndAccuracy(t *testing.T) {
	rep := sampleShow(t, 3)
	number := gameNumbers(rep.Profile.Games)
	b := typeBeliefs(rep.Profile.Models[learn.ModelTypeProbs], number)
	a := accuracyHistory(rep.Yardsticks, number)
	tests := []struct {
		name      string
		got, want any
	}{
		{"beliefs by game, mid-game states left out", b.X, []float64{1, 2, 3}},
		{"presets, the most believed first", b.Names, []string{"strongest", "f1 <&>", "mat-tot25"}},
		{"strongest summed over depths", round3(b.Values[0]), []float64{0.625, 0.75, 0.875}},
		{"accuracy by game", a.X, []float64{1, 2, 3}},
		{"models in the yardsticks' order", a.Models, []string{"minimax", "typeprobs", "depth"}},
		{"a model scored from game 3 only", fmt.Sprint(a.Top1[2]), "[NaN NaN 50]"},
		{"typeprobs in percent", round3(a.Top1[1]), []float64{30, 43.333, 56.667}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if fmt.Sprint(tc.got) != fmt.Sprint(tc.want) {
				t.Errorf("got %v, want %v", tc.got, tc.want)
			}
		})
	}
}

func round3(v []float64) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = math.Round(x*1000) / 1000
	}
	return out
}
