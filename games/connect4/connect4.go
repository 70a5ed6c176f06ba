// Package connect4 implements Connect-Four on bitboards (Pascal Pons's layout) for the games interface.
//
// Moves are games.Move(column+1), column 0 being the leftmost (file a). Notation follows cutechess's
// "cfour" variant: a drop is written P@d1 (the file and the rank the stone lands on, P for both sides) and
// positions are cfour FENs such as 7/7/7/7/7/7[PPPPPPPPPPPPPPPPPPPPPppppppppppppppppppppp] w - - 0 1.
// Pons's column-digit sequences (1 = leftmost, e.g. "4453") are accepted wherever a position or a
// move is read. See board.go for the bitboard layout the exact solver relies on.
package connect4

import (
	"fmt"
	"math/bits"

	"dossier/games"
)

// Game is Connect-Four on a Width x Height board; the zero value is the standard 7x6 game.
// Any size with Width <= 26 and Width*(Height+1) <= 64 works (Sen & Arora played 6x6).
type Game struct {
	Width, Height int
}

// dims returns the board size, with the zero value meaning 7x6.
func (g Game) dims() (int, int) {
	if g.Width == 0 && g.Height == 0 {
		return 7, 6
	}
	return g.Width, g.Height
}

// Validate reports whether the board size is usable.
func (g Game) Validate() error {
	_, err := newGeometry(g.dims())
	return err
}

// Name returns "connect4".
func (g Game) Name() string { return "connect4" }

// Variants gives Connect-Four's name in the protocols and records as cutechess and xboard spell it.
func (Game) Variants() games.Variants {
	return games.Variants{UCI: "cfour", CECP: "cfour", Record: "cfour"}
}

// SideNames names Connect-Four's sides by their order.
func (Game) SideNames() [2]string { return [2]string{"first", "second"} }

// StartPosition returns the empty board as the concrete type, or an error for an unusable board size.
func (g Game) StartPosition() (*Position, error) {
	geo, err := newGeometry(g.dims())
	if err != nil {
		return nil, err
	}
	return newPosition(geo), nil
}

// Start returns the empty board; it panics if the board size is unusable (see Validate).
func (g Game) Start() games.Position {
	p, err := g.StartPosition()
	if err != nil {
		panic(err)
	}
	return p
}

// ParsePosition reads a cfour FEN or a Pons column-digit move sequence from the empty board.
func (g Game) ParsePosition(s string) (games.Position, error) {
	p, err := g.Parse(s)
	if err != nil {
		return nil, err
	}
	return p, nil
}

// Parse is ParsePosition returning the concrete type.
func (g Game) Parse(s string) (*Position, error) {
	geo, err := newGeometry(g.dims())
	if err != nil {
		return nil, err
	}
	return parsePosition(geo, s)
}

// Position is a Connect-Four position with its move history; it implements games.Position and games.Perfter.
type Position struct {
	geo     *geometry
	current uint64   // stones of the side to move
	mask    uint64   // all stones
	played  []uint64 // the cell of every stone dropped since the position was set up, for Undo
	stones  int      // stones on the board, which is also the number of plies since the empty board
}

// newPosition returns the empty board of geometry geo.
func newPosition(geo *geometry) *Position {
	return &Position{geo: geo, played: make([]uint64, 0, geo.width*geo.height)}
}

// Width returns the number of columns.
func (p *Position) Width() int { return p.geo.width }

// Height returns the number of rows.
func (p *Position) Height() int { return p.geo.height }

// Current returns the bitboard of the side to move's stones (layout in board.go).
func (p *Position) Current() uint64 { return p.current }

// Mask returns the bitboard of all stones on the board (layout in board.go).
func (p *Position) Mask() uint64 { return p.mask }

// Moves returns the number of stones on the board (Pons's nbMoves).
func (p *Position) Moves() int { return p.stones }

// Key returns Pons's position key current + mask, unique for a position of this board size.
func (p *Position) Key() uint64 { return p.current + p.mask }

// BottomMask returns the bottom cell of every column (Pons's bottom_mask).
func (p *Position) BottomMask() uint64 { return p.geo.bottom }

// BoardMask returns every playable cell, sentinels excluded (Pons's board_mask).
func (p *Position) BoardMask() uint64 { return p.geo.board }

// CanPlay reports whether column col (0 = leftmost) is on the board, not full, and the game is not over.
func (p *Position) CanPlay(col int) bool {
	return col >= 0 && col < p.geo.width && p.mask&p.geo.topCell(col) == 0 && !p.lastMoverWon()
}

// ColumnMove returns the move that drops a stone in column col (0 = leftmost).
func ColumnMove(col int) games.Move { return games.Move(col + 1) }

// MoveColumn returns the column (0 = leftmost) a move drops its stone in.
func MoveColumn(m games.Move) int { return int(m) - 1 }

// ToMove returns the side to move: the first player when the number of stones is even.
func (p *Position) ToMove() games.Side { return games.Side(p.stones & 1) }

// lastMoverWon reports whether the side that just moved has four in a row.
func (p *Position) lastMoverWon() bool { return p.geo.aligned(p.current ^ p.mask) }

