// Package tictactoe implements 3x3 tic-tac-toe for the games interface, in cutechess's "tictactoe" notation.
//
// Squares are named a1-c3 (file a-c from the left, rank 1-3 from the bottom) and numbered 0-8 as
// 3*(rank-1) + file, so a1 = 0, c1 = 2, b2 = 4, c3 = 8; a move is games.Move(square+1). Cutechess treats
// tic-tac-toe as a drop game: a move is written P@b2 (P for both sides), and the start position is
// 3/3/3[PPPPPpppp] w - - 0 1, with P the first player's (X's) stones and p the second player's (O's).
package tictactoe

import (
	"fmt"
	"math/bits"

	"dossier/games"
)

// Game is 3x3 tic-tac-toe.
type Game struct{}

// Name returns "tictactoe".
func (Game) Name() string { return "tictactoe" }

// Start returns the empty board.
func (Game) Start() games.Position { return &Position{} }

// ParsePosition reads a cutechess tictactoe FEN.
func (Game) ParsePosition(s string) (games.Position, error) {
	p, err := Parse(s)
	if err != nil {
		return nil, err
	}
	return p, nil
}

// numSquares is the size of the board.
const numSquares = 9

// lines are the eight rows, columns and diagonals as square masks.
var lines = [8]uint16{
	0b000_000_111, 0b000_111_000, 0b111_000_000, // ranks 1-3
	0b001_001_001, 0b010_010_010, 0b100_100_100, // files a-c
	0b100_010_001, 0b001_010_100, // a1-c3 and c1-a3
}

// Square masks for the features.
const (
	centreMask  uint16 = 1 << 4
	cornersMask uint16 = 1<<0 | 1<<2 | 1<<6 | 1<<8
	fullBoard   uint16 = 1<<numSquares - 1
)

// hasLine reports whether the stones in set include a complete line.
func hasLine(set uint16) bool {
	for _, l := range lines {
		if set&l == l {
			return true
		}
	}
	return false
}

// Position is a tic-tac-toe position with its move history; it implements games.Position and games.Perfter.
type Position struct {
	stones [2]uint16         // stones[side]: the squares of games.First (X) and games.Second (O)
	played [numSquares]uint8 // squares in the order they were filled since the position was set up
	nPlay  int               // moves in played
}

// Stones returns the squares (bit i = square i) holding side's stones.
func (p *Position) Stones(side games.Side) uint16 { return p.stones[side] }

// count returns the number of stones on the board.
func (p *Position) count() int { return bits.OnesCount16(p.stones[0] | p.stones[1]) }

// ToMove returns the side to move: X (games.First) when both have as many stones.
func (p *Position) ToMove() games.Side { return games.Side(p.count() & 1) }

// lastMoverWon reports whether the side that just moved has completed a line.
func (p *Position) lastMoverWon() bool { return hasLine(p.stones[p.ToMove().Other()]) }

// AppendMoves appends a move for every empty square in square order, unless the game is over.
func (p *Position) AppendMoves(dst []games.Move) []games.Move {
	if p.lastMoverWon() {
		return dst
	}
	for empty := fullBoard &^ (p.stones[0] | p.stones[1]); empty != 0; empty &= empty - 1 {
		dst = append(dst, games.Move(bits.TrailingZeros16(empty)+1))
	}
	return dst
}

// Play puts a stone of the side to move on the move's square.
func (p *Position) Play(m games.Move) {
	sq := uint8(m - 1)
	p.stones[p.ToMove()] |= 1 << sq
	p.played[p.nPlay] = sq
	p.nPlay++
}

// Undo takes back the last move; it panics when no move was played since the position was set up.
func (p *Position) Undo() {
	if p.nPlay == 0 {
		panic("tictactoe: Undo with no move to take back")
	}
	p.nPlay--
	p.stones[p.ToMove().Other()] &^= 1 << p.played[p.nPlay]
}

// Hash returns a hash of the position: both sides' stones through a bijective mixer, so distinct
// positions never collide.
func (p *Position) Hash() uint64 {
	z := uint64(p.stones[0]) | uint64(p.stones[1])<<numSquares
	z ^= 0x9e3779b97f4a7c15 // so that the empty board does not hash to 0
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// Status reports a completed line of the last mover (the side to move has lost) or a full board (a draw).
func (p *Position) Status() games.Outcome {
	if p.lastMoverWon() {
		return games.Outcome{Result: games.LossFor(p.ToMove()), Reason: games.Connection}
	}
	if p.count() == numSquares {
		return games.Outcome{Result: games.Draw, Reason: games.BoardFull}
	}
	return games.Outcome{}
}

// NoMovesOutcome returns a draw by full board: only a full board leaves no move while the game goes on.
func (p *Position) NoMovesOutcome() games.Outcome {
	return games.Outcome{Result: games.Draw, Reason: games.BoardFull}
}

// Repetitions returns 0: every move adds a stone, so no position repeats.
func (p *Position) Repetitions() int { return 0 }

// Ply returns the number of stones on the board, the number of half-moves since the empty board.
func (p *Position) Ply() int { return p.count() }

// Clone returns an independent copy of the position and its history.
func (p *Position) Clone() games.Position {
	q := *p
	return &q
}

// Perft counts the leaves of the legal move tree to depth, bulk-counting the last ply.
func (p *Position) Perft(depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	if p.lastMoverWon() {
		return 0
	}
	side := p.ToMove()
	return perft(p.stones[side], p.stones[side.Other()], depth)
}

// perft is Perft below a position where the game is not over, with mine the side to move's stones.
func perft(mine, theirs uint16, depth int) uint64 {
	empty := fullBoard &^ (mine | theirs)
	if depth == 1 {
		return uint64(bits.OnesCount16(empty))
	}
	var n uint64
	for ; empty != 0; empty &= empty - 1 {
		next := mine | empty&-empty
		if hasLine(next) {
			continue // the game ends here, and a finished game has no leaves below it
		}
		n += perft(theirs, next, depth-1)
	}
	return n
}

// String draws the board with X, O and . for empty, rank 3 first.
func (p *Position) String() string {
	buf := make([]byte, 0, 12)
	for r := 2; r >= 0; r-- {
		for f := 0; f < 3; f++ {
			bit := uint16(1) << (3*r + f)
			switch {
			case p.stones[games.First]&bit != 0:
				buf = append(buf, 'X')
			case p.stones[games.Second]&bit != 0:
				buf = append(buf, 'O')
			default:
				buf = append(buf, '.')
			}
		}
		buf = append(buf, '\n')
	}
	return string(buf)
}

// squareName names square sq (0-8) as a1-c3.
func squareName(sq int) string { return fmt.Sprintf("%c%d", 'a'+sq%3, sq/3+1) }
