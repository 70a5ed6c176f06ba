// Package dropnotation reads and writes the parts of cutechess's notation that its drop games
// (cfour, tictactoe) share: the FEN's stones in hand, side to move and clock fields, and P@ drop moves.
//
// Each game keeps what is its own (the board's ranks, gravity, lines, the squares it accepts); the
// errors returned here name the offending field or token and leave the game's prefix to the caller.
package dropnotation

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"dossier/games"
)

// maxHandStones bounds either side's stones in hand while they are read: no bitboard holds more.
const maxHandStones = 64

// Layout is what FormatFEN writes: the board, the stones in hand, the side to move and the move number.
type Layout struct {
	// Width and Height are the board's files and ranks.
	Width, Height int
	// StoneAt says whose stone stands on a cell (file and rank from 0, rank 0 at the bottom), if any.
	StoneAt func(file, rank int) (side games.Side, occupied bool)
	// InHand holds the stones each side has still to drop, indexed by games.Side.
	InHand [2]int
	// ToMove is the side to move.
	ToMove games.Side
	// Fullmove is the fullmove number.
	Fullmove int
}

// FormatFEN writes a layout as cutechess does: ranks from the top, P for the first player's stones, p
// for the second's, digits for runs of empty cells, the stones in hand in brackets ([-] when none are
// left), w or b for the side to move, then "- -", a halfmove clock of 0 (every drop is irreversible)
// and the fullmove number.
func FormatFEN(l Layout) string {
	var b strings.Builder
	for r := l.Height - 1; r >= 0; r-- {
		if r < l.Height-1 {
			b.WriteByte('/')
		}
		empty := 0
		for f := 0; f < l.Width; f++ {
			side, occupied := l.StoneAt(f, r)
			if !occupied {
				empty++
				continue
			}
			if empty > 0 {
				b.WriteString(strconv.Itoa(empty))
				empty = 0
			}
			if side == games.First {
				b.WriteByte('P')
			} else {
				b.WriteByte('p')
			}
		}
		if empty > 0 {
			b.WriteString(strconv.Itoa(empty))
		}
	}
	b.WriteByte('[')
	if l.InHand[games.First]+l.InHand[games.Second] == 0 {
		b.WriteByte('-')
	}
	b.WriteString(strings.Repeat("P", l.InHand[games.First]))
	b.WriteString(strings.Repeat("p", l.InHand[games.Second]))
	b.WriteByte(']')
	fmt.Fprintf(&b, " %s - - 0 %d", SideLetter(l.ToMove), l.Fullmove)
	return b.String()
}

// SideLetter is the FEN letter of a side: w for the first player, b for the second.
func SideLetter(s games.Side) string {
	if s == games.First {
		return "w"
	}
	return "b"
}

// SplitBoardField splits a FEN's first field into the ranks and the text inside the brackets of the
// stones in hand, which hasHand says were given.
func SplitBoardField(field string) (board, hand string, hasHand bool, err error) {
	i := strings.IndexByte(field, '[')
	if i < 0 {
		return field, "", false, nil
	}
	if !strings.HasSuffix(field, "]") || i == len(field)-1 {
		return "", "", false, fmt.Errorf("stones in hand %q do not end with ]", field[i:])
	}
	return field[:i], field[i+1 : len(field)-1], true, nil
}

// ParseHand reads the text inside the brackets of the stones in hand: P and p, each optionally
// preceded by a count from 1 to maxCount (written without leading zeros), or - or nothing for none.
func ParseHand(text string, maxCount int) (first, second int, err error) {
	if text == "-" || text == "" {
		return 0, 0, nil
	}
	maxDigits := len(strconv.Itoa(maxCount))
	for j := 0; j < len(text); j++ {
		count := 1
		if text[j] >= '0' && text[j] <= '9' {
			k := j
			for k < len(text) && text[k] >= '0' && text[k] <= '9' {
				k++
			}
			count, _ = strconv.Atoi(text[j:k])
			if k-j > maxDigits || text[j] == '0' || count > maxCount {
				return 0, 0, fmt.Errorf("count %q: want 1-%d", text[j:k], maxCount)
			}
			if k == len(text) {
				return 0, 0, fmt.Errorf("count %q is not followed by P or p", text[j:k])
			}
			j = k
		}
		switch text[j] {
		case 'P':
			first += count
		case 'p':
			second += count
		default:
			return 0, 0, fmt.Errorf("unexpected character %q (want P, p, a count or -)", text[j])
		}
		if first > maxHandStones || second > maxHandStones {
			return 0, 0, errors.New("more stones than any board holds")
		}
	}
	return first, second, nil
}

