// Connect-Four notation: cutechess's cfour FEN and drop moves, and Pons's column digits.

package connect4

import (
	"errors"
	"fmt"
	"math/bits"
	"strconv"
	"strings"

	"dossier/games"
	"dossier/games/dropnotation"
)

// maxHandCount is the largest count before a P or p in the stones in hand: two digits cover every board.
const maxHandCount = 99

// FEN writes the position as cutechess's cfour FEN (see dropnotation.FormatFEN): the fullmove number
// is the one implied by the stones on the board.
func (p *Position) FEN() string {
	g := p.geo
	first, second := p.sideStones()
	quotaFirst, quotaSecond := quotas(g)
	return dropnotation.FormatFEN(dropnotation.Layout{
		Width:  g.width,
		Height: g.height,
		StoneAt: func(file, rank int) (games.Side, bool) {
			cell := g.cell(file, rank)
			if first&cell != 0 {
				return games.First, true
			}
			return games.Second, second&cell != 0
		},
		InHand:   [2]int{quotaFirst - bits.OnesCount64(first), quotaSecond - bits.OnesCount64(second)},
		ToMove:   p.ToMove(),
		Fullmove: p.stones/2 + 1,
	})
}

// quotas returns how many stones each side has in all: the first player one more on an odd board.
func quotas(g *geometry) (first, second int) {
	return (g.width*g.height + 1) / 2, g.width * g.height / 2
}

// parsePosition reads a cfour FEN, or a single word of digits as a Pons move sequence.
func parsePosition(g *geometry, s string) (*Position, error) {
	fields := strings.Fields(s)
	if len(fields) == 0 {
		return nil, errors.New("connect4: empty position string")
	}
	if len(fields) == 1 && strings.Trim(fields[0], "0123456789") == "" {
		p := newPosition(g)
		if err := PlayMoveString(p, fields[0]); err != nil {
			return nil, err
		}
		return p, nil
	}
	return parseFEN(g, s, fields)
}

// parseFEN reads a cfour FEN split into fields; the clocks are checked for form and otherwise ignored,
// since the stones on the board already say how many plies were played.
func parseFEN(g *geometry, s string, fields []string) (*Position, error) {
	errf := func(format string, args ...any) error {
		return fmt.Errorf("connect4: FEN %q: %s", s, fmt.Sprintf(format, args...))
	}
	boardText, handText, hasHand, err := dropnotation.SplitBoardField(fields[0])
	if err != nil {
		return nil, errf("%v", err)
	}
	first, second, err := parseBoard(g, boardText)
	if err != nil {
		return nil, errf("%v", err)
	}
	all := first | second
	for c := 0; c < g.width; c++ {
		for r := 1; r < g.height; r++ {
			if all&g.cell(c, r) != 0 && all&g.cell(c, r-1) == 0 {
				return nil, errf("the stone on %s floats above the empty %s", cellName(c, r), cellName(c, r-1))
			}
		}
	}
	nFirst, nSecond := bits.OnesCount64(first), bits.OnesCount64(second)
	if nFirst != nSecond && nFirst != nSecond+1 {
		return nil, errf("%d P and %d p on the board: the first player (P) has as many stones as the second (p) or one more",
			nFirst, nSecond)
	}
	quotaFirst, quotaSecond := quotas(g)
	rules := dropnotation.Rules{Game: "cfour", Quota: [2]int{quotaFirst, quotaSecond}, MaxHandCount: maxHandCount}
	toMove, err := rules.ParseFields(fields, handText, hasHand, [2]int{nFirst, nSecond})
	if err != nil {
		return nil, errf("%v", err)
	}
	mover, last := first, second
	if toMove == games.Second {
		mover, last = second, first
	}
	lastFour := g.aligned(last)
	switch {
	case g.aligned(first) && g.aligned(second):
		return nil, errf("both P and p have four in a row")
	case g.aligned(mover):
		return nil, errf("%s is to move but already has four in a row, which would have ended the game",
			dropnotation.SideLetter(toMove))
	case !reachable(g, first, all, lastFour, make(map[uint64]bool)):
		if lastFour {
			return nil, errf("no order of alternate drops from the empty board reaches this position "+
				"without %s's four in a row ending the game before its last stone", dropnotation.SideLetter(toMove.Other()))
		}
		return nil, errf("no order of alternate drops from the empty board (P first) reaches this position")
	}
	p := newPosition(g)
	p.mask = all
	p.current = mover
	p.stones = nFirst + nSecond
	return p, nil
}

