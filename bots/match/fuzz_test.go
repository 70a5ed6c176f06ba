// Fuzz tests of the parsers: player specs, time controls, openings files and engine info lines.

package match

import (
	"strings"
	"testing"
	"unicode/utf8"

	"dossier/games"
	"dossier/games/checkers"
	"dossier/games/chess"
	"dossier/games/connect4"
	"dossier/games/tictactoe"
)

func FuzzParseSpec(f *testing.F) {
	for _, s := range []string{"preset=strongest depth=8", "uci=/usr/games/stockfish UCI_Elo=2000 name='x y'",
		`uci=a "Skill Level=3" args="-a -b" tc=40/60+0.6`, "depth=0", "preset=a tc=", "x", "'", `"=" =`, "nodes=99999999999999999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		spec, err := ParseSpec(text)
		if err != nil {
			if err.Error() == "" {
				t.Fatal("empty error message")
			}
			return
		}
		if spec.External() && !strings.Contains(text, "uci=") {
			t.Errorf("%q: External() = %v", text, spec.External())
		}
		if spec.Limits.Depth < 0 || spec.Depth < 0 || spec.HashMB < 0 || spec.Threads < 0 || spec.Limits.MoveTime < 0 {
			t.Errorf("%q: negative field in %+v", text, spec)
		}
	})
}

func FuzzParseTimeControl(f *testing.F) {
	for _, s := range []string{"40/60+0.6", "60+0.6", "10+0.1", "1:30", "0", "/", "+", "40/1:00+1", "9e9", "1.5.5"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		tc, err := ParseTimeControl(text)
		if err != nil {
			if !strings.Contains(err.Error(), "time control") {
				t.Errorf("error %q does not say it is about the time control", err)
			}
			return
		}
		if tc.Base <= 0 || tc.Inc < 0 || tc.Moves < 0 {
			t.Errorf("%q gave %+v", text, tc)
		}
		// What String writes reads back to the same control.
		again, err := ParseTimeControl(tc.String())
		if err != nil || again != tc {
			t.Errorf("%q → %q → %+v, %v", text, tc.String(), again, err)
		}
	})
}

func FuzzReadOpenings(f *testing.F) {
	seeds := []struct {
		game byte
		text string
	}{
		{0, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1\n"},
		{0, "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6; id \"WAC.001\";\n"},
		{1, "B:W21,22,23:B1,2,3\n1. 11-15 23-19\n[FEN \"W:W18:B1\"]\n"},
		{1, "[Event \"x\"]\n1. 11-15 23-19 *\n"},
		{2, "4453 -3\n44\n"},
		{2, "7/7/7/7/7/3P3[PPPPPPPPPPPPPPPPPPPPppppppppppppppppppppp] b - - 0 1\n"},
		{3, "x2/3/3 o\n"},
	}
	for _, s := range seeds {
		f.Add(s.game, s.text, 0)
		f.Add(s.game, s.text, 2)
	}
	all := []games.Game{chess.Game{}, checkers.Game{}, connect4.Game{}, tictactoe.Game{}}
	f.Fuzz(func(t *testing.T, which byte, text string, maxPlies int) {
		if len(text) > 4096 || !utf8.ValidString(text) {
			return
		}
		g := all[int(which)%len(all)]
		positions, err := ReadOpenings(g, strings.NewReader(text), maxPlies%20)
		if err != nil {
			if err.Error() == "" {
				t.Fatal("empty error message")
			}
			return
		}
		for _, p := range positions {
			if o := games.OutcomeOf(p); o.Result.Over() {
				t.Errorf("opening %s is over (%v)", p.FEN(), o)
			}
		}
	})
}

func FuzzReadInfo(f *testing.F) {
	for _, s := range []string{"depth 12 score cp -35 nodes 1", "score mate -99999999999", "depth", "score cp", "string x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		var r Reply
		readInfo(strings.Fields(line), &r)
		if r.Score != r.Score {
			t.Errorf("%q gave a NaN score", line)
		}
	})
}
