// Bitboard representation, precomputed square tables, move encoding and move generation.

package checkers

import (
	"math/bits"

	"dossier/games"
)

// Board geometry. Bit i of a bitboard is PDN square i+1. Row r holds squares 4r+1..4r+4; row 0 (squares 1-4)
// is Black's back row at the top, row 7 (29-32) White's. Even rows sit on files b, d, f, h, odd rows on
// a, c, e, g, so the neighbour of a square in a given diagonal direction is 3, 4 or 5 bits away depending on
// the row's parity; a jump is always 7 or 9 bits.
const (
	evenRows   uint32 = 0x0F0F0F0F
	oddRows    uint32 = 0xF0F0F0F0
	firstInRow uint32 = 0x11111111 // column 0 of every row (files b and a)
	lastInRow  uint32 = 0x88888888 // column 3 of every row (files h and g)
	topRow     uint32 = 0x0000000F // squares 1-4: where White men are crowned
	bottomRow  uint32 = 0xF0000000 // squares 29-32: where Black men are crowned
	allSquares uint32 = 0xFFFFFFFF
)

// Diagonal directions. Black men move towards higher squares (directions 0 and 1), White men towards lower
// ones (2 and 3); kings use all four. Direction 3-d is the opposite of d.
const (
	downLeft  = 0 // towards higher squares and file a
	downRight = 1 // towards higher squares and file h
	upLeft    = 2 // towards lower squares and file a
	upRight   = 3 // towards lower squares and file h
)

// crownRow is the row where each side's men become kings.
var crownRow = [2]uint32{bottomRow, topRow}

// Move encoding (a games.Move): bits 0-4 the origin square index, 5-9 the destination, 10-13 the number of
// jumps, 14-31 the direction of each jump (2 bits each, at most 9 jumps fit on an 8x8 board), 32-63 the
// bitboard of captured pieces. A simple move has no jumps and no captures. The origin and destination differ
// for a simple move and a capture always captures something, so no legal move is zero; two captures of the
// same pieces by different routes differ in their directions.
const (
	moveToShift    = 5
	moveCountShift = 10
	moveDirShift   = 14
	moveCaptShift  = 32
	maxJumps       = 9
)

func moveFrom(m games.Move) int        { return int(m & 31) }
func moveTo(m games.Move) int          { return int(m >> moveToShift & 31) }
func moveJumps(m games.Move) int       { return int(m >> moveCountShift & 15) }
func moveCaptured(m games.Move) uint32 { return uint32(m >> moveCaptShift) }
func moveDir(m games.Move, i int) int  { return int(m >> (moveDirShift + 2*i) & 3) }

// Precomputed square tables, filled once by init.
var (
	neighbour   [4][32]int8   // square index one step away in each direction, or -1
	jumpOver    [4][32]uint32 // bit of the square jumped over in each direction, or 0 when no jump fits
	jumpLand    [4][32]uint8  // square index landed on by that jump
	squareRow   [32]int8      // row 0 (top, squares 1-4) to 7 (bottom, squares 29-32)
	squareFile  [32]int8      // file 0 (a) to 7 (h)
	zobristKeys [4][32]uint64 // by piece kind (see pieceKind) and square
	zobristSide uint64        // xor-ed in when White is to move
)

// squareAt returns the square index at a row and file, or -1 when that is off the board or a light square.
func squareAt(row, file int) int {
	if row < 0 || row > 7 || file < 0 || file > 7 || (row+file)%2 == 0 {
		return -1
	}
	return 4*row + file/2
}

func init() {
	dRow := [4]int{1, 1, -1, -1}
	dFile := [4]int{-1, 1, -1, 1}
	for sq := 0; sq < 32; sq++ {
		row := sq / 4
		file := 2*(sq%4) + 1 - row%2
		squareRow[sq] = int8(row)
		squareFile[sq] = int8(file)
	}
	for sq := 0; sq < 32; sq++ {
		row, file := int(squareRow[sq]), int(squareFile[sq])
		for d := 0; d < 4; d++ {
			neighbour[d][sq] = int8(squareAt(row+dRow[d], file+dFile[d]))
			over, land := squareAt(row+dRow[d], file+dFile[d]), squareAt(row+2*dRow[d], file+2*dFile[d])
			if over >= 0 && land >= 0 {
				jumpOver[d][sq] = 1 << over
				jumpLand[d][sq] = uint8(land)
			}
		}
	}
	// A fixed splitmix64 sequence, so hashes are the same in every run.
	state := uint64(0x64_6f_73_73_69_65_72) // "dossier"
	next := func() uint64 {
		state += 0x9e3779b97f4a7c15
		z := state
		z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
		z = (z ^ z>>27) * 0x94d049bb133111eb
		return z ^ z>>31
	}
	for kind := range zobristKeys {
		for sq := range zobristKeys[kind] {
			zobristKeys[kind][sq] = next()
		}
	}
	zobristSide = next()
}

