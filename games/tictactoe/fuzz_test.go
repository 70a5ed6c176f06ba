// Fuzz tests of the tic-tac-toe parsers: position strings and move strings.

package tictactoe

import (
	"strings"
	"testing"

	"dossier/games/dropnotation/droptest"
)

// FuzzParsePosition checks that any accepted position writes a FEN that reads back to the same position.
func FuzzParsePosition(f *testing.F) {
	for _, s := range []string{startFEN, "3/1P1/3 b", "pPP/Ppp/PpP[-] b - - 0 5", "PpP/pPp/PpP[-] b", "3/3/3[5P4p] w",
		"ppp/PPP/3 w", "3/3/3[PPPPPpppp]", "3/3/12 w", "[-]"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := Parse(s)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "tictactoe: ") {
				t.Errorf("Parse(%q) error %q lacks the package prefix", s, err)
			}
			return
		}
		fen := p.FEN()
		q, err := Parse(fen)
		if err != nil {
			t.Fatalf("%q was accepted but its FEN %q is not: %v", s, fen, err)
		}
		if q.FEN() != fen || q.Hash() != p.Hash() || q.Status() != p.Status() {
			t.Fatalf("%q: FEN %q reads back as %q", s, fen, q.FEN())
		}
	})
}

// FuzzParseMove checks that an accepted move is legal and formats to a string that parses back to it.
func FuzzParseMove(f *testing.F) {
	for _, s := range []string{"P@a1", "b2", "p@c3", "d4", "P@", "", "a11", "@b2"} {
		f.Add("3/1P1/3 b", s)
	}
	f.Add("PPP/pp1/3 b", "c2")
	f.Fuzz(func(t *testing.T, fen, move string) {
		p, err := Parse(fen)
		if err != nil {
			return
		}
		droptest.CheckParseMove(t, p, move, "tictactoe: move ")
	})
}
