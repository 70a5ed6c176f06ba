// Choosing a book move by what we know of the opponent: Thompson sampling over the lines we played against it.

package openingbook

import (
	"math/rand/v2"

	"gonum.org/v1/gonum/stat/distuv"

	"dossier/games"
)

// Record is what our games against one opponent say of one book move: the games we played it in and our
// points in them (1 a win, 0.5 a draw).
type Record struct {
	Games  int
	Points float64
}

// PriorGames is how many games the prior of a line counts for in ChooseAgainst: two, so that one game
// moves a line's expected score by a third of the way to its result, and a line lost once is left for
// another about as often as not.
const PriorGames = 2

// Choice is a book move chosen against an opponent, with what decided it.
type Choice struct {
	Move
	// Record is our record with the move against the opponent (zero for a line new against it).
	Record Record
	// New says that the move was drawn among the moves not yet played against the opponent; Everyone is our
	// record with it against every other opponent, what drew it (zero when none).
	New      bool
	Everyone Record
}

// ChooseAgainst chooses among the book's moves (those of weight above 0) by what our games against one opponent
// say of them (records), and our games against every other opponent (everyone, nil for none). A move that won
// every game it was played in against the opponent is played again (the one of most games among several):
// against an opponent that repeats itself, out of its own book, a won line is the one to keep, and a draw at each
// of the line's choices would leave it by chance (five choices each kept two times in three keep the whole line
// once in eight). Otherwise Thompson sampling: each move played against the opponent is an arm whose score is
// drawn from Beta(a, b), its prior (moveMean: prior, our expected score against the opponent, moved toward our
// score with the move against everyone else) over PriorGames games, plus our points and games with the move; the
// moves never played against it are one more arm, with the prior of the best of them, which, when its draw is the
// highest, plays one of them drawn by their priors (Thompson sampling again: alike when no other opponent met
// them), not by the book's weights: the weights say how often a move is played, which is how likely an
// opponent's book is to know the position it leads to, and an opponent out of its book plays its search's moves,
// the same again and again. A line that lost is left for another. rng makes every draw.
func ChooseAgainst(moves []Move, records, everyone map[games.Move]Record, prior float64, rng *rand.Rand) (Choice, bool) {
	prior = min(max(prior, 0.02), 0.98)
	var fresh []Move
	best, bestDraw := Choice{}, -1.0
	kept, keptOK := Choice{}, false
	freshMean := -1.0
	for _, m := range moves {
		if m.Weight <= 0 {
			continue
		}
		mean := moveMean(prior, everyone[m.Move])
		r, played := records[m.Move]
		if !played || r.Games <= 0 {
			fresh = append(fresh, m)
			freshMean = max(freshMean, mean)
			continue
		}
		points := min(max(r.Points, 0), float64(r.Games))
		if points == float64(r.Games) && (!keptOK || r.Games > kept.Record.Games ||
			r.Games == kept.Record.Games && m.Weight > kept.Weight) {
			kept, keptOK = Choice{Move: m, Record: r}, true
		}
		draw := betaDraw(mean, points, float64(r.Games), rng)
		if draw > bestDraw {
			best, bestDraw = Choice{Move: m, Record: r}, draw
		}
	}
	if keptOK {
		return kept, true
	}
	if len(fresh) > 0 && (bestDraw < 0 || betaDraw(freshMean, 0, 0, rng) > bestDraw) {
		chosen, chosenDraw := fresh[0], -1.0
		for _, m := range fresh {
			if draw := betaDraw(moveMean(prior, everyone[m.Move]), 0, 0, rng); draw > chosenDraw {
				chosen, chosenDraw = m, draw
			}
		}
		return Choice{Move: chosen, New: true, Everyone: everyone[chosen.Move]}, true
	}
	return best, bestDraw >= 0
}

// moveMean is a move's prior mean score: the opponent's prior moved toward our score with the move against
// every other opponent, that record counted against PriorGames games of the prior.
func moveMean(prior float64, everyone Record) float64 {
	if everyone.Games <= 0 {
		return prior
	}
	points := min(max(everyone.Points, 0), float64(everyone.Games))
	mean := (points + PriorGames*prior) / (float64(everyone.Games) + PriorGames)
	return min(max(mean, 0.02), 0.98)
}

// betaDraw draws a score from Beta with a prior of mean over PriorGames games, plus points out of games.
func betaDraw(mean, points, games float64, rng *rand.Rand) float64 {
	return distuv.Beta{Alpha: PriorGames*mean + points, Beta: PriorGames*(1-mean) + games - points, Src: rng}.Rand()
}
