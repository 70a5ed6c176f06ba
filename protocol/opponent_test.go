// UCI_Opponent parsing.
package protocol

import (
	"strings"
	"testing"

	"dossier/games/chess"
)

func TestParseOpponent(t *testing.T) {
	tests := []struct {
		value string
		want  Opponent
	}{
		{"none none computer Stockfish 16", Opponent{Kind: Computer, Name: "Stockfish 16"}},
		{"BOT 2100 computer SomeBot", Opponent{Title: "BOT", Elo: 2100, Kind: Computer, Name: "SomeBot"}},
		{"none 1500 human alice", Opponent{Elo: 1500, Kind: Human, Name: "alice"}},
		{"GM 2850 human Magnus Carlsen", Opponent{Title: "GM", Elo: 2850, Kind: Human, Name: "Magnus Carlsen"}},
		{"wgm none human Judit  Polgar ", Opponent{Title: "WGM", Kind: Human, Name: "Judit  Polgar"}},
		{"  LM 2400 COMPUTER  x ", Opponent{Title: "LM", Elo: 2400, Kind: Computer, Name: "x"}},
		{"IM 0 human zero", Opponent{Title: "IM", Kind: Human, Name: "zero"}},
		{"none none none someone", Opponent{Name: "someone"}},
		{"CM\t1900\thuman\tbob", Opponent{Title: "CM", Elo: 1900, Kind: Human, Name: "bob"}},
		// Not the pattern: the whole value is the name.
		{"Stockfish 16", Opponent{Name: "Stockfish 16"}},
		{"none none computer", Opponent{Name: "none none computer"}},
		{"XX 2000 human bob", Opponent{Name: "XX 2000 human bob"}},
		{"GM -5 human bob", Opponent{Name: "GM -5 human bob"}},
		{"GM +5 human bob", Opponent{Name: "GM +5 human bob"}},
		{"GM 99999 human bob", Opponent{Name: "GM 99999 human bob"}},
		{"GM 2500 robot bob", Opponent{Name: "GM 2500 robot bob"}},
		{"GM 2500? human bob", Opponent{Name: "GM 2500? human bob"}},
		{"", Opponent{}},
		{"   ", Opponent{}},
	}
	for _, tc := range tests {
		t.Run(tc.value, func(t *testing.T) {
			if got := ParseOpponent(tc.value); got != tc.want {
				t.Errorf("ParseOpponent(%q) = %+v, want %+v", tc.value, got, tc.want)
			}
			if tc.want.Title != "" || tc.want.Elo != 0 || tc.want.Kind != UnknownKind {
				if back := ParseOpponent(tc.want.String()); back != tc.want {
					t.Errorf("%q reads back as %+v", tc.want.String(), back)
				}
			}
		})
	}
}

func TestOpponentOption(t *testing.T) {
	eng := newFakeEngine(0)
	s := NewSession(eng, chess.Game{}, nil, nil, testConfig())
	for _, line := range []string{
		"setoption name UCI_Opponent value BOT 2100 computer Some  Bot",
		"setoption name uci_opponent value <empty>",
		"setoption name UCI_Opponent value none 1500 human alice",
	} {
		s.handleLine(line)
	}
	want := []Opponent{{Title: "BOT", Elo: 2100, Kind: Computer, Name: "Some  Bot"}, {}, {Elo: 1500, Kind: Human, Name: "alice"}}
	if len(eng.opponents) != len(want) {
		t.Fatalf("SetOpponent calls %+v", eng.opponents)
	}
	for i := range want {
		if eng.opponents[i] != want[i] {
			t.Errorf("call %d: %+v, want %+v", i, eng.opponents[i], want[i])
		}
	}
	if s.Opponent() != want[2] {
		t.Errorf("session keeps %+v", s.Opponent())
	}
}

// FuzzParseOpponent checks that any value parses without a panic, keeps a name whenever the value is not
// blank, and that a value read as the pattern writes back to itself.
func FuzzParseOpponent(f *testing.F) {
	for _, v := range []string{"none none computer Stockfish 16", "BOT 2100 computer SomeBot", "none 1500 human alice", "GM -5 human", "", " \t"} {
		f.Add(v)
	}
	f.Fuzz(func(t *testing.T, value string) {
		o := ParseOpponent(value)
		if (o.Name == "") != (strings.TrimSpace(value) == "") {
			t.Fatalf("ParseOpponent(%q) = %+v", value, o)
		}
		if o.Title != "" || o.Elo != 0 || o.Kind != UnknownKind {
			if back := ParseOpponent(o.String()); back != o {
				t.Fatalf("ParseOpponent(%q) = %+v writes as %q, which reads back as %+v", value, o, o.String(), back)
			}
		}
	})
}
