// The position: bitboards plus a mailbox, Zobrist hashing, move encoding, and copy-make Play/Undo.

package chess

import (
	"math/bits"

	"dossier/games"
)

// The colours, as indices: White is games.First.
const (
	White = 0
	Black = 1
)

// Piece types. A piece code on the mailbox is colour<<3 | type, and 0 is an empty square.
const (
	NoPiece = 0
	Pawn    = 1
	Knight  = 2
	Bishop  = 3
	Rook    = 4
	Queen   = 5
	King    = 6
)

// Castling rights bits. Right i (bit 1<<i) belongs to colour i/2, on the king side when i is even; which
// rook it castles with is the game's castlingRules.
const (
	castleWhiteKing  = 1
	castleWhiteQueen = 2
	castleBlackKing  = 4
	castleBlackQueen = 8
)

// Move encoding (a games.Move):
//
//	bits  0-5  origin square        bits 15-17 captured piece type (0 none; a pawn for en passant)
//	bits  6-11 destination square   bits 18-20 promotion piece type (0 none)
//	bits 12-14 moving piece type    bits 21-22 kind: normal, double pawn push, en passant, castling
//	bits 23-28 castling: the rook's origin square
//
// The moving piece type is never 0, so no move is games.NoMove. Castling is encoded as the king's move to
// the g- or c-file (e1g1; in Chess960 the king may not move at all, g1g1) with the rook's origin beside it,
// so that Chess960 notation can name the rook (e1h1) and a king move to g1 differs from castling to g1.
const (
	kindNormal     = 0
	kindDoublePush = 1
	kindEnPassant  = 2
	kindCastle     = 3
)

func moveFrom(m games.Move) int      { return int(m & 63) }
func moveTo(m games.Move) int        { return int(m>>6) & 63 }
func movePiece(m games.Move) int     { return int(m>>12) & 7 }
func moveCaptured(m games.Move) int  { return int(m>>15) & 7 }
func movePromotion(m games.Move) int { return int(m>>18) & 7 }
func moveKind(m games.Move) int      { return int(m>>21) & 3 }
func moveRook(m games.Move) int      { return int(m>>23) & 63 }
func encodeMove(from, to, piece, captured int) games.Move {
	return games.Move(from | to<<6 | piece<<12 | captured<<15)
}

// MoveFrom returns the origin square of a chess move (a1 = 0, h8 = 63).
func MoveFrom(m games.Move) int { return moveFrom(m) }

// MoveTo returns the destination square of a chess move (the king's destination for castling).
func MoveTo(m games.Move) int { return moveTo(m) }

// MovePiece returns the type of the moving piece (Pawn ... King).
func MovePiece(m games.Move) int { return movePiece(m) }

// MoveCaptured returns the type of the captured piece, or NoPiece.
func MoveCaptured(m games.Move) int { return moveCaptured(m) }

// MovePromotion returns the type a pawn promotes to, or NoPiece.
func MovePromotion(m games.Move) int { return movePromotion(m) }

// IsCastling reports whether a chess move is castling.
func IsCastling(m games.Move) bool { return moveKind(m) == kindCastle }

// CastlingRook returns the origin square of the rook a castling move moves (meaningless for other moves).
func CastlingRook(m games.Move) int { return moveRook(m) }

// state is everything Play changes; Play pushes a copy on the undo stack and Undo pops it (copy-make). The
// game's castlingRules, which never change, travel beside it as an argument: a pointer in the state would
// make every copy of it dearer.
type state struct {
	colors   [2]uint64
	pieces   [7]uint64 // by type; index 0 unused
	hash     uint64
	board    [64]uint8
	king     [2]uint8
	side     uint8
	castling uint8
	ep       uint8 // en-passant target square, or 0 when no legal en-passant capture exists
	halfmove uint16
	// sinceNull counts plies since the last null move (or the start), bounding the repetition scan.
	sinceNull uint16
	ply       int32
}

// Zobrist keys, from a fixed-seed generator so that hashes are stable across runs.
var (
	zobristPiece    [16][64]uint64
	zobristSide     uint64
	zobristCastling [16]uint64
	zobristEP       [8]uint64
	// zobristCastlingRook[i][file] marks right i held with its rook on a file other than the standard one
	// (Chess960), so that positions differing only in which rook may castle hash apart.
	zobristCastlingRook [4][8]uint64
)

// castleRookTo[kingTo] is where the rook of a castling ends, by the king's destination (f1 for g1, d1 for c1).
var castleRookTo [64]uint8

