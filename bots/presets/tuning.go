// What the players of each game are tuned by beyond their presets: the safety rules of playing below full
// strength and the game memory's risk, each game's values written in its book.

package presets

import (
	"slices"

	"dossier/games"
)

// StrengthRules are a game's safety rules in its evaluation's units: what no handicap may break.
type StrengthRules struct {
	// Unit is a pawn, a man: the scale the other fields are written in.
	Unit float64
	// Bound is how far below the best a move may be valued (the B), and WonBound the same once
	// the best is worth won or more, so that a won game is not given back.
	Bound, WonBound float64
	// Won is the lead from which the position counts as won, Lost the deficit from which it counts as
	// lost: no move may go from above -Lost to -Lost or below.
	Won, Lost float64
	// EndgamePieces: with at most this many pieces on the board (kings included) and a won lead the best
	// move is played, so that won endgames are mated; 0 turns the rule off.
	EndgamePieces int
	// Lines is how many root moves the search values.
	Lines int
	// MaxLearned is the largest handicap the even mode learns: beyond the bound, a handicap no longer makes
	// single moves worse but lets the game fall further behind before the best moves come back.
	MaxLearned float64
}

// WonBoundFor is how far below the best a move may be valued once the position is won, under handicap h:
// wonBound, so that a won game is not given back, until the learned handicap exceeds the bound; beyond it
// the opponent is one that culling at the bound still beats game after game (Stockfish at UCI_Elo 1350
// blunders into lost positions), and a won game must then be allowed to slip back towards even, by what
// the handicap exceeds the bound, up to the bound itself: never to a lost position, never a won endgame
// or a forced mate (the weak searcher's first rules).
func (r StrengthRules) WonBoundFor(h float64) float64 {
	return min(r.Bound, r.WonBound+max(0, h-r.Bound))
}

// MaxHandicap is the largest handicap in a game's units.
func (r StrengthRules) MaxHandicap() float64 { return r.MaxLearned }

// defaultStrength are the safety rules of a game whose book has none (tic-tac-toe's: its evaluation counts
// open lines).
var defaultStrength = StrengthRules{Unit: 1, Bound: 1.5, WonBound: 0.5, Won: 3, Lost: 2, Lines: 9, MaxLearned: 2}

// Strength returns the safety rules of playing g below full strength.
func Strength(g games.Game) StrengthRules {
	if b, ok := bookOf(g.Name()); ok && b.strength.Unit > 0 {
		return b.strength
	}
	return defaultStrength
}

// MemoryRisk returns the MemoryRisk g's book sets for a Player that was not given one, or 0 where the book
// sets none (the player then takes its ModelRisk default).
func MemoryRisk(g games.Game) int {
	b, _ := bookOf(g.Name())
	return b.memoryRisk
}

// LearningDepths are the depths the Player's learners of a game learn at.
type LearningDepths struct {
	// Depth is the learners' depth: the deepest opponent type, the depth learner's range, minimax's depth in
	// the yardstick.
	Depth int
	// TypeDepths are the depths each preset is an opponent type at.
	TypeDepths []int
}

// defaultLearnerDepth is the learners' depth in a game whose book sets none.
const defaultLearnerDepth = 4

// Learning returns the depths of g's learners: its book's, or defaultLearnerDepth with every preset a type
// at half of it and at it.
func Learning(g games.Game) LearningDepths {
	b, _ := bookOf(g.Name())
	l := b.learning
	l.TypeDepths = slices.Clone(l.TypeDepths) // the book is shared
	if l.Depth == 0 {
		l.Depth = defaultLearnerDepth
	}
	if len(l.TypeDepths) == 0 {
		l.TypeDepths = []int{l.Depth / 2, l.Depth}
	}
	return l
}
