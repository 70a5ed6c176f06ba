// Board geometry for Connect-Four bitboards in Pascal Pons's layout, and the bit tricks built on it.

package connect4

import (
	"fmt"
	"math/bits"
)

// The bitboard layout (Pascal Pons, "Solving Connect 4", blog.gamesolver.org):
//
// Each column takes Height+1 consecutive bits, starting at column 0 (the leftmost, file a) in the low
// bits; inside a column bit 0 is the bottom cell and bit Height-1 the top cell. The extra bit at
// Height is a sentinel that is never set, so that shifting a bitboard by one column (Height+1 bits)
// or along a diagonal (Height or Height+2 bits) never carries a stone from the top of one column to
// the bottom of the next. For the standard 7x6 board the cell in column c (0-6) and row r (0-5, from
// the bottom) is bit 7*c+r:
//
//	.  .  .  .  .  .  .     <- sentinel row: 6 13 20 27 34 41 48
//	5 12 19 26 33 40 47     <- top row
//	4 11 18 25 32 39 46
//	3 10 17 24 31 38 45
//	2  9 16 23 30 37 44
//	1  8 15 22 29 36 43
//	0  7 14 21 28 35 42     <- bottom row
//
// A position is two bitboards: mask (every stone on the board) and current (the stones of the side to
// move). Playing a stone in a column is current ^= mask; mask |= (mask + bottom(col)) & column(col):
// adding the column's bottom bit to the column's stones carries into the lowest empty cell. Pons's
// key, current + mask, adds a 1 above each column's topmost stone (the bottom bit of an empty column)
// and keeps the side to move's stones below it, so it identifies the position uniquely in
// Width*(Height+1) bits.

// maxWidth is the widest board: file letters a-z name the columns.
const maxWidth = 26

// The four directions of a line; the features merge the two diagonals into one group.
const (
	horizontal = iota
	vertical
	diagonalUp   // towards the upper right
	diagonalDown // towards the lower right
	numDirections
)

// geometry holds the precomputed masks of one board size; positions of the same game share it.
type geometry struct {
	width, height int
	stride        int                   // bits per column: height plus the sentinel
	bottom        uint64                // the bottom cell of every column
	board         uint64                // every playable cell (no sentinels)
	centre        uint64                // the centre column, or the two central columns of an even width
	shifts        [numDirections]uint   // distance in bits between neighbouring cells of a line
	starts        [numDirections]uint64 // cells where a window of four cells in that direction begins
	order         [maxWidth]int8        // columns from the centre outwards, the order moves are generated in
}

// newGeometry checks the board size and precomputes its masks.
func newGeometry(width, height int) (*geometry, error) {
	if width < 1 || height < 1 {
		return nil, fmt.Errorf("connect4: board %dx%d: width and height must be at least 1", width, height)
	}
	if width > maxWidth {
		return nil, fmt.Errorf("connect4: board %dx%d: at most %d columns (files a-z)", width, height, maxWidth)
	}
	if width*(height+1) > 64 {
		return nil, fmt.Errorf("connect4: board %dx%d: width*(height+1) = %d bits exceeds the 64 of a bitboard",
			width, height, width*(height+1))
	}
	g := &geometry{width: width, height: height, stride: height + 1}
	g.shifts = [numDirections]uint{
		horizontal:   uint(g.stride),
		vertical:     1,
		diagonalUp:   uint(g.stride + 1),
		diagonalDown: uint(g.stride - 1),
	}
	for c := 0; c < width; c++ {
		g.bottom |= g.cell(c, 0)
		g.board |= g.column(c)
	}
	g.centre = g.column((width - 1) / 2)
	if width%2 == 0 {
		g.centre |= g.column(width / 2)
	}
	// A window starts at (c, r) when its fourth cell (c+3dc, r+3dr) is on the board too.
	steps := [numDirections][2]int{horizontal: {1, 0}, vertical: {0, 1}, diagonalUp: {1, 1}, diagonalDown: {1, -1}}
	for d, step := range steps {
		for c := 0; c < width; c++ {
			for r := 0; r < height; r++ {
				ec, er := c+3*step[0], r+3*step[1]
				if ec < width && er >= 0 && er < height {
					g.starts[d] |= g.cell(c, r)
				}
			}
		}
	}
	// Centre first, then outwards alternately, as Pons orders his search: 3 2 4 1 5 0 6 on seven columns,
	// 2 3 1 4 0 5 on six.
	left := (width - 1) / 2 // the centre column, or the left of the two central ones
	for i := range width {
		offset := (i + 1) / 2
		if (i%2 == 1) == (width%2 == 1) {
			g.order[i] = int8(left - offset)
		} else {
			g.order[i] = int8(left + offset)
		}
	}
	return g, nil
}

// cell returns the bit of column c (0 = leftmost), row r (0 = bottom).
func (g *geometry) cell(c, r int) uint64 { return 1 << uint(c*g.stride+r) }

// column returns the playable cells of column c.
func (g *geometry) column(c int) uint64 { return ((1 << uint(g.height)) - 1) << uint(c*g.stride) }

// topCell returns the top playable cell of column c, set only when the column is full.
func (g *geometry) topCell(c int) uint64 { return g.cell(c, g.height-1) }

// aligned reports whether the stones in pos include four in a row in any direction.
func (g *geometry) aligned(pos uint64) bool {
	for _, s := range g.shifts {
		m := pos & (pos >> s)
		if m&(m>>(2*s)) != 0 {
			return true
		}
	}
	return false
}

// columnHeight returns the number of stones in column c of mask.
func (g *geometry) columnHeight(mask uint64, c int) int {
	return bits.OnesCount64(mask & g.column(c))
}

// possible returns the cells where the side to move can drop a stone: one per non-full column.
func (g *geometry) possible(mask uint64) uint64 { return (mask + g.bottom) & g.board }

// cellName names a cell in cutechess's coordinates: file letter and rank from 1 at the bottom.
func cellName(c, r int) string { return fmt.Sprintf("%c%d", 'a'+c, r+1) }
