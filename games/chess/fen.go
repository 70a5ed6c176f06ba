// FEN reading (strict, with errors naming the field and what is wrong) and writing.

package chess

import (
	"fmt"
	"strconv"
	"strings"
)

// StartFEN is the standard starting position.
const StartFEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

// maxClock bounds the halfmove clock and fullmove number accepted from a FEN (far beyond any real game).
const maxClock = 1 << 15

const pieceLetters = " pnbrqk"

// StartPosition returns the standard starting position.
func StartPosition() *Position {
	p, err := ParseFEN(StartFEN)
	if err != nil {
		panic(err) // the constant is valid; a failure here is a bug in the parser
	}
	return p
}

// ParseFEN reads a FEN. The halfmove clock and fullmove number may be missing (EPD), defaulting to 0 and 1.
// It rejects: a board that is not 8 ranks of 8 files of piece letters and digits, a side without exactly one
// king, pawns on the first or last rank, the side not to move in check, a side to move other than w or b,
// castling rights without the king and rook on their home squares, an en-passant square not just behind a
// pawn that could have double-pushed, and clocks that are not decimal numbers in range.
// The en-passant square is kept (in the hash and in FEN()) only when an en-passant capture is legal.
func ParseFEN(fen string) (*Position, error) {
	fields := strings.Fields(fen)
	if len(fields) < 4 {
		return nil, fmt.Errorf("chess: FEN %q: want at least 4 fields (board, side, castling, en passant), got %d", fen, len(fields))
	}
	if len(fields) > 6 {
		return nil, fmt.Errorf("chess: FEN %q: unexpected extra field %q after the fullmove number", fen, fields[6])
	}
	var s state
	if err := s.parseBoard(fields[0]); err != nil {
		return nil, fmt.Errorf("chess: FEN %q: board: %v", fen, err)
	}
	switch fields[1] {
	case "w":
		s.side = White
	case "b":
		s.side = Black
		s.hash ^= zobristSide
	default:
		return nil, fmt.Errorf("chess: FEN %q: side to move %q: want w or b", fen, fields[1])
	}
	if s.attackersTo(int(s.king[s.side^1]), int(s.side), s.occupied()) != 0 {
		return nil, fmt.Errorf("chess: FEN %q: the side not to move (%s) is in check", fen, colorName(int(s.side^1)))
	}
	rules, err := s.parseCastling(fields[2])
	if err != nil {
		return nil, fmt.Errorf("chess: FEN %q: castling %q: %v", fen, fields[2], err)
	}
	if err := s.parseEnPassant(fields[3]); err != nil {
		return nil, fmt.Errorf("chess: FEN %q: en passant %q: %v", fen, fields[3], err)
	}
	halfmove, fullmove := 0, 1
	if len(fields) > 4 {
		n, err := parseClock(fields[4])
		if err != nil {
			return nil, fmt.Errorf("chess: FEN %q: halfmove clock %q: %v", fen, fields[4], err)
		}
		halfmove = n
	}
	if len(fields) > 5 {
		n, err := parseClock(fields[5])
		if err != nil {
			return nil, fmt.Errorf("chess: FEN %q: fullmove number %q: %v", fen, fields[5], err)
		}
		if n < 1 {
			return nil, fmt.Errorf("chess: FEN %q: fullmove number %q: must be at least 1", fen, fields[5])
		}
		fullmove = n
	}
	s.halfmove = uint16(halfmove)
	s.sinceNull = uint16(halfmove)
	s.ply = int32(2*(fullmove-1) + int(s.side))
	return &Position{st: s, rules: rules}, nil
}

func colorName(c int) string {
	if c == White {
		return "white"
	}
	return "black"
}

func parseClock(f string) (int, error) {
	for _, c := range f {
		if c < '0' || c > '9' {
			return 0, fmt.Errorf("not a decimal number")
		}
	}
	n, err := strconv.Atoi(f)
	if err != nil || n > maxClock {
		return 0, fmt.Errorf("out of range (at most %d)", maxClock)
	}
	return n, nil
}

