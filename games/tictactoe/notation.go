// Tic-tac-toe notation: cutechess's tictactoe FEN and drop moves (P@b2), and bare squares (b2).

package tictactoe

import (
	"errors"
	"fmt"
	"math/bits"
	"strings"

	"dossier/games"
	"dossier/games/dropnotation"
)

// quotaFirst and quotaSecond are the stones each side starts with in hand: X moves first and last.
const (
	quotaFirst  = 5
	quotaSecond = 4
)

// maxHandCount is the largest count before a P or p in the stones in hand: one digit covers the quotas.
const maxHandCount = 9

// FEN writes the position as cutechess's tictactoe FEN (see dropnotation.FormatFEN), P for X and p for
// O, with the fullmove number implied by the stones.
func (p *Position) FEN() string {
	return dropnotation.FormatFEN(dropnotation.Layout{
		Width:  3,
		Height: 3,
		StoneAt: func(file, rank int) (games.Side, bool) {
			bit := uint16(1) << (3*rank + file)
			if p.stones[games.First]&bit != 0 {
				return games.First, true
			}
			return games.Second, p.stones[games.Second]&bit != 0
		},
		InHand: [2]int{quotaFirst - bits.OnesCount16(p.stones[games.First]),
			quotaSecond - bits.OnesCount16(p.stones[games.Second])},
		ToMove:   p.ToMove(),
		Fullmove: p.count()/2 + 1,
	})
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
	boardText, handText, hasHand, err := dropnotation.SplitBoardField(fields[0])
	if err != nil {
		return nil, errf("%v", err)
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
	rules := dropnotation.Rules{Game: "tic-tac-toe", Quota: [2]int{quotaFirst, quotaSecond}, MaxHandCount: maxHandCount}
	toMove, err := rules.ParseFields(fields, handText, hasHand, [2]int{nFirst, nSecond})
	if err != nil {
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

// FormatMove writes a move in cutechess's notation, P@ and the square.
func (p *Position) FormatMove(m games.Move) string {
	if m < 1 || m > numSquares {
		return fmt.Sprintf("<invalid tictactoe move %d>", uint64(m))
	}
	return dropnotation.FormatDrop(int(m-1)%3, int(m-1)/3)
}

// ParseMove reads a move as P@b2 or a bare square b2 and returns it if the square is empty and the game goes on.
func (p *Position) ParseMove(s string) (games.Move, error) {
	square, isDrop, err := dropnotation.ParseDrop(s, "tic-tac-toe")
	if err != nil {
		return games.NoMove, fmt.Errorf("tictactoe: move %q: %v", s, err)
	}
	if !isDrop {
		square = s
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
