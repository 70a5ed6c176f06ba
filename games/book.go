// Opening books: what a game's positions give a book to index them by.

package games

// BookCoder is implemented by positions that an opening book can index (bots/openingbook): the position's
// key and each move's code in the game's book format. Chess uses polyglot's keys and move codes, so that the
// books polyglot, cutechess and GUIs make read as they were written; the other games define their own.
type BookCoder interface {
	// BookKey returns the position's key in the game's book format.
	BookKey() uint64
	// BookMove returns the code of a legal move in the game's book format.
	BookMove(m Move) uint16
}