func (s *state) parseBoard(board string) error {
	ranks := strings.Split(board, "/")
	if len(ranks) != 8 {
		return fmt.Errorf("want 8 ranks separated by '/', got %d", len(ranks))
	}
	var kings [2]int
	for i, row := range ranks {
		rank := 7 - i
		file := 0
		for j := 0; j < len(row); j++ {
			c := row[j]
			if c >= '1' && c <= '8' {
				file += int(c - '0')
				if file > 8 {
					return fmt.Errorf("rank %d %q: more than 8 files", rank+1, row)
				}
				continue
			}
			color := White
			lower := c
			if c >= 'a' && c <= 'z' {
				color = Black
			} else {
				lower = c + 'a' - 'A'
			}
			pt := strings.IndexByte(pieceLetters, lower)
			if pt <= 0 {
				return fmt.Errorf("rank %d %q: %q is not a piece letter (pnbrqk, PNBRQK) or a digit 1-8", rank+1, row, c)
			}
			if file >= 8 {
				return fmt.Errorf("rank %d %q: more than 8 files", rank+1, row)
			}
			if pt == Pawn && (rank == 0 || rank == 7) {
				return fmt.Errorf("rank %d %q: a pawn on rank %d", rank+1, row, rank+1)
			}
			if pt == King {
				kings[color]++
			}
			s.put(color, pt, rank*8+file)
			file++
		}
		if file != 8 {
			return fmt.Errorf("rank %d %q: %d files, want 8", rank+1, row, file)
		}
	}
	for c, n := range kings {
		if n != 1 {
			return fmt.Errorf("%s has %d kings, want exactly 1", colorName(c), n)
		}
	}
	return nil
}

// parseCastling reads the castling field as X-FEN or Shredder-FEN: K and Q (k and q for Black) give the
// outermost rook on the king's h-side and a-side, a file letter A-H (a-h) the rook on that file, which lies
// on the king's h-side or a-side; the king may stand on any file of its first rank. The standard KQkq of
// standard chess is the same thing. It returns the game's castling rules: standardCastling when every right
// is the standard one.
func (s *state) parseCastling(field string) (*castlingRules, error) {
	if field == "-" {
		return standardCastling, nil
	}
	king := [4]int{sqE1, sqE1, sqE8, sqE8}
	rook := [4]int{sqH1, sqA1, sqH8, sqA8}
	for i := 0; i < len(field); i++ {
		c := field[i]
		color, file := White, -1
		switch {
		case c == 'K' || c == 'Q' || c == 'k' || c == 'q':
			if c >= 'a' {
				color = Black
			}
		case c >= 'A' && c <= 'H':
			file = int(c - 'A')
		case c >= 'a' && c <= 'h':
			color, file = Black, int(c-'a')
		default:
			return nil, fmt.Errorf("%q is not one of K, Q, k, q or a file letter A-H, a-h (or - for none)", c)
		}
		homeRank := 0
		if color == Black {
			homeRank = 7
		}
		ksq := int(s.king[color])
		if ksq>>3 != homeRank {
			return nil, fmt.Errorf("right %c needs the %s king on rank %d", c, colorName(color), homeRank+1)
		}
		rookCode := uint8(color<<3 | Rook)
		var right int
		switch {
		case file >= 0:
			rsq := homeRank*8 + file
			if s.board[rsq] != rookCode {
				return nil, fmt.Errorf("right %c needs a %s rook on %s", c, colorName(color), squareName(rsq))
			}
			right = 2 * color
			if file < ksq&7 {
				right++
			}
			rook[right] = rsq
		default:
			right = 2 * color
			from, step, side := homeRank*8+7, -1, "h"
			if c|0x20 == 'q' {
				right++
				from, step, side = homeRank*8, 1, "a"
			}
			found := false
			for sq := from; sq != ksq; sq += step {
				if s.board[sq] == rookCode {
					rook[right], found = sq, true
					break
				}
			}
			if !found {
				return nil, fmt.Errorf("right %c needs a %s rook on rank %d on the %s-side of the king", c, colorName(color), homeRank+1, side)
			}
		}
		if s.castling&(1<<uint(right)) != 0 {
			return nil, fmt.Errorf("right %c given twice", c)
		}
		s.castling |= 1 << uint(right)
		king[right] = ksq
	}
	rules := standardCastling
	if king != [4]int{sqE1, sqE1, sqE8, sqE8} || rook != [4]int{sqH1, sqA1, sqH8, sqA8} {
		rules = newCastlingRules(king, rook)
	}
	s.hash ^= rules.zobrist[s.castling]
	return rules, nil
}

