// The opponent's identity under its old names: it lives in play/opponent, a leaf package, so that the memory
// can file opponents without importing the engine; front ends keep writing play.Opponent.

package play

import "dossier/play/opponent"

// Opponent is who the engine plays, as the front end described it (see opponent.Opponent).
type Opponent = opponent.Opponent

// PlayerKind says whether a player is a program or a person (see opponent.PlayerKind).
type PlayerKind = opponent.PlayerKind

// The kinds of player UCI_Opponent names.
const (
	UnknownKind = opponent.UnknownKind
	Computer    = opponent.Computer
	Human       = opponent.Human
)

// UnknownKey is the store key of an opponent that gave no name (see opponent.UnknownKey).
const UnknownKey = opponent.UnknownKey

// NameKey normalises a player's name into the key the memory files it under (see opponent.NameKey).
func NameKey(name string) string { return opponent.NameKey(name) }

// ParseUCIOpponent reads a UCI_Opponent value (see opponent.ParseUCIOpponent).
func ParseUCIOpponent(value string) Opponent { return opponent.ParseUCIOpponent(value) }

// SplitTitle splits a leading title off a CECP name (see opponent.SplitTitle).
func SplitTitle(name string) (title, rest string) { return opponent.SplitTitle(name) }
