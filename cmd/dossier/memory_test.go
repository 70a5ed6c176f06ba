// The memory subcommand's command lines against a real store.

package main

import (
	"encoding/json"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"dossier/bots/match"
	"dossier/bots/openingbook/booktest"
	"dossier/bots/searchers"
	"dossier/games/chess"
	"dossier/games/tictactoe"
	"dossier/internal/contest"
	"dossier/internal/report"
	"dossier/memory"
	"dossier/memory/learn"
	"dossier/play"
)

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
		// The analysis of a lost game, as an engine files it when the game ends (the payload is the Player's
		// order: its form is what a study of another version reads).
		{Job: &memory.Job{Kind: "analysis", OpponentKey: bob.Key(), Game: "chess", GameID: "lost-1", Created: now,
			Payload: json.RawMessage(`{"version":1,"game":"chess","preset":"strongest",` +
				`"start_fen":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",` +
				`"moves":["f2f3","e7e5","g2g4","d8h4"],"our_side":0,"depth":8,"budget_ms":30000,"nice":19}`)}},
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
		{"prepare: one game repeats nothing", []string{"memory", "prepare", "bob", "--memory", dir}, 0, "prepared 0 of the 0 positions of bob's repertoire in chess", ""},
		{"prepare every position of it", []string{"memory", "prepare", "bob", "--min-count", "1", "--time", "2s", "--memory", dir}, 0, "prepared 4 of the 4 positions of bob's repertoire in chess", "position 4/4 (reached 1 times)"},
		{"prepare without time", []string{"memory", "prepare", "bob", "--time", "0s", "--memory", dir}, 2, "", "--time must be positive"},
		{"prepare of an unknown game", []string{"memory", "prepare", "bob", "--game", "go", "--memory", dir}, 2, "", "--game"},
		{"a flag of prepare elsewhere", []string{"memory", "ls", "--time", "1s", "--memory", dir}, 2, "", "--time is not a flag of ls"},
		{"study a lost game's analysis", []string{"memory", "study", "--memory", dir}, 0,
			"studied: 1 jobs done, 0 given back, 0 failed; learners folded for 1 opponents", "study: analysis of game lost-1 against bob"},
		{"nothing left to study", []string{"memory", "study", "--memory", dir}, 0, "studied: 0 jobs done", ""},
		{"study at a priority that is none", []string{"memory", "study", "--nice", "20", "--memory", dir}, 2, "", "--nice must be 0 to 19"},
		{"a flag of study elsewhere", []string{"memory", "ls", "--follow", "--memory", dir}, 2, "", "--follow is not a flag of ls"},
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

// TestMemoryPrepareSteeredByOurBook prepares against an opponent met in 1.e4 e5 2.Qh5 Nc6 3.Bc4 Nf6 4.Qxf7#
// with a book that plays 1.d4 and answers it with 1...d5: the start, where the book plays, is left out, and the
// position after 1.d4 d5, where our likely line leaves the book though no stored game reached it, is prepared.
func TestMemoryPrepareSteeredByOurBook(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "memory")
	m, err := memory.Open(memory.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	bob := play.Opponent{Name: "Bob", Source: "uci"}
	id, now := memory.NewGameID(), time.Now()
	start := chess.Game{}.Start()
	for _, ev := range []memory.Event{
		{Sighting: &memory.Sighting{Opponent: bob, At: now}},
		{Start: &memory.GameStart{GameID: id, OpponentKey: bob.Key(), Opponent: bob, Game: "chess", OurSide: 0,
			TimeControl: "60+1", StartFEN: start.FEN(), At: now}},
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
	book := booktest.File(t, booktest.Line{Move: "d2d4", Weight: 1}, booktest.Line{Before: "d2d4", Move: "d7d5", Weight: 1})
	after := start.Clone()
	for _, move := range []string{"d2d4", "d7d5"} {
		mv, err := after.ParseMove(move)
		if err != nil {
			t.Fatal(err)
		}
		after.Play(mv)
	}

	code, stdout, stderr := runCase([]string{"memory", "prepare", "bob", "--book", book, "--min-count", "1", "--time", "2s",
		"--memory", dir}, "")
	if code != 0 || !strings.Contains(stdout, "(steered by our book)") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if !strings.Contains(stdout, after.FEN()) || strings.Contains(stdout, start.FEN()) {
		t.Errorf("prepared:\n%s\nwant the position after 1.d4 d5 (%s) and not the start, where the book plays", stdout, after.FEN())
	}
	for _, c := range []struct {
		args    []string
		code    int
		errText string
	}{
		{[]string{"--book-depth", "4"}, 2, "--book-depth needs --book"},
		{[]string{"--book", filepath.Join(t.TempDir(), "none.bin")}, 1, "--book: "},
		{[]string{"--book", book, "--book-depth", "-1"}, 1, "book depth -1"},
		{[]string{"--book", "default", "--game", "tictactoe"}, 1, "no built-in"},
	} {
		code, _, stderr := runCase(append([]string{"memory", "prepare", "bob", "--memory", dir}, c.args...), "")
		if code != c.code || !strings.Contains(stderr, c.errText) {
			t.Errorf("%q: exit %d, stderr %q; want exit %d with %q", c.args, code, stderr, c.code, c.errText)
		}
	}
}

// TestMemoryShowsTheYardstickAndTheLearnedModels plays two games of tic-tac-toe between a Player with a memory
// and a fixed preset, then reads the yardstick (minimax first) and the learned states back with memory show.
func TestMemoryShowsTheYardstickAndTheLearnedModels(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "memory")
	g := tictactoe.Game{}
	cfg := match.Config{Game: g, Games: 2, MoveTimeout: time.Minute, RandomPlies: 1, Seed: 3,
		Players:     [2]match.PlayerSpec{{Name: "dossier", Depth: 4, Memory: dir}, {Name: "lines", Preset: "open-lines", Depth: 2}},
		NewSearcher: contest.NewPlayer}
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
	var show report.Show
	if err := json.Unmarshal([]byte(stdout), &show); err != nil {
		t.Fatal(err)
	}
	if len(show.Yardsticks) != 2 {
		t.Fatalf("%d yardsticks, want 2:\n%s", len(show.Yardsticks), stdout)
	}
	for _, y := range show.Yardsticks {
		var names []string
		for _, sc := range y.Scores {
			names = append(names, sc.Model)
		}
		want := []string{learn.MinimaxModelName, learn.SearchModelName, learn.ModelDepth, searchers.DiscrepancyModelName, learn.ModelTypeProbs}
		if y.GameID == "" || !slices.Equal(names, want) || y.Scores[0].Moves == 0 {
			t.Errorf("yardstick %+v: want the models %v in that order, with moves and the game's ID", y, want)
		}
	}
	models := map[string]report.LearnedLine{}
	for _, l := range show.Learned {
		models[l.Model] = l
	}
	moves := show.Yardsticks[0].Scores[0].Moves + show.Yardsticks[1].Scores[0].Moves
	if tp := models[learn.ModelTypeProbs]; tp.Moves != moves || len(tp.Types) == 0 {
		t.Errorf("type probabilities %+v, want %d moves", tp, moves)
	}
	if d := models[learn.ModelDepth]; d.Moves != moves || d.Depth < 1 {
		t.Errorf("depth %+v, want %d moves", d, moves)
	}
}

