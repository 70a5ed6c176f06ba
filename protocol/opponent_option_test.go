// The UCI_Opponent option as the session hands it to the engine.
package protocol

import (
	"testing"

	"dossier/games/chess"
	"dossier/play"
)

func TestOpponentOption(t *testing.T) {
	eng := newFakeEngine(0)
	s := NewSession(eng, chess.Game{}, nil, nil, testConfig())
	for _, line := range []string{
		"setoption name UCI_Opponent value BOT 2100 computer Some  Bot",
		"setoption name uci_opponent value <empty>",
		"setoption name UCI_Opponent value none 1500 human alice",
		"setoption name UCI_RatingAdv value -150",
	} {
		s.handleLine(line)
	}
	want := []play.Opponent{{Title: "BOT", Elo: 2100, Kind: play.Computer, Name: "Some  Bot", Source: "uci"}, {Source: "uci"}, {Elo: 1500, Kind: play.Human, Name: "alice", Source: "uci"},
		{Elo: 1500, Kind: play.Human, Name: "alice", Source: "uci", RatingAdv: -150, HasRatingAdv: true}}
	if len(eng.opponents) != len(want) {
		t.Fatalf("SetOpponent calls %+v", eng.opponents)
	}
	for i := range want {
		if eng.opponents[i] != want[i] {
			t.Errorf("call %d: %+v, want %+v", i, eng.opponents[i], want[i])
		}
	}
	if s.Opponent() != want[3] {
		t.Errorf("session keeps %+v", s.Opponent())
	}
}
