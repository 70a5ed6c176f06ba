// What the players of each game are tuned by beyond their presets: the safety rules of playing below full
// strength and the game memory's risk, each game's values written in its book.

package presets

import (
	"slices"

	"dossier/games"
	"dossier/memory/learn"
)

// StrengthRules are how a game is played below full strength (Mode even, UCI_LimitStrength), in its
// evaluation's units: the levels a rating plays at, and the safety rules no level may break.
type StrengthRules struct {
	// Unit is a pawn, a man: the scale the other fields are written in.
	Unit float64
	// Mistake is how far below the best a move's value makes it a mistake: what the analysis of a game
	// blames.
	Mistake float64
	// Won is the lead from which the position counts as won, Lost the deficit from which it counts as
	// lost: no move may go from above -Lost to -Lost or below.
	Won, Lost float64
	// EndgamePieces: with at most this many pieces on the board (kings included) and a won lead the search
	// plays at full strength, so that won endgames are mated; 0 turns the rule off.
	EndgamePieces int
	// Lines is how many root moves the search values for the choice among them.
	Lines int
	// Levels is the limiter's table by rating, ascending, from learn.MinLevel to learn.FullLevel; a rating in between
	// plays the linear interpolation of its neighbours (see LevelAt).
	Levels []Level
}

// Level is how one rating plays: a search limited in depth, and a choice among its best lines that gives
// up a little at random, never more than a bound.
type Level struct {
	// Elo is the rating (UCI_Elo's scale in chess; the even mode's own scale in the other games).
	Elo float64
	// Depth is the search's depth in plies; a fraction is the share of moves searched a ply deeper, so that
	// the strength changes smoothly between two depths.
	Depth float64
	// Spread (in units) is how the choice among the lines weighs a line's loss: a line valued d below the
	// best is chosen with a weight exp(-d/Spread) (0: always the best).
	Spread float64
	// Bound (in units) is the most a move may be valued below the best: the material a player of this
	// rating may drop.
	Bound float64
}

// LevelAt returns the level rating elo plays at, interpolated in the table, and false from learn.FullLevel up:
// full strength.
func (r StrengthRules) LevelAt(elo float64) (Level, bool) {
	t := r.Levels
	if len(t) == 0 || elo >= t[len(t)-1].Elo {
		return Level{}, false
	}
	if elo <= t[0].Elo {
		return t[0], true
	}
	for i := 1; i < len(t); i++ {
		lo, hi := t[i-1], t[i]
		if elo <= hi.Elo {
			f := (elo - lo.Elo) / (hi.Elo - lo.Elo)
			mix := func(a, b float64) float64 { return a + f*(b-a) }
			return Level{Elo: elo, Depth: mix(lo.Depth, hi.Depth), Spread: mix(lo.Spread, hi.Spread),
				Bound: mix(lo.Bound, hi.Bound)}, true
		}
	}
	return Level{}, false
}

// scaledLevels returns a table written in units (Spread and Bound) in the game's units.
func scaledLevels(unit float64, table []Level) []Level {
	out := make([]Level, len(table))
	for i, l := range table {
		out[i] = Level{Elo: l.Elo, Depth: l.Depth, Spread: l.Spread * unit, Bound: l.Bound * unit}
	}
	return out
}

// chessLevels is chess's level table, in pawns, on UCI_Elo's scale, measured against Stockfish at
// UCI_LimitStrength (Debian's stockfish, 5+0.05, one core a pair, the 20 ladder openings with both colours,
// 40 games a run: tests/ladder.sh, session 24, docs/log/strength.md "Session 24"). Each entry's rating is
// where its depth (with the spread and bound beside it) scored evenly, read from two kinds of run: a level
// played against a Stockfish rung (MODE=elo: depth 2.4 scored 56.2% against 1350, 1394; depth 3.8 67.5%
// against 1500, 1625; depth 6 13.8% against 2000, 1680; depth 8 42.5% against 2000, 1948; depth 10 66.2%
// against 2000, 2117), and the depth the even mode settled at over the last 20 of 40 games against a rung
// (2.2-2.3 against 1350, 2.7-3.3 against 1600, 8-11 against 2000). Each run alone is about +-100 Elo. The
// 2066 entry is the level 2000 of that table (depth 8.62) placed by its two runs against Stockfish 2000, 59.4%
// over 80 games (session 24), so that 2000 now searches 8.27 plies (52.5% against Stockfish 2000, session 31).
// The two weakest are below Stockfish's range, placed by the steps above them. The last entry is full
// strength; the ratings just below it interpolate towards its depth (deeper than a fast clock reaches) and
// its choice of the best line, so that at 5+0.05 everything from about 2150 up plays as full strength does.
var chessLevels = []Level{
	{Elo: learn.MinLevel, Depth: 1, Spread: 3, Bound: 6},
	{Elo: 1000, Depth: 1.5, Spread: 1, Bound: 3},
	{Elo: 1350, Depth: 2.25, Spread: 0.7, Bound: 2.25},
	{Elo: 1500, Depth: 2.65, Spread: 0.58, Bound: 1.95},
	{Elo: 1600, Depth: 3.2, Spread: 0.5, Bound: 1.75},
	{Elo: 1680, Depth: 6, Spread: 0.15, Bound: 0.8},
	{Elo: 1948, Depth: 8, Spread: 0.1, Bound: 0.55},
	{Elo: 2066, Depth: 8.62, Spread: 0.085, Bound: 0.47},
	{Elo: 2117, Depth: 10, Spread: 0.05, Bound: 0.3},
	{Elo: learn.FullLevel, Depth: 20},
}

// defaultLevels is the level table of the other games, in units: chess's steps, on the even mode's own
// scale (no rating list measures these games); the even mode learns where on it each opponent is.
var defaultLevels = chessLevels

// connect4Levels is Connect-Four's table, in units: chess's, but every level from 1000 up searches two plies
// at least, so that the opponent's immediate win is always stopped (the game's mate in one); the weakest
// search one ply and may miss it, as a beginner does (session 24: with two plies at every level the even mode
// at its weakest still beat Sen & Arora's simple player in 35 of 40 games).
var connect4Levels = func() []Level {
	t := slices.Clone(chessLevels)
	for i := range t[:len(t)-1] {
		if t[i].Elo >= 1000 {
			t[i].Depth = max(t[i].Depth, 2)
		}
	}
	return t
}()

// defaultStrength are the rules of a game whose book has none (tic-tac-toe's: its evaluation counts open
// lines).
var defaultStrength = StrengthRules{Unit: 1, Mistake: 1.5, Won: 3, Lost: 2, Lines: 9, Levels: scaledLevels(1, defaultLevels)}

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
