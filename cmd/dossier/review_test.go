// Tests of dossier review: the PGN reader, the loss rules on made-up values, the command line, and a real
// review by Stockfish of a game with a known blunder.
package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"dossier/games"
)

// scholarsMate is a miniature with one blunder: 3...Nf6?? allows the mate 4.Qxf7#.
const scholarsMate = `[Event "test"]
[White "Alice"]
[Black "Bob"]
[Result "1-0"]

1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0
`

func TestReadReviewGames(t *testing.T) {
	tests := []struct {
		name         string
		pgn          string
		games        int
		plies        []int
		white, black string
		err          string
	}{
		{"one game", scholarsMate, 1, []int{7}, "Alice", "Bob", ""},
		{"comments, variations, NAGs and glued numbers", `[White "A"]
[Black "B"]
1.e4 {best by test} e5 (1...c5 2. Nf3 (2. c3) d6) 2. Nf3 $1 Nc6?! ; a line comment
3... ` + "\n%escaped line\n" + `3. Bb5 a6 *`, 1, []int{6}, "A", "B", ""},
		{"two games and a FEN start", scholarsMate + `
[White "C"]
[Black "D"]
[SetUp "1"]
[FEN "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"]

1. Ra8# 1-0`, 2, []int{7, 1}, "Alice", "Bob", ""},
		{"no tags", "1. d4 d5 2. c4 1/2-1/2", 1, []int{3}, "White", "Black", ""},
		{"empty", "", 0, nil, "", "", ""},
		{"illegal move", "1. e4 e5 2. Ke3", 0, nil, "", "", "game 1: ply 3"},
		{"bad FEN", `[FEN "8/8/8 w"]` + "\n1. e4", 0, nil, "", "", "game 1: FEN"},
		{"another variant", `[Variant "Crazyhouse"]` + "\n1. e4", 0, nil, "", "", "only standard chess"},
		{"an unclosed tag", `[White "A"`, 0, nil, "", "", "never closed"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			list, err := readReviewGames(strings.NewReader(tc.pgn))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(list) != tc.games {
				t.Fatalf("%d games, want %d", len(list), tc.games)
			}
			for i, g := range list {
				if len(g.moves) != tc.plies[i] {
					t.Errorf("game %d: %d plies, want %d", i+1, len(g.moves), tc.plies[i])
				}
			}
			if tc.games > 0 && (list[0].white != tc.white || list[0].black != tc.black) {
				t.Errorf("players %q and %q", list[0].white, list[0].black)
			}
		})
	}
}

func FuzzReadReviewGames(f *testing.F) {
	f.Add(scholarsMate)
	f.Add("1. e4 (1. d4 {x} (1. c4)) e5 $2 2. Nf3 *")
	f.Add(`[FEN "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"] 1. Ra8#`)
	f.Add("[[[ {{ (( ;;")
	f.Fuzz(func(t *testing.T, text string) {
		list, err := readReviewGames(strings.NewReader(text))
		if err != nil {
			return
		}
		for _, g := range list {
			p := g.start.Clone()
			for _, m := range g.moves {
				legal := p.AppendMoves(nil)
				found := false
				for _, l := range legal {
					found = found || l == m
				}
				if !found {
					t.Fatalf("an illegal move was read from %q", text)
				}
				p.Play(m)
			}
		}
	})
}

func TestMoveLoss(t *testing.T) {
	tests := []struct {
		name          string
		before, after float64
		loss          float64
		counts        bool
	}{
		{"the best move", 30, -30, 0, true},
		{"a better move than the engine saw", 30, -60, 0, true},
		{"a mistake", 20, 100, 120, true},
		{"a blunder into mate", -50, 1000, 950, true},
		{"capped", 499, 1000, 1000, true},
		{"already won", 600, 200, 0, false},
		{"already lost", -500, 1000, 0, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			loss, counts := moveLoss(tc.before, tc.after)
			if loss != tc.loss || counts != tc.counts {
				t.Errorf("got %v %v, want %v %v", loss, counts, tc.loss, tc.counts)
			}
		})
	}
}

