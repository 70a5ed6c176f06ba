// Connect-Four presets: Sen & Arora's sophisticated evaluation, their simple player SP, and the strongest
// player (the exact solver, or the sophisticated evaluation when the solver would not finish in time).

package presets

import "fmt"

// Sen & Arora's sophisticated evaluation values a window (four cells in a line) that holds k stones of one
// side and none of the other exponentially in k; the weight of a k-stone window is connect4Base^(k-1).
const connect4Base = 5.0

// sophisticatedWeights returns Sen & Arora's sophisticated evaluation: open windows of 1, 2 and 3 own stones
// in every direction, weighted exponentially, minus the opponent's.
func sophisticatedWeights() map[string]float64 {
	w := map[string]float64{}
	for _, dir := range []string{"h", "v", "d"} {
		value := 1.0
		for k := 1; k <= 3; k++ {
			w[fmt.Sprintf("%s%d_mine", dir, k)] = value
			w[fmt.Sprintf("%s%d_theirs", dir, k)] = -value
			value *= connect4Base
		}
	}
	return w
}

// simplePlayerWeights returns Sen & Arora's simple player SP: it blocks the opponent's horizontal and
// vertical threats (open windows of three), builds its own rows and columns a little, and is blind to
// diagonals (every diagonal weight is zero). With one ply of lookahead it takes a win it can complete at
// once, diagonal ones included, since the search sees the game end; what it cannot see is a diagonal
// threat of the opponent.
func simplePlayerWeights() map[string]float64 {
	w := map[string]float64{}
	for _, dir := range []string{"h", "v"} {
		w[dir+"1_mine"], w[dir+"2_mine"], w[dir+"3_mine"] = 1, 3, 9
		w[dir+"1_theirs"], w[dir+"2_theirs"], w[dir+"3_theirs"] = -1, -3, -60
	}
	return w
}

// connect4Book holds the Connect-Four presets. A feature's "mine" and "theirs" counts swap places when the
// other side looks at the board; SP weighs them unequally, so its weights are read from its own point of
// view at every leaf (see playerView).
func connect4Book() book {
	mirror := map[string]mirrorOf{}
	for _, dir := range []string{"h", "v", "d"} {
		for k := 1; k <= 3; k++ {
			mine, theirs := fmt.Sprintf("%s%d_mine", dir, k), fmt.Sprintf("%s%d_theirs", dir, k)
			mirror[mine] = mirrorOf{partner: theirs, sign: +1}
			mirror[theirs] = mirrorOf{partner: mine, sign: +1}
		}
	}
	return book{
		// The sophisticated evaluation weighs a three-stone window 25.
		strength: StrengthRules{Unit: 25, Mistake: 40, Won: 75, Lost: 50, Lines: 7,
			Levels: scaledLevels(25, connect4Levels)},
		mirror: mirror,
		specs: []presetSpec{
			{
				name:        Default,
				description: "the exact solver when it finishes in the move's budget, else the sophisticated evaluation",
				solver:      true,
				weights:     sophisticatedWeights(),
			},
			{
				name:        "sophisticated",
				description: "Sen & Arora's sophisticated evaluation: open windows of 1, 2, 3 stones weighted 1, 5, 25",
				weights:     sophisticatedWeights(),
			},
			{
				name:        "sp",
				description: "Sen & Arora's simple player: one ply, blocks horizontal and vertical threats, blind to diagonals",
				depth:       1,
				weights:     simplePlayerWeights(),
			},
		},
	}
}
