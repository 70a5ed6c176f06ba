// Squares, bitboards and the precomputed attack and geometry tables of the move generator.

package chess

import "math/bits"

// Square numbering: a1 = 0, b1 = 1, ..., h1 = 7, a2 = 8, ..., h8 = 63; bit i of a bitboard is square i.
const (
	fileA uint64 = 0x0101010101010101
	fileH uint64 = fileA << 7
	rank1 uint64 = 0xFF
	rank2 uint64 = rank1 << 8
	rank3 uint64 = rank1 << 16
	rank6 uint64 = rank1 << 40
	rank7 uint64 = rank1 << 48
	rank8 uint64 = rank1 << 56

	lightSquares uint64 = 0x55AA55AA55AA55AA
	darkSquares  uint64 = ^lightSquares
)

// Named squares used by castling and notation.
const (
	sqA1 = 0
	sqC1 = 2
	sqD1 = 3
	sqE1 = 4
	sqF1 = 5
	sqG1 = 6
	sqH1 = 7
	sqA8 = 56
	sqC8 = 58
	sqD8 = 59
	sqE8 = 60
	sqF8 = 61
	sqG8 = 62
	sqH8 = 63
)

// Precomputed tables, filled once by init.
var (
	knightAttacks [64]uint64
	kingAttacks   [64]uint64
	pawnAttacks   [2][64]uint64 // pawnAttacks[side][sq]: squares a pawn of side on sq attacks
	between       [64][64]uint64
	lineThrough   [64][64]uint64 // the whole rank, file or diagonal through two aligned squares, else 0
	fileOf        [64]uint64
)

func bit(sq int) uint64 { return 1 << uint(sq) }

func lsb(b uint64) int { return bits.TrailingZeros64(b) }

func popcount(b uint64) int { return bits.OnesCount64(b) }

func squareName(sq int) string {
	return string([]byte{byte('a' + sq&7), byte('1' + sq>>3)})
}

// parseSquare reads "e4"; it reports false for anything else.
func parseSquare(s string) (int, bool) {
	if len(s) != 2 || s[0] < 'a' || s[0] > 'h' || s[1] < '1' || s[1] > '8' {
		return 0, false
	}
	return int(s[0]-'a') + 8*int(s[1]-'1'), true
}

// stepAttacks returns the squares one step away in the given (file, rank) offsets that stay on the board.
func stepAttacks(sq int, steps [][2]int) uint64 {
	var b uint64
	f, r := sq&7, sq>>3
	for _, d := range steps {
		nf, nr := f+d[0], r+d[1]
		if nf >= 0 && nf < 8 && nr >= 0 && nr < 8 {
			b |= bit(nr*8 + nf)
		}
	}
	return b
}

// slowSliderAttacks walks rays from sq in the given directions until the board edge or the first blocker in occ.
func slowSliderAttacks(sq int, occ uint64, dirs [][2]int) uint64 {
	var b uint64
	for _, d := range dirs {
		f, r := sq&7+d[0], sq>>3+d[1]
		for f >= 0 && f < 8 && r >= 0 && r < 8 {
			s := r*8 + f
			b |= bit(s)
			if occ&bit(s) != 0 {
				break
			}
			f, r = f+d[0], r+d[1]
		}
	}
	return b
}

var (
	rookDirs   = [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}}
	bishopDirs = [][2]int{{1, 1}, {1, -1}, {-1, 1}, {-1, -1}}
)

func init() {
	knightSteps := [][2]int{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}}
	kingSteps := [][2]int{{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}}
	for sq := 0; sq < 64; sq++ {
		knightAttacks[sq] = stepAttacks(sq, knightSteps)
		kingAttacks[sq] = stepAttacks(sq, kingSteps)
		pawnAttacks[White][sq] = stepAttacks(sq, [][2]int{{-1, 1}, {1, 1}})
		pawnAttacks[Black][sq] = stepAttacks(sq, [][2]int{{-1, -1}, {1, -1}})
		fileOf[sq] = fileA << uint(sq&7)
	}
	for a := 0; a < 64; a++ {
		for _, dirs := range [][][2]int{rookDirs, bishopDirs} {
			fromA := slowSliderAttacks(a, 0, dirs)
			for b := 0; b < 64; b++ {
				if a == b || fromA&bit(b) == 0 {
					continue
				}
				between[a][b] = slowSliderAttacks(a, bit(b), dirs) & slowSliderAttacks(b, bit(a), dirs)
				lineThrough[a][b] = (fromA & slowSliderAttacks(b, 0, dirs)) | bit(a) | bit(b)
			}
		}
	}
}