// The step functions move every piece of b one square in their direction, dropping those that would leave
// the board.
func stepDownLeft(b uint32) uint32  { return (b&evenRows)<<4 | (b&oddRows&^firstInRow)<<3 }
func stepDownRight(b uint32) uint32 { return (b&evenRows&^lastInRow)<<5 | (b&oddRows)<<4 }
func stepUpLeft(b uint32) uint32    { return (b&evenRows)>>4 | (b&oddRows&^firstInRow)>>5 }
func stepUpRight(b uint32) uint32   { return (b&evenRows&^lastInRow)>>3 | (b&oddRows)>>4 }

// step moves every piece of b one square in direction d.
func step(b uint32, d int) uint32 {
	switch d {
	case downLeft:
		return stepDownLeft(b)
	case downRight:
		return stepDownRight(b)
	case upLeft:
		return stepUpLeft(b)
	default:
		return stepUpRight(b)
	}
}

// board is what move generation needs: the pieces of each side, which of them are kings, and the side to move.
type board struct {
	pieces [2]uint32 // indexed by games.Side: First is Black, Second is White
	kings  uint32
	side   games.Side
}

// pieceKind numbers a piece for the Zobrist table: Black man, Black king, White man, White king.
func pieceKind(side games.Side, king bool) int {
	if king {
		return 2*int(side) + 1
	}
	return 2 * int(side)
}

// hash computes the Zobrist hash from scratch.
func (b *board) hash() uint64 {
	var h uint64
	for s := games.First; s <= games.Second; s++ {
		for p := b.pieces[s]; p != 0; p &= p - 1 {
			sq := bits.TrailingZeros32(p)
			h ^= zobristKeys[pieceKind(s, b.kings>>sq&1 != 0)][sq]
		}
	}
	if b.side == games.Second {
		h ^= zobristSide
	}
	return h
}

// forwardDirs returns the range of directions a man of side s moves in (first, last inclusive).
func forwardDirs(s games.Side) (int, int) {
	if s == games.First {
		return downLeft, downRight
	}
	return upLeft, upRight
}

// split returns the pieces of the side to move that move towards higher squares (down: Black's men and
// kings, White's kings) and towards lower squares (up), the opposing pieces and the empty squares.
func (b *board) split() (down, up, opp, empty uint32) {
	mine := b.pieces[b.side]
	opp = b.pieces[b.side^1]
	empty = ^(mine | opp)
	if b.side == games.First {
		return mine, mine & b.kings, opp, empty
	}
	return mine & b.kings, mine, opp, empty
}

// jumpers returns the pieces of the side to move that can capture: those with an opposing piece next to them
// in a direction they move in and an empty square beyond it.
func (b *board) jumpers() uint32 {
	down, up, opp, empty := b.split()
	var can uint32
	if down != 0 {
		can = down & (stepUpRight(stepUpRight(empty)&opp) | stepUpLeft(stepUpLeft(empty)&opp))
	}
	if up != 0 {
		can |= up & (stepDownRight(stepDownRight(empty)&opp) | stepDownLeft(stepDownLeft(empty)&opp))
	}
	return can
}

// appendMoves appends the legal moves of the side to move.
func (b *board) appendMoves(dst []games.Move) []games.Move {
	if j := b.jumpers(); j != 0 {
		return b.appendCaptures(dst, j)
	}
	down, up, _, empty := b.split()
	if down != 0 {
		dst = appendSteps(dst, stepDownLeft(down)&empty, upRight)
		dst = appendSteps(dst, stepDownRight(down)&empty, upLeft)
	}
	if up != 0 {
		dst = appendSteps(dst, stepUpLeft(up)&empty, downRight)
		dst = appendSteps(dst, stepUpRight(up)&empty, downLeft)
	}
	return dst
}

// appendSteps appends the simple moves to the squares in targets, each from its neighbour in direction back.
func appendSteps(dst []games.Move, targets uint32, back int) []games.Move {
	for ; targets != 0; targets &= targets - 1 {
		sq := bits.TrailingZeros32(targets)
		dst = append(dst, games.Move(neighbour[back][sq])|games.Move(sq)<<moveToShift)
	}
	return dst
}

// appendCaptures appends every capture by the pieces in jumpers, one move per route.
func (b *board) appendCaptures(dst []games.Move, jumpers uint32) []games.Move {
	s := b.side
	mine, opp := b.pieces[s], b.pieces[s^1]
	for ; jumpers != 0; jumpers &= jumpers - 1 {
		sq := bits.TrailingZeros32(jumpers)
		bit := uint32(1) << sq
		empty := ^(mine | opp) | bit // the jumper has left its square, and may pass over it again
		first, last := forwardDirs(s)
		if b.kings&bit != 0 {
			first, last = 0, 3
		}
		dst = appendJumps(dst, sq, first, last, opp, empty, 0, games.Move(sq), 0)
	}
	return dst
}

