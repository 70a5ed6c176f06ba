// Tests of tactical move generation, null moves, move accessors and Clone.

package chess

import (
	"testing"

	"dossier/games"
)

// TestTacticalMovesAreTheCapturesAndPromotions checks AppendTactical, IsTactical and TacticalGain against the full move list.
func TestTacticalMovesAreTheCapturesAndPromotions(t *testing.T) {
	fens := []string{StartFEN, kiwipeteFEN,
		"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
		"rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 2",
		"n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
		"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"}
	var buf, tbuf, cbuf [games.MaxMoves]games.Move
	for _, fen := range fens {
		root := mustFEN(t, fen)
		for _, first := range root.AppendMoves(cbuf[:0]) {
			p := root.Copy()
			p.Play(first)
			want := map[games.Move]bool{}
			for _, m := range p.AppendMoves(buf[:0]) {
				if p.IsTactical(m) {
					want[m] = true
					if p.TacticalGain(m) <= 0 {
						t.Fatalf("%s: tactical %s has gain %d", p.FEN(), FormatUCI(m), p.TacticalGain(m))
					}
				} else if p.TacticalGain(m) != 0 {
					t.Fatalf("%s: quiet %s has gain %d", p.FEN(), FormatUCI(m), p.TacticalGain(m))
				}
			}
			got := p.AppendTactical(tbuf[:0])
			if len(got) != len(want) {
				t.Fatalf("%s: %d tactical moves, want %d", p.FEN(), len(got), len(want))
			}
			for _, m := range got {
				if !want[m] {
					t.Fatalf("%s: AppendTactical gives %s, which is not a legal capture or promotion", p.FEN(), FormatUCI(m))
				}
			}
		}
	}
}

// TestTacticalGainOrder checks most-valuable-victim ordering.
func TestTacticalGainOrder(t *testing.T) {
	p := mustFEN(t, "4k3/8/8/2q1r3/3P4/8/8/K7 w - - 0 1")
	takeQueen, err := p.ParseMove("dxc5")
	if err != nil {
		t.Fatal(err)
	}
	takeRook, err := p.ParseMove("dxe5")
	if err != nil {
		t.Fatal(err)
	}
	if p.TacticalGain(takeQueen) <= p.TacticalGain(takeRook) {
		t.Fatalf("pawn takes queen (%d) should order before pawn takes rook (%d)", p.TacticalGain(takeQueen), p.TacticalGain(takeRook))
	}
}

// TestNullMove checks that a null move passes the turn, drops en passant and hashes like the FEN it writes.
func TestNullMove(t *testing.T) {
	p := mustFEN(t, "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 2")
	fen, hash := p.FEN(), p.Hash()
	p.PlayNull()
	if p.ToMove() != games.First {
		t.Fatal("PlayNull did not pass the move")
	}
	q := mustFEN(t, p.FEN())
	if q.Hash() != p.Hash() || p.FEN() != "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR w KQkq - 1 3" {
		t.Fatalf("after PlayNull: %s hash %x, read back %x", p.FEN(), p.Hash(), q.Hash())
	}
	p.UndoNull()
	if p.FEN() != fen || p.Hash() != hash {
		t.Fatalf("UndoNull leaves %s", p.FEN())
	}
}

// TestMoveAccessors checks the exported move field accessors.
func TestMoveAccessors(t *testing.T) {
	tests := []struct {
		fen, move                            string
		from, to, piece, captured, promotion int
		castling                             bool
	}{
		{StartFEN, "g1f3", 6, 21, Knight, NoPiece, NoPiece, false},
		{kiwipeteFEN, "e1g1", 4, 6, King, NoPiece, NoPiece, true},
		{kiwipeteFEN, "e2a6", 12, 40, Bishop, Bishop, NoPiece, false},
		{"r3k3/1P6/8/8/8/8/8/4K3 w q - 0 1", "b7a8n", 49, 56, Pawn, Rook, Knight, false},
		{"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6", 36, 43, Pawn, Pawn, NoPiece, false},
	}
	for _, tc := range tests {
		p := mustFEN(t, tc.fen)
		m, err := p.ParseMove(tc.move)
		if err != nil {
			t.Fatal(err)
		}
		if MoveFrom(m) != tc.from || MoveTo(m) != tc.to || MovePiece(m) != tc.piece || MoveCaptured(m) != tc.captured ||
			MovePromotion(m) != tc.promotion || IsCastling(m) != tc.castling {
			t.Errorf("%s: from %d to %d piece %d captured %d promotion %d castling %v", tc.move, MoveFrom(m), MoveTo(m),
				MovePiece(m), MoveCaptured(m), MovePromotion(m), IsCastling(m))
		}
	}
}

// TestPieceAtAndBitboard checks the board accessors.
func TestPieceAtAndBitboard(t *testing.T) {
	p := StartPosition()
	if c, pt, ok := p.PieceAt(4); !ok || c != White || pt != King {
		t.Fatalf("e1 holds %d %d %v", c, pt, ok)
	}
	if _, _, ok := p.PieceAt(28); ok {
		t.Fatal("e4 is not empty")
	}
	if b := p.Bitboard(Black, Pawn); b != rank7 {
		t.Fatalf("black pawns %#x", b)
	}
}
