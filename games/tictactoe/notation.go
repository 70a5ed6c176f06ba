// Tic-tac-toe notation: cutechess's tictactoe FEN and drop moves (P@b2), and bare squares (b2).
package tictactoe

import (
	"errors"
	"fmt"
	"math/bits"
	"strconv"
	"strings"

	"dossier/games"
)

// quotaFirst and quotaSecond are the stones each side starts with in hand: X moves first and last.
const (
	quotaFirst  = 5
	quotaSecond = 4
)

// FEN writes the position as cutechess's tictactoe FEN: ranks from the top, P for X, p for O, digits for
// runs of empty squares, the stones still in hand in brackets ([-] when none are left), w or b for the
// side to move, then "- -", a halfmove clock of 0 and the fullmove number implied by the stones.
func (p *Position) FEN() string {
	var b strings.Builder
	for r := 2; r >= 0; r-- {
		if r < 2 {
			b.WriteByte('/')
		}
		empty := 0
		for f := 0; f < 3; f++ {
			bit := uint16(1) << (3*r + f)
			if (p.stones[0]|p.stones[1])&bit == 0 {
				empty++
				continue
			}
			if empty > 0 {
				b.WriteByte(byte('0' + empty))
				empty = 0
			}
			if p.stones[games.First]&bit != 0 {
				b.WriteByte('P')
			} else {
				b.WriteByte('p')
			}
		}
		if empty > 0 {
			b.WriteByte(byte('0' + empty))
		}
	}
	handFirst := quotaFirst - bits.OnesCount16(p.stones[games.First])
	handSecond := quotaSecond - bits.OnesCount16(p.stones[games.Second])
	b.WriteByte('[')
	if handFirst+handSecond == 0 {
		b.WriteByte('-')
	}
	b.WriteString(strings.Repeat("P", handFirst))
	b.WriteString(strings.Repeat("p", handSecond))
	b.WriteByte(']')
	if p.ToMove() == games.First {
		b.WriteString(" w")
	} else {
		b.WriteString(" b")
	}
	fmt.Fprintf(&b, " - - 0 %d", p.count()/2+1)
	return b.String()
}

// Parse reads a cutechess tictactoe FEN: the board (stones in hand optional, but checked when given), the
// side to move, and optionally "- -" and the two clocks, which are checked for form and otherwise ignored
// since the stones on the board say how many plies were played.
func Parse(s string) (*Position, error) {
	fields := strings.Fields(s)
	if len(fields) == 0 {
		return nil, errors.New("tictactoe: empty position string")
	}
	errf := func(format string, args ...any) error {
		return fmt.Errorf("tictactoe: FEN %q: %s", s, fmt.Sprintf(format, args...))
	}
	boardText, handText, hasHand := fields[0], "", false
	if i := strings.IndexByte(fields[0], '['); i >= 0 {
		if !strings.HasSuffix(fields[0], "]") || i == len(fields[0])-1 {
			return nil, errf("stones in hand %q do not end with ]", fields[0][i:])
		}
		boardText, handText, hasHand = fields[0][:i], fields[0][i+1:len(fields[0])-1], true
	}
	var stones [2]uint16
	ranks := strings.Split(boardText, "/")
	if len(ranks) != 3 {
		return nil, errf("the board %q has %d ranks, want 3", boardText, len(ranks))
	}
	for i, rank := range ranks {
		r, f := 2-i, 0
		for j := 0; j < len(rank); j++ {
			switch ch := rank[j]; {
			case ch >= '1' && ch <= '3':
				f += int(ch - '0')
			case ch == 'P' || ch == 'p':
				if f < 3 {
					side := games.First
					if ch == 'p' {
						side = games.Second
					}
					stones[side] |= 1 << (3*r + f)
				}
				f++
			default:
				return nil, errf("rank %d %q: unexpected character %q (want P, p or a count 1-3 of empty squares)", r+1, rank, ch)
			}
			if f > 3 {
				return nil, errf("rank %d %q has more than 3 squares", r+1, rank)
			}
		}
		if f != 3 {
			return nil, errf("rank %d %q has %d squares, want 3", r+1, rank, f)
		}
	}
	nFirst, nSecond := bits.OnesCount16(stones[0]), bits.OnesCount16(stones[1])
	if nFirst != nSecond && nFirst != nSecond+1 {
		return nil, errf("%d P and %d p on the board: X (P) has as many stones as O (p) or one more", nFirst, nSecond)
	}
	if hasHand {
		handFirst, handSecond, err := parseHand(handText)
		if err != nil {
			return nil, errf("stones in hand [%s]: %v", handText, err)
		}
		if handFirst+nFirst != quotaFirst {
			return nil, errf("stones in hand: %d P in hand and %d on the board make %d, want %d",
				handFirst, nFirst, handFirst+nFirst, quotaFirst)
		}
		if handSecond+nSecond != quotaSecond {
			return nil, errf("stones in hand: %d p in hand and %d on the board make %d, want %d",
				handSecond, nSecond, handSecond+nSecond, quotaSecond)
		}
	}
	if len(fields) < 2 {
		return nil, errf("missing the side to move (w or b) after the board")
	}
	var toMove games.Side
	switch fields[1] {
	case "w":
		toMove = games.First
	case "b":
		toMove = games.Second
	default:
		return nil, errf("side to move %q: want w or b", fields[1])
	}
	if want := games.Side((nFirst + nSecond) & 1); toMove != want {
		return nil, errf("side to move is %s, but with %d P and %d p on the board %s is to move",
			fields[1], nFirst, nSecond, sideLetter(want))
	}
	if err := checkClocks(fields); err != nil {
		return nil, errf("%v", err)
	}
	// The last mover may have two lines, but with at most five stones they share the stone that ended
	// the game, and without gravity every other order of the stones is possible: the position is legal.
	switch {
	case hasLine(stones[0]) && hasLine(stones[1]):
		return nil, errf("both P and p have three in a row")
	case hasLine(stones[toMove]):
		return nil, errf("%s is to move but already has three in a row, which would have ended the game", fields[1])
	}
	return &Position{stones: stones}, nil
}

