// UCI_Opponent parsing.

package opponent

import (
	"strings"
	"testing"
)

func TestParseUCIOpponent(t *testing.T) {
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
			tc.want.Source = "uci"
			if got := ParseUCIOpponent(tc.value); got != tc.want {
				t.Errorf("ParseUCIOpponent(%q) = %+v, want %+v", tc.value, got, tc.want)
			}
			if tc.want.Title != "" || tc.want.Elo != 0 || tc.want.Kind != UnknownKind {
				if back := ParseUCIOpponent(tc.want.String()); back != tc.want {
					t.Errorf("%q reads back as %+v", tc.want.String(), back)
				}
			}
		})
	}
}

func TestNameKey(t *testing.T) {
	tests := []struct{ name, key string }{
		{"Stockfish 16", "stockfish 16"},
		{"  stockfish\t 16 ", "stockfish 16"},
		{"STOCKFISH 16", "stockfish 16"},
		{"", UnknownKey},
		{" \t ", UnknownKey},
		{"(unknown)", `"(unknown)"`},
		{"(Unknown) ", `"(unknown)"`},
		{"Ünïcode Bot", "ünïcode bot"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := NameKey(tc.name); got != tc.key {
				t.Errorf("NameKey(%q) = %q, want %q", tc.name, got, tc.key)
			}
		})
	}
	if (Opponent{}).Named() || !(Opponent{Name: "x"}).Named() {
		t.Error("Named is wrong")
	}
}

// FuzzParseUCIOpponent checks that any value parses without a panic, keeps a name whenever the value is not
// blank, and that a value read as the pattern writes back to itself.
func FuzzParseUCIOpponent(f *testing.F) {
	for _, v := range []string{"none none computer Stockfish 16", "BOT 2100 computer SomeBot", "none 1500 human alice", "GM -5 human", "", " \t"} {
		f.Add(v)
	}
	f.Fuzz(func(t *testing.T, value string) {
		o := ParseUCIOpponent(value)
		if (o.Name == "") != (strings.TrimSpace(value) == "") {
			t.Fatalf("ParseUCIOpponent(%q) = %+v", value, o)
		}
		if o.Title != "" || o.Elo != 0 || o.Kind != UnknownKind {
			if back := ParseUCIOpponent(o.String()); back != o {
				t.Fatalf("ParseUCIOpponent(%q) = %+v writes as %q, which reads back as %+v", value, o, o.String(), back)
			}
		}
	})
}

// TestSplitTitle takes the title off a CECP name only as python-chess writes one: a known title in upper case
// before a name.
func TestSplitTitle(t *testing.T) {
	for _, c := range []struct{ in, title, rest string }{
		{"BOT SomeBot", "BOT", "SomeBot"},
		{"  GM  Magnus Carlsen ", "GM", "Magnus Carlsen"},
		{"WCM\tAnna", "WCM", "Anna"},
		{"LM x", "LM", "x"},
		{"Im Ho", "", "Im Ho"},
		{"bot lower", "", "bot lower"},
		{"BOT", "", "BOT"},
		{"XX Name", "", "XX Name"},
		{"Stockfish 16", "", "Stockfish 16"},
		{"", "", ""},
	} {
		if title, rest := SplitTitle(c.in); title != c.title || rest != c.rest {
			t.Errorf("SplitTitle(%q) = %q, %q; want %q, %q", c.in, title, rest, c.title, c.rest)
		}
	}
}
