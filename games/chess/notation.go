// Move notation: UCI long algebraic (the protocol's), SAN, and the parsers that accept both.

package chess

import (
	"fmt"
	"strings"

	"dossier/games"
)

// FormatMove writes a move in UCI long algebraic notation: e2e4, e7e8q, castling as the king's move e1g1,
// or in a Chess960 game (see Game.Chess960) as the king taking its own rook, e1h1, as UCI_Chess960 asks.
// NoMove is "0000", the UCI null move.
func (p *Position) FormatMove(m games.Move) string {
	if p.chess960 && moveKind(m) == kindCastle {
		return squareName(moveFrom(m)) + squareName(moveRook(m))
	}
	return FormatUCI(m)
}

// Chess960 reports whether the position writes castling as Chess960 does (king takes rook).
func (p *Position) Chess960() bool { return p.chess960 }

// FormatUCI writes a chess move in UCI long algebraic notation (no position needed).
func FormatUCI(m games.Move) string {
	if m == games.NoMove {
		return "0000"
	}
	s := squareName(moveFrom(m)) + squareName(moveTo(m))
	if promo := movePromotion(m); promo != NoPiece {
		s += string(pieceLetters[promo])
	}
	return s
}

func moveError(token, why string, args ...any) error {
	return fmt.Errorf("chess: move %q: %s", token, fmt.Sprintf(why, args...))
}

// ParseMove reads a move in UCI long algebraic notation (castling as the king's move e1g1 or as the king
// taking its own rook e1h1, the Chess960 form that some GUIs also send for standard chess) or in SAN (Nf3,
// O-O, exd8=Q+), and returns it if it is legal here. Where a king's move and castling both go to g1 (a
// Chess960 king on f1), f1g1 is the king's move and f1h1 castling.
func (p *Position) ParseMove(s string) (games.Move, error) {
	tok := strings.TrimSpace(s)
	if tok == "" {
		return games.NoMove, moveError(s, "empty")
	}
	if looksLikeUCI(tok) {
		return p.parseUCI(tok)
	}
	return p.ParseSAN(tok)
}

func looksLikeUCI(s string) bool {
	if len(s) != 4 && len(s) != 5 {
		return false
	}
	if _, ok := parseSquare(s[:2]); !ok {
		return false
	}
	if _, ok := parseSquare(s[2:4]); !ok {
		return false
	}
	return len(s) == 4 || strings.IndexByte("qrbnQRBN", s[4]) >= 0
}

func (p *Position) parseUCI(tok string) (games.Move, error) {
	s := &p.st
	from, _ := parseSquare(tok[:2])
	to, _ := parseSquare(tok[2:4])
	promo := NoPiece
	if len(tok) == 5 {
		promo = strings.IndexByte(pieceLetters, tok[4]|0x20)
	}
	code := int(s.board[from])
	us := int(s.side)
	if code == 0 {
		return games.NoMove, moveError(tok, "no piece on %s", squareName(from))
	}
	if code>>3 != us {
		return games.NoMove, moveError(tok, "the piece on %s is %s's, and %s is to move", squareName(from), colorName(code>>3), colorName(us))
	}
	var buf [games.MaxMoves]games.Move
	// A king taking its own rook is castling with that rook.
	if code&7 == King && int(s.board[to]) == us<<3|Rook && promo == NoPiece {
		for _, m := range s.generate(p.rules, buf[:0], false) {
			if moveKind(m) == kindCastle && moveRook(m) == to {
				return m, nil
			}
		}
		return games.NoMove, moveError(tok, "castling with the rook on %s is not legal in this position (%s)", squareName(to), p.FEN())
	}
	needsPromotion := false
	for _, m := range s.generate(p.rules, buf[:0], false) {
		if moveFrom(m) != from || moveTo(m) != to {
			continue
		}
		if movePromotion(m) == promo {
			return m, nil
		}
		if promo == NoPiece {
			needsPromotion = true
		}
	}
	if needsPromotion {
		return games.NoMove, moveError(tok, "a pawn reaching the last rank needs a promotion piece (q, r, b or n)")
	}
	if promo != NoPiece && code&7 != Pawn {
		return games.NoMove, moveError(tok, "only a pawn can promote")
	}
	return games.NoMove, moveError(tok, "illegal in this position (%s)", p.FEN())
}

// SAN writes a legal move in Standard Algebraic Notation with a check (+) or mate (#) suffix.
func (p *Position) SAN(m games.Move) string {
	s := &p.st
	var b strings.Builder
	from, to, pt := moveFrom(m), moveTo(m), movePiece(m)
	switch {
	case moveKind(m) == kindCastle && to&7 == 6:
		b.WriteString("O-O")
	case moveKind(m) == kindCastle:
		b.WriteString("O-O-O")
	case pt == Pawn:
		if moveCaptured(m) != NoPiece {
			b.WriteByte(byte('a' + from&7))
			b.WriteByte('x')
		}
		b.WriteString(squareName(to))
		if promo := movePromotion(m); promo != NoPiece {
			b.WriteByte('=')
			b.WriteByte(pieceLetters[promo] - ('a' - 'A'))
		}
	default:
		b.WriteByte(pieceLetters[pt] - ('a' - 'A'))
		var buf [games.MaxMoves]games.Move
		sameFile, sameRank, others := false, false, false
		for _, o := range s.generate(p.rules, buf[:0], false) {
			if o == m || movePiece(o) != pt || moveTo(o) != to || moveKind(o) == kindCastle {
				continue
			}
			others = true
			sameFile = sameFile || moveFrom(o)&7 == from&7
			sameRank = sameRank || moveFrom(o)>>3 == from>>3
		}
		if others {
			if !sameFile {
				b.WriteByte(byte('a' + from&7))
			} else if !sameRank {
				b.WriteByte(byte('1' + from>>3))
			} else {
				b.WriteString(squareName(from))
			}
		}
		if moveCaptured(m) != NoPiece {
			b.WriteByte('x')
		}
		b.WriteString(squareName(to))
	}
	after := *s
	after.make(p.rules, m)
	if after.inCheck() {
		if after.countMoves(p.rules) == 0 {
			b.WriteByte('#')
		} else {
			b.WriteByte('+')
		}
	}
	return b.String()
}