func (s *state) parseEnPassant(field string) error {
	if field == "-" {
		return nil
	}
	sq, ok := parseSquare(field)
	if !ok {
		return fmt.Errorf("not a square (like e3) or -")
	}
	us := int(s.side)
	wantRank := 5 // white to move: black just pushed, the target is on rank 6
	if us == Black {
		wantRank = 2
	}
	if sq>>3 != wantRank {
		return fmt.Errorf("with %s to move the en-passant square must be on rank %d", colorName(us), wantRank+1)
	}
	pushed := sq ^ 8 // the pawn that double-pushed stands just beyond the target
	origin := 2*sq - pushed
	if s.board[pushed] != uint8((us^1)<<3|Pawn) {
		return fmt.Errorf("no %s pawn on %s that could just have double-pushed", colorName(us^1), squareName(pushed))
	}
	if s.board[sq] != 0 || s.board[origin] != 0 {
		return fmt.Errorf("%s and %s must be empty after a double push", squareName(sq), squareName(origin))
	}
	s.setEnPassant(sq)
	return nil
}

// FEN writes the position as FEN; the en-passant square appears only when an en-passant capture is legal.
func (p *Position) FEN() string {
	s := &p.st
	var b strings.Builder
	b.Grow(90)
	for rank := 7; rank >= 0; rank-- {
		empty := 0
		for file := 0; file < 8; file++ {
			code := s.board[rank*8+file]
			if code == 0 {
				empty++
				continue
			}
			if empty > 0 {
				b.WriteByte(byte('0' + empty))
				empty = 0
			}
			letter := pieceLetters[code&7]
			if code>>3 == White {
				letter -= 'a' - 'A'
			}
			b.WriteByte(letter)
		}
		if empty > 0 {
			b.WriteByte(byte('0' + empty))
		}
		if rank > 0 {
			b.WriteByte('/')
		}
	}
	if s.side == White {
		b.WriteString(" w ")
	} else {
		b.WriteString(" b ")
	}
	s.writeCastling(&b, p.rules, false)
	if s.ep != 0 {
		b.WriteString(" " + squareName(int(s.ep)))
	} else {
		b.WriteString(" -")
	}
	fmt.Fprintf(&b, " %d %d", s.halfmove, s.ply/2+1)
	return b.String()
}

// ShredderFEN writes the position as Shredder-FEN: FEN with the castling rights as the files of their rooks
// (HAha for the standard start).
func (p *Position) ShredderFEN() string {
	fen := p.FEN()
	fields := strings.SplitN(fen, " ", 4)
	var b strings.Builder
	p.st.writeCastling(&b, p.rules, true)
	return fields[0] + " " + fields[1] + " " + b.String() + " " + fields[3]
}

// writeCastling writes the castling field: X-FEN (KQkq for each right whose rook is the outermost on its
// side of the king, the rook's file letter otherwise), or Shredder-FEN (always the file letter).
func (s *state) writeCastling(b *strings.Builder, r *castlingRules, shredder bool) {
	if s.castling == 0 {
		b.WriteByte('-')
		return
	}
	for i := 0; i < 4; i++ {
		if s.castling&(1<<uint(i)) == 0 {
			continue
		}
		color := i / 2
		rsq := int(r.rook[i])
		letter := byte('A' + rsq&7)
		if !shredder && s.outermostRook(r, i) {
			letter = "KQ"[i&1]
		}
		if color == Black {
			letter += 'a' - 'A'
		}
		b.WriteByte(letter)
	}
}

// outermostRook reports whether right i's rook has no rook of its colour between it and the board's edge.
func (s *state) outermostRook(r *castlingRules, i int) bool {
	rsq := int(r.rook[i])
	edge := rsq | 7
	if i&1 == 1 {
		edge = rsq &^ 7
	}
	rooks := s.colors[i/2] & s.pieces[Rook]
	return (between[rsq][edge]|bit(edge))&^bit(rsq)&rooks == 0
}

// String returns the FEN.
func (p *Position) String() string { return p.FEN() }
