// PDN FEN position strings and PDN move notation: reading, validating and writing them.

package checkers

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"

	"dossier/games"
)

// maxPiecesPerSide is the number of pieces each side starts with, and so the most it can have.
const maxPiecesPerSide = 12

// colourLetter is the PDN letter of each side.
var colourLetter = [2]byte{'B', 'W'}

// ParseFEN reads a PDN FEN string such as `B:W21-32:B1-12` (see the package doc for the accepted forms).
// It checks the squares (1-32, none twice), that no man stands on its own crowning row and that neither side
// has more than 12 pieces; errors name the offending field or token.
func ParseFEN(s string) (*Position, error) {
	text := strings.TrimSpace(s)
	for i := 0; i < 2; i++ { // a trailing dot may sit inside or outside the quotes
		text = strings.TrimSpace(strings.TrimSuffix(text, "."))
		if len(text) >= 2 && text[0] == '"' && text[len(text)-1] == '"' {
			text = strings.TrimSpace(text[1 : len(text)-1])
		}
	}
	if text == "" {
		return nil, fmt.Errorf("checkers FEN %q: empty position string", s)
	}
	fields := strings.Split(text, ":")
	if len(fields) != 3 {
		return nil, fmt.Errorf("checkers FEN %q: want 3 fields separated by ':' (side to move, White's squares, Black's squares), got %d", s, len(fields))
	}
	var b board
	switch side := strings.TrimSpace(fields[0]); side {
	case "B", "b":
		b.side = games.First
	case "W", "w":
		b.side = games.Second
	default:
		return nil, fmt.Errorf("checkers FEN %q: side to move %q is neither B nor W", s, side)
	}
	var seen [2]bool
	for _, field := range fields[1:] {
		field = strings.TrimSpace(field)
		if field == "" {
			return nil, fmt.Errorf("checkers FEN %q: empty piece field, want W or B followed by squares", s)
		}
		var side games.Side
		switch field[0] {
		case 'B', 'b':
			side = games.First
		case 'W', 'w':
			side = games.Second
		default:
			return nil, fmt.Errorf("checkers FEN %q: piece field %q does not start with W or B", s, field)
		}
		if seen[side] {
			return nil, fmt.Errorf("checkers FEN %q: colour %c listed twice", s, colourLetter[side])
		}
		seen[side] = true
		if err := parsePieceList(&b, side, field[1:]); err != nil {
			return nil, fmt.Errorf("checkers FEN %q: %w", s, err)
		}
	}
	return newPosition(b), nil
}

// parsePieceList adds one side's pieces, a comma-separated list of squares and ranges with optional K
// prefixes, to b, validating each.
func parsePieceList(b *board, side games.Side, list string) error {
	if strings.TrimSpace(list) == "" {
		return nil // a side without pieces
	}
	for _, token := range strings.Split(list, ",") {
		token = strings.TrimSpace(token)
		item := token
		king := false
		if item != "" && (item[0] == 'K' || item[0] == 'k') {
			king = true
			item = strings.TrimSpace(item[1:])
		}
		lo, hi := item, item
		if i := strings.IndexByte(item, '-'); i >= 0 {
			lo, hi = strings.TrimSpace(item[:i]), strings.TrimSpace(item[i+1:])
		}
		first, err := parseSquare(lo)
		if err != nil {
			return fmt.Errorf("%c piece %q: %w", colourLetter[side], token, err)
		}
		last, err := parseSquare(hi)
		if err != nil {
			return fmt.Errorf("%c piece %q: %w", colourLetter[side], token, err)
		}
		if last < first {
			return fmt.Errorf("%c piece %q: range runs backwards", colourLetter[side], token)
		}
		for sq := first; sq <= last; sq++ {
			bit := uint32(1) << (sq - 1)
			if (b.pieces[0]|b.pieces[1])&bit != 0 {
				return fmt.Errorf("%c piece %q: square %d is already occupied", colourLetter[side], token, sq)
			}
			if !king && bit&crownRow[side] != 0 {
				return fmt.Errorf("%c piece %q: a %s man cannot stand on square %d, its crowning row", colourLetter[side], token, colourName(side), sq)
			}
			b.pieces[side] |= bit
			if king {
				b.kings |= bit
			}
			if bits.OnesCount32(b.pieces[side]) > maxPiecesPerSide {
				return fmt.Errorf("%c piece %q: more than %d %s pieces", colourLetter[side], token, maxPiecesPerSide, colourName(side))
			}
		}
	}
	return nil
}

