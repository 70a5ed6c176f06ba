// The scenario of issue 18 in miniature: against a deterministic stronger opponent, a game lost by a late
// mistake is analysed, and the next game keeps the opening and leaves the lost line where the analysis found the
// mistake (the old rule left it at the first position where another move was within MemoryRisk), scoring at
// least what the Player without memory scores.

package player

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"dossier/bots/match"
	"dossier/bots/searchers"
	"dossier/games"
	"dossier/games/checkers"
	"dossier/memory"
)

// analysedPlayer is a Player whose Close waits for the analysis of the game that just ended, as a process that
// lives on between games lets it finish.
type analysedPlayer struct{ *Engine }

func (a analysedPlayer) Close() error {
	a.analyst.wait()
	return a.Engine.Close()
}

// scenarioGame plays one game of checkers from the start: us, a Player of mat-tot25 at depth ourDepth with the
// memory dir ("" for none) whose analyses search analysisDepth plies, against mat-tot25 at depth oppDepth.
func scenarioGame(t *testing.T, dir string, ourDepth, oppDepth, analysisDepth int) match.GameRecord {
	t.Helper()
	var rec match.GameRecord
	cfg := match.Config{Game: checkers.Game{}, Games: 1, MaxMoves: 80, MoveTimeout: time.Minute,
		Players: [2]match.PlayerSpec{{Name: "dossier", Preset: "mat-tot25", Depth: ourDepth},
			{Name: "stronger", Preset: "mat-tot25", Depth: oppDepth}},
		NewSearcher: func(g games.Game, spec match.PlayerSpec) (match.InProcess, error) {
			cfg := searchers.Config{Preset: spec.Preset, Depth: spec.Depth, HashMB: 4, Search: searchers.AlphaBetaSearch}
			if spec.Name == "stronger" {
				s, err := searchers.New(g, cfg)
				return match.InProcess{Engine: match.SearcherEngine(s), Name: spec.Name, Depth: spec.Depth}, err
			}
			p := New(g, cfg)
			p.analysisDepth = analysisDepth
			if dir != "" {
				if err := p.UseMemory(MemoryConfig{Enabled: true, Dir: dir}); err != nil {
					return match.InProcess{}, err
				}
				if err := p.OpenMemory(); err != nil {
					return match.InProcess{}, err
				}
			}
			return match.InProcess{Engine: analysedPlayer{p}, Name: spec.Name, Depth: spec.Depth}, nil
		},
		OnGame: func(r match.GameRecord, _ match.Summary) { rec = r },
	}
	if _, err := match.Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	return rec
}

// readMistakes reads the mistakes filed against an opponent in the memory dir.
func readMistakes(t *testing.T, dir, key string) []memory.Mistake {
	t.Helper()
	m, err := memory.Open(memory.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	prof, err := m.Profile(key)
	if err != nil {
		t.Fatal(err)
	}
	return prof.Mistakes
}

// samePlies counts the plies two games share from the start.
func samePlies(a, b []games.Move) int {
	n := 0
	for n < min(len(a), len(b)) && a[n] == b[n] {
		n++
	}
	return n
}

func TestLostGameIsLeftWhereTheAnalysisFoundTheMistake(t *testing.T) {
	cases := []struct {
		name              string
		oppDepth          int
		withMemory, alone games.Result // the next game's result, and the Player's without memory
		short             bool         // run under -short
	}{
		// Lost by 25...10-14 at ply 50; the next game plays 17-22 there instead and still loses.
		{"against depth 6", 6, games.SecondWins, games.SecondWins, true},
		// Lost by 32.22-26 at ply 62; the next game plays 30-25 there and draws.
		{"against depth 5", 5, games.Draw, games.SecondWins, false},
	}
	const ourDepth, analysisDepth = 2, 8
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if testing.Short() && !c.short {
				t.Skip("plays three more games")
			}
			dir := filepath.Join(t.TempDir(), "memory")
			lost := scenarioGame(t, dir, ourDepth, c.oppDepth, analysisDepth)
			if lost.Result != games.SecondWins {
				t.Fatalf("depth %d did not lose to depth %d: %s (%s)", ourDepth, c.oppDepth, lost.Result, lost.Termination)
			}
			without := scenarioGame(t, "", ourDepth, c.oppDepth, analysisDepth)
			mistakes := readMistakes(t, dir, "stronger")
			if len(mistakes) != 1 {
				t.Fatalf("%d mistakes filed after the lost game, want 1", len(mistakes))
			}
			blamed := mistakes[0]
			if blamed.Ply < 20 {
				t.Fatalf("the analysis blamed ply %d (%s): not a late mistake, the test shows nothing", blamed.Ply, blamed)
			}
			again := scenarioGame(t, dir, ourDepth, c.oppDepth, analysisDepth)
			same := samePlies(again.Moves, lost.Moves)
			t.Logf("lost in %d plies, the mistake at ply %d (%s); the next game kept %d plies and ended %s after %d (%s); "+
				"without memory %s", len(lost.Moves), blamed.Ply, blamed, same, again.Result, len(again.Moves),
				again.Termination, without.Result)
			if same < blamed.Ply {
				t.Errorf("the next game left the lost line at ply %d, before the mistake at ply %d", same, blamed.Ply)
			}
			if same > blamed.Ply {
				t.Errorf("the next game played the mistake %s at ply %d again", blamed.Move, blamed.Ply)
			}
			if again.Result != c.withMemory || without.Result != c.alone {
				t.Errorf("with the memory %s, without %s; want %s and %s", again.Result, without.Result, c.withMemory, c.alone)
			}
			score := func(r games.Result) float64 { return r.PointsFor(games.First) }
			if score(again.Result) < score(without.Result) {
				t.Errorf("with the memory %s scores less than without, %s", again.Result, without.Result)
			}
		})
	}
}
