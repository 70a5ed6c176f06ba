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
	// New says that the move was drawn by the book's weights among the moves not yet played against the
	// opponent.
	New bool
}

// ChooseAgainst chooses among the book's moves (those of weight above 0) by what our games against one opponent
// say of them. A move that won every game it was played in is played again (the one of most games among
// several): against an opponent that repeats itself, out of its own book, a won line is the one to keep, and a
// draw at each of the line's choices would leave it by chance (five choices each kept two times in three keep
// the whole line once in eight). Otherwise Thompson sampling: each move played against the opponent is an arm
// whose score is drawn from Beta(a, b), the prior, prior (our expected score against the opponent) over
// PriorGames games, plus our points and games with the move; the moves never played against it are one more
// arm with the prior alone, which, when its draw is the highest, plays one of them drawn with equal
// probability, not by the book's weights: the weights say how often a move is played, which is how likely an
// opponent's book is to know the position it leads to, and an opponent out of its book plays its search's moves,
// the same again and again. A line that lost is left for another. rng makes every draw.
func ChooseAgainst(moves []Move, records map[games.Move]Record, prior float64, rng *rand.Rand) (Choice, bool) {
	prior = min(max(prior, 0.02), 0.98)
	a0, b0 := PriorGames*prior, PriorGames*(1-prior)
	var fresh []Move
	best, bestDraw := Choice{}, -1.0
	kept, keptOK := Choice{}, false
	for _, m := range moves {
		if m.Weight <= 0 {
			continue
		}
		r, played := records[m.Move]
		if !played || r.Games <= 0 {
			fresh = append(fresh, m)
			continue
		}
		points := min(max(r.Points, 0), float64(r.Games))
		if points == float64(r.Games) && (!keptOK || r.Games > kept.Record.Games ||
			r.Games == kept.Record.Games && m.Weight > kept.Weight) {
			kept, keptOK = Choice{Move: m, Record: r}, true
		}
		draw := distuv.Beta{Alpha: a0 + points, Beta: b0 + float64(r.Games) - points, Src: rng}.Rand()
		if draw > bestDraw {
			best, bestDraw = Choice{Move: m, Record: r}, draw
		}
	}
	if keptOK {
		return kept, true
	}
	if len(fresh) > 0 {
		freshArm := distuv.Beta{Alpha: a0, Beta: b0, Src: rng}
		if bestDraw < 0 || freshArm.Rand() > bestDraw {
			return Choice{Move: fresh[rng.IntN(len(fresh))], New: true}, true
		}
	}
	return best, bestDraw >= 0
}