// AppendMoves appends a drop for every non-full column, centre columns first, unless the game is over.
func (p *Position) AppendMoves(dst []games.Move) []games.Move {
	if p.lastMoverWon() {
		return dst
	}
	g := p.geo
	possible := g.possible(p.mask)
	for _, c := range g.order[:g.width] {
		if possible&g.column(int(c)) != 0 {
			dst = append(dst, games.Move(c)+1)
		}
	}
	return dst
}

// Play drops a stone for the side to move in the move's column.
func (p *Position) Play(m games.Move) {
	cell := (p.mask + p.geo.bottom) & p.geo.column(int(m)-1)
	p.current ^= p.mask
	p.mask |= cell
	p.played = append(p.played, cell)
	p.stones++
}

// Undo takes back the last stone dropped; it panics when no move was played since the position was set up.
func (p *Position) Undo() {
	n := len(p.played)
	if n == 0 {
		panic("connect4: Undo with no move to take back")
	}
	p.mask ^= p.played[n-1]
	p.current ^= p.mask
	p.played = p.played[:n-1]
	p.stones--
}

// Hash returns a hash of the position: Pons's key through a bijective mixer, so distinct positions of
// one board size never collide.
func (p *Position) Hash() uint64 {
	z := p.Key() ^ 0x9e3779b97f4a7c15 // so that the empty board does not hash to 0
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// Status reports a connection by the last mover (the side to move has lost) or a full board (a draw).
func (p *Position) Status() games.Outcome {
	if p.lastMoverWon() {
		return games.Outcome{Result: games.LossFor(p.ToMove()), Reason: games.Connection}
	}
	if p.stones == p.geo.width*p.geo.height {
		return games.Outcome{Result: games.Draw, Reason: games.BoardFull}
	}
	return games.Outcome{}
}

// NoMovesOutcome returns a draw by full board: only a full board leaves no drop while the game goes on.
func (p *Position) NoMovesOutcome() games.Outcome {
	return games.Outcome{Result: games.Draw, Reason: games.BoardFull}
}

// Repetitions returns 0: every move adds a stone, so no position repeats.
func (p *Position) Repetitions() int { return 0 }

// Ply returns the number of stones on the board, the number of half-moves since the empty board.
func (p *Position) Ply() int { return p.stones }

// Clone returns an independent copy of the position and its history.
func (p *Position) Clone() games.Position {
	q := *p
	q.played = make([]uint64, len(p.played), p.geo.width*p.geo.height)
	copy(q.played, p.played)
	return &q
}

// Perft counts the leaves of the legal move tree to depth on the bitboards, bulk-counting the last ply.
func (p *Position) Perft(depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	if p.lastMoverWon() {
		return 0
	}
	return perft(p.geo, p.current, p.mask, depth)
}

// perft is Perft below a position where the game is not over.
func perft(g *geometry, current, mask uint64, depth int) uint64 {
	possible := g.possible(mask)
	if depth == 1 {
		return uint64(bits.OnesCount64(possible))
	}
	var n uint64
	for possible != 0 {
		cell := possible & -possible
		possible ^= cell
		if g.aligned(current | cell) {
			continue // the game ends here, and a finished game has no leaves below it
		}
		n += perft(g, current^mask, mask|cell, depth-1)
	}
	return n
}

// PlayMoveString plays a Pons column-digit sequence such as "4453" (1 = leftmost column) on p.
// On error p is left as it was and the error names the offending digit and its position.
func PlayMoveString(p *Position, seq string) error {
	for i := 0; i < len(seq); i++ {
		if err := playDigit(p, seq, i); err != nil {
			for j := 0; j < i; j++ {
				p.Undo()
			}
			return err
		}
	}
	return nil
}

// playDigit plays the i-th digit of seq, or says why it cannot.
func playDigit(p *Position, seq string, i int) error {
	ch := seq[i]
	if ch < '1' || ch > '9' {
		return fmt.Errorf("connect4: move string %q: character %q at position %d is not a column digit 1-9",
			seq, ch, i+1)
	}
	col := int(ch - '1')
	switch {
	case col >= p.geo.width:
		return fmt.Errorf("connect4: move string %q: column %c at position %d is off the %d-column board",
			seq, ch, i+1, p.geo.width)
	case p.lastMoverWon():
		return fmt.Errorf("connect4: move string %q: move %c at position %d comes after the game ended",
			seq, ch, i+1)
	case p.mask&p.geo.topCell(col) != 0:
		return fmt.Errorf("connect4: move string %q: column %c at position %d is full", seq, ch, i+1)
	}
	p.Play(ColumnMove(col))
	return nil
}

// String draws the board with X for the first player, O for the second and . for empty, top row first.
func (p *Position) String() string {
	first, second := p.sideStones()
	g := p.geo
	buf := make([]byte, 0, (g.width+1)*g.height)
	for r := g.height - 1; r >= 0; r-- {
		for c := 0; c < g.width; c++ {
			switch cell := g.cell(c, r); {
			case first&cell != 0:
				buf = append(buf, 'X')
			case second&cell != 0:
				buf = append(buf, 'O')
			default:
				buf = append(buf, '.')
			}
		}
		buf = append(buf, '\n')
	}
	return string(buf)
}

// sideStones returns the first and the second player's stones.
func (p *Position) sideStones() (first, second uint64) {
	other := p.current ^ p.mask
	if p.ToMove() == games.First {
		return p.current, other
	}
	return other, p.current
}