// TestReviewAllCounts reviews the miniature with made-up values: each position's value is given, and the
// classification must follow the thresholds.
func TestReviewAllCounts(t *testing.T) {
	list, err := readReviewGames(strings.NewReader(scholarsMate))
	if err != nil {
		t.Fatal(err)
	}
	// Values of the positions after 0..6 plies, each for its side to move; after 7 plies it is mate.
	values := []float64{30, -40, -10, 60, -120, 250, 90000}
	var blunders []blunder
	players, err := reviewAll(list, func(_ reviewGame, ply int, _ games.Position) (float64, error) { return values[ply], nil },
		func(b blunder) { blunders = append(blunders, b) })
	if err != nil {
		t.Fatal(err)
	}
	// Losses: W 30-40<0 -> 0; B -40-10<0 -> 0; W -10+60 = 50 (inaccuracy); B 60-120<0 -> 0;
	// W -120+250 = 130 (mistake); B 250+1000 = 1000 capped... but 250 < 500 counts: a blunder; W 1000 (clamped)
	// before the mate: decided, not counted.
	want := map[string]PlayerReview{
		"Alice": {Name: "Alice", Games: 1, Plies: 7, Moves: 3, Loss: 180, ACPL: 60, Inaccuracies: 1, Mistakes: 1},
		"Bob":   {Name: "Bob", Games: 1, Plies: 7, Moves: 3, Loss: 1000, ACPL: 1000.0 / 3, Blunders: 1},
	}
	for _, p := range players {
		if p != want[p.Name] {
			t.Errorf("%+v, want %+v", p, want[p.Name])
		}
	}
	if len(blunders) != 1 || blunders[0].san != "Nf6" || blunders[0].ply != 6 || blunders[0].player != "Bob" {
		t.Errorf("blunders %+v, want Bob's Nf6 at ply 6", blunders)
	}
}

// TestReviewWithStockfish reviews the miniature with Debian's Stockfish: Bob's 3...Nf6 is his one blunder,
// and Alice, who played the mate, made none.
func TestReviewWithStockfish(t *testing.T) {
	const sf = "/usr/games/stockfish"
	if _, err := exec.LookPath(sf); err != nil {
		t.Skip("needs Debian's stockfish: apt-get install stockfish")
	}
	path := filepath.Join(t.TempDir(), "mini.pgn")
	if err := os.WriteFile(path, []byte(scholarsMate), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errText := runCase([]string{"review", path, "--engine", sf, "--depth", "10", "--json"}, "")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errText)
	}
	var players []PlayerReview
	if err := json.Unmarshal([]byte(out), &players); err != nil {
		t.Fatalf("%v in %s", err, out)
	}
	if len(players) != 2 || players[0].Name != "Alice" || players[1].Name != "Bob" {
		t.Fatalf("players %+v", players)
	}
	if alice := players[0]; alice.Blunders != 0 || alice.Moves != 3 {
		t.Errorf("Alice: %+v", alice)
	}
	if bob := players[1]; bob.Blunders != 1 || bob.Loss < 900 || bob.Moves != 3 {
		t.Errorf("Bob: %+v", bob)
	}
	code, out, _ = runCase([]string{"review", path, "--engine", sf, "--depth", "6", "--blunders"}, "")
	if code != 0 || !strings.Contains(out, "game 1 (Alice - Bob), ply 6, Bob Nf6: loses") || !strings.Contains(out, "blunders") {
		t.Errorf("table (exit %d):\n%s", code, out)
	}
}

func TestReviewCommandLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mini.pgn")
	if err := os.WriteFile(path, []byte(scholarsMate), 0o644); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(t.TempDir(), "bad.pgn")
	if err := os.WriteFile(bad, []byte("1. e4 e5 2. Ke3"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		args    []string
		code    int
		errText string
	}{
		{"help", []string{"review", "--help"}, 0, ""},
		{"no file", []string{"review", "--engine", "x"}, 2, "dossier review"},
		{"no engine", []string{"review", path}, 2, "--engine is required"},
		{"bad depth", []string{"review", path, "--engine", "x", "--depth", "0"}, 2, "--depth"},
		{"missing file", []string{"review", path + ".none", "--engine", "x"}, 2, "none"},
		{"illegal move", []string{"review", bad, "--engine", "x"}, 2, "ply 3"},
		{"missing engine", []string{"review", path, "--engine", "/nonexistent/engine"}, 1, "/nonexistent/engine"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, _, errText := runCase(tc.args, "")
			if code != tc.code || !strings.Contains(errText, tc.errText) {
				t.Errorf("exit %d, stderr %q; want %d and %q", code, errText, tc.code, tc.errText)
			}
		})
	}
}
