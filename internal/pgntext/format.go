// Which record format a game is written in and what its tags call its sides, read from the games' facts
// rather than from their names.

package pgntext

import "dossier/games"

// SideTags returns the tags that name g's first and second players: White and Black, except in a game whose
// first player is Black (checkers, in PDN).
func SideTags(g games.Game) [2]string {
	if games.WhiteSide(g) == games.Second {
		return [2]string{"Black", "White"}
	}
	return [2]string{"White", "Black"}
}

// WrittenAsPDN reports whether g's games are recorded in PDN rather than PGN. Until games offer their record
// format as a fact, the format follows from the side names: PDN is the format of the game whose first player
// is Black (checkers).
func WrittenAsPDN(g games.Game) bool {
	return games.WhiteSide(g) == games.Second
}
