// Bitboard masks and bit tricks of one board size, for the solver's search.

package connect4solver

import "math/bits"

// maxWidth bounds the number of columns: a bitboard has 64 bits and every column needs at least two
// (one cell and the sentinel above it).
const maxWidth = 32

// geometry holds the masks of one board size in Pascal Pons's layout (see games/connect4/board.go):
// column c takes bits c*(height+1) .. c*(height+1)+height-1 from the bottom up, and the bit above
// each column is an always-empty sentinel that stops shifts from wrapping into the next column.
type geometry struct {
	width, height int
	cells         int    // width*height: the number of stones on a full board
	horizontal    uint   // bit distance between horizontal neighbours: height+1
	diagonalUp    uint   // towards the upper right: height+2
	diagonalDown  uint   // towards the lower right: height
	bottom        uint64 // the bottom cell of every column
	board         uint64 // every playable cell
	// columnsByPriority lists the columns' cells in the order moves are tried on equal merit: centre
	// first, then outwards alternately (3 2 4 1 5 0 6 on seven columns, 2 3 1 4 0 5 on six).
	columnsByPriority [maxWidth]uint64
}

// newGeometry precomputes the masks of a width x height board; the caller guarantees width*(height+1) <= 64.
func newGeometry(width, height int) geometry {
	stride := height + 1
	g := geometry{
		width:        width,
		height:       height,
		cells:        width * height,
		horizontal:   uint(stride),
		diagonalUp:   uint(stride + 1),
		diagonalDown: uint(stride - 1),
	}
	column := func(c int) uint64 { return (uint64(1)<<uint(height) - 1) << uint(c*stride) }
	for c := 0; c < width; c++ {
		g.bottom |= 1 << uint(c*stride)
		g.board |= column(c)
	}
	// Centre first, then alternately one step further out; on an even width the left middle column
	// counts as the centre.
	left := (width - 1) / 2
	for i := 0; i < width; i++ {
		offset := (i + 1) / 2
		c := left + offset
		if (i%2 == 1) == (width%2 == 1) {
			c = left - offset
		}
		g.columnsByPriority[i] = column(c)
	}
	return g
}

// possible returns the cells where a stone can be dropped: the lowest empty cell of every non-full column.
func (g *geometry) possible(mask uint64) uint64 { return (mask + g.bottom) & g.board }

// winningCells returns the empty cells that would complete four in a row for the owner of stones,
// given all the stones in mask: for each direction, a cell wins when it has three of the owner's stones
// in line on one side, or two on one side and one on the other.
func (g *geometry) winningCells(stones, mask uint64) uint64 {
	// Vertical: only three stones directly below can complete a column.
	won := (stones << 1) & (stones << 2) & (stones << 3)
	won |= lineCompletions(stones, g.horizontal&63)
	won |= lineCompletions(stones, g.diagonalUp&63)
	won |= lineCompletions(stones, g.diagonalDown&63)
	return won & (g.board ^ mask)
}

// lineCompletions returns the cells that complete four of stones along the line whose neighbours are
// shift bits apart (shift < 64): patterns xxx_, xx_x, x_xx and _xxx around the cell.
func lineCompletions(stones uint64, shift uint) uint64 {
	pair := (stones << shift) & (stones << (2 * shift & 63))
	won := pair & (stones << (3 * shift & 63)) // three stones to the lower side
	won |= pair & (stones >> shift)            // two below, one above
	pair = (stones >> shift) & (stones >> (2 * shift & 63))
	won |= pair & (stones << shift)            // one below, two above
	won |= pair & (stones >> (3 * shift & 63)) // three stones to the upper side
	return won
}

// stoneCount returns the number of stones in a bitboard.
func stoneCount(b uint64) int { return bits.OnesCount64(b) }

// aligned reports whether stones hold four in a row.
func (g *geometry) aligned(stones uint64) bool {
	for _, shift := range [4]uint{1, g.horizontal & 63, g.diagonalUp & 63, g.diagonalDown & 63} {
		pairs := stones & (stones >> shift)
		if pairs&(pairs>>(2*shift&63)) != 0 {
			return true
		}
	}
	return false
}

// columnOf returns the column (0 = leftmost) of a single cell.
func (g *geometry) columnOf(cell uint64) int {
	return bits.TrailingZeros64(cell) / int(g.horizontal)
}
