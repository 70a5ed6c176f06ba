// The even-game ledger: the handicap's update rule, the rating estimate and the Elo calibration.

package learn

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

func TestEvenUpdateRule(t *testing.T) {
	const maxH = 1.5
	tests := []struct {
		name    string
		start   EvenRecord
		score   float64
		wantDir int // sign of the handicap's change
	}{
		{"a win raises the handicap", EvenRecord{Handicap: 0.5, Rating: 2000}, 1, +1},
		{"a loss lowers it", EvenRecord{Handicap: 0.5, Rating: 2000}, 0, -1},
		{"a draw after winning more than half raises it a little", EvenRecord{Handicap: 0.5, Games: 4, Wins: 3, Losses: 1, Rating: 2000}, 0.5, +1},
		{"a draw after winning less than half lowers it a little", EvenRecord{Handicap: 0.5, Games: 4, Wins: 1, Losses: 3, Rating: 2000}, 0.5, -1},
		{"a draw at an even score keeps it", EvenRecord{Handicap: 0.5, Games: 2, Wins: 1, Losses: 1, Rating: 2000}, 0.5, 0},
		{"a loss at no handicap stays at zero", EvenRecord{Handicap: 0, Rating: 2600}, 0, 0},
		{"a win at the largest handicap stays there", EvenRecord{Handicap: maxH, Rating: 1000}, 1, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := tc.start
			r.Update(tc.score, maxH)
			d := r.Handicap - tc.start.Handicap
			if got := int(math.Copysign(1, d)); d == 0 && tc.wantDir != 0 || d != 0 && got != tc.wantDir {
				t.Errorf("handicap %v -> %v, want direction %d", tc.start.Handicap, r.Handicap, tc.wantDir)
			}
			if r.Games != tc.start.Games+1 || r.Wins+r.Draws+r.Losses != r.Games {
				t.Errorf("counts %+v", r)
			}
			if tc.score == 1 && r.Rating >= tc.start.Rating || tc.score == 0 && r.Rating <= tc.start.Rating {
				t.Errorf("rating %v -> %v after our score %v", tc.start.Rating, r.Rating, tc.score)
			}
		})
	}
}

// TestEvenStepsShrink checks that the steps shrink with the games played (to the smallest step), so that
// the handicap settles: after wins and losses alternate for long, it stays within one small step.
func TestEvenStepsShrink(t *testing.T) {
	r := EvenRecord{Handicap: 0.5, Rating: 2000}
	var steps []float64
	for i := range 60 {
		before := r.Handicap
		r.Update(float64(i%2), 1.5)
		steps = append(steps, math.Abs(r.Handicap-before))
	}
	if steps[0] <= steps[59] || math.Abs(steps[59]-evenMinStep) > 1e-9 {
		t.Errorf("first step %v, last %v, want shrinking to %v", steps[0], steps[59], evenMinStep)
	}
}

// TestEvenRecordConvergence plays a simulated opponent whose chance of beating the handicap h is a logistic
// function of h: the handicap must settle where the expected score is near a half.
func TestEvenRecordConvergence(t *testing.T) {
	// Our expected score at handicap h: 0.5 at h = 0.7 pawns.
	expected := func(h float64) float64 { return 1 / (1 + math.Exp((h-0.7)*6)) }
	r := EvenRecord{Handicap: evenInitialHandicap, Rating: 2000}
	seed := uint64(1)
	var sum float64
	for i := range 400 {
		seed = seed*6364136223846793005 + 1442695040888963407
		u := float64(seed>>11) / (1 << 53)
		score := 0.0
		if u < expected(r.Handicap) {
			score = 1
		}
		r.Update(score, 1.5)
		if i >= 200 {
			sum += expected(r.Handicap)
		}
	}
	if mean := sum / 200; math.Abs(mean-0.5) > 0.05 {
		t.Errorf("expected score over the last 200 games %.3f, want 0.5 +- 0.05 (handicap %.2f)", mean, r.Handicap)
	}
}

func TestEloCalibration(t *testing.T) {
	for _, elo := range []int{MinElo, 1350, 1500, 1800, FullStrengthElo} {
		h := HandicapForElo(elo)
		if back := EloForHandicap(h); math.Abs(back-float64(elo)) > 1 {
			t.Errorf("Elo %d -> handicap %.3f -> Elo %.1f", elo, h, back)
		}
	}
	if HandicapForElo(900) != HandicapForElo(MinElo) || HandicapForElo(3000) != 0 || HandicapForElo(2450) != 0 {
		t.Error("ratings outside the table are not clamped")
	}
	for elo := MinElo; elo < MaxElo; elo += 50 {
		if HandicapForElo(elo+50) > HandicapForElo(elo) {
			t.Errorf("the handicap grows from Elo %d to %d", elo, elo+50)
		}
	}
}

func TestParseEvenState(t *testing.T) {
	tests := []struct {
		name, text, err string
	}{
		{"good", `{"version":1,"time_controls":{"10+0.1":{"handicap":0.4,"games":3,"wins":2,"draws":0,"losses":1,"rating":2100}}}`, ""},
		{"newer version", `{"version":2}`, "version 2"},
		{"not JSON", `{"version":`, "even state"},
		{"negative handicap", `{"version":1,"time_controls":{"":{"handicap":-1}}}`, "bad record"},
		{"null record", `{"version":1,"time_controls":{"":null}}`, "bad record"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseEvenState(json.RawMessage(tc.text))
			if (err == nil) != (tc.err == "") || err != nil && !strings.Contains(err.Error(), tc.err) {
				t.Errorf("error %v, want %q", err, tc.err)
			}
		})
	}
}

func FuzzParseEvenState(f *testing.F) {
	f.Add(`{"version":1,"time_controls":{"10+0.1":{"handicap":0.4,"games":3,"wins":2,"draws":0,"losses":1,"rating":2100}}}`)
	f.Add(`{"version":1,"time_controls":{"":null}}`)
	f.Add(`{"version":2}`)
	f.Fuzz(func(t *testing.T, text string) {
		s, err := ParseEvenState(json.RawMessage(text))
		if err != nil {
			return
		}
		for tc, r := range s.TimeControls {
			if r == nil || r.Handicap < 0 || math.IsNaN(r.Handicap) {
				t.Fatalf("accepted a bad record for %q: %+v", tc, r)
			}
			r.Update(1, 2) // a record that parsed must take an update
		}
	})
}
