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
		rating              Rating
		low, high           float64
	}{
		{"no games", 0, 0, 0, 100, Rating{}, 0, 0},
		{"even", 5, 2, 5, 100, Rating{}, 0, 0},
		{"we outscore it", 8, 1, 1, 100, Rating{}, 20, 50},
		{"it outscores us", 1, 1, 8, 100, Rating{}, -50, -20},
		{"a whitewash is bounded", 100, 0, 0, 100, Rating{}, 50, 50},
		{"the unit scales it", 100, 0, 0, 25, Rating{}, 13, 13},
		{"one win moves it little", 1, 0, 0, 100, Rating{}, 1, 20},
		// 200 Elo: a quarter unit per 100 is 50, the bound.
		{"a rating alone: higher", 0, 0, 0, 100, Rating{200, true}, 50, 50},
		{"a rating alone: lower", 0, 0, 0, 100, Rating{-100, true}, -26, -24},
		{"a rating of 0 is known and even", 0, 0, 0, 100, Rating{0, true}, 0, 0},
		{"results pull away from the rating", 0, 0, 10, 100, Rating{100, true}, -50, -20},
		{"an absurd rating is bounded", 0, 0, 0, 100, Rating{-5000, true}, -50, -50},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := ContemptFromResults(c.wins, c.draws, c.losses, c.unit, c.rating)
			if got.Value < c.low || got.Value > c.high {
				t.Errorf("contempt %v (%+v), want %v..%v", got.Value, got, c.low, c.high)
			}
		})
	}
	// Draws push the contempt against an opponent we outscore up: the same score with more draws.
	decisive, drawish := ContemptFromResults(6, 0, 2, 100, Rating{}), ContemptFromResults(4, 4, 0, 100, Rating{})
	if decisive.Score != drawish.Score || drawish.Value <= decisive.Value {
		t.Errorf("with draws %+v, without %+v: want more contempt with draws at the same score", drawish, decisive)
	}
	if s := ContemptFromResults(8, 1, 1, 100, Rating{}).String(); !strings.HasPrefix(s, "contempt +") || !strings.Contains(s, "10 games, 85%") || strings.Contains(s, "rating") {
		t.Errorf("info %q", s)
	}
	if s := ContemptFromResults(8, 1, 1, 100, Rating{-150, true}).String(); !strings.HasSuffix(s, "rating -150") {
		t.Errorf("info with a rating %q", s)
	}
	if s := ContemptFromResults(0, 0, 0, 100, Rating{150, true}).String(); s != "contempt +38 from the dossier: no games yet, rating +150" {
		t.Errorf("info of a rating alone %q", s)
	}
	// The rating is a prior: the same results against a lower-rated opponent give more contempt.
	if even, lower := ContemptFromResults(2, 1, 1, 100, Rating{}), ContemptFromResults(2, 1, 1, 100, Rating{100, true}); lower.Value <= even.Value {
		t.Errorf("with our rating 100 above %+v, without a rating %+v: want more contempt with it", lower, even)
	}
}
