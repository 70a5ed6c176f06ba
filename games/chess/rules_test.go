// Tests of the draw rules, FEN validation and move parsing errors.

package chess

import (
	"strings"
	"testing"

	"dossier/games"
	"dossier/games/gametest"
)

func mustFEN(t *testing.T, fen string) *Position {
	t.Helper()
	p, err := ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func playAll(t *testing.T, p *Position, moves string) {
	t.Helper()
	for _, tok := range strings.Fields(moves) {
		m, err := p.ParseMove(tok)
		if err != nil {
			t.Fatal(err)
		}
		p.Play(m)
	}
}

// TestRepetition checks threefold repetition and what makes positions differ.
func TestRepetition(t *testing.T) {
	p := StartPosition()
	shuffle := "Nf3 Nf6 Ng1 Ng8"
	playAll(t, p, shuffle)
	if r := p.Repetitions(); r != 1 {
		t.Fatalf("after one knight shuffle: %d repetitions, want 1", r)
	}
	if o := p.Status(); o.Result != games.Ongoing {
		t.Fatalf("second occurrence is %v, want ongoing", o)
	}
	playAll(t, p, shuffle)
	if r, o := p.Repetitions(), p.Status(); r != 2 || o != (games.Outcome{Result: games.Draw, Reason: games.Repetition}) {
		t.Fatalf("third occurrence: %d repetitions, status %v", r, o)
	}
	p.Undo()
	if r := p.Repetitions(); r != 1 {
		t.Fatalf("after Undo: %d repetitions, want 1 (Nf6 position seen twice before? no: once)", r)
	}

	t.Run("castling rights make positions differ", func(t *testing.T) {
		p := mustFEN(t, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
		playAll(t, p, "Ke2 Ke7 Ke1 Ke8 Ke2 Ke7 Ke1 Ke8")
		// The start had castling rights; the later occurrences do not.
		if r := p.Repetitions(); r != 1 {
			t.Fatalf("got %d repetitions, want 1", r)
		}
	})
	t.Run("a pawn move resets the window", func(t *testing.T) {
		p := StartPosition()
		playAll(t, p, "Nf3 Nf6 Ng1 Ng8 e4 e5 Nf3 Nf6 Ng1 Ng8")
		if r := p.Repetitions(); r != 1 {
			t.Fatalf("got %d repetitions, want 1", r)
		}
	})
	t.Run("an impossible en passant does not distinguish", func(t *testing.T) {
		// After d2-d4, c4xd3 would expose black's king on a4 to the rook on h4 (both pawns leave the rank):
		// no legal en passant, so the position after d4 equals the one reached later by a king shuffle.
		p := mustFEN(t, "8/8/8/8/k1p4R/8/3P2K1/8 w - - 0 1")
		playAll(t, p, "d4")
		if strings.Fields(p.FEN())[3] != "-" {
			t.Fatalf("FEN %s shows an en-passant square", p.FEN())
		}
		playAll(t, p, "Ka5 Kg3 Ka4 Kg2")
		if r := p.Repetitions(); r != 1 {
			t.Fatalf("got %d repetitions, want 1", r)
		}
	})
	t.Run("a legal en passant distinguishes", func(t *testing.T) {
		p := mustFEN(t, "8/8/8/8/k1p5/8/3P2K1/8 w - - 0 1")
		playAll(t, p, "d4")
		if strings.Fields(p.FEN())[3] != "d3" {
			t.Fatalf("FEN %s lacks the en-passant square", p.FEN())
		}
		playAll(t, p, "Ka5 Kg3 Ka4 Kg2")
		if r := p.Repetitions(); r != 0 {
			t.Fatalf("got %d repetitions, want 0", r)
		}
	})
	t.Run("not across a null move", func(t *testing.T) {
		p := StartPosition()
		playAll(t, p, "Nf3 Nf6 Ng1 Ng8")
		p.PlayNull()
		p.PlayNull()
		if r := p.Repetitions(); r != 0 {
			t.Fatalf("got %d repetitions, want 0", r)
		}
		p.UndoNull()
		p.UndoNull()
		if r := p.Repetitions(); r != 1 {
			t.Fatalf("after UndoNull: %d repetitions, want 1", r)
		}
	})
}

// TestFiftyMoveRule checks the fifty-move rule, its resets, and mate on the 100th half-move.
func TestFiftyMoveRule(t *testing.T) {
	tests := []struct {
		name string
		fen  string
		move string // played before checking; "" for none
		want games.Outcome
	}{
		{"99 plies: ongoing", "4k3/8/8/8/8/8/8/4K2R w K - 99 80", "", games.Outcome{}},
		{"100 plies: draw", "4k3/8/8/8/8/8/8/4K2R w K - 99 80", "Kd1", games.Outcome{Result: games.Draw, Reason: games.MoveRule}},
		{"a capture resets", "4k3/8/8/8/8/8/r7/R3K3 w - - 99 80", "Rxa2", games.Outcome{}},
		{"a pawn move resets", "4k3/8/8/8/8/8/P7/4K3 w - - 99 80", "a4", games.Outcome{}},
		{"check on the 100th ply: draw", "4k3/8/8/8/8/8/8/R3K3 w - - 99 80", "Ra8+", games.Outcome{Result: games.Draw, Reason: games.MoveRule}},
		// Mate on the 100th half-move is mate: Status stays Ongoing and the empty move list reports it.
		{"mate on the 100th ply", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 99 80", "Ra8#", games.Outcome{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := mustFEN(t, tc.fen)
			if tc.move != "" {
				playAll(t, p, tc.move)
			}
			if got := p.Status(); got != tc.want {
				t.Fatalf("%s: status %v, want %v", p.FEN(), got, tc.want)
			}
		})
	}
	p := mustFEN(t, "6k1/5ppp/8/8/8/8/8/R5K1 w - - 99 80")
	playAll(t, p, "Ra8#")
	if got, want := games.OutcomeOf(p), (games.Outcome{Result: games.FirstWins, Reason: games.Checkmate}); got != want {
		t.Fatalf("mate on the 100th ply: outcome %v, want %v", got, want)
	}
}

// TestInsufficientMaterial checks the material combinations counted as dead draws.
func TestInsufficientMaterial(t *testing.T) {
	tests := []struct {
		fen  string
		want bool
	}{
		{"4k3/8/8/8/8/8/8/4K3 w - - 0 1", true},      // K v K
		{"4k3/8/8/8/8/8/8/2B1K3 w - - 0 1", true},    // K+B v K
		{"4k3/8/8/8/8/8/8/1N2K3 b - - 0 1", true},    // K+N v K
		{"4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1", true},   // K+B v K+B, both on dark squares (c1, f8)
		{"2b1k3/8/8/8/8/8/8/2B1K3 w - - 0 1", false}, // bishops on c1 (dark) and c8 (light)
		{"4k3/8/8/8/8/8/8/B1B1K3 w - - 0 1", true},   // two bishops on one colour
		{"4k3/8/8/8/8/8/8/1NN1K3 w - - 0 1", false},  // K+N+N v K: a mate exists with help
		{"4kn2/8/8/8/8/8/8/1N2K3 w - - 0 1", false},  // K+N v K+N
		{"4kn2/8/8/8/8/8/8/2B1K3 w - - 0 1", false},  // K+B v K+N
		{"4k3/8/8/8/8/8/P7/4K3 w - - 0 1", false},    // a pawn
		{"4k3/8/8/8/8/8/8/R3K3 w - - 0 1", false},    // a rook
	}
	for _, tc := range tests {
		t.Run(tc.fen, func(t *testing.T) {
			p := mustFEN(t, tc.fen)
			if got := p.InsufficientMaterial(); got != tc.want {
				t.Fatalf("InsufficientMaterial = %v, want %v", got, tc.want)
			}
			if got := p.Status().Reason == games.InsufficientMaterial; got != tc.want {
				t.Fatalf("Status = %v", p.Status())
			}
		})
	}
}

// TestNoMovesOutcome checks checkmate for either side and stalemate.
func TestNoMovesOutcome(t *testing.T) {
	tests := []struct {
		fen  string
		want games.Outcome
	}{
		{"R5k1/5ppp/8/8/8/8/8/6K1 b - - 1 1", games.Outcome{Result: games.FirstWins, Reason: games.Checkmate}},
		{"rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", games.Outcome{Result: games.SecondWins, Reason: games.Checkmate}},
		{"7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", games.Outcome{Result: games.Draw, Reason: games.Stalemate}},
	}
	for _, tc := range tests {
		p := mustFEN(t, tc.fen)
		if got := games.OutcomeOf(p); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.fen, got, tc.want)
		}
	}
}

