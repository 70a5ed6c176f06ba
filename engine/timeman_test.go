// Time management by the search's progress: the factor on the soft limit, and its effect on NextIteration.
package engine

import (
	"math"
	"testing"
	"time"

	"dossier/games"
)

func TestTimeManagerFactor(t *testing.T) {
	const a, b, c = games.Move(1), games.Move(2), games.Move(3)
	type step struct {
		move  games.Move
		score float64
		want  float64
	}
	for _, tc := range []struct {
		name  string
		steps []step
	}{
		{"stable move and score spend less", []step{
			{a, 10, 1}, {a, 10, 1}, {a, 10, 1}, {a, 10, 1}, {a, 10, 0.8}, {a, 10, 0.6}, {a, 10, 0.6},
		}},
		{"a change at depth 5 spends more, then less as it is forgotten", []step{
			{a, 10, 1}, {a, 10, 1}, {a, 10, 1}, {a, 10, 1}, {b, 10, 1.5}, {b, 10, 1.25}, {b, 10, 1.125},
		}},
		{"changes every iteration", []step{
			{a, 10, 1}, {b, 10, 1}, {c, 10, 1}, {a, 10, 1}, {b, 10, 1 + (1+0.5+0.25+0.125)/2},
		}},
		{"a falling score spends half as much again", []step{
			{a, 10, 1}, {a, 10, 1}, {a, 10, 1}, {a, 10, 1}, {a, -40, 0.8 * 1.5},
		}},
		{"a small fall counts for nothing", []step{
			{a, 10, 1}, {a, 10, 1}, {a, 10, 1}, {a, 10, 1}, {a, -10, 0.8},
		}},
		{"at most 2.5", []step{
			{a, 100, 1}, {b, 90, 1}, {a, 80, 1}, {b, 70, 1}, {a, 0, 2.5}, {b, -100, 2.5},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var tm timeManager
			for i, s := range tc.steps {
				if got := tm.next(s.move, s.score, i+1, 25); math.Abs(got-s.want) > 1e-9 {
					t.Fatalf("iteration %d: factor %v, want %v", i+1, got, s.want)
				}
			}
		})
	}
}

func TestScaleSoftMovesTheLastIteration(t *testing.T) {
	// 40 moves to go with 80 s left: a soft limit of 2 s, no iteration after 1 s. After 600 ms a factor of
	// 0.5 (no iteration after 500 ms) says stop, a factor of 1 or 2 says go on.
	lim := Limits{Time: [2]time.Duration{80 * time.Second, 80 * time.Second}, MovesToGo: 40}
	for _, tc := range []struct {
		scale float64
		want  bool
	}{{0.5, false}, {1, true}, {2, true}} {
		ctl := NewControl(lim, games.First)
		if soft, _ := ctl.Budget(); soft < 1900*time.Millisecond || soft > 2100*time.Millisecond {
			t.Fatalf("soft limit %v, want about 2 s", soft)
		}
		ctl.ScaleSoft(tc.scale)
		time.Sleep(600 * time.Millisecond)
		if got := ctl.NextIteration(8); got != tc.want {
			t.Errorf("factor %v after 600 ms: next iteration %v, want %v", tc.scale, got, tc.want)
		}
		ctl.Stop()
	}
}