// parseSquare reads a square number 1-32.
func parseSquare(s string) (int, error) {
	if s == "" {
		return 0, fmt.Errorf("missing square number")
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, fmt.Errorf("bad square number %q: not a number", s)
		}
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n > 32 {
		return 0, fmt.Errorf("bad square number %q: want 1-32", s)
	}
	return n, nil
}

// colourName names a side in checkers terms.
func colourName(s games.Side) string {
	if s == games.First {
		return "Black"
	}
	return "White"
}

// FEN writes the canonical PDN FEN: side to move, White's squares, Black's squares, each ascending, kings
// marked with K in place (the start position is StartFEN).
func (p *Position) FEN() string {
	var sb strings.Builder
	sb.Grow(96)
	sb.WriteByte(colourLetter[p.board.side])
	for _, side := range [2]games.Side{games.Second, games.First} {
		sb.WriteByte(':')
		sb.WriteByte(colourLetter[side])
		sep := false
		for pieces := p.board.pieces[side]; pieces != 0; pieces &= pieces - 1 {
			sq := bits.TrailingZeros32(pieces)
			if sep {
				sb.WriteByte(',')
			}
			sep = true
			if p.board.kings>>sq&1 != 0 {
				sb.WriteByte('K')
			}
			sb.WriteString(strconv.Itoa(sq + 1))
		}
	}
	return sb.String()
}

// String returns the PDN FEN.
func (p *Position) String() string { return p.FEN() }

// Diagram draws the board with White at the bottom: b/w for men, B/W for kings, '.' for empty dark squares.
func (p *Position) Diagram() string {
	var sb strings.Builder
	for row := 0; row < 8; row++ {
		for file := 0; file < 8; file++ {
			sq := squareAt(row, file)
			switch {
			case sq < 0:
				sb.WriteByte(' ')
			case p.board.pieces[games.First]>>sq&1 != 0:
				sb.WriteByte("bB"[p.board.kings>>sq&1])
			case p.board.pieces[games.Second]>>sq&1 != 0:
				sb.WriteByte("wW"[p.board.kings>>sq&1])
			default:
				sb.WriteByte('.')
			}
		}
		sb.WriteByte('\n')
	}
	return sb.String()
}

// movePath returns the squares (PDN numbers) a move visits: origin, each landing square.
func movePath(m games.Move) []int {
	path := []int{moveFrom(m) + 1}
	if moveCaptured(m) == 0 {
		return append(path, moveTo(m)+1)
	}
	sq := moveFrom(m)
	for i := 0; i < moveJumps(m); i++ {
		sq = int(jumpLand[moveDir(m, i)][sq])
		path = append(path, sq+1)
	}
	return path
}

// FormatMove writes a move in PDN: `11-15`, or the full path of a capture, `26x17x10x1`.
func (p *Position) FormatMove(m games.Move) string {
	return formatMove(m)
}

func formatMove(m games.Move) string {
	if moveCaptured(m) == 0 {
		return strconv.Itoa(moveFrom(m)+1) + "-" + strconv.Itoa(moveTo(m)+1)
	}
	var sb strings.Builder
	for i, sq := range movePath(m) {
		if i > 0 {
			sb.WriteByte('x')
		}
		sb.WriteString(strconv.Itoa(sq))
	}
	return sb.String()
}