// CheckHand reads the stones in hand (see ParseHand) and checks that with the stones on the board they
// make each side's quota, both indexed by games.Side.
func CheckHand(text string, maxCount int, onBoard, quota [2]int) error {
	first, second, err := ParseHand(text, maxCount)
	if err != nil {
		return fmt.Errorf("stones in hand [%s]: %v", text, err)
	}
	for _, c := range []struct {
		letter                 string
		inHand, onBoard, quota int
	}{
		{"P", first, onBoard[games.First], quota[games.First]},
		{"p", second, onBoard[games.Second], quota[games.Second]},
	} {
		if c.inHand+c.onBoard != c.quota {
			return fmt.Errorf("stones in hand: %d %s in hand and %d on the board make %d, want %d",
				c.inHand, c.letter, c.onBoard, c.inHand+c.onBoard, c.quota)
		}
	}
	return nil
}

// ParseSide reads the side to move, the FEN's second field, and checks it against the stones on the
// board: the first player moves whenever both sides have dropped as many stones.
func ParseSide(fields []string, onBoardFirst, onBoardSecond int) (games.Side, error) {
	if len(fields) < 2 {
		return games.First, errors.New("missing the side to move (w or b) after the board")
	}
	var toMove games.Side
	switch fields[1] {
	case "w":
		toMove = games.First
	case "b":
		toMove = games.Second
	default:
		return games.First, fmt.Errorf("side to move %q: want w or b", fields[1])
	}
	if want := games.Side((onBoardFirst + onBoardSecond) & 1); toMove != want {
		return games.First, fmt.Errorf("side to move is %s, but with %d P and %d p on the board %s is to move",
			fields[1], onBoardFirst, onBoardSecond, SideLetter(want))
	}
	return toMove, nil
}

// CheckClocks checks the FEN's fields after the side to move, all optional: castling and en passant
// "-" (game names the game that has neither), a non-negative halfmove clock and a positive fullmove number.
func CheckClocks(fields []string, game string) error {
	if len(fields) > 2 && fields[2] != "-" {
		return fmt.Errorf("castling field %q: %s has no castling, want -", fields[2], game)
	}
	if len(fields) > 3 && fields[3] != "-" {
		return fmt.Errorf("en passant field %q: %s has no en passant, want -", fields[3], game)
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

// Rules are the facts about a drop game that reading its FEN fields needs.
type Rules struct {
	// Game names the game in error messages, as in "cfour has no castling".
	Game string
	// Quota holds the stones each side has in all, indexed by games.Side.
	Quota [2]int
	// MaxHandCount is the largest count allowed before a P or p in the stones in hand.
	MaxHandCount int
}

// ParseFields reads the FEN's fields after the board, in order: the stones in hand when hasHand says they
// were given (CheckHand), the side to move (ParseSide) and the clock fields (CheckClocks); onBoard holds
// the stones on the board, indexed by games.Side. It returns the side to move.
func (r Rules) ParseFields(fields []string, hand string, hasHand bool, onBoard [2]int) (games.Side, error) {
	if hasHand {
		if err := CheckHand(hand, r.MaxHandCount, onBoard, r.Quota); err != nil {
			return games.First, err
		}
	}
	toMove, err := ParseSide(fields, onBoard[games.First], onBoard[games.Second])
	if err != nil {
		return games.First, err
	}
	return toMove, CheckClocks(fields, r.Game)
}

// ParseDrop recognises a drop such as P@d1 (or p@d1): isDrop says whether s has the piece-@ form, and
// then square is what follows the @, for the game to read; game names it in the error for other pieces.
func ParseDrop(s, game string) (square string, isDrop bool, err error) {
	if len(s) < 2 || s[1] != '@' {
		return "", false, nil
	}
	if s[0] != 'P' && s[0] != 'p' {
		return "", true, fmt.Errorf("piece %q: %s drops only P", s[0], game)
	}
	return s[2:], true, nil
}

// FormatDrop writes a drop in cutechess's notation: P@, the file letter and the rank from 1 at the
// bottom (file and rank count from 0).
func FormatDrop(file, rank int) string {
	return fmt.Sprintf("P@%c%d", 'a'+file, rank+1)
}
