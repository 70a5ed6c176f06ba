// Legal move generation by check and pin masks, and legal move counting for perft's last ply.

package chess

import "dossier/games"

// checkersAndPinned returns the enemy pieces giving check and the side to move's pieces pinned to its king.
func (s *state) checkersAndPinned() (checkers, pinned uint64) {
	us := int(s.side)
	ksq := int(s.king[us])
	theirs := s.colors[us^1]
	occ := theirs | s.colors[us]
	checkers = theirs & ((knightAttacks[ksq] & s.pieces[Knight]) | (pawnAttacks[us][ksq] & s.pieces[Pawn]))
	// Enemy sliders that would attack the king if only enemy pieces blocked: checkers if nothing is between,
	// pinners if exactly one of our pieces is.
	snipers := theirs & ((rookAttacks(ksq, theirs) & (s.pieces[Rook] | s.pieces[Queen])) |
		(bishopAttacks(ksq, theirs) & (s.pieces[Bishop] | s.pieces[Queen])))
	for ; snipers != 0; snipers &= snipers - 1 {
		sq := lsb(snipers)
		blockers := between[ksq][sq] & occ
		if blockers == 0 {
			checkers |= bit(sq)
		} else if blockers&(blockers-1) == 0 {
			pinned |= blockers
		}
	}
	return checkers, pinned
}

// attackedBy returns every square that colour by attacks, with occ as the blockers.
func (s *state) attackedBy(by int, occ uint64) uint64 {
	theirs := s.colors[by]
	pawns := s.pieces[Pawn] & theirs
	var a uint64
	if by == White {
		a = (pawns&^fileA)<<7 | (pawns&^fileH)<<9
	} else {
		a = (pawns&^fileA)>>9 | (pawns&^fileH)>>7
	}
	a |= kingAttacks[s.king[by]&63]
	for b := s.pieces[Knight] & theirs; b != 0; b &= b - 1 {
		a |= knightAttacks[lsb(b)]
	}
	for b := (s.pieces[Bishop] | s.pieces[Queen]) & theirs; b != 0; b &= b - 1 {
		a |= bishopAttacks(lsb(b), occ)
	}
	for b := (s.pieces[Rook] | s.pieces[Queen]) & theirs; b != 0; b &= b - 1 {
		a |= rookAttacks(lsb(b), occ)
	}
	return a
}

// safeSquares returns the squares among candidates that the side to move's king could stand on without
// being attacked (with the king itself removed as a blocker). With few candidates, testing each square is
// cheaper than building the whole enemy attack map.
func (s *state) safeSquares(candidates uint64) uint64 {
	us := int(s.side)
	occ := s.occupied() ^ bit(int(s.king[us]))
	if popcount(candidates) > 3 {
		return candidates &^ s.attackedBy(us^1, occ)
	}
	safe := candidates
	for b := candidates; b != 0; b &= b - 1 {
		if sq := lsb(b); s.attackersTo(sq, us^1, occ) != 0 {
			safe &^= bit(sq)
		}
	}
	return safe
}

// pawnGeometry holds a side's pawn directions: pushes and captures as shifts, and its special ranks.
type pawnGeometry struct {
	doubleRank uint64 // where a single push lands when a double push is still possible
	promoRank  uint64
	up         int // square offset of a push
}

var pawnGeo = [2]pawnGeometry{
	{doubleRank: rank3, promoRank: rank8, up: 8},
	{doubleRank: rank6, promoRank: rank1, up: -8},
}

func pushUp(b uint64, side int) uint64 {
	if side == White {
		return b << 8
	}
	return b >> 8
}

// captureWest and captureEast return the squares pawns attack towards file a and file h; the origin of a
// capture onto to is to-westDelta[side] or to-eastDelta[side].
func captureWest(b uint64, side int) uint64 {
	if side == White {
		return (b &^ fileA) << 7
	}
	return (b &^ fileA) >> 9
}

