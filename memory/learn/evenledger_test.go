// The even-game ledger: the level's update rule, its convergence and its stored form.

package learn

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

func TestEvenUpdateRule(t *testing.T) {
	tests := []struct {
		name    string
		start   EvenRecord
		score   float64
		wantDir int // sign of the level's change
	}{
		{"a win lowers the level", EvenRecord{Level: 1800}, 1, -1},
		{"a loss raises it", EvenRecord{Level: 1800}, 0, +1},
		{"a draw after winning more than half lowers it a little", EvenRecord{Level: 1800, Games: 4, Wins: 3, Losses: 1}, 0.5, -1},
		{"a draw after winning less than half raises it a little", EvenRecord{Level: 1800, Games: 4, Wins: 1, Losses: 3}, 0.5, +1},
		{"a draw at an even score keeps it", EvenRecord{Level: 1800, Games: 2, Wins: 1, Losses: 1}, 0.5, 0},
		{"a loss at full strength stays there", EvenRecord{Level: FullLevel}, 0, 0},
		{"a win at the weakest level stays there", EvenRecord{Level: MinLevel}, 1, 0},
		{"a win at full strength while behind keeps it", EvenRecord{Level: FullLevel, Games: 5, Wins: 1, Draws: 2, Losses: 2}, 1, 0},
		{"a win at full strength when level or ahead lowers it", EvenRecord{Level: FullLevel, Games: 4, Wins: 1, Draws: 2, Losses: 1}, 1, -1},
		{"a win below full strength while behind lowers it", EvenRecord{Level: 2000, Games: 5, Wins: 1, Draws: 2, Losses: 2}, 1, -1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := tc.start
			r.Update(tc.score)
			d := r.Level - tc.start.Level
			if got := int(math.Copysign(1, d)); d == 0 && tc.wantDir != 0 || d != 0 && got != tc.wantDir {
				t.Errorf("level %v -> %v, want direction %d", tc.start.Level, r.Level, tc.wantDir)
			}
			if r.Games != tc.start.Games+1 || r.Wins+r.Draws+r.Losses != r.Games {
				t.Errorf("counts %+v", r)
			}
		})
	}
}

// TestEvenStepsShrink checks that the steps shrink with the games played (to the smallest step), so that
// the level settles: after wins and losses alternate for long, it stays within one small step.
func TestEvenStepsShrink(t *testing.T) {
	r := EvenRecord{Level: 1800}
	var steps []float64
	for i := range 200 {
		before := r.Level
		r.Update(float64(i % 2))
		steps = append(steps, math.Abs(r.Level-before))
	}
	if steps[0] != evenFirstStep || math.Abs(steps[199]-evenMinStep) > 1e-9 {
		t.Errorf("first step %v, last %v, want %v shrinking to %v", steps[0], steps[199], evenFirstStep, evenMinStep)
	}
}

// TestEvenRecordConvergence plays simulated opponents of several ratings that score by the Elo formula
// against the level, 40 games from the first level: over games 21-40 our score must be near a half on
// average and within 50 +- 5% (the target for real opponents) in most runs. Near full strength fewer:
// the level cannot rise above FullLevel, and against an opponent as strong as full strength the best it can
// do is stay there (Update's rule for a win at full strength while behind).
func TestEvenRecordConvergence(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for _, c := range []struct {
		opponent  float64
		mean      float64 // the least mean score over games 21-40
		tolerance float64 // how far above a half the mean may be
		hits      int     // the least share of runs within 50 +- 5%, in percent
	}{
		{800, 0.48, 0.02, 85},
		{1350, 0.48, 0.02, 85},
		{2000, 0.48, 0.02, 85},
		{2300, 0.47, 0.03, 75},
		{FullLevel, 0.45, 0, 50}, // 0.381 and 29% before the rule
	} {
		const runs = 1000
		hits, sum := 0, 0.0
		for range runs {
			r := EvenRecord{Level: evenInitialLevel}
			last20 := 0.0
			for i := range 40 {
				score := 0.0
				if rng.Float64() < 1/(1+math.Pow(10, (c.opponent-r.Level)/400)) {
					score = 1
				}
				if i >= 20 {
					last20 += score / 20
				}
				r.Update(score)
			}
			sum += last20 / runs
			if math.Abs(last20-0.5) <= 0.05+1e-9 {
				hits++
			}
		}
		if sum < c.mean || sum > 0.5+c.tolerance || hits < runs*c.hits/100 {
			t.Errorf("against %v: games 21-40 scored %.3f on average, within 50 +- 5%% in %d of %d runs; want %.2f to %.2f, %d%%",
				c.opponent, sum, hits, runs, c.mean, 0.5+c.tolerance, c.hits)
		}
	}
}

