// Castling for any king and rook start files (standard chess and Chess960): the rules of one game's castling
// rights, precomputed once per game, and the Chess960 start positions by Scharnagl's numbering.

package chess

import (
	"fmt"

	"dossier/games"
)

// castlingRules holds, for each castling right i (see castleWhiteKing), what move generation and Play need:
// the king's and rook's start squares and everything derived from them. A game's rules never change, so
// every position of the game shares one; standardCastling serves standard chess.
type castlingRules struct {
	king, rook [4]uint8
	// keep[sq] is the rights that survive a move from or to sq (a king or castling rook leaving or taken).
	keep   [64]uint8
	castle [4]castling
	// standard is set for standard chess's rules, which move generation tests by constants.
	standard bool
	// zobrist[rights] is the hash of a set of rights: zobristCastling, plus a key per right whose rook is not
	// on the standard a- or h-file square beside a king on e.
	zobrist [16]uint64
}

// castling is what move generation needs of one right (indexed i&3 so that the compiler drops bounds checks).
type castling struct {
	right uint8
	// empty holds the squares both pieces cross or land on, less the two: they must be empty.
	empty uint64
	// path holds the squares the king crosses or lands on: none may be attacked.
	path uint64
	// uncovers is set when the rook stands beyond the king's destination (a b-file rook castling long): its
	// leaving can expose that square along the rank, so the destination is tested without it.
	uncovers bool
	move     games.Move
}

// standardCastling is the castling of standard chess (kings on e1 and e8, rooks in the corners), a
// precomputed table filled by init.
var standardCastling *castlingRules

// newCastlingRules returns the rules for kings and rooks on the given squares, by right. Squares of rights a
// game lacks may be anything consistent (the standard ones), as nothing reads them while the right is off.
func newCastlingRules(king, rook [4]int) *castlingRules {
	r := &castlingRules{}
	for sq := range r.keep {
		r.keep[sq] = 15
	}
	standardRook := [4]int{sqH1, sqA1, sqH8, sqA8}
	var extra [4]uint64
	for i := 0; i < 4; i++ {
		k, rk := king[i], rook[i]
		r.king[i], r.rook[i] = uint8(k), uint8(rk)
		r.keep[k] &^= 1 << uint(i)
		r.keep[rk] &^= 1 << uint(i)
		kingTo, rookTo := castlingTargets(i)
		r.castle[i] = castling{
			right: 1 << uint(i),
			empty: (between[k][kingTo] | bit(kingTo) | between[rk][rookTo] | bit(rookTo)) &^ (bit(k) | bit(rk)),
			path:  between[k][kingTo] | bit(kingTo),
			// Only a queen-side rook on b stands beyond the king's destination with a square (a) past it.
			uncovers: i&1 == 1 && rk&7 == 1,
			move:     encodeMove(k, kingTo, King, 0) | kindCastle<<21 | games.Move(rk)<<23,
		}
		if rk != standardRook[i] || k&7 != 4 {
			extra[i] = zobristCastlingRook[i][rk&7]
		}
	}
	r.standard = king == [4]int{sqE1, sqE1, sqE8, sqE8} && rook == standardRook
	for rights := range r.zobrist {
		r.zobrist[rights] = zobristCastling[rights]
		for i := range extra {
			if rights&(1<<uint(i)) != 0 {
				r.zobrist[rights] ^= extra[i]
			}
		}
	}
	return r
}

// castlingTargets returns where the king and the rook of right i end: g and f files on the king side, c and
// d on the queen side, on the colour's first rank.
func castlingTargets(i int) (kingTo, rookTo int) {
	base := 0
	if i >= 2 {
		base = 56
	}
	if i&1 == 0 {
		return base + 6, base + 5
	}
	return base + 2, base + 3
}

// castlingPaths returns the castlings that rights and empty squares allow (not yet checked for attacks on
// the king's path), as the king-side and queen-side squares the king must cross safely (0 when not possible).
// This is standard chess's, by constants, small enough to inline, as before Chess960; move generation calls
// chess960Paths for other rules.
func (s *state) castlingPaths(occ uint64) (kingside, queenside uint64) {
	if s.side == White {
		if s.castling&castleWhiteKing != 0 && occ&whiteKingsideEmpty == 0 {
			kingside = whiteKingsideEmpty
		}
		if s.castling&castleWhiteQueen != 0 && occ&whiteQueensideEmpty == 0 {
			queenside = whiteQueensideSafe
		}
	} else {
		if s.castling&castleBlackKing != 0 && occ&blackKingsideEmpty == 0 {
			kingside = blackKingsideEmpty
		}
		if s.castling&castleBlackQueen != 0 && occ&blackQueensideEmpty == 0 {
			queenside = blackQueensideSafe
		}
	}
	return kingside, queenside
}