func init() {
	seed := uint64(0x9E3779B97F4A7C15)
	next := func() uint64 { // splitmix64
		seed += 0x9E3779B97F4A7C15
		z := seed
		z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
		z = (z ^ (z >> 27)) * 0x94D049BB133111EB
		return z ^ (z >> 31)
	}
	for code := range zobristPiece {
		for sq := range zobristPiece[code] {
			zobristPiece[code][sq] = next()
		}
	}
	zobristSide = next()
	var rightKeys [4]uint64
	for i := range rightKeys {
		rightKeys[i] = next()
	}
	for rights := range zobristCastling {
		for i := range rightKeys {
			if rights&(1<<uint(i)) != 0 {
				zobristCastling[rights] ^= rightKeys[i]
			}
		}
	}
	for f := range zobristEP {
		zobristEP[f] = next()
	}
	for i := range zobristCastlingRook {
		for f := range zobristCastlingRook[i] {
			zobristCastlingRook[i][f] = next()
		}
	}
	castleRookTo[sqG1], castleRookTo[sqC1] = sqF1, sqD1
	castleRookTo[sqG8], castleRookTo[sqC8] = sqF8, sqD8
	standardCastling = newCastlingRules([4]int{sqE1, sqE1, sqE8, sqE8}, [4]int{sqH1, sqA1, sqH8, sqA8})
}

func (s *state) occupied() uint64 { return s.colors[0] | s.colors[1] }

// put places a piece (colour, type) on an empty square, keeping bitboards, mailbox and hash in step.
func (s *state) put(color, pt, sq int) {
	b := bit(sq)
	s.colors[color] |= b
	s.pieces[pt] |= b
	s.board[sq] = uint8(color<<3 | pt)
	s.hash ^= zobristPiece[color<<3|pt][sq]
	if pt == King {
		s.king[color] = uint8(sq)
	}
}

// attackersTo returns the pieces of colour by that attack sq, with occ as the blockers.
func (s *state) attackersTo(sq int, by int, occ uint64) uint64 {
	theirs := s.colors[by]
	return theirs & ((knightAttacks[sq] & s.pieces[Knight]) |
		(pawnAttacks[by^1][sq] & s.pieces[Pawn]) |
		(kingAttacks[sq] & s.pieces[King]) |
		(bishopAttacks(sq, occ) & (s.pieces[Bishop] | s.pieces[Queen])) |
		(rookAttacks(sq, occ) & (s.pieces[Rook] | s.pieces[Queen])))
}

// inCheck reports whether the side to move is in check.
func (s *state) inCheck() bool {
	us := int(s.side)
	return s.attackersTo(int(s.king[us]), us^1, s.occupied()) != 0
}

// enPassantLegal reports whether the side to move's pawn on from may capture en passant onto epSquare:
// the king must not be attacked afterwards (this covers pins along the rank of both pawns, and checks).
func (s *state) enPassantLegal(from, epSquare int) bool {
	us := int(s.side)
	capturedSq := epSquare ^ 8
	occ := (s.occupied() ^ bit(from) ^ bit(capturedSq)) | bit(epSquare)
	ksq := int(s.king[us])
	theirs := s.colors[us^1] &^ bit(capturedSq)
	attackers := (knightAttacks[ksq] & s.pieces[Knight]) |
		(pawnAttacks[us][ksq] & s.pieces[Pawn]) |
		(bishopAttacks(ksq, occ) & (s.pieces[Bishop] | s.pieces[Queen])) |
		(rookAttacks(ksq, occ) & (s.pieces[Rook] | s.pieces[Queen]))
	return attackers&theirs == 0
}

// setEnPassant records epSquare as the en-passant target if the side to move has a legal capture onto it.
func (s *state) setEnPassant(epSquare int) {
	us := int(s.side)
	for c := pawnAttacks[us^1][epSquare] & s.pieces[Pawn] & s.colors[us]; c != 0; c &= c - 1 {
		if s.enPassantLegal(lsb(c), epSquare) {
			s.ep = uint8(epSquare)
			s.hash ^= zobristEP[epSquare&7]
			return
		}
	}
}

// make plays a legal move on the state, castling by the rules r.
func (s *state) make(r *castlingRules, m games.Move) {
	from, to := moveFrom(m), moveTo(m)
	pt, captured := movePiece(m), moveCaptured(m)
	us := int(s.side)
	them := us ^ 1
	h := s.hash ^ zobristSide
	if s.ep != 0 {
		h ^= zobristEP[s.ep&7]
		s.ep = 0
	}
	s.halfmove++
	s.sinceNull++
	s.ply++
	if captured != NoPiece {
		capSq := to
		if moveKind(m) == kindEnPassant {
			capSq = to ^ 8
			s.board[capSq] = 0
		}
		cb := bit(capSq)
		s.pieces[captured] ^= cb
		s.colors[them] ^= cb
		h ^= zobristPiece[them<<3|captured][capSq]
		s.halfmove = 0
	}
	code := us<<3 | pt
	fromTo := bit(from) | bit(to)
	s.pieces[pt] ^= fromTo
	s.colors[us] ^= fromTo
	s.board[from] = 0
	s.board[to] = uint8(code)
	h ^= zobristPiece[code][from] ^ zobristPiece[code][to]
	switch pt {
	case Pawn:
		s.halfmove = 0
		if promo := movePromotion(m); promo != NoPiece {
			s.pieces[Pawn] ^= bit(to)
			s.pieces[promo] ^= bit(to)
			s.board[to] = uint8(us<<3 | promo)
			h ^= zobristPiece[code][to] ^ zobristPiece[us<<3|promo][to]
		}
	case King:
		s.king[us] = uint8(to)
		if moveKind(m) == kindCastle {
			// In Chess960 the rook may start on the king's destination or end on its origin, so the
			// bitboards change by exclusive or (which composes) and the mailbox keeps whoever lands last.
			if from == to { // a Chess960 king that stays put: fromTo took it off, so put it back
				s.pieces[King] ^= fromTo
				s.colors[us] ^= fromTo
			}
			rf, rt := moveRook(m), int(castleRookTo[to])
			rb := bit(rf) ^ bit(rt) // 0 when the rook stays put
			s.pieces[Rook] ^= rb
			s.colors[us] ^= rb
			if rf != to {
				s.board[rf] = 0
			}
			s.board[rt] = uint8(us<<3 | Rook)
			h ^= zobristPiece[us<<3|Rook][rf] ^ zobristPiece[us<<3|Rook][rt]
		}
	}
	if s.castling != 0 {
		if rights := s.castling & r.keep[from] & r.keep[to]; rights != s.castling {
			h ^= r.zobrist[s.castling&15] ^ r.zobrist[rights&15]
			s.castling = rights
		}
	}
	s.side = uint8(them)
	s.hash = h
	if moveKind(m) == kindDoublePush {
		s.setEnPassant((from + to) >> 1)
	}
}

