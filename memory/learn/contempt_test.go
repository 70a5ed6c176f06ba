// Contempt from our results against an opponent: its sign, its bound, the shrinking of few games, and draws.
package learn

import (
	"strings"
	"testing"
)

func TestContemptFromResults(t *testing.T) {
	cases := []struct {
		name                string
		wins, draws, losses int
		unit                float64
		low, high           float64
	}{
		{"no games", 0, 0, 0, 100, 0, 0},
		{"even", 5, 2, 5, 100, 0, 0},
		{"we outscore it", 8, 1, 1, 100, 20, 50},
		{"it outscores us", 1, 1, 8, 100, -50, -20},
		{"a whitewash is bounded", 100, 0, 0, 100, 50, 50},
		{"the unit scales it", 100, 0, 0, 25, 13, 13},
		{"one win moves it little", 1, 0, 0, 100, 1, 20},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := ContemptFromResults(c.wins, c.draws, c.losses, c.unit)
			if got.Value < c.low || got.Value > c.high {
				t.Errorf("contempt %v (%+v), want %v..%v", got.Value, got, c.low, c.high)
			}
		})
	}
	// Draws push the contempt against an opponent we outscore up: the same score with more draws.
	decisive, drawish := ContemptFromResults(6, 0, 2, 100), ContemptFromResults(4, 4, 0, 100)
	if decisive.Score != drawish.Score || drawish.Value <= decisive.Value {
		t.Errorf("with draws %+v, without %+v: want more contempt with draws at the same score", drawish, decisive)
	}
	if s := ContemptFromResults(8, 1, 1, 100).String(); !strings.HasPrefix(s, "contempt +") || !strings.Contains(s, "10 games, 85%") {
		t.Errorf("info %q", s)
	}
}