// chess960Paths is castlingPaths for any other rules, read from their tables; it also tests that a rook
// shielding the king's destination does not uncover it.
func (s *state) chess960Paths(r *castlingRules, occ uint64) (kingside, queenside uint64) {
	i := 2 * int(s.side&1)
	if k := &r.castle[i&3]; s.castling&k.right != 0 && occ&k.empty == 0 && (!k.uncovers || s.destinationSafe(r, i)) {
		kingside = k.path
	}
	if q := &r.castle[(i+1)&3]; s.castling&q.right != 0 && occ&q.empty == 0 && (!q.uncovers || s.destinationSafe(r, i+1)) {
		queenside = q.path
	}
	return kingside, queenside
}

// The standard castlings' squares: those that must be empty and those the king crosses.
const (
	whiteKingsideEmpty  = 1<<sqF1 | 1<<sqG1
	whiteQueensideEmpty = 1<<(sqA1+1) | 1<<sqC1 | 1<<sqD1
	whiteQueensideSafe  = 1<<sqC1 | 1<<sqD1
	blackKingsideEmpty  = whiteKingsideEmpty << 56
	blackQueensideEmpty = whiteQueensideEmpty << 56
	blackQueensideSafe  = whiteQueensideSafe << 56
)

// destinationSafe reports whether right i's king destination is unattacked once the king and rook have left:
// a rook that shields it (a b-file rook castling long) must not uncover it along the rank.
func (s *state) destinationSafe(r *castlingRules, i int) bool {
	kingTo, _ := castlingTargets(i)
	occ := s.occupied() ^ bit(int(r.king[i&3])) ^ bit(int(r.rook[i&3]))
	return s.attackersTo(kingTo, int(s.side)^1, occ) == 0
}

// Chess960Positions is the number of Chess960 start positions.
const Chess960Positions = 960

// Chess960StandardNumber is the number of the standard start position among the Chess960 ones.
const Chess960StandardNumber = 518

// chess960Knights lists, by Scharnagl's knight code, the two of the five squares left after the bishops
// and the queen that the knights take.
var chess960Knights = [10][2]int{{0, 1}, {0, 2}, {0, 3}, {0, 4}, {1, 2}, {1, 3}, {1, 4}, {2, 3}, {2, 4}, {3, 4}}

// Chess960BackRank returns the white pieces of Chess960 start position n (0 to 959) from a1 to h1, such as
// "RNBQKBNR" for 518, by Scharnagl's numbering: n mod 4 places the light-squared bishop on b, d, f or h,
// the next base-4 digit the dark-squared one on a, c, e or g, the next base-6 digit the queen on that free
// square, the rest the knights by the table, and the rook, king and rook fill the last three squares.
func Chess960BackRank(n int) (string, error) {
	if n < 0 || n >= Chess960Positions {
		return "", fmt.Errorf("chess: Chess960 position %d: want a number from 0 to %d", n, Chess960Positions-1)
	}
	var rank [8]byte
	rank[2*(n%4)+1] = 'B'
	n /= 4
	rank[2*(n%4)] = 'B'
	n /= 4
	place := func(k int, piece byte) { // puts piece on the k-th free square
		for f := range rank {
			if rank[f] == 0 {
				if k == 0 {
					rank[f] = piece
					return
				}
				k--
			}
		}
	}
	place(n%6, 'Q')
	n /= 6
	knights := chess960Knights[n]
	place(knights[1], 'N') // the later square first, so that the earlier one's index still counts from the left
	place(knights[0], 'N')
	place(0, 'R')
	place(0, 'K')
	place(0, 'R')
	return string(rank[:]), nil
}

// Chess960FEN returns the X-FEN of Chess960 start position n (0 to 959); 518 is StartFEN.
func Chess960FEN(n int) (string, error) {
	back, err := Chess960BackRank(n)
	if err != nil {
		return "", err
	}
	lower := make([]byte, len(back))
	for i := range back {
		lower[i] = back[i] + 'a' - 'A'
	}
	return string(lower) + "/pppppppp/8/8/8/8/PPPPPPPP/" + back + " w KQkq - 0 1", nil
}

// Chess960Start returns Chess960 start position n (0 to 959), writing castling in UCI as Chess960 does.
func Chess960Start(n int) (*Position, error) {
	fen, err := Chess960FEN(n)
	if err != nil {
		return nil, err
	}
	p, err := ParseFEN(fen)
	if err != nil {
		return nil, err
	}
	p.chess960 = true
	return p, nil
}