// makeNull passes the move.
func (s *state) makeNull() {
	s.hash ^= zobristSide
	if s.ep != 0 {
		s.hash ^= zobristEP[s.ep&7]
		s.ep = 0
	}
	s.side ^= 1
	s.halfmove++
	s.sinceNull = 0
	s.ply++
}

// Position is a chess position with its history; it implements games.Position, games.Tactical,
// games.Checker, games.NullMover and games.Perfter.
type Position struct {
	st    state
	stack []state // the states before each move played, oldest first
	// rules is the game's castling: which rook each right castles with, shared by every copy.
	rules *castlingRules
	// chess960 writes castling in UCI as the king taking its own rook (e1h1), as UCI_Chess960 asks.
	chess960 bool
}

// StructureKey hashes the pawns of both sides (games.Structured): they move seldom and their structure decides
// much that a static evaluation misjudges.
func (p *Position) StructureKey() uint64 {
	white := p.st.pieces[Pawn] & p.st.colors[White]
	black := p.st.pieces[Pawn] & p.st.colors[Black]
	h := white*0x9e3779b97f4a7c15 ^ bits.RotateLeft64(black*0xc2b2ae3d27d4eb4f, 31)
	return h ^ h>>29
}

var _ interface {
	games.Position
	games.Tactical
	games.Checker
	games.NullMover
	games.Perfter
	games.Structured
} = (*Position)(nil)

// ToMove returns the side to move (White is games.First).
func (p *Position) ToMove() games.Side { return games.Side(p.st.side) }

// Play makes a legal move.
func (p *Position) Play(m games.Move) {
	p.stack = append(p.stack, p.st)
	p.st.make(p.rules, m)
}

// Undo takes back the last move (or null move).
func (p *Position) Undo() {
	n := len(p.stack) - 1
	p.st = p.stack[n]
	p.stack = p.stack[:n]
}

// PlayNull passes the move to the opponent; not while in check.
func (p *Position) PlayNull() {
	p.stack = append(p.stack, p.st)
	p.st.makeNull()
}

// UndoNull takes back PlayNull.
func (p *Position) UndoNull() { p.Undo() }

// Hash returns the Zobrist hash: pieces, side to move, castling rights, and the en-passant file only when an
// en-passant capture is legal.
func (p *Position) Hash() uint64 { return p.st.hash }

// InCheck reports whether the side to move is in check.
func (p *Position) InCheck() bool { return p.st.inCheck() }

// Ply returns the half-moves since the game's start, derived from the FEN's fullmove number and side to move.
func (p *Position) Ply() int { return int(p.st.ply) }

// Pieces counts the pieces on the board, kings included.
func (p *Position) Pieces() int { return bits.OnesCount64(p.st.occupied()) }

// HalfmoveClock returns the plies since the last capture or pawn move.
func (p *Position) HalfmoveClock() int { return int(p.st.halfmove) }

// Clone returns an independent deep copy, history included.
func (p *Position) Clone() games.Position { return p.Copy() }

// Copy is Clone with the concrete type.
func (p *Position) Copy() *Position {
	return &Position{st: p.st, stack: append([]state(nil), p.stack...), rules: p.rules, chess960: p.chess960}
}

// PieceAt returns the colour and type of the piece on sq (a1 = 0), with ok false for an empty square.
func (p *Position) PieceAt(sq int) (color, pieceType int, ok bool) {
	code := int(p.st.board[sq&63])
	return code >> 3, code & 7, code != 0
}

// Bitboard returns the squares of the pieces of one colour and type as a bitboard (bit 0 = a1).
func (p *Position) Bitboard(color, pieceType int) uint64 {
	return p.st.colors[color&1] & p.st.pieces[pieceType&7]
}
