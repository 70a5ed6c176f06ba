// The WDL model.

package protocol

import (
	"testing"

	"dossier/engine"
)

func TestWDL(t *testing.T) {
	tests := []struct {
		score           float64
		win, draw, loss int
	}{
		{0, 119, 762, 119},
		{200, 500, 482, 18},
		{-200, 18, 482, 500},
		{100, 269, 684, 47},
		{1000, 1000, 0, 0},
		{-1e5, 0, 0, 1000},
		{engine.MateScore - 5, 1000, 0, 0},
		{-(engine.MateScore - 6), 0, 0, 1000},
	}
	for _, tc := range tests {
		w, d, l := WDL(tc.score)
		if w != tc.win || d != tc.draw || l != tc.loss {
			t.Errorf("WDL(%v) = %d %d %d, want %d %d %d", tc.score, w, d, l, tc.win, tc.draw, tc.loss)
		}
	}
	for score := -3000.0; score <= 3000; score += 7.3 {
		w, d, l := WDL(score)
		if w+d+l != 1000 || w < 0 || d < 0 || l < 0 {
			t.Fatalf("WDL(%v) = %d %d %d", score, w, d, l)
		}
		if w2, _, l2 := WDL(score + 7.3); w2 < w || l2 > l {
			t.Fatalf("WDL is not monotonic at %v", score)
		}
	}
}
