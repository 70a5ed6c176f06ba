// The rating scale the even mode learns on and UCI_Elo sets: its ends.

package learn

// The range of UCI_Elo, the standard option.
const (
	MinElo = 1000
	MaxElo = FullLevel
)

// The range of the even mode's rating (a level, on UCI_Elo's scale in chess: bots/presets' level tables
// say how each rating plays): MinLevel is the weakest, and from FullLevel up every game plays at full
// strength.
const (
	MinLevel  = 400
	FullLevel = 2600
)
