// Time management by the search's progress: how much of the move's soft time limit to spend, from how
// stable the best move and the score have been over the iterations.

package engine

import "dossier/games"

// timeManager follows the completed iterations of one search.
type timeManager struct {
	move       games.Move // the best move of the latest iteration
	score      float64    // its score
	stable     int        // iterations in a row that kept the best move
	changes    float64    // best-move changes, decaying by half each iteration
	iterations int
}

// Bounds of the factor on the soft limit, and the depth before which it stays 1 (the first iterations'
// moves and scores change for reasons that say nothing about the position).
const (
	timeScaleMin      = 0.5
	timeScaleMax      = 2.5
	timeScaleMinDepth = 5
)

// next takes the result of an iteration of depth and returns the factor on the soft limit: up by half for
// every recent change of the best move, up by a half again when the score fell by drop or more since the
// previous iteration, down to 0.6 once the best move held for six iterations.
func (tm *timeManager) next(move games.Move, score float64, depth int, drop float64) float64 {
	tm.iterations++
	tm.changes /= 2
	if tm.iterations > 1 && move != tm.move {
		tm.changes++
		tm.stable = 0
	} else {
		tm.stable++
	}
	fell := tm.iterations > 1 && drop > 0 && score <= tm.score-drop
	tm.move, tm.score = move, score
	if depth < timeScaleMinDepth {
		return 1
	}
	f := 1 + tm.changes/2
	if fell {
		f *= 1.5
	}
	switch {
	case tm.stable >= 6:
		f *= 0.6
	case tm.stable >= 4:
		f *= 0.8
	}
	return min(max(f, timeScaleMin), timeScaleMax)
}
