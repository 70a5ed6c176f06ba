// The memory subcommand's own parts: the terminal sparkline, the SVG chart, the series drawn from a profile,
// and its command lines against a real store.
package main

import (
	"dossier/bots/searchers"
	"encoding/json"
	"encoding/xml"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"dossier/bots"
	"dossier/bots/match"
	"dossier/games/tictactoe"
	"dossier/memory"
	"dossier/memory/learn"
	"dossier/play"
)

func TestSparkline(t *testing.T) {
	tests := []struct {
		values []float64
		want   string
	}{
		{[]float64{0, 1}, "▁█"},
		{[]float64{0, 0.5, 1}, "▁▄█"},
		{[]float64{3, 3, 3}, "▁▁▁"},
		{[]float64{1}, "▁"},
	}
	for _, tc := range tests {
		if got := sparkline(tc.values); got != tc.want {
			t.Errorf("sparkline(%v) = %q, want %q", tc.values, got, tc.want)
		}
	}
	long := make([]float64, 100)
	if got := []rune(sparkline(long)); len(got) != maxSparkWidth {
		t.Errorf("a sparkline of 100 points has %d runes, want %d", len(got), maxSparkWidth)
	}
}

func TestChartSVGIsWellFormed(t *testing.T) {
	for _, series := range [][]chartSeries{nil, {{Name: "our score <&>", Values: []float64{0, 0.5, 0.75}}, {Name: "typeprobs.p[0]", Values: []float64{0.2}}}} {
		svg := chartSVG(`dossier & "friends"`, series)
		d := xml.NewDecoder(strings.NewReader(svg))
		polylines := 0
		for {
			tok, err := d.Token()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("not well-formed XML: %v\n%s", err, svg)
			}
			if se, ok := tok.(xml.StartElement); ok && se.Name.Local == "polyline" {
				polylines++
			}
		}
		if polylines != len(series) {
			t.Errorf("%d polylines for %d series", polylines, len(series))
		}
	}
}

