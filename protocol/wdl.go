// The win/draw/loss estimate that UCI_ShowWDL adds to info lines.

package protocol

import (
	"math"

	"dossier/engine"
)

// The logistic WDL model: a score of wdlMidpoint centipawns is an even chance of winning, and every
// wdlScale centipawns more multiply the odds of winning by e. Both are rough figures for engine chess (a
// 2-pawn advantage wins about half the time, a draw is likeliest at 0); they are not fitted to any game.
const (
	wdlMidpoint = 200.0
	wdlScale    = 100.0
)

// WDL estimates the chances of a win, a draw and a loss, in per mille for the side to move, from a score in
// centipawn-like units: win = σ((score − 200)/100), loss = σ((−score − 200)/100), draw = the rest, where σ is
// the logistic function. At score 0 that is 119/762/119; at +200, 500/482/18. A mate score is a sure
// result. The three numbers add up to 1000.
func WDL(score float64) (win, draw, loss int) {
	if _, ok := engine.IsMate(score); ok {
		if score > 0 {
			return 1000, 0, 0
		}
		return 0, 0, 1000
	}
	if math.IsNaN(score) {
		score = 0
	}
	sigmoid := func(x float64) float64 { return 1 / (1 + math.Exp(-x)) }
	win = int(math.Round(1000 * sigmoid((score-wdlMidpoint)/wdlScale)))
	loss = int(math.Round(1000 * sigmoid((-score-wdlMidpoint)/wdlScale)))
	if win+loss > 1000 {
		loss = 1000 - win
	}
	return win, 1000 - win - loss, loss
}