func captureEast(b uint64, side int) uint64 {
	if side == White {
		return (b &^ fileH) << 9
	}
	return (b &^ fileH) >> 7
}

var (
	westDelta = [2]int{7, -9}
	eastDelta = [2]int{9, -7}
)

func (s *state) appendTargets(dst []games.Move, from, pt int, targets uint64) []games.Move {
	base := encodeMove(from, 0, pt, 0)
	for ; targets != 0; targets &= targets - 1 {
		to := lsb(targets)
		dst = append(dst, base|games.Move(to<<6|int(s.board[to]&7)<<15))
	}
	return dst
}

func appendPromotions(dst []games.Move, from, to, captured int) []games.Move {
	m := encodeMove(from, to, Pawn, captured)
	return append(dst, m|Queen<<18, m|Knight<<18, m|Rook<<18, m|Bishop<<18)
}

// generate appends the legal moves to dst; tacticalOnly keeps captures and promotions.
func (s *state) generate(r *castlingRules, dst []games.Move, tacticalOnly bool) []games.Move {
	us := int(s.side)
	them := us ^ 1
	ours, theirs := s.colors[us], s.colors[them]
	occ := ours | theirs
	ksq := int(s.king[us])
	checkers, pinned := s.checkersAndPinned()
	allowed := ^ours
	if tacticalOnly {
		allowed = theirs
	}
	var kingside, queenside uint64
	if checkers == 0 && !tacticalOnly && s.castling != 0 {
		if r.standard {
			kingside, queenside = s.castlingPaths(occ)
		} else {
			kingside, queenside = s.chess960Paths(r, occ)
		}
	}
	kingTargets := kingAttacks[ksq] & allowed
	safe := s.safeSquares(kingTargets | kingside | queenside)
	dst = s.appendTargets(dst, ksq, King, kingTargets&safe)
	if checkers&(checkers-1) != 0 {
		return dst
	}
	checkMask := ^uint64(0)
	if checkers != 0 {
		checkMask = between[ksq][lsb(checkers)] | checkers
	}
	mask := allowed & checkMask
	for b := s.pieces[Knight] & ours &^ pinned; b != 0; b &= b - 1 {
		from := lsb(b)
		dst = s.appendTargets(dst, from, Knight, knightAttacks[from]&mask)
	}
	for b := (s.pieces[Bishop] | s.pieces[Queen]) & ours; b != 0; b &= b - 1 {
		from := lsb(b)
		targets := bishopAttacks(from, occ) & mask
		if pinned&bit(from) != 0 {
			targets &= lineThrough[ksq][from]
		}
		dst = s.appendTargets(dst, from, int(s.board[from]&7), targets)
	}
	for b := (s.pieces[Rook] | s.pieces[Queen]) & ours; b != 0; b &= b - 1 {
		from := lsb(b)
		targets := rookAttacks(from, occ) & mask
		if pinned&bit(from) != 0 {
			targets &= lineThrough[ksq][from]
		}
		dst = s.appendTargets(dst, from, int(s.board[from]&7), targets)
	}

	geo := &pawnGeo[us]
	pawns := s.pieces[Pawn] & ours
	free := pawns &^ pinned
	pushers := free | (pawns & pinned & fileOf[ksq])
	one := pushUp(pushers, us) &^ occ
	two := pushUp(one&geo.doubleRank, us) &^ occ & checkMask
	one &= checkMask
	if tacticalOnly {
		one &= geo.promoRank
		two = 0
	}
	for b := one &^ geo.promoRank; b != 0; b &= b - 1 {
		to := lsb(b)
		dst = append(dst, encodeMove(to-geo.up, to, Pawn, 0))
	}
	for b := one & geo.promoRank; b != 0; b &= b - 1 {
		to := lsb(b)
		dst = appendPromotions(dst, to-geo.up, to, 0)
	}
	for b := two; b != 0; b &= b - 1 {
		to := lsb(b)
		dst = append(dst, encodeMove(to-2*geo.up, to, Pawn, 0)|kindDoublePush<<21)
	}
	captureTargets := theirs & checkMask
	for dir := 0; dir < 2; dir++ {
		var targets uint64
		var delta int
		if dir == 0 {
			targets, delta = captureWest(free, us)&captureTargets, westDelta[us]
		} else {
			targets, delta = captureEast(free, us)&captureTargets, eastDelta[us]
		}
		for b := targets; b != 0; b &= b - 1 {
			to := lsb(b)
			if bit(to)&geo.promoRank != 0 {
				dst = appendPromotions(dst, to-delta, to, int(s.board[to]&7))
			} else {
				dst = append(dst, encodeMove(to-delta, to, Pawn, int(s.board[to]&7)))
			}
		}
	}
	for b := pawns & pinned &^ fileOf[ksq]; b != 0; b &= b - 1 {
		from := lsb(b)
		for t := pawnAttacks[us][from] & captureTargets & lineThrough[ksq][from]; t != 0; t &= t - 1 {
			to := lsb(t)
			if bit(to)&geo.promoRank != 0 {
				dst = appendPromotions(dst, from, to, int(s.board[to]&7))
			} else {
				dst = append(dst, encodeMove(from, to, Pawn, int(s.board[to]&7)))
			}
		}
	}
	if s.ep != 0 {
		ep := int(s.ep)
		for b := pawnAttacks[them][ep] & pawns; b != 0; b &= b - 1 {
			if from := lsb(b); s.enPassantLegal(from, ep) {
				dst = append(dst, encodeMove(from, ep, Pawn, Pawn)|kindEnPassant<<21)
			}
		}
	}

	if kingside != 0 && safe&kingside == kingside {
		dst = append(dst, r.castle[(2*us)&3].move)
	}
	if queenside != 0 && safe&queenside == queenside {
		dst = append(dst, r.castle[(2*us+1)&3].move)
	}
	return dst
}

