// The checkers opening-book coding (games.BookCoder): no common binary format exists for checkers books, so
// dossier's keeps polyglot's layout with keys and codes of its own.

package checkers

import "dossier/games"

var _ games.BookCoder = (*Position)(nil)

// BookKey returns the position's Zobrist hash (pieces and side to move), whose keys come from a fixed
// sequence: a book made by this program reads the same in every run and on every machine.
// TestBookCodingIsStable pins them, since a change would make every book unreadable.
func (p *Position) BookKey() uint64 { return p.Hash() }

// BookMove returns a move's code: the origin square index (0-31) in bits 0-4, the destination in bits 5-9 and
// the directions of a capture's first three jumps in bits 10-15, which tell apart two captures from one
// square to another by different routes.
func (p *Position) BookMove(m games.Move) uint16 {
	code := uint16(moveFrom(m)) | uint16(moveTo(m))<<5
	for i := 0; i < min(moveJumps(m), 3); i++ {
		code |= uint16(moveDir(m, i)) << (10 + 2*i)
	}
	return code
}
