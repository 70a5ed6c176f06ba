// Moves as a game's records write them: numbered, in the records' notation (SAN for chess), for what people read.

package games

import "fmt"

// SANWriter is implemented by positions whose records write moves in a notation other than the protocol's
// (chess: Standard Algebraic Notation).
type SANWriter interface {
	// SAN writes a legal move in the records' notation.
	SAN(m Move) string
}

// RecordMove writes a legal move of p as the game's records do: its SANWriter's notation, else the protocol's.
func RecordMove(p Position, m Move) string {
	if w, ok := p.(SANWriter); ok {
		return w.SAN(m)
	}
	return p.FormatMove(m)
}

// NumberedMove writes a legal move of p with its move number as records number moves: "23.Rc8" for the first
// side's move of the 23rd pair, "23...Rc8" for the second side's.
func NumberedMove(p Position, m Move) string {
	number := p.Ply()/2 + 1
	if p.ToMove() == First {
		return fmt.Sprintf("%d.%s", number, RecordMove(p, m))
	}
	return fmt.Sprintf("%d...%s", number, RecordMove(p, m))
}