// countMoves returns the number of legal moves without listing them (perft's bulk count at depth 1).
func (s *state) countMoves(r *castlingRules) int {
	us := int(s.side)
	them := us ^ 1
	ours, theirs := s.colors[us], s.colors[them]
	occ := ours | theirs
	ksq := int(s.king[us])
	checkers, pinned := s.checkersAndPinned()
	var kingside, queenside uint64
	if checkers == 0 && s.castling != 0 {
		if r.standard {
			kingside, queenside = s.castlingPaths(occ)
		} else {
			kingside, queenside = s.chess960Paths(r, occ)
		}
	}
	kingTargets := kingAttacks[ksq] &^ ours
	safe := s.safeSquares(kingTargets | kingside | queenside)
	n := popcount(kingTargets & safe)
	if checkers&(checkers-1) != 0 {
		return n
	}
	checkMask := ^uint64(0)
	if checkers != 0 {
		checkMask = between[ksq][lsb(checkers)] | checkers
	}
	mask := ^ours & checkMask
	for b := s.pieces[Knight] & ours &^ pinned; b != 0; b &= b - 1 {
		n += popcount(knightAttacks[lsb(b)] & mask)
	}
	for b := (s.pieces[Bishop] | s.pieces[Queen]) & ours; b != 0; b &= b - 1 {
		from := lsb(b)
		targets := bishopAttacks(from, occ) & mask
		if pinned&bit(from) != 0 {
			targets &= lineThrough[ksq][from]
		}
		n += popcount(targets)
	}
	for b := (s.pieces[Rook] | s.pieces[Queen]) & ours; b != 0; b &= b - 1 {
		from := lsb(b)
		targets := rookAttacks(from, occ) & mask
		if pinned&bit(from) != 0 {
			targets &= lineThrough[ksq][from]
		}
		n += popcount(targets)
	}

	geo := &pawnGeo[us]
	pawns := s.pieces[Pawn] & ours
	free := pawns &^ pinned
	pushers := free | (pawns & pinned & fileOf[ksq])
	one := pushUp(pushers, us) &^ occ
	two := pushUp(one&geo.doubleRank, us) &^ occ & checkMask
	one &= checkMask
	captureTargets := theirs & checkMask
	captures := captureWest(free, us) & captureTargets
	captures2 := captureEast(free, us) & captureTargets
	n += popcount(one&^geo.promoRank) + popcount(two) + popcount(captures&^geo.promoRank) + popcount(captures2&^geo.promoRank) +
		4*(popcount(one&geo.promoRank)+popcount(captures&geo.promoRank)+popcount(captures2&geo.promoRank))
	for b := pawns & pinned &^ fileOf[ksq]; b != 0; b &= b - 1 {
		from := lsb(b)
		t := pawnAttacks[us][from] & captureTargets & lineThrough[ksq][from]
		n += popcount(t&^geo.promoRank) + 4*popcount(t&geo.promoRank)
	}
	if s.ep != 0 {
		ep := int(s.ep)
		for b := pawnAttacks[them][ep] & pawns; b != 0; b &= b - 1 {
			if s.enPassantLegal(lsb(b), ep) {
				n++
			}
		}
	}
	if kingside != 0 && safe&kingside == kingside {
		n++
	}
	if queenside != 0 && safe&queenside == queenside {
		n++
	}
	return n
}

