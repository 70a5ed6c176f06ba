// Prepared moves: an entry a preparation filed, deeper than the search, decides the move of full-strength
// alpha-beta, with an info string; the even mode and an analysis's entry do not.

package player

import (
	"context"
	"strings"
	"testing"

	"dossier/bots/searchers"
	"dossier/engine"
	"dossier/games/chess"
	"dossier/memory"
)

func TestPreparedMoveIsPlayedWhereTheSearchIsShallower(t *testing.T) {
	g := chess.Game{}
	start := g.Start()
	lim := engine.Limits{Depth: 3}
	for _, tc := range []struct {
		name   string
		gameID string
		depth  int
		even   bool
		plays  bool
	}{
		{"a prepared entry deeper than the search", "prepared-1", 14, false, true},
		{"a prepared entry no deeper than the search", "prepared-1", 3, false, false},
		{"an analysed game's entry", "game-1", 14, false, false},
		{"the even mode", "prepared-1", 14, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, _, rival := experiencePlayer(t, 0)
			if tc.even {
				p.configure(func(c *searchers.Config) { c.Mode = searchers.EvenMode })
			}
			p.NewGame(g)
			p.WaitPrepared()
			before, _ := searchInfo(p, start, lim)
			// 1.a3, which the search at depth 3 does not choose.
			if start.FormatMove(before.Move) == "a2a3" {
				t.Fatal("the search already plays a2a3")
			}
			err := p.Memory().Record(memory.Event{Analysis: &memory.Analysis{OpponentKey: rival.Key(), GameID: tc.gameID,
				Game: "chess", Experience: []memory.Experience{{FEN: start.FEN(), Hash: start.Hash(), Move: "a2a3", Value: 12,
					Depth: tc.depth, Bound: memory.BoundLower}}}}).Wait(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			p.NewGame(g)
			p.WaitPrepared()
			res, infos := searchInfo(p, start, lim)
			if plays := start.FormatMove(res.Move) == "a2a3"; plays != tc.plays {
				t.Fatalf("played %s (before the entry %s), want a2a3 %v", start.FormatMove(res.Move),
					start.FormatMove(before.Move), tc.plays)
			}
			said := strings.Join(infos, "\n")
			if want := "experience: plays 1.a3 (+0.1 at depth 14; the search reached depth 3)"; tc.plays && !strings.Contains(said, want) {
				t.Errorf("info strings %q, want %q", infos, want)
			}
		})
	}
}