// TestMemoryGamesSkipsAGameThatDoesNotReplay stores three games against one opponent: a finished one, one
// whose end lists a move that cannot be played, and one cut off before its end with only the opponent's
// moves filed (as the Player filed them before issue #34, item 9). memory games writes the others, warns on
// stderr naming the bad game and what is wrong with it, and exits 0; the cut-off game keeps the moves that
// follow each other from its start.
func TestMemoryGamesSkipsAGameThatDoesNotReplay(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "memory")
	m, err := memory.Open(memory.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	bob := play.Opponent{Name: "Bob", Source: "uci"}
	const startFEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
	good, bad, cut := memory.NewGameID(), memory.NewGameID(), memory.NewGameID()
	now := time.Now()
	events := []memory.Event{{Sighting: &memory.Sighting{Opponent: bob, At: now}}}
	for i, id := range []string{good, bad, cut} {
		events = append(events, memory.Event{Start: &memory.GameStart{GameID: id, OpponentKey: bob.Key(), Opponent: bob,
			Game: "chess", OurSide: 1, StartFEN: startFEN, At: now.Add(time.Duration(i) * time.Minute)}})
	}
	events = append(events,
		memory.Event{End: &memory.GameEnd{GameID: good, Result: "1-0", Reason: "resignation", OurScore: 0,
			Moves: []string{"d2d4", "d7d5", "c2c4"}, At: now}},
		memory.Event{End: &memory.GameEnd{GameID: bad, Result: "1-0", Reason: "resignation", OurScore: 0,
			Moves: []string{"e2e4", "e2e4"}, At: now}})
	for ply, mv := range map[int]string{0: "e2e4", 2: "g1f3"} {
		events = append(events, memory.Event{Move: &memory.MoveRecord{GameID: cut, Ply: ply, ByOpponent: true, FEN: startFEN,
			Move: mv, TimeMS: -1, Probability: -1, Eval: math.NaN(), At: now}})
	}
	for _, ev := range events {
		if err := m.Record(ev).Wait(t.Context()); err != nil {
			t.Fatal(err)
		}
	}
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCase([]string{"memory", "games", "bob", "--memory", dir}, "")
	if code != 0 || !strings.Contains(stdout, "1. d4 d5 2. c4") || !strings.Contains(stdout, "1. e4 *") {
		t.Errorf("exit %d, stdout %q; want 0 with the finished game and the cut one's first move", code, stdout)
	}
	if !strings.Contains(stderr, "skipping game "+bad) || !strings.Contains(stderr, `move 2 "e2e4"`) ||
		strings.Count(stderr, "\n") != 1 {
		t.Errorf("stderr %q, want one warning naming game %s and its move 2", stderr, bad)
	}
}
