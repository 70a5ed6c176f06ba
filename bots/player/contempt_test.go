// Contempt from the dossier: set at the new game from our results against the opponent and told once, left
// alone when the Contempt option was set, none against an opponent never met unless the front end sent ratings.

package player

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"dossier/bots/searchers"
	"dossier/engine"
	"dossier/games"
	"dossier/games/chess"
	"dossier/memory"
	"dossier/play"
)

// recordResult files a finished game against the opponent called name with our score.
func recordResult(t *testing.T, mem *memory.Memory, g games.Game, name string, score float64) {
	t.Helper()
	o := play.Opponent{Name: name, Source: "match"}
	id := memory.NewGameID()
	now := time.Now()
	mem.Record(memory.Event{Start: &memory.GameStart{GameID: id, OpponentKey: o.Key(), Opponent: o, Game: g.Name(),
		StartFEN: g.Start().FEN(), At: now}})
	result := map[float64]string{1: "1-0", 0.5: "1/2-1/2", 0: "0-1"}[score]
	mem.Record(memory.Event{End: &memory.GameEnd{GameID: id, Result: result, Reason: "test", OurScore: score, At: now}})
}

func TestContemptFromTheDossier(t *testing.T) {
	g := chess.Game{}
	dir := filepath.Join(t.TempDir(), "memory")
	mem, err := memory.Open(memory.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []float64{1, 1, 1, 1, 1, 1, 0.5, 0.5, 0} {
		recordResult(t, mem, g, "weaker", s)
	}
	if err := mem.Close(); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name     string
		opponent play.Opponent
		fixed    bool
		positive bool
	}{
		{"an opponent we outscore", play.Opponent{Name: "weaker"}, false, true},
		{"an opponent never met", play.Opponent{Name: "stranger"}, false, false},
		{"the Contempt option set", play.Opponent{Name: "weaker"}, true, false},
		// Ratings as UCI_RatingAdv and CECP's rating command send them.
		{"a stranger rated below us", play.Opponent{Name: "stranger", RatingAdv: 150, HasRatingAdv: true}, false, true},
		{"a stranger rated above us", play.Opponent{Name: "stranger", Elo: 2400, OurElo: 2250}, false, false},
	}
	t.Run("off by default", func(t *testing.T) {
		p := New(g, searchers.Config{HashMB: 1, Depth: 2})
		if err := p.UseMemory(MemoryConfig{Enabled: true, Dir: dir}); err != nil {
			t.Fatal(err)
		}
		defer p.Close()
		p.SetOpponent(play.Opponent{Name: "weaker", Source: "match"})
		p.WaitPrepared()
		p.NewGame(g)
		p.WaitPrepared()
		if got := p.Config().Contempt; got != 0 {
			t.Fatalf("contempt %v without MemoryContempt, want 0", got)
		}
		p.setMemoryContempt(true)
		p.NewGame(g)
		p.WaitPrepared()
		if p.Config().Contempt <= 0 {
			t.Fatalf("no contempt with MemoryContempt on")
		}
		p.setMemoryContempt(false)
		if got := p.Config().Contempt; got != 0 {
			t.Fatalf("contempt %v after MemoryContempt was turned off, want 0", got)
		}
	})
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := New(g, searchers.Config{HashMB: 1, Depth: 2})
			if err := p.UseMemory(MemoryConfig{Enabled: true, Dir: dir}); err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			p.setMemoryContempt(true)
			if tc.fixed {
				p.setContempt(0)
			}
			o := tc.opponent
			o.Source = "match"
			p.SetOpponent(o)
			p.WaitPrepared()
			p.NewGame(g)
			p.WaitPrepared()
			got := p.Config().Contempt
			if (got > 0) != tc.positive || got > 50 || got < -50 {
				t.Fatalf("contempt %v, want positive %v (at most 50 either way)", got, tc.positive)
			}
			var texts []string
			p.Search(g.Start(), engine.NewControl(engine.Limits{Depth: 2}, games.First), func(i engine.Info) { texts = append(texts, i.Text) })
			info := strings.Join(texts, "\n")
			if told := strings.Contains(info, "contempt +"); told != tc.positive {
				t.Errorf("info strings %q: told the contempt %v, want %v", texts, told, tc.positive)
			}
			if _, rated := o.RatingAdvantage(); rated && !strings.Contains(info, "rating") {
				t.Errorf("info strings %q do not name the rating", texts)
			}
		})
	}
}
