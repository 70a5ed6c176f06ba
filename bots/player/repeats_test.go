package player

import (
	"strings"
	"testing"

	"dossier/bots/searchers"
	"dossier/engine"
	"dossier/games"
	"dossier/games/chess"
	"dossier/memory"
)

// TestRepeatsMeasureTheOpponent: the game memory measures how often the opponent played its move of before in
// the positions it met again, and a won game's move gets the whole MemoryRisk against an opponent that repeats
// itself (or that has not shown it varies), a part against one between, none against one that varies.
func TestRepeatsMeasureTheOpponent(t *testing.T) {
	if share := (repeats{}).riskShare(); share != 1 {
		t.Errorf("an opponent with no position met twice: risk share %.2f, want 1", share)
	}
	g := chess.Game{}
	var repeater, varying []memory.Game
	replies := []string{"e7e5", "c7c5", "e7e6"}
	for i := 0; i < 30; i++ {
		repeater = append(repeater, storedGame("r", games.First, 1, "e2e4 e7e5 g1f3 b8c6"))
		varying = append(varying, storedGame("v", games.First, 1, "e2e4 "+replies[i%3]+" g1f3 g8f6"))
	}
	// The repeater: 29 pairs after 1.e4 and 29 after 2.Nf3, all the same.
	r := newRecall("rival", g, repeater, nil, nil)
	if r.repeats != (repeats{same: 58, pairs: 58}) || r.repeats.riskShare() != 1 {
		t.Errorf("a repeater: %+v, share %.2f; want 58 of 58, share 1", r.repeats, r.repeats.riskShare())
	}
	// An opponent between: three replies ten times each after 1.e4 (9 pairs of 29 the same), then 2...Nf6 in
	// each of the three positions after 2.Nf3 (27 of 27).
	v := newRecall("rival", g, varying, nil, nil)
	if v.repeats != (repeats{same: 36, pairs: 56}) {
		t.Errorf("an opponent between: %+v, want 36 of 56", v.repeats)
	}
	if rate, share := v.repeats.rate(), v.repeats.riskShare(); rate < 0.69 || rate > 0.70 || share < 0.65 || share > 0.67 {
		t.Errorf("an opponent between: rate %.3f, share %.3f; want (36+17)/76 = 0.697 and 0.66", rate, share)
	}
	if share := (repeats{same: 10, pairs: 100}).riskShare(); share != 0 {
		t.Errorf("an opponent repeating a tenth of its moves: risk share %.2f, want 0", share)
	}
}

// TestWonMovesAgainstAnOpponentThatVaries: a won game's move our search values below its best is played again
// against an opponent that repeats itself (within MemoryRisk), and not against one that varies its moves, with
// the info string saying why.
func TestWonMovesAgainstAnOpponentThatVaries(t *testing.T) {
	g := chess.Game{}
	pos := g.Start()
	for _, c := range []struct {
		name     string
		repeats  repeats
		replayed bool
	}{
		{"repeats", repeats{same: 95, pairs: 100}, true},
		{"varies", repeats{same: 20, pairs: 100}, false},
	} {
		p := New(g, searchers.Config{HashMB: 8})
		r := newRecall("rival", g, nil, nil, nil)
		r.won[pos.FEN()] = "b1c3" // a move a little below the best from the start, well within MemoryRisk
		r.repeats = c.repeats
		p.gameMemory.set("rival", r, nil)
		var texts []string
		res := p.Search(pos.Clone(), engine.NewControl(engine.Limits{Depth: 6}, pos.ToMove()), func(i engine.Info) {
			if i.Text != "" {
				texts = append(texts, i.Text)
			}
		})
		p.Close()
		said := strings.Join(texts, " | ")
		nc3, _ := pos.ParseMove("b1c3")
		switch {
		case c.replayed && (res.Move != nc3 || !strings.Contains(said, "Nc3 as in a game won")):
			t.Errorf("%s: played %s (%s), want the won game's Nc3", c.name, pos.FormatMove(res.Move), said)
		case !c.replayed && (res.Move == nc3 || !strings.Contains(said, "against an opponent that repeats 31% of its moves")):
			t.Errorf("%s: played %s (%s), want our best, and why", c.name, pos.FormatMove(res.Move), said)
		}
		t.Logf("%s: %s", c.name, said)
	}
}
