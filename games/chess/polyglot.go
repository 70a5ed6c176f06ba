// Polyglot's opening-book coding: the key of a position and the code of a move, as the format defines them,
// so that books made by polyglot (make-book), cutechess and GUIs index our positions.

package chess

import "dossier/games"

var _ games.BookCoder = (*Position)(nil)

// The offsets of polyglotRandom's groups.
const (
	polyglotCastlingKeys   = 768
	polyglotEnPassantKeys  = 772
	polyglotWhiteToMoveKey = 780
)

// BookKey returns the position's polyglot key: the keys of its pieces, castling rights, en-passant file and
// side to move. The en-passant file counts, as the format says, whenever the last move was a double pawn push
// beside a pawn of the side to move, even one that may not capture (pinned): the key of a position reached by
// moves is polyglot's in every case; a position read from a FEN knows only the captures that are legal.
func (p *Position) BookKey() uint64 {
	s := &p.st
	var key uint64
	for occ := s.occupied(); occ != 0; occ &= occ - 1 {
		sq := lsb(occ)
		code := s.board[sq]
		color, pieceType := int(code>>3), int(code&7)
		kind := 2*(pieceType-1) + 1 - color // a black pawn 0, a white pawn 1, ..., a white king 11
		key ^= polyglotRandom[64*kind+sq]
	}
	for right := 0; right < 4; right++ { // white king side, white queen side, black king side, black queen side
		if s.castling&(1<<uint(right)) != 0 {
			key ^= polyglotRandom[polyglotCastlingKeys+right]
		}
	}
	if file, ok := p.polyglotEnPassantFile(); ok {
		key ^= polyglotRandom[polyglotEnPassantKeys+file]
	}
	if s.side == White {
		key ^= polyglotRandom[polyglotWhiteToMoveKey]
	}
	return key
}

// polyglotEnPassantFile returns the file of a pawn that has just moved two squares beside a pawn of the side
// to move: our en-passant square when a capture is legal, else the last move read from the undo stack.
func (p *Position) polyglotEnPassantFile() (int, bool) {
	s := &p.st
	if s.ep != 0 {
		return int(s.ep) & 7, true
	}
	if len(p.stack) == 0 {
		return 0, false
	}
	prev := &p.stack[len(p.stack)-1]
	them := int(prev.side)
	pawn := uint8(them<<3 | Pawn)
	ours := uint8((them^1)<<3 | Pawn)
	for file := 0; file < 8; file++ {
		from, to := sqA1+8+file, sqA1+24+file
		if them == Black {
			from, to = sqA1+48+file, sqA1+32+file
		}
		if prev.board[from] != pawn || s.board[from] != 0 || prev.board[to] != 0 || s.board[to] != pawn {
			continue
		}
		if (file > 0 && s.board[to-1] == ours) || (file < 7 && s.board[to+1] == ours) {
			return file, true
		}
		return 0, false
	}
	return 0, false
}

// BookMove returns a legal move's polyglot code: the destination in bits 0-5 and the origin in bits 6-11
// (each 8*rank + file), the promotion piece in bits 12-14 (1 a knight ... 4 a queen), castling written as
// the king taking its own rook (e1h1, e1a1).
func (p *Position) BookMove(m games.Move) uint16 {
	from, to := moveFrom(m), moveTo(m)
	if moveKind(m) == kindCastle {
		to = moveRook(m)
	}
	code := uint16(to) | uint16(from)<<6
	if promotion := movePromotion(m); promotion != NoPiece {
		code |= uint16(promotion-Pawn) << 12
	}
	return code
}