// TestEvenStandingIsRecent checks that the rules look at the recent games: after ten losses, which take the
// level to full strength, wins there bring it down again once the recent score passes a half (the mean of all
// games would keep full strength until the wins had made the ten losses up: the eleventh win).
func TestEvenStandingIsRecent(t *testing.T) {
	r := EvenRecord{Level: evenInitialLevel}
	for range 10 {
		r.Update(0)
	}
	if r.Level != FullLevel || r.standing() != 0 {
		t.Fatalf("after ten losses: level %v, standing %v; want %v and 0", r.Level, r.standing(), FullLevel)
	}
	// The recent score after k wins from 0 is 1-(1-w)^k: the win after the first k that pass a half steps down.
	want := 1 + int(math.Ceil(math.Log(0.5)/math.Log(1-evenRecentWeight)))
	wins := 0
	for r.Level == FullLevel && wins < 20 {
		r.Update(1)
		wins++
	}
	if wins != want || wins >= 11 {
		t.Fatalf("the level left full strength at the win %d, want %d (before the eleventh)", wins, want)
	}
	// A state written before the recent score: the mean of all games stands in for it.
	old := EvenRecord{Level: FullLevel, Games: 15, Wins: 5, Losses: 10}
	old.Update(1)
	if old.Level != FullLevel || old.RecentGames != 16 ||
		math.Abs(old.Recent-(1.0/3+evenRecentWeight*(1-1.0/3))) > 1e-9 {
		t.Fatalf("an old record after a win: level %v, recent %v", old.Level, old.Recent)
	}
}

func TestNewTimeControlStartsAtTheOpponentsLevel(t *testing.T) {
	var s EvenState
	if r := s.Record("10+0.1"); r.Level != evenInitialLevel {
		t.Fatalf("a new opponent's level %v, want %v", r.Level, evenInitialLevel)
	}
	s.Record("10+0.1").Level, s.Record("10+0.1").Games = 1300, 3
	s.Record("60+0.6") // no games: no weight
	s.TimeControls["5+0.05"] = &EvenRecord{Level: 1500, Games: 1}
	if r := s.Record("1+0"); math.Abs(r.Level-1350) > 1e-9 {
		t.Errorf("a new time control's level %v, want 1350 (the levels' mean weighted by games)", r.Level)
	}
}

func TestParseEvenState(t *testing.T) {
	tests := []struct {
		name, text, err string
	}{
		{"good", `{"version":2,"time_controls":{"10+0.1":{"level":1400,"games":3,"wins":2,"draws":0,"losses":1}}}`, ""},
		{"version 1", `{"version":1,"time_controls":{"10+0.1":{"handicap":0.4,"games":3,"wins":2,"draws":0,"losses":1,"rating":2100}}}`, ""},
		{"newer version", `{"version":3}`, "version 3"},
		{"not JSON", `{"version":`, "even state"},
		{"level below the range", `{"version":2,"time_controls":{"":{"level":100}}}`, "bad record"},
		{"level above the range", `{"version":2,"time_controls":{"":{"level":9000}}}`, "bad record"},
		{"null record", `{"version":2,"time_controls":{"":null}}`, "bad record"},
		{"null record, version 1", `{"version":1,"time_controls":{"":null}}`, "bad record"},
		{"recent score above 1", `{"version":2,"time_controls":{"":{"level":1400,"games":3,"recent":1.5}}}`, "bad record"},
		{"recent score", `{"version":2,"time_controls":{"":{"level":1400,"games":3,"wins":2,"losses":1,"recent":0.6,"recent_games":3}}}`, ""},
		{"recent score of more games than played", `{"version":2,"time_controls":{"":{"level":1400,"games":3,"recent":0.6,"recent_games":4}}}`, "bad record"},
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
	f.Add(`{"version":2,"time_controls":{"5+0.05":{"level":1400,"games":3,"wins":2,"draws":0,"losses":1}}}`)
	f.Add(`{"version":3}`)
	f.Fuzz(func(t *testing.T, text string) {
		s, err := ParseEvenState(json.RawMessage(text))
		if err != nil {
			return
		}
		for tc, r := range s.TimeControls {
			if r == nil || r.Level < MinLevel || r.Level > FullLevel || math.IsNaN(r.Level) {
				t.Fatalf("accepted a bad record for %q: %+v", tc, r)
			}
			r.Update(1) // a record that parsed must take an update
			if r.Level < MinLevel || r.Level > FullLevel {
				t.Fatalf("an update left the range: %+v", r)
			}
		}
	})
}
