// Static exchange evaluation: the material a move wins or loses once both sides have captured on its
// destination square in turn, least valuable piece first, x-rays included.

package chess

import "dossier/games"

// SEEValues are the piece values of the static exchange evaluation in centipawns, by piece type (the king's
// is never gained: a king only captures last, when no enemy piece attacks the square any more).
var SEEValues = [7]int{NoPiece: 0, Pawn: 100, Knight: 300, Bishop: 300, Rook: 500, Queen: 900, King: 0}

var _ games.Exchanger = (*Position)(nil)

// SEE returns the static exchange evaluation of the legal move m in centipawns (SEEValues), from the
// side to move's view: m is played, then the two sides capture on m's destination in turn, each with its
// least valuable attacker, and each side may stop instead of capturing when that is better for it. So a
// capture of an undefended piece is worth that piece, a capture of a defended pawn by a queen -800, and a
// quiet move to a square the opponent wins the piece on a negative value (a safe quiet move is 0).
//
// The details:
//   - x-rays: a slider behind another attacker on the same line (a rook behind a rook or queen, a bishop
//     or queen behind a bishop, queen or pawn) joins the exchange once the piece in front has captured;
//   - promotions: a pawn that promotes (m itself, or a pawn recapturing on the last rank) gains the new
//     piece's value less the pawn's (recaptures promote to a queen) and is then worth the new piece;
//   - en passant captures the pawn beside the destination, which leaves the board at once (opening its
//     lines);
//   - castling exchanges nothing: 0;
//   - a king captures only when no enemy piece attacks the square any more;
//   - pins are not considered (a pinned piece captures as if free), as usual for SEE.
func (p *Position) SEE(m games.Move) int {
	if moveKind(m) == kindCastle {
		return 0
	}
	s := &p.st
	from, to := moveFrom(m), moveTo(m)
	us := int(s.side)
	occ := s.occupied() &^ bit(from)
	var gain [40]int
	var onSquare int // the value of the piece that stands on `to` after each capture
	gain[0], onSquare = firstGain(m)
	if moveKind(m) == kindEnPassant {
		occ &^= bit(to ^ 8)
	}
	occ |= bit(to)
	side := us ^ 1
	d := 0
	for {
		attackers := s.attackersTo(to, side, occ) & occ &^ bit(to)
		if attackers == 0 {
			break
		}
		sq, pt := s.leastValuable(attackers)
		if pt == King && s.attackersTo(to, side^1, occ&^bit(sq))&occ&^bit(to) != 0 {
			break // the king may not capture into a defended square
		}
		d++
		// Capture d takes the piece on the square; the side to capture next may then answer.
		gain[d] = onSquare - gain[d-1]
		onSquare = SEEValues[pt]
		if pt == Pawn && (to < 8 || to >= 56) {
			gain[d] += SEEValues[Queen] - SEEValues[Pawn]
			onSquare = SEEValues[Queen]
		}
		occ &^= bit(sq)
		side ^= 1
		if d == len(gain)-1 {
			break // 32 pieces cannot make a longer exchange; this only guards the array
		}
	}
	// Back from the last capture: each side captures only when that is better than stopping.
	for ; d > 0; d-- {
		gain[d-1] = min(gain[d-1], -gain[d])
	}
	return gain[0]
}

// firstGain returns what m itself wins (the captured piece, and a promotion's gain over the pawn) and the value
// of the piece it leaves on its destination.
func firstGain(m games.Move) (gain, onSquare int) {
	gain, onSquare = SEEValues[moveCaptured(m)], SEEValues[movePiece(m)]
	if promo := movePromotion(m); promo != NoPiece {
		gain += SEEValues[promo] - SEEValues[Pawn]
		onSquare = SEEValues[promo]
	}
	return gain, onSquare
}

// SEEGE reports whether the static exchange evaluation of m is at least threshold.
//
// It answers without the exchange where the move's first gain settles it: the exchange never ends above that
// gain (the opponent may decline to take back), nor below it less the moved piece (the mover may stop after the
// first recapture), unless a pawn takes back on the last rank and promotes. The search asks mostly such
// questions (a pawn takes a piece, a pawn steps to a square it cannot lose more than itself on).
func (p *Position) SEEGE(m games.Move, threshold int) bool {
	if moveKind(m) == kindCastle {
		return 0 >= threshold
	}
	gain, onSquare := firstGain(m)
	if gain < threshold {
		return false
	}
	if to := moveTo(m); to >= 8 && to < 56 && gain-onSquare >= threshold {
		return true
	}
	return p.SEE(m) >= threshold
}

// leastValuable returns the square and type of the least valuable piece among attackers (not empty).
func (s *state) leastValuable(attackers uint64) (sq, pieceType int) {
	for pt := Pawn; pt <= King; pt++ {
		if b := attackers & s.pieces[pt]; b != 0 {
			return lsb(b), pt
		}
	}
	panic("chess: leastValuable of no attackers")
}
