// The even-game mode in the Player: its state persists in the memory and plays from the next game on.

package player

import (
	"testing"

	"dossier/bots/searchers"
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
