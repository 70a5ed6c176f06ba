// The preparation after a game: off by default; with PrepareTime set it files the repertoire's moves after the
// analysis, within its time, and a new game cancels it.
package player

import (
	"path/filepath"
	"testing"
	"time"

	"dossier/bots/prepare"
	"dossier/bots/searchers"
	"dossier/games"
	"dossier/games/chess"
	"dossier/play"
)

// preparedEntries counts the rival's experience entries that a preparation filed.
func preparedEntries(t *testing.T, p *Engine, key string) int {
	t.Helper()
	entries, err := p.Memory().Experience(key, "chess")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range entries {
		if e.OpponentKey == key && prepare.IsPreparation(e.GameID) {
			n++
		}
	}
	return n
}

func TestPreparationAfterTheGame(t *testing.T) {
	g := chess.Game{}
	for _, tc := range []struct {
		name    string
		seconds int
		cancel  bool
		want    int
	}{
		{"off by default", -1, false, 0},
		{"two seconds", 2, false, 2},
		{"cancelled by the next game", 60, true, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := New(g, searchers.Config{HashMB: 1, Preset: "materialist"})
			if err := p.UseMemory(MemoryConfig{Enabled: true, Dir: filepath.Join(t.TempDir(), "memory")}); err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			rival := play.Opponent{Name: "rival", Source: "match"}
			p.SetOpponent(rival)
			// The analysis files the same positions; shallow, so that the deeper prepared entries are the ones kept.
			p.analysisDepth = 2
			if tc.seconds >= 0 {
				p.setPrepareSeconds(tc.seconds)
			}
			// As White twice through 1.e4 e5: the start and the position after 1...e5 are the repertoire.
			playedGame(t, p, g, games.FirstWins, "e2e4", "e7e5", "g1f3", "b8c6")
			p.analyst.wait()
			start := time.Now()
			playedGame(t, p, g, games.Draw, "e2e4", "e7e5", "f1c4", "f8c5")
			if tc.cancel {
				time.Sleep(3 * time.Second) // the analysis (a few seconds at most) ends, the preparation runs
				p.StartGame(play.GameStart{Game: g, OurSide: games.First, Start: g.Start()})
				if took := time.Since(start); took > 20*time.Second {
					t.Errorf("the new game waited %v for the preparation", took)
				}
			}
			p.analyst.wait()
			if got := preparedEntries(t, p, rival.Key()); got != tc.want {
				t.Errorf("%d prepared entries, want %d", got, tc.want)
			}
			if took := time.Since(start); tc.seconds > 0 && !tc.cancel && took > time.Duration(tc.seconds)*time.Second+30*time.Second {
				t.Errorf("the analysis and the preparation took %v", took)
			}
		})
	}
}