func TestModelSeries(t *testing.T) {
	prof := &memory.Profile{
		Games: []memory.GameSummary{{OurScore: 1}, {OurScore: -1}, {OurScore: 0}, {OurScore: 0.5}},
		Models: map[string][]memory.ModelPoint{
			"typeprobs": {{State: json.RawMessage(`{"probabilities":[0.5,0.5],"types":[{"depth":2}]}`)},
				{State: json.RawMessage(`{"probabilities":[0.7,0.3],"types":[{"depth":2}]}`)}},
			"other": {{State: json.RawMessage(`{"p":[1]}`)}},
		},
	}
	got := modelSeries(prof)
	want := []chartSeries{
		{"our score", []float64{1, 0.5, 0.5}}, // the unknown result is left out
		{"other.p[0]", []float64{1}},
		{"typeprobs.probabilities[0]", []float64{0.5, 0.7}}, // the types' configuration is not drawn
		{"typeprobs.probabilities[1]", []float64{0.5, 0.3}},
	}
	if gotJSON, wantJSON := mustJSON(t, got), mustJSON(t, want); gotJSON != wantJSON {
		t.Errorf("series %s, want %s", gotJSON, wantJSON)
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestMemoryCommandLines(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "memory")
	m, err := memory.Open(memory.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	bob := play.Opponent{Name: "Bob", Kind: play.Human, Elo: 1500, Source: "uci"}
	id := memory.NewGameID()
	now := time.Now()
	for _, ev := range []memory.Event{
		{Sighting: &memory.Sighting{Opponent: bob, At: now}},
		{Start: &memory.GameStart{GameID: id, OpponentKey: bob.Key(), Opponent: bob, Game: "chess", OurSide: 0,
			TimeControl: "60+1", StartFEN: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", At: now}},
		{Move: &memory.MoveRecord{GameID: id, Ply: 1, ByOpponent: true, FEN: "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
			Move: "e7e5", TimeMS: 1200, Predicted: "e7e5", Probability: -1, At: now}},
		{End: &memory.GameEnd{GameID: id, Result: "1-0", Reason: "checkmate", OurScore: 1,
			Moves: []string{"e2e4", "e7e5", "d1h5", "b8c6", "f1c4", "g8f6", "h5f7"}, At: now}},
	} {
		if err := m.Record(ev).Wait(t.Context()); err != nil {
			t.Fatal(err)
		}
	}
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name   string
		args   []string
		code   int
		stdout string
		stderr string
	}{
		{"ls", []string{"memory", "ls", "--memory", dir}, 0, "Bob", ""},
		{"show", []string{"memory", "show", "BOB", "--memory", dir}, 0, "1 right (100.0%)", ""},
		{"games as PGN with comments", []string{"memory", "games", "bob", "--memory", dir}, 0, "{predicted e7e5 (as predicted), 1.2s}", ""},
		{"an unknown opponent", []string{"memory", "show", "carol", "--memory", dir}, 2, "", "unknown opponent"},
		{"forget without --yes", []string{"memory", "forget", "bob", "--memory", dir}, 2, "", "add --yes"},
		{"an argument too many", []string{"memory", "ls", "extra", "--memory", dir}, 2, "", "wants 0 argument"},
		{"a flag of another command", []string{"memory", "ls", "--svg", "x.svg", "--memory", dir}, 2, "", "--svg is not a flag of ls"},
		{"no command", []string{"memory"}, 2, "", "which command"},
		{"help", []string{"memory", "--help"}, 0, "dossier memory COMMAND", ""},
		{"forget", []string{"memory", "forget", "bob", "--yes", "--memory", dir}, 0, "forgot bob", ""},
		{"forgotten", []string{"memory", "show", "bob", "--memory", dir}, 2, "", "unknown opponent"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runCase(tc.args, "")
			if code != tc.code || !strings.Contains(stdout, tc.stdout) || !strings.Contains(stderr, tc.stderr) {
				t.Errorf("exit %d, stdout %q, stderr %q; want %d, %q, %q", code, stdout, stderr, tc.code, tc.stdout, tc.stderr)
			}
		})
	}
}

// TestMemoryShowsTheYardstickAndTheLearnedModels plays two games of tic-tac-toe between a Player with a memory
// and a fixed preset, then reads the yardstick (minimax first) and the learned states back with memory show.
func TestMemoryShowsTheYardstickAndTheLearnedModels(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "memory")
	g := tictactoe.Game{}
	cfg := match.Config{Game: g, Games: 2, MoveTimeout: time.Minute, RandomPlies: 1, Seed: 3,
		Players:     [2]match.PlayerSpec{{Name: "dossier", Depth: 4, Memory: dir}, {Name: "lines", Preset: "open-lines", Depth: 2}},
		NewSearcher: newBotSearcher}
	if _, err := match.Run(t.Context(), cfg); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCase([]string{"memory", "show", "lines", "--memory", dir}, "")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"yardstick:", "1 tictactoe  minimax", "2 tictactoe  minimax", "typeprobs", "learned:",
		"with strongest's evaluation", "moves counted in 2 games"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("memory show lacks %q:\n%s", want, stdout)
		}
	}
	code, stdout, stderr = runCase([]string{"memory", "show", "lines", "--json", "--memory", dir}, "")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var report showReport
	if err := json.Unmarshal([]byte(stdout), &report); err != nil {
		t.Fatal(err)
	}
	if len(report.Yardsticks) != 2 {
		t.Fatalf("%d yardsticks, want 2:\n%s", len(report.Yardsticks), stdout)
	}
	for _, y := range report.Yardsticks {
		var names []string
		for _, sc := range y.Scores {
			names = append(names, sc.Model)
		}
		want := []string{learn.MinimaxModelName, bots.SearchModelName, learn.ModelDepth, searchers.DiscrepancyModelName, learn.ModelTypeProbs}
		if y.GameID == "" || !slices.Equal(names, want) || y.Scores[0].Moves == 0 {
			t.Errorf("yardstick %+v: want the models %v in that order, with moves and the game's ID", y, want)
		}
	}
	models := map[string]learnedLine{}
	for _, l := range report.Learned {
		models[l.Model] = l
	}
	moves := report.Yardsticks[0].Scores[0].Moves + report.Yardsticks[1].Scores[0].Moves
	if tp := models[learn.ModelTypeProbs]; tp.Moves != moves || len(tp.Types) == 0 {
		t.Errorf("type probabilities %+v, want %d moves", tp, moves)
	}
	if d := models[learn.ModelDepth]; d.Moves != moves || d.Depth < 1 {
		t.Errorf("depth %+v, want %d moves", d, moves)
	}
}
