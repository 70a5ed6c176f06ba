// Facts about a game that front ends and players read instead of testing its name: what its sides are
// called, its names in the protocols and records, and how many pieces a position has.

package games

// Describer is implemented by games whose sides or protocol names differ from the defaults the functions
// below give (sides "first" and "second", the game's Name in every protocol).
type Describer interface {
	// SideNames names the first and the second player as players and GUIs call them.
	SideNames() [2]string
	// Variants gives the game's names in the protocols and records.
	Variants() Variants
}

// Variants are a game's names outside dossier.
type Variants struct {
	// UCI is the UCI_Variant value announced and set for the game; "" for standard chess, which sends none.
	UCI string
	// CECP is the name in CECP's variant command and variants feature ("normal" for chess).
	CECP string
	// Record is the value of a PGN Variant tag; "" where the record format needs none.
	Record string
}

// PieceCounter is implemented by positions of games whose pieces can be counted, for the rules that look at
// how far a game has been simplified (won endgames are played out at full strength).
type PieceCounter interface {
	// Pieces counts the pieces on the board, kings included.
	Pieces() int
}

// SideName returns what players call side s of g: "white" or "black" in chess and checkers (where Black moves
// first), "first" or "second" in the games that give their sides no names.
func SideName(g Game, s Side) string {
	names := [2]string{"first", "second"}
	if d, ok := g.(Describer); ok {
		names = d.SideNames()
	}
	return names[s&1]
}

// WhiteSide returns the side the protocols call White (whose clock UCI's wtime carries, "w" in a FEN): the
// side named "white", and the first player in a game without side names.
func WhiteSide(g Game) Side {
	if SideName(g, Second) == "white" {
		return Second
	}
	return First
}

// VariantsOf returns g's names outside dossier: its Describer's, or its Name in every protocol and no
// record tag.
func VariantsOf(g Game) Variants {
	if d, ok := g.(Describer); ok {
		return d.Variants()
	}
	return Variants{UCI: g.Name(), CECP: g.Name(), Record: g.Name()}
}

// PieceCount counts the pieces on p's board, or returns -1 for a game whose positions do not count them.
func PieceCount(p Position) int {
	if c, ok := p.(PieceCounter); ok {
		return c.Pieces()
	}
	return -1
}
