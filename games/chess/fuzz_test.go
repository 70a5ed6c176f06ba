// Fuzz tests of the parsers: FEN, UCI moves and SAN moves never panic, and accepted input is consistent.

package chess

import (
	"strings"
	"testing"

	"dossier/games"
)

var fuzzFENs = []string{
	StartFEN,
	kiwipeteFEN,
	"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
	"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
	"rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 2",
	"4k3/8/8/8/8/8/8/4K2R w K -",
	"r3k3/1P6/8/8/8/8/8/4K3 w q - 0 1",
	// Chess960: Shredder-FEN, X-FEN with inner rooks, a king and rook that swap, a b1 rook shielding c1.
	"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
	"r1k1r2q/p1ppp1pp/8/8/8/8/P1PPP1PP/R1K1R2Q w KQkq - 0 1",
	"bqnnrkrb/pppppppp/8/8/8/8/PPPPPPPP/BQNNRKRB w KQkq - 0 1",
	"4r3/3k4/8/8/8/8/6PP/qR1K1R2 w KQ - 0 1",
	"4rrk1/pbbp2p1/1ppnp3/3n1pqp/3N1PQP/1PPNP3/PBBP2P1/4RRK1 w Ff - 0 1",
}

// FuzzParseFEN checks that any string either fails with an error naming the FEN or reads a usable position.
func FuzzParseFEN(f *testing.F) {
	for _, fen := range fuzzFENs {
		f.Add(fen)
	}
	f.Add("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0")
	f.Add("8/8/8/8/8/8/8/8 w - - 0 1")
	f.Fuzz(func(t *testing.T, fen string) {
		p, err := ParseFEN(fen)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "chess: FEN ") {
				t.Fatalf("error %q does not name the FEN", err)
			}
			return
		}
		// An accepted position writes an X-FEN and a Shredder-FEN that read back to the same position and hash.
		for _, out := range []string{p.FEN(), p.ShredderFEN()} {
			q, err := ParseFEN(out)
			if err != nil || q.FEN() != p.FEN() || q.ShredderFEN() != p.ShredderFEN() || q.Hash() != p.Hash() {
				t.Fatalf("%q: %q does not read back (%v)", fen, out, err)
			}
		}
		var buf [games.MaxMoves]games.Move
		moves := p.AppendMoves(buf[:0])
		if len(moves) != p.CountMoves() {
			t.Fatalf("%q: %d moves listed, %d counted", fen, len(moves), p.CountMoves())
		}
		for _, m := range moves {
			p.Play(m)
			p.Undo()
		}
		p.Features(make([]float64, len(featureNames)))
		p.Status()
	})
}

func fuzzMoveParser(f *testing.F, parse func(p *Position, s string) (games.Move, error)) {
	for i := range fuzzFENs {
		f.Add(i, "e2e4")
		f.Add(i, "Nf3")
		f.Add(i, "O-O-O")
		f.Add(i, "exd8=Q+")
		f.Add(i, "e1h1")
		f.Add(i, "f1g1")
		f.Add(i, "d1b1")
		f.Add(i, "b7a8n")
		f.Add(i, "R1a2")
	}
	f.Fuzz(func(t *testing.T, which int, s string) {
		g := Game{Chess960: which%2 == 1} // both notations
		pos, err := g.ParsePosition(fuzzFENs[uint(which)%uint(len(fuzzFENs))])
		if err != nil {
			t.Fatal(err)
		}
		p := pos.(*Position)
		m, err := parse(p, s)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "chess: move ") {
				t.Fatalf("error %q does not name the move", err)
			}
			return
		}
		// An accepted move is one of the legal moves.
		var buf [games.MaxMoves]games.Move
		for _, legal := range p.AppendMoves(buf[:0]) {
			if legal == m {
				return
			}
		}
		t.Fatalf("%q parsed as %s, which is not legal", s, p.FormatMove(m))
	})
}

// FuzzParseMove checks that any move string either fails with an error naming it or parses to a legal move.
func FuzzParseMove(f *testing.F) {
	fuzzMoveParser(f, func(p *Position, s string) (games.Move, error) { return p.ParseMove(s) })
}

// FuzzParseSAN is FuzzParseMove for the SAN reader alone.
func FuzzParseSAN(f *testing.F) {
	fuzzMoveParser(f, func(p *Position, s string) (games.Move, error) { return p.ParseSAN(s) })
}