// appendJumps extends a capture that has reached square sq after n jumps, appending every complete route.
// A man that reaches its crowning row has no forward jump left, so its move ends there as the rules require.
func appendJumps(dst []games.Move, sq, first, last int, opp, empty, captured uint32, route games.Move, n int) []games.Move {
	ended := true
	for d := first; d <= last; d++ {
		over := jumpOver[d][sq]
		if over&opp == 0 {
			continue
		}
		land := int(jumpLand[d][sq])
		if empty>>land&1 == 0 {
			continue
		}
		ended = false
		dst = appendJumps(dst, land, first, last, opp&^over, empty, captured|over,
			route|games.Move(d)<<(moveDirShift+2*n), n+1)
	}
	if ended && n > 0 {
		dst = append(dst, route|games.Move(sq)<<moveToShift|games.Move(n)<<moveCountShift|games.Move(captured)<<moveCaptShift)
	}
	return dst
}

// jumpStep is one jump from a square in one direction, for the counting loops: the bit jumped over (0 when
// no jump fits) and the square landed on.
type jumpStep struct {
	over uint32
	land uint32
}

// jumpSteps[sq][d] is the jump from square sq in direction d.
var jumpSteps [32][4]jumpStep

func init() {
	for sq := 0; sq < 32; sq++ {
		for d := 0; d < 4; d++ {
			jumpSteps[sq][d] = jumpStep{over: jumpOver[d][sq], land: uint32(jumpLand[d][sq])}
		}
	}
}

// countManJumps counts the complete capture routes of a man on sq whose forward directions are first and
// first+1, as appendJumps would append them; a square without a further jump ends one route.
func countManJumps(sq uint32, first int, opp, empty uint32) uint64 {
	steps := &jumpSteps[sq&31]
	var count uint64
	if j := steps[first&3]; j.over&opp != 0 && empty>>j.land&1 != 0 {
		count = countManJumps(j.land, first, opp&^j.over, empty)
	}
	if j := steps[(first+1)&3]; j.over&opp != 0 && empty>>j.land&1 != 0 {
		count += countManJumps(j.land, first, opp&^j.over, empty)
	}
	if count == 0 {
		return 1
	}
	return count
}

// countKingJumps is countManJumps for a king, which jumps in all four directions.
func countKingJumps(sq uint32, opp, empty uint32) uint64 {
	steps := &jumpSteps[sq&31]
	var count uint64
	for d := 0; d < 4; d++ {
		if j := steps[d]; j.over&opp != 0 && empty>>j.land&1 != 0 {
			count += countKingJumps(j.land, opp&^j.over, empty)
		}
	}
	if count == 0 {
		return 1
	}
	return count
}

// countMoves counts the legal moves without listing them: popcounts for simple moves, route counting for
// captures. It is perft's bulk count at depth 1.
func (b *board) countMoves() uint64 {
	s := b.side
	mine, opp := b.pieces[s], b.pieces[s^1]
	if j := b.jumpers(); j != 0 {
		// Each jumper has at least one jump, so each count below is of its own routes.
		var count uint64
		first, _ := forwardDirs(s)
		empty := ^(mine | opp)
		for ; j != 0; j &= j - 1 {
			sq := uint32(bits.TrailingZeros32(j))
			bit := uint32(1) << sq
			if b.kings&bit != 0 {
				count += countKingJumps(sq, opp, empty|bit)
			} else {
				count += countManJumps(sq, first, opp, empty|bit)
			}
		}
		return count
	}
	down, up, _, empty := b.split()
	count := bits.OnesCount32(stepDownLeft(down)&empty) + bits.OnesCount32(stepDownRight(down)&empty) +
		bits.OnesCount32(stepUpLeft(up)&empty) + bits.OnesCount32(stepUpRight(up)&empty)
	return uint64(count)
}

// apply plays a legal move on the board (no hash, no history).
func (b *board) apply(m games.Move) {
	s := b.side & 1
	from, to := uint32(1)<<moveFrom(m), uint32(1)<<moveTo(m)
	b.pieces[s] = b.pieces[s]&^from | to // origin and destination coincide when a king's captures close a loop
	if b.kings&from != 0 {
		b.kings = b.kings&^from | to
	} else {
		b.kings |= to & (bottomRow >> (28 * s)) // the crowning row: 29-32 for Black, 1-4 for White
	}
	captured := moveCaptured(m)
	b.pieces[s^1] &^= captured
	b.kings &^= captured
	b.side = s ^ 1
}

// perft counts leaf nodes to depth (at least 1) with bulk counting at depth 1, on value copies of the board
// (a copy is smaller than an undo record); moveBufs holds one move buffer per remaining depth.
func perft(b board, depth int, moveBufs [][games.MaxMoves]games.Move) uint64 {
	if depth == 1 {
		return b.countMoves()
	}
	moves := b.appendMoves(moveBufs[depth][:0])
	var n uint64
	if depth == 2 {
		for _, m := range moves {
			child := b
			child.apply(m)
			n += child.countMoves()
		}
		return n
	}
	for _, m := range moves {
		child := b
		child.apply(m)
		n += perft(child, depth-1, moveBufs)
	}
	return n
}
