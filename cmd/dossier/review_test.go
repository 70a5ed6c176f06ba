// Tests of dossier review: the command line, and a real review by Stockfish of a game with a known blunder.

package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"dossier/internal/review"
)

// scholarsMate is a miniature with one blunder: 3...Nf6?? allows the mate 4.Qxf7#.
const scholarsMate = "../../internal/pgntext/testdata/scholars-mate.pgn"

// TestReviewWithStockfish reviews the miniature with Debian's Stockfish: Bob's 3...Nf6 is his one blunder,
// and Alice, who played the mate, made none.
func TestReviewWithStockfish(t *testing.T) {
	const sf = "/usr/games/stockfish"
	if _, err := exec.LookPath(sf); err != nil {
		t.Skip("needs Debian's stockfish: apt-get install stockfish")
	}
	path := scholarsMate
	code, out, errText := runCase([]string{"review", path, "--engine", sf, "--depth", "10", "--json"}, "")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errText)
	}
	var players []review.PlayerReview
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
	path := scholarsMate
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