// perft counts leaves to depth by copy-make, bulk counting the last ply. The state travels by value: Go's
// escape analysis moves anything whose address is passed to a recursive call to the heap.
func perft(s state, r *castlingRules, depth int) uint64 {
	if depth <= 1 {
		if depth <= 0 {
			return 1
		}
		return uint64(s.countMoves(r))
	}
	var buf [games.MaxMoves]games.Move
	moves := s.generate(r, buf[:0], false)
	var n uint64
	if depth == 2 {
		for _, m := range moves {
			child := s
			child.make(r, m)
			n += uint64(child.countMoves(r))
		}
		return n
	}
	for _, m := range moves {
		child := s
		child.make(r, m)
		n += perft(child, r, depth-1)
	}
	return n
}

// AppendMoves appends the legal moves to dst. It ignores the draw rules (repetition, fifty moves, insufficient
// material), which Status reports, so that perft counts are the standard ones.
func (p *Position) AppendMoves(dst []games.Move) []games.Move {
	return p.st.generate(p.rules, dst, false)
}

// AppendTactical appends the legal captures (en passant included) and promotions (all four pieces) to dst.
func (p *Position) AppendTactical(dst []games.Move) []games.Move {
	return p.st.generate(p.rules, dst, true)
}

// IsTactical reports whether a move captures or promotes.
func (p *Position) IsTactical(m games.Move) bool {
	return moveCaptured(m) != NoPiece || movePromotion(m) != NoPiece
}

// tacticalValue is a piece's value for most-valuable-victim ordering.
var tacticalValue = [8]int{0, 100, 320, 330, 500, 900, 0, 0}

// TacticalGain orders tactical moves: the victim's value times 8 minus the attacker's rank, plus the value a
// promotion adds; 0 for a quiet move.
func (p *Position) TacticalGain(m games.Move) int {
	gain := 0
	if c := moveCaptured(m); c != NoPiece {
		gain = tacticalValue[c]*8 - movePiece(m)
	}
	if promo := movePromotion(m); promo != NoPiece {
		gain += (tacticalValue[promo] - tacticalValue[Pawn]) * 8
	}
	return gain
}

// Perft counts the leaves of the legal move tree to depth (bulk counting the last ply), without allocating.
func (p *Position) Perft(depth int) uint64 { return perft(p.st, p.rules, depth) }

// CountMoves returns the number of legal moves (0 means checkmate or stalemate) without listing them.
func (p *Position) CountMoves() int { return p.st.countMoves(p.rules) }
