// Fuzz tests of the Connect-Four parsers: position strings, move strings and Pons digit sequences.

package connect4

import (
	"strings"
	"testing"

	"dossier/games"
	"dossier/games/dropnotation/droptest"
)

// FuzzParsePosition checks that any accepted position writes a FEN that reads back to the same position,
// on boards of several sizes.
func FuzzParsePosition(f *testing.F) {
	for _, s := range []string{startFEN, "4453", "7/7/7/7/ppp4/PPPP3 b", "7/7/7/7/7/3P3[20P21p] b - - 0 1",
		"XXOOOXO/OXXXOXX/XXOOXXO/OOXOOOX/OOXOXXX/OOXXOOX[-] w - - 0 22", "7/7/7/PPPP3/pppPpp1/PPPPppp b",
		"6/6/6/6/6/2P3 b", "4/4/4/4[PPPPPPPPpppppppp] w - - 0 1", "12 7/7/7/7/7/7", "[]"} {
		f.Add(s, uint8(0), uint8(0))
	}
	f.Add("6/6/6/6/6/2P3 b", uint8(6), uint8(6))
	f.Add("4/4/4/4[PPPPPPPPpppppppp] w - - 0 1", uint8(4), uint8(4))
	f.Fuzz(func(t *testing.T, s string, width, height uint8) {
		g := Game{Width: int(width % 11), Height: int(height % 10)}
		if g.Validate() != nil {
			return
		}
		p, err := g.Parse(s)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "connect4: ") {
				t.Errorf("ParsePosition(%q) error %q lacks the package prefix", s, err)
			}
			return
		}
		fen := p.FEN()
		q, err := g.Parse(fen)
		if err != nil {
			t.Fatalf("%q was accepted but its FEN %q is not: %v", s, fen, err)
		}
		if q.FEN() != fen || q.Key() != p.Key() || q.Hash() != p.Hash() || q.Ply() != p.Ply() {
			t.Fatalf("%q: FEN %q reads back as %q", s, fen, q.FEN())
		}
		var buf [games.MaxMoves]games.Move
		for _, m := range p.AppendMoves(buf[:0]) {
			if back, err := p.ParseMove(p.FormatMove(m)); err != nil || back != m {
				t.Fatalf("%s: move %s does not parse back: %v", fen, p.FormatMove(m), err)
			}
		}
	})
}

// FuzzParseMove checks that an accepted move is legal and formats to a string that parses back to it.
func FuzzParseMove(f *testing.F) {
	for _, s := range []string{"P@d1", "p@a1", "4", "d", "P@d3", "P@h1", "10", "P@d99", "", "P@", "@"} {
		f.Add("44", s)
	}
	f.Add("4545454", "1")
	f.Add("444444", "P@d7")
	f.Fuzz(func(t *testing.T, seq, move string) {
		p, err := Game{}.StartPosition()
		if err != nil {
			t.Fatal(err)
		}
		if PlayMoveString(p, seq) != nil {
			return
		}
		droptest.CheckParseMove(t, p, move, "connect4: move ")
	})
}

// FuzzPlayMoveString checks that a digit sequence either plays completely or leaves the position untouched.
func FuzzPlayMoveString(f *testing.F) {
	for _, s := range []string{"4453", "4444444", "45454545", "766672453451746161341732754254633115232527", "0", "8", "4a"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, seq string) {
		p, err := Game{}.StartPosition()
		if err != nil {
			t.Fatal(err)
		}
		if err := PlayMoveString(p, "44"); err != nil {
			t.Fatal(err)
		}
		before := p.FEN()
		if err := PlayMoveString(p, seq); err != nil {
			if p.FEN() != before || p.Ply() != 2 {
				t.Fatalf("failed sequence %q changed the position to %q", seq, p.FEN())
			}
			return
		}
		if p.Ply() != 2+len(seq) {
			t.Fatalf("%q: ply %d after %d stones", seq, p.Ply(), 2+len(seq))
		}
		q, err := Game{}.Parse(p.FEN())
		if err != nil || q.Key() != p.Key() {
			t.Fatalf("%q: the FEN %q of a played sequence does not read back: %v", seq, p.FEN(), err)
		}
	})
}
