// A plain-array Connect-Four, written independently of the bitboards, that the tests check them against.

package connect4

// refBoard is Connect-Four on a grid of cells with no bit tricks: 0 empty, 1 the first player, 2 the second.
type refBoard struct {
	width, height int
	cells         [][]int8 // cells[column][row], row 0 at the bottom
	heights       []int
	moves         []int  // columns played
	winners       []int8 // winners[i] is the winner after moves[:i+1] (0 for none)
}

func newRefBoard(width, height int) *refBoard {
	b := &refBoard{width: width, height: height, cells: make([][]int8, width), heights: make([]int, width)}
	for c := range b.cells {
		b.cells[c] = make([]int8, height)
	}
	return b
}

// winner returns the player who has completed a line (0 while nobody has).
func (b *refBoard) winner() int8 {
	if len(b.winners) == 0 {
		return 0
	}
	return b.winners[len(b.winners)-1]
}

func (b *refBoard) full() bool { return len(b.moves) == b.width*b.height }

// legal returns the playable columns from left to right, none once someone has won.
func (b *refBoard) legal() []int {
	if b.winner() != 0 {
		return nil
	}
	var cols []int
	for c := 0; c < b.width; c++ {
		if b.heights[c] < b.height {
			cols = append(cols, c)
		}
	}
	return cols
}

func (b *refBoard) play(c int) {
	player := int8(len(b.moves)%2 + 1)
	r := b.heights[c]
	b.cells[c][r] = player
	b.heights[c]++
	b.moves = append(b.moves, c)
	w := b.winner()
	if w == 0 && b.lineThrough(c, r) >= 4 {
		w = player
	}
	b.winners = append(b.winners, w)
}

func (b *refBoard) undo() {
	c := b.moves[len(b.moves)-1]
	b.heights[c]--
	b.cells[c][b.heights[c]] = 0
	b.moves = b.moves[:len(b.moves)-1]
	b.winners = b.winners[:len(b.winners)-1]
}

// lineThrough returns the longest run of the stone at (c, r)'s colour through it in any direction.
func (b *refBoard) lineThrough(c, r int) int {
	player := b.cells[c][r]
	best := 0
	for _, d := range [][2]int{{1, 0}, {0, 1}, {1, 1}, {1, -1}} {
		n := 1
		for _, sign := range []int{1, -1} {
			x, y := c+sign*d[0], r+sign*d[1]
			for x >= 0 && x < b.width && y >= 0 && y < b.height && b.cells[x][y] == player {
				n++
				x, y = x+sign*d[0], y+sign*d[1]
			}
		}
		best = max(best, n)
	}
	return best
}

func (b *refBoard) perft(depth int) uint64 {
	if depth == 0 {
		return 1
	}
	cols := b.legal()
	if depth == 1 {
		return uint64(len(cols))
	}
	var n uint64
	for _, c := range cols {
		b.play(c)
		n += b.perft(depth - 1)
		b.undo()
	}
	return n
}

// features computes the feature vector by looking at every window of four cells one by one.
func (b *refBoard) features() []float64 {
	me := int8(len(b.moves)%2 + 1)
	them := 3 - me
	f := make([]float64, NumFeatures)
	for _, d := range []struct{ dc, dr, base int }{{1, 0, H1Mine}, {0, 1, V1Mine}, {1, 1, D1Mine}, {1, -1, D1Mine}} {
		for c := 0; c < b.width; c++ {
			for r := 0; r < b.height; r++ {
				ec, er := c+3*d.dc, r+3*d.dr
				if ec < 0 || ec >= b.width || er < 0 || er >= b.height {
					continue
				}
				mine, theirs := 0, 0
				for i := 0; i < 4; i++ {
					switch b.cells[c+i*d.dc][r+i*d.dr] {
					case me:
						mine++
					case them:
						theirs++
					}
				}
				if theirs == 0 && mine >= 1 && mine <= 3 {
					f[d.base+2*(mine-1)]++
				}
				if mine == 0 && theirs >= 1 && theirs <= 3 {
					f[d.base+2*(theirs-1)+1]++
				}
			}
		}
	}
	centres := []int{(b.width - 1) / 2}
	if b.width%2 == 0 {
		centres = append(centres, b.width/2)
	}
	for _, c := range centres {
		for r := 0; r < b.height; r++ {
			switch b.cells[c][r] {
			case me:
				f[Centre]++
			case them:
				f[Centre]--
			}
		}
	}
	return f
}