// parseBoard reads the ranks of a cfour FEN (top first) into the two sides' bitboards.
func parseBoard(g *geometry, text string) (first, second uint64, err error) {
	ranks := strings.Split(text, "/")
	if len(ranks) != g.height {
		return 0, 0, fmt.Errorf("the board %q has %d ranks, want %d", text, len(ranks), g.height)
	}
	for i, rank := range ranks {
		r := g.height - 1 - i
		c := 0
		for j := 0; j < len(rank); {
			switch ch := rank[j]; {
			case ch >= '1' && ch <= '9':
				k := j + 1
				for k < len(rank) && rank[k] >= '0' && rank[k] <= '9' {
					k++
				}
				if k-j > 2 {
					return 0, 0, fmt.Errorf("rank %d %q: empty run %q is longer than the board", r+1, rank, rank[j:k])
				}
				n, _ := strconv.Atoi(rank[j:k])
				c += n
				j = k
			case ch == 'P' || ch == 'p':
				if c < g.width {
					if ch == 'P' {
						first |= g.cell(c, r)
					} else {
						second |= g.cell(c, r)
					}
				}
				c++
				j++
			default:
				return 0, 0, fmt.Errorf("rank %d %q: unexpected character %q (want P, p or a count of empty cells)",
					r+1, rank, ch)
			}
			if c > g.width {
				return 0, 0, fmt.Errorf("rank %d %q has more than %d cells", r+1, rank, g.width)
			}
		}
		if c != g.width {
			return 0, 0, fmt.Errorf("rank %d %q has %d cells, want %d", r+1, rank, c, g.width)
		}
	}
	return first, second, nil
}

// reachable reports whether some order of alternate drops, the first player first, builds the stones
// in all (the first player's being first): it takes stones back from the column tops, the last
// mover's first, and remembers the stone sets it found unreachable in dead. When lastFour is set,
// the first stone taken back must break every four in a row, since the game ended on that stone.
func reachable(g *geometry, first, all uint64, lastFour bool, dead map[uint64]bool) bool {
	if all == 0 {
		return true
	}
	if dead[all] {
		return false
	}
	lastIsFirst := bits.OnesCount64(all)&1 == 1
	for c := 0; c < g.width; c++ {
		h := g.columnHeight(all, c)
		if h == 0 {
			continue
		}
		top := g.cell(c, h-1)
		if (first&top != 0) != lastIsFirst {
			continue
		}
		if lastFour {
			lastStones := all &^ first
			if lastIsFirst {
				lastStones = first
			}
			if g.aligned(lastStones &^ top) {
				continue
			}
		}
		if reachable(g, first&^top, all&^top, false, dead) {
			return true
		}
	}
	dead[all] = true
	return false
}

// FormatMove writes a move in cutechess's cfour notation, P@ then the file and the rank the stone lands on.
func (p *Position) FormatMove(m games.Move) string {
	col := MoveColumn(m)
	if col < 0 || col >= p.geo.width {
		return fmt.Sprintf("<invalid connect4 move %d>", uint64(m))
	}
	return dropnotation.FormatDrop(col, p.geo.columnHeight(p.mask, col))
}

// ParseMove reads a drop as P@d1 (the rank must be where the stone lands), a column number 1-Width
// (Pons's digits) or a bare file letter, and returns it if the column can take a stone.
func (p *Position) ParseMove(s string) (games.Move, error) {
	g := p.geo
	col, rank := -1, -1
	square, isDrop, err := dropnotation.ParseDrop(s, "cfour")
	switch {
	case err != nil:
		return games.NoMove, fmt.Errorf("connect4: move %q: %v", s, err)
	case isDrop:
		if len(square) < 2 || square[0] < 'a' || square[0] > 'z' {
			return games.NoMove, fmt.Errorf("connect4: move %q: want a file letter and a rank after P@, as in P@d1", s)
		}
		col = int(square[0] - 'a')
		n, err := strconv.Atoi(square[1:])
		if err != nil || len(square) > 4 || n < 1 || square[1] < '1' || square[1] > '9' {
			return games.NoMove, fmt.Errorf("connect4: move %q: rank %q is not a number from 1", s, square[1:])
		}
		rank = n - 1
	case len(s) == 1 && s[0] >= 'a' && s[0] <= 'z':
		col = int(s[0] - 'a')
	case len(s) >= 1 && len(s) <= 2 && strings.Trim(s, "0123456789") == "":
		n, _ := strconv.Atoi(s)
		if n < 1 || n > g.width {
			return games.NoMove, fmt.Errorf("connect4: move %q: column number %d is not in 1-%d", s, n, g.width)
		}
		col = n - 1
	default:
		return games.NoMove, fmt.Errorf("connect4: move %q: want a drop such as P@d1, a column number 1-%d or a file letter a-%c",
			s, g.width, 'a'+g.width-1)
	}
	if col >= g.width {
		return games.NoMove, fmt.Errorf("connect4: move %q: file %c is off the %d-column board", s, 'a'+col, g.width)
	}
	if p.lastMoverWon() {
		return games.NoMove, fmt.Errorf("connect4: move %q: the game is over (four in a row)", s)
	}
	h := g.columnHeight(p.mask, col)
	if h == g.height {
		return games.NoMove, fmt.Errorf("connect4: move %q: column %c is full", s, 'a'+col)
	}
	if rank >= 0 && rank != h {
		return games.NoMove, fmt.Errorf("connect4: move %q: a stone dropped in column %c lands on rank %d, not %d",
			s, 'a'+col, h+1, rank+1)
	}
	return ColumnMove(col), nil
}