// parseHand reads the stones in hand: P and p, each optionally preceded by a count, or - for none.
func parseHand(text string) (first, second int, err error) {
	if text == "-" || text == "" {
		return 0, 0, nil
	}
	for j := 0; j < len(text); j++ {
		count := 1
		if ch := text[j]; ch >= '0' && ch <= '9' {
			if ch == '0' {
				return 0, 0, errors.New("count 0: want 1-9")
			}
			if j+1 == len(text) {
				return 0, 0, fmt.Errorf("count %q is not followed by P or p", text[j:])
			}
			count = int(ch - '0')
			j++
		}
		switch text[j] {
		case 'P':
			first += count
		case 'p':
			second += count
		default:
			return 0, 0, fmt.Errorf("unexpected character %q (want P, p, a count or -)", text[j])
		}
	}
	return first, second, nil
}

// checkClocks checks the fields after the side to move: castling and en passant "-", then the clocks.
func checkClocks(fields []string) error {
	if len(fields) > 2 && fields[2] != "-" {
		return fmt.Errorf("castling field %q: tic-tac-toe has no castling, want -", fields[2])
	}
	if len(fields) > 3 && fields[3] != "-" {
		return fmt.Errorf("en passant field %q: tic-tac-toe has no en passant, want -", fields[3])
	}
	if len(fields) > 4 {
		if n, err := strconv.Atoi(fields[4]); err != nil || n < 0 {
			return fmt.Errorf("halfmove clock %q is not a non-negative integer", fields[4])
		}
	}
	if len(fields) > 5 {
		if n, err := strconv.Atoi(fields[5]); err != nil || n < 1 {
			return fmt.Errorf("fullmove number %q is not a positive integer", fields[5])
		}
	}
	if len(fields) > 6 {
		return fmt.Errorf("unexpected field %q after the fullmove number", fields[6])
	}
	return nil
}

// sideLetter is the FEN letter of a side.
func sideLetter(s games.Side) string {
	if s == games.First {
		return "w"
	}
	return "b"
}

// FormatMove writes a move in cutechess's notation, P@ and the square.
func (p *Position) FormatMove(m games.Move) string {
	if m < 1 || m > numSquares {
		return fmt.Sprintf("<invalid tictactoe move %d>", uint64(m))
	}
	return "P@" + squareName(int(m-1))
}

// ParseMove reads a move as P@b2 or a bare square b2 and returns it if the square is empty and the game goes on.
func (p *Position) ParseMove(s string) (games.Move, error) {
	square := s
	if len(s) >= 2 && s[1] == '@' {
		if s[0] != 'P' && s[0] != 'p' {
			return games.NoMove, fmt.Errorf("tictactoe: move %q: piece %q: tic-tac-toe drops only P", s, s[0])
		}
		square = s[2:]
	}
	if len(square) != 2 || square[0] < 'a' || square[0] > 'z' || square[1] < '0' || square[1] > '9' {
		return games.NoMove, fmt.Errorf("tictactoe: move %q: want a square a1-c3, as in P@b2 or b2", s)
	}
	if square[0] > 'c' || square[1] < '1' || square[1] > '3' {
		return games.NoMove, fmt.Errorf("tictactoe: move %q: square %s is off the 3x3 board", s, square)
	}
	sq := int(square[1]-'1')*3 + int(square[0]-'a')
	if p.lastMoverWon() {
		return games.NoMove, fmt.Errorf("tictactoe: move %q: the game is over (three in a row)", s)
	}
	if (p.stones[0]|p.stones[1])&(1<<sq) != 0 {
		return games.NoMove, fmt.Errorf("tictactoe: move %q: square %s is taken", s, square)
	}
	return games.Move(sq + 1), nil
}