// TestFENErrors checks that each kind of malformed FEN is rejected with an error naming the problem.
func TestFENErrors(t *testing.T) {
	tests := []struct{ fen, wantInError string }{
		{"", "at least 4 fields"},
		{"8/8/8/8/8/8/8/8 w - -", "kings"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "8 ranks"},
		{"rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "9"},
		{"rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "more than 8 files"},
		{"rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "7 files"},
		{"rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "'x' is not a piece letter"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQQBNR w KQkq - 0 1", "white has 0 kings"},
		{"4k3/8/8/8/8/8/8/K3K3 w - - 0 1", "white has 2 kings"},
		{"P3k3/8/8/8/8/8/8/4K3 w - - 0 1", "pawn on rank 8"},
		{"4k3/8/8/8/8/8/8/4K2p w - - 0 1", "pawn on rank 1"},
		{"4k3/8/8/8/8/8/8/4K2R x - - 0 1", `side to move "x"`},
		{"4k3/4R3/8/8/8/8/8/4K3 w - - 0 1", "side not to move (black) is in check"},
		{"4k3/8/8/8/8/8/8/4K2R w Q - 0 1", "right Q needs a white rook on rank 1 on the a-side of the king"},
		{"4k3/8/8/8/8/8/4K3/7R w K - 0 1", "right K needs the white king on rank 1"},
		{"4k3/8/8/8/8/8/8/4K2R w KK - 0 1", "right K given twice"},
		{"4k3/8/8/8/8/8/8/4K2R w KH - 0 1", "right H given twice"},
		{"4k3/8/8/8/8/8/8/4K2R w G - 0 1", "right G needs a white rook on g1"},
		{"r3k3/8/8/8/8/8/8/4K3 w e - 0 1", "right e needs a black rook on e8"},
		{"4k3/8/8/8/8/8/8/4K2R w X - 0 1", "'X' is not one of"},
		{"4k3/8/8/8/8/8/8/4K2R w - e4 0 1", "rank 6"},
		{"4k3/8/8/8/8/8/8/4K2R w - e6 0 1", "no black pawn on e5"},
		{"4k3/8/8/8/8/8/8/4K2R w - z9 0 1", "not a square"},
		{"4k3/4p3/8/4p3/8/8/8/4K2R w - e6 0 1", "e6 and e7 must be empty"},
		{"4k3/8/8/8/8/8/8/4K2R w - - x 1", "halfmove clock"},
		{"4k3/8/8/8/8/8/8/4K2R w - - -1 1", "not a decimal number"},
		{"4k3/8/8/8/8/8/8/4K2R w - - 0 0", "at least 1"},
		{"4k3/8/8/8/8/8/8/4K2R w - - 0 99999999999999999999", "out of range"},
		{"4k3/8/8/8/8/8/8/4K2R w - - 0 1 extra", "extra field"},
	}
	for _, tc := range tests {
		t.Run(tc.wantInError, func(t *testing.T) {
			_, err := ParseFEN(tc.fen)
			if err == nil {
				t.Fatalf("%q: no error", tc.fen)
			}
			if !strings.Contains(err.Error(), tc.wantInError) {
				t.Fatalf("%q: error %q does not mention %q", tc.fen, err, tc.wantInError)
			}
		})
	}
}

// TestFENDefaultsAndPly checks the EPD clock defaults, Ply, and dropping an impossible en-passant square.
func TestFENDefaultsAndPly(t *testing.T) {
	tests := []struct {
		fen     string
		wantFEN string
		ply     int
	}{
		{"4k3/8/8/8/8/8/8/4K2R w K -", "4k3/8/8/8/8/8/8/4K2R w K - 0 1", 0},
		{"4k3/8/8/8/8/8/8/4K2R b K - 3", "4k3/8/8/8/8/8/8/4K2R b K - 3 1", 1},
		{"4k3/8/8/8/8/8/8/4K2R b K - 3 40", "4k3/8/8/8/8/8/8/4K2R b K - 3 40", 79},
		// The en-passant square is dropped when no capture onto it is legal (no pawn can take).
		{"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", 1},
		{"rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 2", "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 2", 3},
	}
	for _, tc := range tests {
		p := mustFEN(t, tc.fen)
		if p.FEN() != tc.wantFEN || p.Ply() != tc.ply {
			t.Errorf("%q: FEN %q ply %d, want %q ply %d", tc.fen, p.FEN(), p.Ply(), tc.wantFEN, tc.ply)
		}
		if !gametest.CheckPosition(t, Game{}, p) {
			return
		}
	}
}

// TestParseMove checks UCI, GUI castling and SAN input, and that SAN output reads back.
func TestParseMove(t *testing.T) {
	const kiwi = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
	const promo = "r3k3/1P6/8/8/8/8/8/4K3 w q - 0 1"
	tests := []struct{ fen, move, want string }{
		{StartFEN, "e2e4", "e2e4"},
		{StartFEN, "e4", "e2e4"},
		{StartFEN, "Nf3", "g1f3"},
		{StartFEN, " g1f3 ", "g1f3"},
		{kiwi, "O-O", "e1g1"},
		{kiwi, "0-0-0", "e1c1"},
		{kiwi, "e1h1", "e1g1"},
		{kiwi, "e1a1", "e1c1"},
		{kiwi, "Bxa6", "e2a6"},
		{kiwi, "Nxf7", "e5f7"},
		{kiwi, "Qxf6", "f3f6"},
		{kiwi, "gxh3", "g2h3"},
		{kiwi, "dxe6", "d5e6"},
		{kiwi, "Nc3b5", "c3b5"},
		{promo, "b8=Q", "b7b8q"},
		{promo, "b8N", "b7b8n"},
		{promo, "bxa8=R+", "b7a8r"},
		{promo, "b7a8Q", "b7a8q"},
		{"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "exd6 e.p.", "e5d6"},
		{"4k3/8/8/8/8/8/8/R3K2R w - - 0 1", "Rb1", "a1b1"},
		{"4k3/8/8/8/8/8/8/R3K2R w - - 0 1", "Rhf1", "h1f1"},
		{"4k3/8/8/8/R7/8/8/R3K3 w - - 0 1", "R1a2", "a1a2"},
	}
	for _, tc := range tests {
		t.Run(tc.move, func(t *testing.T) {
			p := mustFEN(t, tc.fen)
			m, err := p.ParseMove(tc.move)
			if err != nil {
				t.Fatal(err)
			}
			if got := p.FormatMove(m); got != tc.want {
				t.Fatalf("parsed as %s, want %s", got, tc.want)
			}
			if back, err := p.ParseSAN(p.SAN(m)); err != nil || back != m {
				t.Fatalf("SAN %q does not read back: %v", p.SAN(m), err)
			}
		})
	}
}

// TestParseMoveErrors checks that bad move strings fail with errors naming the token and the reason.
func TestParseMoveErrors(t *testing.T) {
	const promo = "r3k3/1P6/8/8/8/8/8/4K3 w q - 0 1"
	tests := []struct{ fen, move, wantInError string }{
		{StartFEN, "", "empty"},
		{StartFEN, "e3e4", "no piece on e3"},
		{StartFEN, "e7e5", "the piece on e7 is black's, and white is to move"},
		{StartFEN, "e2e5", "illegal in this position"},
		{StartFEN, "g1g3q", "only a pawn can promote"},
		{StartFEN, "Nf4", "no knight can move to f4"},
		{StartFEN, "O-O", "castling is not legal"},
		{StartFEN, "hello", "unparsable"},
		{StartFEN, "Zf3", "unparsable"},
		{StartFEN, "e9", "unparsable"},
		{StartFEN, "Ng1f3x", "unparsable"},
		{"4k3/8/8/8/8/8/4K3/R6R w - - 0 1", "Rd1", "ambiguous: matches a1d1 and h1d1"},
		{promo, "b7b8", "needs a promotion piece"},
		{promo, "b8", "needs a promotion piece"},
		{promo, "b8=K", "not a promotion piece"},
		{promo, "Nb8=Q", "only a pawn can promote"},
	}
	for _, tc := range tests {
		t.Run(tc.move, func(t *testing.T) {
			p := mustFEN(t, tc.fen)
			m, err := p.ParseMove(tc.move)
			if err == nil {
				t.Fatalf("%q parsed as %s", tc.move, p.FormatMove(m))
			}
			if !strings.Contains(err.Error(), tc.wantInError) || !strings.Contains(err.Error(), `"`+tc.move+`"`) {
				t.Fatalf("error %q does not name the token or mention %q", err, tc.wantInError)
			}
		})
	}
}
