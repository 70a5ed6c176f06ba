// Tests of the static exchange evaluation: hand-derived exchanges, and agreement with a slow reference
// on the moves of random positions, with its bounds.

package chess

import (
	"math/rand/v2"
	"testing"

	"dossier/games"
)

func TestSEEKnownExchanges(t *testing.T) {
	// Values: pawn 100, knight and bishop 300, rook 500, queen 900. Each comment derives the value: the
	// sequence of captures on the square, and where a side does better to stop.
	cases := []struct {
		name string
		fen  string
		move string
		want int
	}{
		// exd5 takes a pawn nobody defends: +100.
		{"undefended pawn", "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "e4d5", 100},
		// exd5 (+100), cxd5 (-100), white has nothing more: 0.
		{"pawn trade", "4k3/8/2p5/3p4/4P3/8/8/4K3 w - - 0 1", "e4d5", 0},
		// Qxd5 (+100), cxd5 takes the queen (-900): -800.
		{"queen takes a defended pawn", "4k3/8/2p5/3p4/8/8/8/3QK3 w - - 0 1", "d1d5", -800},
		// Black to move, the same idea: exd4 takes an undefended pawn, +100.
		{"black takes", "4k3/8/8/4p3/3P4/8/8/4K3 b - - 0 1", "e5d4", 100},
		// exd4 (+100), cxd4 (-100): 0.
		{"black trades", "4k3/8/8/4p3/3P4/2P5/8/4K3 b - - 0 1", "e5d4", 0},
		// Rxe5 (+100), Rxe5 (-500), and the rook behind on e1 x-rays through e2: Rxe5 (+500). Black
		// recapturing loses a rook for a rook, so black stops and white keeps the pawn: +100 (without
		// the x-ray it would be 100 - 500 = -400).
		{"x-ray rook behind rook", "4k3/4r3/8/4p3/8/8/4R3/4R1K1 w - - 0 1", "e2e5", 100},
		// dxe5 (+100), fxe5 (-100), and the bishop behind the pawn on c3 recaptures: Bxe5 (+100). Black
		// stops after dxe5 rather than lose a second pawn: +100.
		{"x-ray bishop behind pawn", "4k3/8/5p2/4p3/3P4/2B5/8/4K3 w - - 0 1", "d4e5", 100},
		// The chessprogramming wiki's SEE example (Nxe5 in 1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3):
		// on e5 white has N, R and the queen behind the rook; black N, B and the queen behind the bishop.
		// Nxe5 +100, Nxe5 -300, Rxe5 +300, Bxe5 -500, Qxe5 +300, Qxe5 -900. Backwards: white's Qxe5
		// loses the queen (stop), so black's Bxe5 wins the rook: white stops after losing the knight.
		// Net: 100 - 300 = -200.
		{"wiki example", "1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1", "d3e5", -200},
		// The wiki's first example: Rxe5 takes an undefended pawn: +100.
		{"wiki first example", "1k1r4/1pp4p/p7/4p3/8/P5P1/PP4P1/K3R3 w - - 0 1", "e1e5", 100},
		// exd8=Q takes a rook and promotes (+500 +800), Kxd8 takes the new queen (-900): +400, a rook for a pawn.
		{"capture promotion, recaptured", "3rk3/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7d8q", 400},
		// The same as a knight: +500 +200, then Kxd8 -300: +400 again.
		{"underpromotion, recaptured", "3rk3/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7d8n", 400},
		// e8=Q with nothing attacking e8: the promotion gains 900 - 100.
		{"quiet promotion", "8/4P3/8/8/8/8/k7/4K3 w - - 0 1", "e7e8q", 800},
		// exd6 en passant takes a pawn nobody else can take back: +100.
		{"en passant", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6", 100},
		// exd6 e.p. (+100), cxd6 (-100): 0.
		{"en passant recaptured", "4k3/2p5/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6", 0},
		// exd6 e.p. removes the pawn on d5, which opens the d-file: after Rxd6 (-100) white's Rd1 takes
		// back (+500). So black does not recapture: +100 (with d5 still blocking it would be 0).
		{"en passant opens a file", "3rk3/8/8/3pP3/8/8/8/3RK3 w - d6 0 1", "e5d6", 100},
		// Rxd2 (+100), Nxd2 (-500), Kxd2 (+300), the king's capture being safe: -100 (rook for knight
		// and pawn).
		{"king recaptures", "k7/3R4/8/8/8/1n2K3/3p4/8 w - - 0 1", "d7d2", -100},
		// Same, but the bishop on a5 also guards d2, so the king may not take back: Rxd2 +100, Nxd2 -500:
		// -400.
		{"king may not recapture", "k7/3R4/8/b7/8/1n2K3/3p4/8 w - - 0 1", "d7d2", -400},
		// Qd3 is a quiet move onto a square the c4 pawn attacks: cxd3 wins the queen, -900.
		{"quiet move en prise", "4k3/8/8/8/2p5/8/8/3QK3 w - - 0 1", "d1d3", -900},
		// With e2 guarding d3: cxd3 (-900), exd3 (+100): -800.
		{"quiet move en prise, guarded", "4k3/8/8/8/2p5/8/4P3/3QK3 w - - 0 1", "d1d3", -800},
		// Qd2 is safe: 0.
		{"safe quiet move", "4k3/8/8/8/2p5/8/8/3QK3 w - - 0 1", "d1d2", 0},
		// Castling exchanges nothing.
		{"castling", "4k3/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1", 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := ParseFEN(c.fen)
			if err != nil {
				t.Fatal(err)
			}
			m, err := p.ParseMove(c.move)
			if err != nil {
				t.Fatal(err)
			}
			if got := p.SEE(m); got != c.want {
				t.Errorf("SEE(%s) = %d, want %d", c.move, got, c.want)
			}
			if got := refSEE(p, m); got != c.want {
				t.Errorf("the reference gives %d, want %d", got, c.want)
			}
			if !p.SEEGE(m, c.want) || p.SEEGE(m, c.want+1) {
				t.Errorf("SEEGE disagrees with SEE = %d", c.want)
			}
		})
	}
}

func TestSEEAgreesWithTheReference(t *testing.T) {
	// Random games from the start, every move of every position: SEE against the slow reference, and the
	// bounds of a capture (without promotion): at most the captured piece, at least that less the capturer
	// (a side can always stop after one capture; off the last rank, where a pawn taking back promotes), exactly the captured piece when the opponent has no
	// attacker on the square after the capture.
	checked, captures, undefended := 0, 0, 0
	randomGames(19, 60, func(game int, p *Position, moves []games.Move) {
		for _, m := range moves {
			got, want := p.SEE(m), refSEE(p, m)
			checked++
			if got != want {
				t.Fatalf("game %d, %s: SEE(%s) = %d, the reference %d", game, p.FEN(), p.FormatMove(m), got, want)
			}
			if moveCaptured(m) == NoPiece || movePromotion(m) != NoPiece {
				continue
			}
			captures++
			value := SEEValues[moveCaptured(m)]
			// A pawn taking back on the last rank promotes, which may cost more than the capturer.
			lastRank := moveTo(m) < 8 || moveTo(m) >= 56
			if got > value || movePiece(m) != King && !lastRank && got < value-SEEValues[movePiece(m)] {
				t.Fatalf("%s: SEE(%s) = %d, outside [%d, %d]", p.FEN(), p.FormatMove(m), got,
					value-SEEValues[movePiece(m)], value)
			}
			q := p.Copy()
			q.Play(m)
			if q.st.attackersTo(moveTo(m), int(q.st.side), q.st.occupied()) == 0 {
				undefended++
				if got != value {
					t.Fatalf("%s: SEE(%s) = %d, but nothing can take back: want %d", p.FEN(), p.FormatMove(m), got, value)
				}
			}
		}
	})
	t.Logf("%d moves agree with the reference; %d captures within their bounds, %d of them undefended", checked, captures, undefended)
	if captures < 500 || undefended < 100 {
		t.Errorf("only %d captures (%d undefended) among %d moves: the property was hardly tested", captures, undefended, checked)
	}
}

// refSEE is a slow, independent static exchange evaluation on the mailbox: it plays m on a copy of the
// board, then lets the two sides capture on the square in turn by recursion, each with its least valuable
// attacker (lowest type, then lowest square) found by scanning the board, and each free to stop.
func refSEE(p *Position, m games.Move) int {
	if IsCastling(m) {
		return 0
	}
	var board [64]int // colour<<3 | type, 0 empty
	for sq := range board {
		if c, pt, ok := p.PieceAt(sq); ok {
			board[sq] = c<<3 | pt
		}
	}
	from, to := MoveFrom(m), MoveTo(m)
	us := int(p.ToMove())
	gain := SEEValues[MoveCaptured(m)]
	placed := board[from]
	if promo := MovePromotion(m); promo != NoPiece {
		gain += SEEValues[promo] - SEEValues[Pawn]
		placed = us<<3 | promo
	}
	if MovePiece(m) == Pawn && MoveCaptured(m) != NoPiece && board[to] == 0 { // en passant
		board[to^8] = 0
	}
	board[from], board[to] = 0, placed
	return gain - refExchange(&board, to, us^1)
}

// refExchange returns what side wins by capturing on sq from here, 0 when it had better not.
func refExchange(board *[64]int, sq, side int) int {
	best := -1
	for s := range board {
		if board[s] != 0 && board[s]>>3 == side && refAttacks(board, s, sq) &&
			(best < 0 || board[s]&7 < board[best]&7) {
			best = s
		}
	}
	if best < 0 {
		return 0
	}
	saved := *board
	defer func() { *board = saved }()
	captured := SEEValues[board[sq]&7]
	piece := board[best]
	gain := captured
	if piece&7 == Pawn && (sq < 8 || sq >= 56) {
		gain += SEEValues[Queen] - SEEValues[Pawn]
		piece = side<<3 | Queen
	}
	board[best], board[sq] = 0, piece
	if piece&7 == King {
		for s := range board {
			if board[s] != 0 && board[s]>>3 != side && refAttacks(board, s, sq) {
				return 0 // the king may not capture into a defended square
			}
		}
	}
	return max(0, gain-refExchange(board, sq, side^1))
}

// refAttacks reports whether the piece on from attacks sq on the board, by stepping along its moves.
func refAttacks(board *[64]int, from, sq int) bool {
	color, pt := board[from]>>3, board[from]&7
	ff, fr, tf, tr := from&7, from>>3, sq&7, sq>>3
	df, dr := tf-ff, tr-fr
	abs := func(x int) int { return max(x, -x) }
	switch pt {
	case Pawn:
		forward := 1
		if color == Black {
			forward = -1
		}
		return dr == forward && abs(df) == 1
	case Knight:
		return abs(df)*abs(dr) == 2
	case King:
		return max(abs(df), abs(dr)) == 1
	}
	straight, diagonal := df == 0 || dr == 0, abs(df) == abs(dr)
	if from == sq || pt == Rook && !straight || pt == Bishop && !diagonal || pt == Queen && !straight && !diagonal {
		return false
	}
	stepF, stepR := sign(df), sign(dr)
	for f, r := ff+stepF, fr+stepR; f != tf || r != tr; f, r = f+stepF, r+stepR {
		if board[r*8+f] != 0 {
			return false
		}
	}
	return true
}

// sign returns -1, 0 or 1.
func sign(x int) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

// TestSEEGEAgreesWithSEE: the threshold test answers as the full exchange does, at thresholds around every
// piece's value, for every move of positions from random games (its shortcuts must never change an answer).
func TestSEEGEAgreesWithSEE(t *testing.T) {
	checked, shortcut := 0, 0
	randomGames(23, 40, func(game int, p *Position, moves []games.Move) {
		for _, m := range moves {
			see := p.SEE(m)
			for threshold := -1800; threshold <= 1800; threshold += 50 {
				checked++
				if got := p.SEEGE(m, threshold); got != (see >= threshold) {
					t.Fatalf("game %d, %s: SEEGE(%s, %d) = %v, SEE %d", game, p.FEN(), p.FormatMove(m), threshold, got, see)
				}
				if gain := SEEValues[moveCaptured(m)]; gain < threshold || gain-SEEValues[movePiece(m)] >= threshold {
					shortcut++
				}
			}
		}
	})
	t.Logf("%d answers agree, about %d of them by a shortcut", checked, shortcut)
	if checked < 100000 || shortcut < checked/4 {
		t.Errorf("%d answers, %d by a shortcut: the shortcuts were hardly tested", checked, shortcut)
	}
}

// randomGames plays n random games from the start (at most 160 plies each, the random moves drawn from seed) and
// shows visit every position before its move is played, with its legal moves.
func randomGames(seed uint64, n int, visit func(game int, p *Position, moves []games.Move)) {
	rng := rand.New(rand.NewPCG(seed, 2026))
	var buf [games.MaxMoves]games.Move
	for game := range n {
		p := StartPosition()
		for ply := 0; ply < 160; ply++ {
			moves := p.AppendMoves(buf[:0])
			if len(moves) == 0 || p.Status().Result.Over() {
				break
			}
			visit(game, p, moves)
			p.Play(moves[rng.IntN(len(moves))])
		}
	}
}
