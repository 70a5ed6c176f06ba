// The preparation after a game: off by default; with PrepareTime set it files the repertoire's moves after the
// analysis, within its time; a new game does not end it: it goes on between our searches, and what it finds
// reaches the game in progress.

package player

import (
	"path/filepath"
	"testing"
	"time"

	"dossier/bots/prepare"
	"dossier/bots/searchers"
	"dossier/games"
	"dossier/games/chess"
	"dossier/games/gametest"
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
		name     string
		seconds  int
		nextGame bool
		want     int
	}{
		{"off by default", -1, false, 0},
		{"two seconds", 2, false, 2},
		{"into the next game", 4, true, 2}, // more time: the cut searches begin again
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := New(g, searchers.Config{HashMB: 1, Preset: "materialist"})
			if err := p.UseMemory(MemoryConfig{Enabled: true, Dir: filepath.Join(t.TempDir(), "memory")}); err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			rival := play.Opponent{Name: "rival", Source: "match"}
			p.SetOpponent(rival)
			p.WaitPrepared()
			// The analysis files the same positions; shallow, so that the deeper prepared entries are the ones kept.
			p.analysisDepth = 2
			if tc.seconds >= 0 {
				p.setPrepareSeconds(tc.seconds)
			}
			// Not niced: on a loaded machine (the whole suite at once) the niced thread waits for a core, its
			// searches overrun their share by that wait, and the first position's could spend the whole budget.
			p.setBackgroundNice(0)
			// As White twice through 1.e4 e5: the start and the position after 1...e5 are the repertoire.
			playedGame(t, p, g, games.FirstWins, "e2e4", "e7e5", "g1f3", "b8c6")
			p.analyst.wait()
			start := time.Now()
			playedGame(t, p, g, games.Draw, "e2e4", "e7e5", "f1c4", "f8c5")
			if tc.nextGame {
				// The next game starts at once, and our searches hold the preparation back while they run.
				p.NewGame(g)
				p.WaitPrepared()
				p.StartGame(play.GameStart{Game: g, OurSide: games.First, Start: g.Start()})
				if took := time.Since(start); took > time.Second {
					t.Errorf("the new game waited %v for the work after the last one", took)
				}
				for range 3 {
					if during := backgroundDuring(p, g.Start(), 4, 0); during != 0 {
						t.Errorf("%d searches of the analysis or preparation began during ours", during)
					}
					time.Sleep(300 * time.Millisecond) // the opponent's turn
				}
			}
			p.analyst.wait()
			if got := preparedEntries(t, p, rival.Key()); got != tc.want {
				t.Errorf("%d prepared entries, want %d", got, tc.want)
			}
			if took := time.Since(start); tc.seconds > 0 && took > time.Duration(tc.seconds)*time.Second+30*time.Second {
				t.Errorf("the analysis and the preparation took %v", took)
			}
			if tc.nextGame {
				// The game in progress has the findings: its table holds the prepared entries.
				x := p.gameMemory.experienceOf("chess")
				n := 0
				if x != nil {
					for h := range x.prepared {
						if x.prepared[h] && x.own[h] {
							n++
						}
					}
				}
				if n != tc.want {
					t.Errorf("the game in progress has %d prepared entries, want %d", n, tc.want)
				}
			}
		})
	}
}

// preparedFENs returns the positions of the rival's experience entries that a preparation filed.
func preparedFENs(t *testing.T, p *Engine, key string) map[string]bool {
	t.Helper()
	entries, err := p.Memory().Experience(key, "chess")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for _, e := range entries {
		if e.OpponentKey == key && prepare.IsPreparation(e.GameID) {
			out[e.FEN] = true
		}
	}
	return out
}

func TestPreparationSearchesWhereOurLikelyLinesLeaveTheBook(t *testing.T) {
	g := chess.Game{}
	type bookEntry = struct {
		before, move string
		weight       uint16
	}
	// Our book: 1.e4, and 2.Nf3 after 1...e5. The rival answered 1.e4 e5 2.Nf3 with Nc6 once and Nf6 once: the
	// start and the position after 1...e5, reached twice, are its repertoire but our book plays there; the
	// lines leave the book after 2...Nc6 and 2...Nf6, reached once each, with one chance in two each.
	path := writeBook(t, bookEntry{"", "e2e4", 1}, bookEntry{"e2e4 e7e5", "g1f3", 1})
	p := New(g, searchers.Config{HashMB: 1, Preset: "materialist"})
	if err := p.UseMemory(MemoryConfig{Enabled: true, Dir: filepath.Join(t.TempDir(), "memory")}); err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	useBookFile(t, p, path)
	rival := play.Opponent{Name: "rival", Source: "match"}
	p.SetOpponent(rival)
	p.WaitPrepared()
	p.analysisDepth = 2
	p.setPrepareSeconds(2)
	p.setBackgroundNice(0) // see TestPreparationAfterTheGame
	playedGame(t, p, g, games.FirstWins, "e2e4", "e7e5", "g1f3", "b8c6")
	p.analyst.wait()
	playedGame(t, p, g, games.Draw, "e2e4", "e7e5", "g1f3", "g8f6")
	p.analyst.wait()
	got := preparedFENs(t, p, rival.Key())
	after := func(moves ...string) string { return gametest.After(t, g, moves...).FEN() }
	want := map[string]bool{after("e2e4", "e7e5", "g1f3", "b8c6"): true, after("e2e4", "e7e5", "g1f3", "g8f6"): true}
	if len(got) != len(want) {
		t.Fatalf("prepared %v, want the two positions where our lines leave the book: %v", got, want)
	}
	for fen := range want {
		if !got[fen] {
			t.Fatalf("prepared %v, want %s among them", got, fen)
		}
	}
}
