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
	if err := s.parseCastling(fields[2]); err != nil {
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
	return &Position{st: s}, nil
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

// castlingSquares gives, for each right, the letter and the home squares of its king and rook.
var castlingSquares = [4]struct {
	right        uint8
	letter       byte
	color        int
	king, rook   int
	kingT, rookT string
}{
	{castleWhiteKing, 'K', White, sqE1, sqH1, "e1", "h1"},
	{castleWhiteQueen, 'Q', White, sqE1, sqA1, "e1", "a1"},
	{castleBlackKing, 'k', Black, sqE8, sqH8, "e8", "h8"},
	{castleBlackQueen, 'q', Black, sqE8, sqA8, "e8", "a8"},
}

func (s *state) parseCastling(field string) error {
	if field == "-" {
		return nil
	}
	for i := 0; i < len(field); i++ {
		c := field[i]
		found := false
		for _, cs := range castlingSquares {
			if cs.letter != c {
				continue
			}
			found = true
			if s.castling&cs.right != 0 {
				return fmt.Errorf("right %c given twice", c)
			}
			if s.board[cs.king] != uint8(cs.color<<3|King) {
				return fmt.Errorf("right %c needs the %s king on %s", c, colorName(cs.color), cs.kingT)
			}
			if s.board[cs.rook] != uint8(cs.color<<3|Rook) {
				return fmt.Errorf("right %c needs a %s rook on %s", c, colorName(cs.color), cs.rookT)
			}
			s.castling |= cs.right
		}
		if !found {
			return fmt.Errorf("%q is not one of K, Q, k, q (or - for none)", c)
		}
	}
	s.hash ^= zobristCastling[s.castling]
	return nil
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
	if s.castling == 0 {
		b.WriteByte('-')
	}
	for _, cs := range castlingSquares {
		if s.castling&cs.right != 0 {
			b.WriteByte(cs.letter)
		}
	}
	if s.ep != 0 {
		b.WriteString(" " + squareName(int(s.ep)))
	} else {
		b.WriteString(" -")
	}
	fmt.Fprintf(&b, " %d %d", s.halfmove, s.ply/2+1)
	return b.String()
}

// String returns the FEN.
func (p *Position) String() string { return p.FEN() }
