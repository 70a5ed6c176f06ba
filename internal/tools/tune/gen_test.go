package main

import (
	"testing"

	"dossier/games"
)

// TestLabelledLines: a kept position's line carries its game's result for the side to move, and none while the
// game goes on; fit reads both forms.
func TestLabelledLines(t *testing.T) {
	fen := "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
	black := labelled{fen: fen, cp: -35, side: games.Second}
	for _, c := range []struct {
		result games.Result
		want   string
	}{
		{games.FirstWins, fen + ";-35;0"},
		{games.SecondWins, fen + ";-35;1"},
		{games.Draw, fen + ";-35;0.5"},
		{games.Ongoing, fen + ";-35"},
	} {
		if got := black.format(c.result); got != c.want {
			t.Errorf("%v: %q, want %q", c.result, got, c.want)
		}
	}
	white := labelled{fen: fen, cp: 12, side: games.First}
	if got := white.format(games.FirstWins); got != fen+";12;1" {
		t.Errorf("White to move, White won: %q", got)
	}
}
