// Tests of the review's rules on made-up values: the loss of a move, and the classification of a game's moves.

package review

import (
	"os"
	"testing"

	"dossier/games"
	"dossier/internal/pgntext"
)

// scholarsMate is a miniature with one blunder: 3...Nf6?? allows the mate 4.Qxf7#.
const scholarsMate = "../pgntext/testdata/scholars-mate.pgn"

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
			loss, counts := MoveLoss(tc.before, tc.after)
			if loss != tc.loss || counts != tc.counts {
				t.Errorf("got %v %v, want %v %v", loss, counts, tc.loss, tc.counts)
			}
		})
	}
}

// TestReviewAllCounts reviews the miniature with made-up values: each position's value is given, and the
// classification must follow the thresholds.
func TestReviewAllCounts(t *testing.T) {
	f, err := os.Open(scholarsMate)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	list, err := pgntext.ReadChessGames(f)
	if err != nil {
		t.Fatal(err)
	}
	// Values of the positions after 0..6 plies, each for its side to move; after 7 plies it is mate.
	values := []float64{30, -40, -10, 60, -120, 250, 90000}
	var blunders []Blunder
	players, err := All(list, func(_ pgntext.ChessGame, ply int, _ games.Position) (float64, error) { return values[ply], nil },
		func(b Blunder) { blunders = append(blunders, b) })
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
	if len(blunders) != 1 || blunders[0].SAN != "Nf6" || blunders[0].Ply != 6 || blunders[0].Player != "Bob" {
		t.Errorf("blunders %+v, want Bob's Nf6 at ply 6", blunders)
	}
}
