// The even-game mode in the Player: its state persists in the memory and plays from the next game on.

package player

import (
	"testing"

	"dossier/bots/searchers"
	"dossier/engine"
	"dossier/games"
	"dossier/games/chess"
	"dossier/play"
)

// TestEvenStatePersists plays the life cycle of three games (a win, a win, a loss) against one opponent with
// the memory on, and checks that a second Player on the same memory reads the record the first one wrote.
func TestEvenStatePersists(t *testing.T) {
	dir := t.TempDir()
	g := chess.Game{}
	rival := play.Opponent{Name: "Rival Engine", Kind: play.Computer}
	const tc = "10+0.1"
	first := New(g, searchers.Config{Mode: searchers.EvenMode, HashMB: 1})
	if err := first.UseMemory(MemoryConfig{Enabled: true, Dir: dir}); err != nil {
		t.Fatal(err)
	}
	first.SetOpponent(rival)
	first.WaitPrepared()
	for i, result := range []games.Result{games.FirstWins, games.FirstWins, games.SecondWins} {
		first.NewGame(g)
		first.WaitPrepared()
		first.StartGame(play.GameStart{Game: g, OurSide: games.First, Start: g.Start(), TimeControl: tc})
		first.GameOver(play.GameEnd{Outcome: games.Outcome{Result: result}, Reason: "test"})
		t.Logf("after game %d: %+v", i+1, first.EvenRecord(rival, tc))
	}
	want := first.EvenRecord(rival, tc)
	if want.Games != 3 || want.Wins != 2 || want.Losses != 1 {
		t.Fatalf("record %+v", want)
	}
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	second := New(g, searchers.Config{Mode: searchers.EvenMode, HashMB: 1})
	if err := second.UseMemory(MemoryConfig{Enabled: true, Dir: dir}); err != nil {
		t.Fatal(err)
	}
	defer second.Close()
	if got := second.EvenRecord(rival, tc); got != want {
		t.Errorf("the second Player read %+v, want %+v", got, want)
	}
	// Another time control starts from the level learned at this one.
	other := second.EvenRecord(rival, "60+1")
	if other.Games != 0 || other.Level != want.Level {
		t.Errorf("a new time control starts at %+v, want level %v", other, want.Level)
	}
	// A strongest-mode Player learns nothing.
	plain := New(g, searchers.Config{HashMB: 1})
	plain.SetOpponent(rival)
	plain.WaitPrepared()
	plain.NewGame(g)
	plain.WaitPrepared()
	plain.StartGame(play.GameStart{Game: g, OurSide: games.First, Start: g.Start(), TimeControl: tc})
	plain.GameOver(play.GameEnd{Outcome: games.Outcome{Result: games.FirstWins}})
	plain.ledger.mu.Lock()
	defer plain.ledger.mu.Unlock()
	if len(plain.ledger.states) != 0 {
		t.Errorf("the strongest mode kept an even state: %v", plain.ledger.states)
	}
}

// TestHeldToARatingTheGameMemoryIsSilent checks that a player held to a rating (Mode even, UCI_LimitStrength)
// neither replays a won game's move nor makes room for its check, where the strongest mode does both: it
// plays at its rating, not above it with what it learned of the opponent.
func TestHeldToARatingTheGameMemoryIsSilent(t *testing.T) {
	g := chess.Game{}
	pos := g.Start()
	ours, err := pos.ParseMove("e2e4")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		cfg   searchers.Config
		plain bool
	}{
		{"strongest", searchers.Config{HashMB: 1}, true},
		{"even", searchers.Config{Mode: searchers.EvenMode, HashMB: 1}, false},
		{"UCI_Elo", searchers.Config{LimitStrength: true, Elo: 1500, HashMB: 1}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := New(g, c.cfg)
			defer p.Close()
			r := newRecall("rival", g, nil, nil, nil)
			r.won[pos.FEN()] = "a2a3"
			p.gameMemory.set("rival", r, nil)
			ctl := engine.NewControl(engine.Limits{Depth: 3}, pos.ToMove())
			at := p.recallAt(pos, ctl)
			if got := at.mayCheck(); got != c.plain {
				t.Errorf("mayCheck %v, want %v", got, c.plain)
			}
			s, _ := p.currentSearcher()
			var texts []string
			res := p.consultRecall(s, pos, ctl, at, engine.Result{Move: ours, Depth: 3}, searchers.NewDepthLines(nil),
				func(i engine.Info) { texts = append(texts, i.Text) })
			if !c.plain && (res.Move != ours || len(texts) != 0) {
				t.Errorf("played %s, said %q; want e2e4 and nothing", pos.FormatMove(res.Move), texts)
			}
			if c.plain && len(texts) == 0 {
				t.Error("the strongest mode did not consult the game memory")
			}
		})
	}
}
