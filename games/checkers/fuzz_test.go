// Fuzz tests for every parser: PDN FEN, move strings and PDN game text.

package checkers

import (
	"slices"
	"strings"
	"testing"

	"dossier/games"
	"dossier/games/gametest"
)

// FuzzParseFEN checks that ParseFEN never panics, that its errors name the position string, and that what it
// accepts writes a canonical FEN that reads back to the same position.
func FuzzParseFEN(f *testing.F) {
	for _, seed := range []string{StartFEN, "B:W21-32:B1-12", `"W:WK14:B19,18,11,10".`, "B:W18,26,27,25,11,19:BK15",
		"W:W:B1", "B:W1-4:B29", "B:W9-21:B5", "X:Y:Z", "B:WK:B1", "B:W-:B", "B:W1--2:B3", "W:W9999999999999999999:B1"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParseFEN(s)
		if err != nil {
			if !strings.Contains(err.Error(), "checkers FEN") {
				t.Fatalf("error %q does not say what was being read", err)
			}
			return
		}
		fen := p.FEN()
		q, err := ParseFEN(fen)
		if err != nil || q.FEN() != fen || q.Hash() != p.Hash() {
			t.Fatalf("%q: FEN %q reads back as %v, %v", s, fen, q, err)
		}
		if p.Perft(2) != games.InterfacePerft(p, 2) {
			t.Fatalf("%q: perft disagrees", fen)
		}
		gametest.CheckPosition(t, Game{}, p)
	})
}

// FuzzParseMove checks that ParseMove never panics, that errors quote the move, and that an accepted move is
// legal and formats to a string that parses back to it.
func FuzzParseMove(f *testing.F) {
	for _, seed := range []struct{ fen, move string }{
		{StartFEN, "11-15"}, {StartFEN, "11x15"}, {StartFEN, "33-1"}, {StartFEN, "11-15-19"},
		{"W:WK14:B19,18,11,10", "14x14"}, {"W:WK14:B19,18,11,10", "14x23x16x7x14"}, {"B:W18,26,27,25,11,19:BK15", "15x8"},
		{"B:W26,27:B22", "22-31"}, {"B:W6,15,30:B1", "1x19"}, {StartFEN, "1x2x3x4x5x6x7x8x9x10x11"}, {StartFEN, " 9 - 13 "},
	} {
		f.Add(seed.fen, seed.move)
	}
	f.Fuzz(func(t *testing.T, fen, move string) {
		p, err := ParseFEN(fen)
		if err != nil {
			return
		}
		m, err := p.ParseMove(move)
		if err != nil {
			if !strings.Contains(err.Error(), "move ") {
				t.Fatalf("error %q does not name the move", err)
			}
			return
		}
		var buf [games.MaxMoves]games.Move
		if !slices.Contains(p.AppendMoves(buf[:0]), m) {
			t.Fatalf("%s: %q parsed to an illegal move", fen, move)
		}
		back, err := p.ParseMove(p.FormatMove(m))
		if err != nil || back != m {
			t.Fatalf("%s: %q formats as %q, which parses to %v, %v", fen, move, p.FormatMove(m), back, err)
		}
	})
}

// FuzzParsePDN checks that the PDN reader never panics or hangs, that a replay either succeeds or fails with
// an error, and that a replayed game written back reads to the same moves.
func FuzzParsePDN(f *testing.F) {
	for _, seed := range []string{
		"[Event \"x\"]\n1. 11-15 23-19 2. 8-11 22-17 1-0\n",
		"[FEN \"W:W22:B9\"]\n1... 22-18 2. 9-14 18x9 *",
		"1. 11-15 {c} (1. 9-13 ; c\n) $2 23-19! 1/2-1/2 [Event \"2\"] 1. 10-14 0-1",
		"{", "(", "[", "[Event \"\\", "1.", "...", "%x\n1-0", "1. 12-16 21x14x7 2-0", "[FEN \"B:W33\"] 1. 1-5",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		parsed, err := ParsePDN(text)
		if err != nil {
			if !strings.Contains(err.Error(), "PDN line") {
				t.Fatalf("error %q does not give the line", err)
			}
			return
		}
		for i := range parsed {
			g := &parsed[i]
			start, err := g.StartPosition()
			if err != nil {
				continue
			}
			end, moves, err := g.Replay()
			if err != nil {
				continue
			}
			var sb strings.Builder
			if err := WritePDN(&sb, g.Tags, start, moves, g.Result); err != nil {
				t.Fatalf("writing a replayed game: %v", err)
			}
			again, err := ParsePDN(sb.String())
			if err != nil || len(again) != 1 {
				t.Fatalf("reading back %q: %d games, %v", sb.String(), len(again), err)
			}
			end2, moves2, err := again[0].Replay()
			if err != nil || len(moves2) != len(moves) || end2.FEN() != end.FEN() || again[0].Result != g.Result {
				t.Fatalf("round trip of %q: %v", sb.String(), err)
			}
		}
	})
}