// ParseMove reads a move in PDN notation and returns it if it is legal: `11-15`, the full path of a capture
// `26x17x10x1` (also `26-17-10-1`), or its start and end `26x1` (also `26-1`) when exactly one legal capture
// matches.
func (p *Position) ParseMove(s string) (games.Move, error) {
	text := strings.TrimSpace(s)
	if text == "" {
		return games.NoMove, fmt.Errorf("move %q: empty", s)
	}
	sep := "-"
	capture := strings.ContainsAny(text, "xX:")
	if capture {
		sep = "x"
		text = strings.NewReplacer("X", "x", ":", "x").Replace(text)
		if strings.Contains(text, "-") {
			return games.NoMove, fmt.Errorf("move %q: mixes '-' and 'x'", s)
		}
	}
	parts := strings.Split(text, sep)
	if len(parts) < 2 {
		return games.NoMove, fmt.Errorf("move %q: want squares separated by '-' or 'x', like 11-15 or 22x15", s)
	}
	if len(parts) > maxJumps+1 {
		return games.NoMove, fmt.Errorf("move %q: a capture has at most %d jumps", s, maxJumps)
	}
	if len(parts) > 2 {
		capture = true // a multiple capture written with '-', as some archives do
	}
	path := make([]int, len(parts))
	for i, part := range parts {
		sq, err := parseSquare(strings.TrimSpace(part))
		if err != nil {
			return games.NoMove, fmt.Errorf("move %q: %w", s, err)
		}
		path[i] = sq
	}
	b := &p.board
	mover := b.side
	if b.pieces[mover]>>(path[0]-1)&1 == 0 {
		what := "empty"
		if b.pieces[mover^1]>>(path[0]-1)&1 != 0 {
			what = "holds a " + colourName(mover^1) + " piece"
		}
		return games.NoMove, fmt.Errorf("move %q: no %s piece on square %d (it is %s)", s, colourName(mover), path[0], what)
	}
	var buf [games.MaxMoves]games.Move
	moves := b.appendMoves(buf[:0])
	capturing := len(moves) > 0 && moveCaptured(moves[0]) != 0
	if !capture && !capturing {
		for _, m := range moves {
			if moveFrom(m) == path[0]-1 && moveTo(m) == path[1]-1 {
				return m, nil
			}
		}
		return games.NoMove, fmt.Errorf("move %q: not legal here (%s to move; legal: %s)", s, colourName(mover), listMoves(moves))
	}
	if !capturing {
		return games.NoMove, fmt.Errorf("move %q: not legal here: no capture is possible (legal: %s)", s, listMoves(moves))
	}
	for _, m := range moves {
		if samePath(movePath(m), path) {
			return m, nil
		}
	}
	if len(path) == 2 {
		// Start and end of a multiple capture, accepted when it is unambiguous.
		var candidates []games.Move
		for _, m := range moves {
			if moveFrom(m) == path[0]-1 && moveTo(m) == path[1]-1 {
				candidates = append(candidates, m)
			}
		}
		switch len(candidates) {
		case 1:
			return candidates[0], nil
		case 0:
			if !capture {
				return games.NoMove, fmt.Errorf("move %q: not legal: capture is mandatory (legal: %s)", s, listMoves(moves))
			}
			return games.NoMove, fmt.Errorf("move %q: no legal capture from %d ends on %d (legal: %s)", s, path[0], path[1], listMoves(moves))
		default:
			return games.NoMove, fmt.Errorf("move %q: ambiguous, %d captures go from %d to %d: %s; write the full path", s, len(candidates), path[0], path[1], listMoves(candidates))
		}
	}
	return games.NoMove, fmt.Errorf("move %q: no legal capture follows this path (legal: %s)", s, listMoves(moves))
}

func samePath(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// listMoves formats moves for an error message.
func listMoves(moves []games.Move) string {
	if len(moves) == 0 {
		return "none"
	}
	names := make([]string, len(moves))
	for i, m := range moves {
		names[i] = formatMove(m)
	}
	return strings.Join(names, " ")
}
