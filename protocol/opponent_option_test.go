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

// TestCECPAndUCINameOneOpponent sends the same players as python-chess names them over CECP ("name BOT
// SomeBot", the lichess title first) and as UCI_Opponent does: each arrives with one key, so one dossier,
// and the CECP title is kept as the title (issue #34, item 5: they were filed apart, "bot somebot" and
// "somebot").
func TestCECPAndUCINameOneOpponent(t *testing.T) {
	for _, c := range []struct {
		cecp, uci string
		title     string
		kind      play.PlayerKind
	}{
		{"BOT SomeBot", "BOT 2100 computer SomeBot", "BOT", play.Computer},
		{"GM Magnus  Carlsen", "GM 2850 human Magnus  Carlsen", "GM", play.UnknownKind},
		{"WIM Some Name", "WIM none human Some Name", "WIM", play.UnknownKind},
		{"Stockfish 16", "none none computer Stockfish 16", "", play.UnknownKind},
		{"Im Ho", "none none human Im Ho", "", play.UnknownKind}, // no title as python-chess writes one
		{"BOT", "none none computer BOT", "", play.UnknownKind},  // a name that is a title alone stays a name
	} {
		t.Run(c.cecp, func(t *testing.T) {
			cecpEngine, uciEngine := newFakeEngine(0), newFakeEngine(0)
			NewSession(cecpEngine, chess.Game{}, nil, nil, cecpConfig()).handleLine("name " + c.cecp)
			NewSession(uciEngine, chess.Game{}, nil, nil, testConfig()).handleLine("setoption name UCI_Opponent value " + c.uci)
			if len(cecpEngine.opponents) != 1 || len(uciEngine.opponents) != 1 {
				t.Fatalf("SetOpponent calls: CECP %+v, UCI %+v", cecpEngine.opponents, uciEngine.opponents)
			}
			viaCECP, viaUCI := cecpEngine.opponents[0], uciEngine.opponents[0]
			if viaCECP.Key() != viaUCI.Key() {
				t.Errorf("CECP files %q under %q, UCI under %q", c.cecp, viaCECP.Key(), viaUCI.Key())
			}
			if viaCECP.Title != c.title || viaCECP.Kind != c.kind {
				t.Errorf("CECP's opponent %+v, want title %q, kind %v", viaCECP, c.title, c.kind)
			}
		})
	}
}