// ParseSAN reads a move in Standard Algebraic Notation and returns it if it is legal here. It accepts
// castling as O-O/0-0 and O-O-O/0-0-0, promotions as e8=Q or e8Q, an optional capture mark, and ignores
// check, mate and annotation suffixes (+ # ! ?) and a trailing "e.p.".
func (p *Position) ParseSAN(tok string) (games.Move, error) {
	s := &p.st
	body := strings.TrimSpace(tok)
	body = strings.TrimSuffix(body, "e.p.")
	body = strings.TrimRight(body, "+#!? ")
	if body == "" {
		return games.NoMove, moveError(tok, "empty")
	}
	var buf [games.MaxMoves]games.Move
	legal := s.generate(p.rules, buf[:0], false)
	switch body {
	case "O-O", "0-0", "O-O-O", "0-0-0":
		for _, m := range legal {
			if moveKind(m) == kindCastle && (to6(m) == (len(body) == 3)) {
				return m, nil
			}
		}
		return games.NoMove, moveError(tok, "castling is not legal in this position (%s)", p.FEN())
	}
	rest := body
	promo := NoPiece
	if n := len(rest); n >= 2 && rest[n-2] == '=' {
		promo = strings.IndexByte("  nbrq", rest[n-1]|0x20)
		if promo < Knight {
			return games.NoMove, moveError(tok, "%q is not a promotion piece (Q, R, B or N)", rest[n-1])
		}
		rest = rest[:n-2]
	} else if n >= 3 && strings.IndexByte("NBRQ", rest[n-1]) >= 0 && rest[n-2] >= '1' && rest[n-2] <= '8' {
		promo = strings.IndexByte(pieceLetters, rest[n-1]|0x20)
		rest = rest[:n-1]
	}
	if len(rest) < 2 {
		return games.NoMove, moveError(tok, "unparsable: no destination square")
	}
	to, ok := parseSquare(rest[len(rest)-2:])
	if !ok {
		return games.NoMove, moveError(tok, "unparsable: %q is not a destination square", rest[len(rest)-2:])
	}
	rest = rest[:len(rest)-2]
	rest = strings.TrimSuffix(rest, "x")
	rest = strings.TrimSuffix(rest, ":")
	pt := Pawn
	if rest != "" && strings.IndexByte("NBRQK", rest[0]) >= 0 {
		pt = strings.IndexByte(pieceLetters, rest[0]|0x20)
		rest = rest[1:]
	}
	fromFile, fromRank := -1, -1
	if rest != "" && rest[0] >= 'a' && rest[0] <= 'h' {
		fromFile = int(rest[0] - 'a')
		rest = rest[1:]
	}
	if rest != "" && rest[0] >= '1' && rest[0] <= '8' {
		fromRank = int(rest[0] - '1')
		rest = rest[1:]
	}
	if rest != "" {
		return games.NoMove, moveError(tok, "unparsable: unexpected %q", rest)
	}
	if pt == Pawn && fromFile < 0 {
		fromFile = to & 7 // a pawn move without a file is a push along the destination's file
	}
	if promo != NoPiece && pt != Pawn {
		return games.NoMove, moveError(tok, "only a pawn can promote")
	}
	var found games.Move
	matches := 0
	needsPromotion := false
	var names []string
	for _, m := range legal {
		from := moveFrom(m)
		if movePiece(m) != pt || moveTo(m) != to || moveKind(m) == kindCastle ||
			(fromFile >= 0 && from&7 != fromFile) || (fromRank >= 0 && from>>3 != fromRank) {
			continue
		}
		if movePromotion(m) != promo {
			needsPromotion = needsPromotion || promo == NoPiece
			continue
		}
		matches++
		found = m
		names = append(names, FormatUCI(m))
	}
	switch {
	case matches == 1:
		return found, nil
	case matches > 1:
		return games.NoMove, moveError(tok, "ambiguous: matches %s", strings.Join(names, " and "))
	case needsPromotion:
		return games.NoMove, moveError(tok, "a pawn reaching the last rank needs a promotion piece (=Q, =R, =B or =N)")
	}
	return games.NoMove, moveError(tok, "no %s can move to %s in this position (%s)", pieceNames[pt], squareName(to), p.FEN())
}

var pieceNames = [7]string{"", "pawn", "knight", "bishop", "rook", "queen", "king"}

// to6 reports whether a castling move goes to the g-file (kingside).
func to6(m games.Move) bool { return moveTo(m)&7 == 6 }
