// The analyst: a lost game's mistake found in the background after the game and filed in the memory; a won
// game not analysed; a new game's start abandons an analysis at once.
package player

import (
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	"dossier/bots/analysis"
	"dossier/bots/searchers"
	"dossier/games"
	"dossier/games/chess"
	"dossier/play"
)

// playedGame plays the moves through the Player's life cycle as a front end would and reports the end.
func playedGame(t *testing.T, p *Engine, g games.Game, result games.Result, texts ...string) {
	t.Helper()
	p.NewGame(g)
	p.StartGame(play.GameStart{Game: g, OurSide: games.First, Start: g.Start()})
	pos := g.Start()
	var moves []games.Move
	for _, text := range texts {
		m, err := pos.ParseMove(text)
		if err != nil {
			t.Fatal(err)
		}
		moves = append(moves, m)
		pos.Play(m)
	}
	p.GameOver(play.GameEnd{Outcome: games.Outcome{Result: result}, Reason: "test", Moves: moves})
}

func TestAnalystFilesTheLostGamesMistake(t *testing.T) {
	g := chess.Game{}
	dir := filepath.Join(t.TempDir(), "memory")
	p := New(g, searchers.Config{HashMB: 1, Preset: "materialist"})
	if err := p.UseMemory(MemoryConfig{Enabled: true, Dir: dir}); err != nil {
		t.Fatal(err)
	}
	rival := play.Opponent{Name: "rival", Source: "match"}
	p.SetOpponent(rival)
	playedGame(t, p, g, games.FirstWins, "e2e4", "e7e5", "g1f3", "b8c6") // won: nothing to analyse
	p.analyst.wait()
	playedGame(t, p, g, games.SecondWins, "e2e4", "e7e5", "d1h5", "b8c6", "h5f7", "e8f7", "f1c4", "d7d5")
	p.analyst.wait()
	mem := p.Memory()
	prof, err := mem.Profile(rival.Key())
	if err != nil {
		t.Fatal(err)
	}
	points := prof.Models[analysis.ModelName]
	if len(points) != 1 {
		t.Fatalf("%d analyses filed, want the lost game's alone", len(points))
	}
	var rep analysis.Report
	if err := json.Unmarshal(points[0].State, &rep); err != nil {
		t.Fatal(err)
	}
	if m, ok := rep.Blamed(); !ok || m.Played != "h5f7" || m.Best == "h5f7" {
		t.Fatalf("blamed %+v (%v), want 3.Qxf7+ with a better move", m, ok)
	}
	if games := prof.Games; len(games) != 2 || points[0].GameID != games[1].ID {
		t.Errorf("the analysis is filed after game %q, want the lost game's", points[0].GameID)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestAnalystIsAbandonedWhenTheNextGameStarts(t *testing.T) {
	g := chess.Game{}
	p := New(g, searchers.Config{HashMB: 1})
	if err := p.UseMemory(MemoryConfig{Enabled: true, Dir: filepath.Join(t.TempDir(), "memory")}); err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	p.SetOpponent(play.Opponent{Name: "rival", Source: "match"})
	// A long lost game: its analysis takes far longer than the start of the next game may wait.
	var texts []string
	for range 6 {
		texts = append(texts, "g1f3", "g8f6", "f3g1", "f6g8")
	}
	playedGame(t, p, g, games.SecondWins, texts...)
	begun := time.Now()
	p.StartGame(play.GameStart{Game: g, OurSide: games.First, Start: g.Start()})
	if waited := time.Since(begun); waited > time.Second {
		t.Errorf("the next game's start waited %v for the analysis", waited)
	}
}
