// The one yardstick for every opponent model: top-1 and top-3 accuracy and the mean log-likelihood of the
// moves an opponent played.

package learn

import (
	"errors"
	"fmt"
	"math"

	"dossier/games"
)

// MoveModel is an opponent model as the yardstick sees it: a probability for each legal move of a position.
type MoveModel interface {
	// MoveProbabilities fills probs[i] with the probability that the opponent to move in p plays moves[i]
	// (the moves are p's legal moves; the probabilities are at least 0 and sum to 1). p is left as it was.
	MoveProbabilities(p games.Position, moves []games.Move, probs []float64) error
}

// Observation is one opponent move: the position before it and the move played.
type Observation struct {
	Position games.Position
	Move     games.Move
}

// MinProbability floors the probability of a played move in the log-likelihood, so that a model that
// ruled the move out costs log(MinProbability) instead of minus infinity; Score.Impossible counts them.
const MinProbability = 1e-9

// Score is how well a model predicted a list of moves.
type Score struct {
	// Moves is the number of observations scored.
	Moves int `json:"moves"`
	// Top1 and Top3 are the fractions of moves the model ranked first, or among its first three. Moves that
	// tie in probability share their places: a move tied with k others for places a+1..a+k+1 counts as in
	// the top n with the probability that a random order of the tied moves puts it there.
	Top1 float64 `json:"top1"`
	Top3 float64 `json:"top3"`
	// LogLikelihood is the mean natural log of the probability the model gave each played move.
	LogLikelihood float64 `json:"loglik"`
	// Impossible counts the moves the model gave probability 0 (scored as MinProbability).
	Impossible int `json:"impossible"`
}

// ModelYardstick names a game's GameYardstick in memory.ModelUpdate events (one per game, with its GameID).
const ModelYardstick = "yardstick"

// MinimaxModelName is the yardstick's name for minimax's implicit model, the baseline every model must beat.
const MinimaxModelName = "minimax"

// SearchModelName names, in the yardstick, minimax's implicit model as our own search holds it: the reply its
// principal variation predicted, at the depth it reached (the Player files it). It is the baseline Search
// auto's models must beat besides MinimaxModelName, the learners' fixed-depth minimax, which at 1 or 2 plies
// predicts far worse than a real search (on Glaurung's moves, 25-35% against the search's 50%). It scores only
// the moves the search predicted.
const SearchModelName = "search"

// GameYardstick is how well each opponent model predicted the opponent's moves in one game, each model
// predicting a move from what it had learned before that move.
type GameYardstick struct {
	// Game is the game's name (chess, checkers, ...).
	Game string `json:"game"`
	// Scores maps a model's name (MinimaxModelName, ModelTypeProbs, ...) to its score over the game.
	Scores map[string]Score `json:"scores"`
}

// String writes the score in one line.
func (s Score) String() string {
	return fmt.Sprintf("%d moves: top-1 %.1f%%, top-3 %.1f%%, mean log-likelihood %.3f (%d ruled out)",
		s.Moves, 100*s.Top1, 100*s.Top3, s.LogLikelihood, s.Impossible)
}

// Pool returns the score over the moves of s and of o (disjoint moves): the fractions and the mean weighted by
// their moves, the ruled-out moves summed.
func (s Score) Pool(o Score) Score {
	n := s.Moves + o.Moves
	if n == 0 {
		return Score{}
	}
	w := func(x, y float64) float64 { return (x*float64(s.Moves) + y*float64(o.Moves)) / float64(n) }
	return Score{Moves: n, Top1: w(s.Top1, o.Top1), Top3: w(s.Top3, o.Top3),
		LogLikelihood: w(s.LogLikelihood, o.LogLikelihood), Impossible: s.Impossible + o.Impossible}
}

// Measure scores model on the observations. An observation whose move is not legal in its position, or
// whose position is over, is an error naming it; so is a model that returns an error or probabilities that
// are negative or do not sum to 1.
func Measure(model MoveModel, observations []Observation) (Score, error) {
	var s Score
	var probs [games.MaxMoves]float64
	for k, o := range observations {
		if o.Position == nil {
			return Score{}, fmt.Errorf("observation %d has no position", k+1)
		}
		moves, err := legalMoves(o.Position)
		if err != nil {
			return Score{}, fmt.Errorf("observation %d: %w", k+1, err)
		}
		played, err := indexOf(o.Position, moves, o.Move)
		if err != nil {
			return Score{}, fmt.Errorf("observation %d: %w", k+1, err)
		}
		ps := probs[:len(moves)]
		if err := model.MoveProbabilities(o.Position, moves, ps); err != nil {
			return Score{}, fmt.Errorf("observation %d: %w", k+1, err)
		}
		if err := checkDistribution(ps); err != nil {
			return Score{}, fmt.Errorf("observation %d: the model's probabilities: %w", k+1, err)
		}
		s.Top1 += topShare(ps, played, 1)
		s.Top3 += topShare(ps, played, 3)
		p := ps[played]
		if p <= 0 {
			s.Impossible++
		}
		s.LogLikelihood += math.Log(max(p, MinProbability))
		s.Moves++
	}
	if s.Moves > 0 {
		n := float64(s.Moves)
		s.Top1 /= n
		s.Top3 /= n
		s.LogLikelihood /= n
	}
	return s, nil
}

// checkDistribution reports an error unless ps are probabilities summing to 1 (within rounding).
func checkDistribution(ps []float64) error {
	sum := 0.0
	for i, p := range ps {
		if math.IsNaN(p) || p < 0 {
			return fmt.Errorf("move %d has probability %v", i+1, p)
		}
		sum += p
	}
	if math.Abs(sum-1) > 1e-6 {
		return fmt.Errorf("they sum to %v, not 1", sum)
	}
	return nil
}

// topShare is the probability that move i is among the first n when the moves are sorted by probability,
// equal probabilities in random order.
func topShare(ps []float64, i, n int) float64 {
	above, tied := 0, 0
	for _, p := range ps {
		switch {
		case p > ps[i]:
			above++
		case p == ps[i]:
			tied++
		}
	}
	return min(max(float64(n-above)/float64(tied), 0), 1)
}

// FalliblePlayer is Reibman and Ballard's model of a fallible minimax player: it ranks the moves by a
// fixed-depth search with its evaluation (equal values share a rank) and gives the move of rank r a
// probability proportional to (1 - PS)^(r-1) PS. With PS = 1 it is minimax's implicit model, the search's
// best moves and nothing else (see MinimaxModel).
type FalliblePlayer struct {
	MinimaxPlayer
	// PS is the chance the player does not deviate from its best move, in (0, 1].
	PS float64

	search *fixedSearch
	values [games.MaxMoves]float64
}

// NewFalliblePlayer returns the rank model of the player (f, d) in game g with the given PS.
func NewFalliblePlayer(g games.Game, pl MinimaxPlayer, ps float64) (*FalliblePlayer, error) {
	if err := pl.Check(g); err != nil {
		return nil, err
	}
	if !(ps > 0 && ps <= 1) {
		return nil, fmt.Errorf("rank model: PS %v is not in (0, 1]", ps)
	}
	return &FalliblePlayer{MinimaxPlayer: pl, PS: ps, search: newFixedSearch(g, pl.Eval, true)}, nil
}

// MinimaxModel is minimax's implicit opponent model: the opponent plays the reply our own search (our
// evaluation, depth plies) finds best, any of the equally best ones.
func MinimaxModel(g games.Game, ours MinimaxPlayer) (*FalliblePlayer, error) {
	return NewFalliblePlayer(g, ours, 1)
}

// MoveProbabilities implements MoveModel.
func (m *FalliblePlayer) MoveProbabilities(p games.Position, moves []games.Move, probs []float64) error {
	if len(moves) == 0 || len(probs) != len(moves) {
		return errors.New("rank model: no moves, or not one probability per move")
	}
	values := m.values[:len(moves)]
	m.search.moveValues(p, moves, m.Depth, values)
	rankProbabilities(values, m.PS, probs)
	return nil
}

// rankProbabilities writes Reibman and Ballard's probabilities (the survey's formula 1) of moves with the
// given values: the rank of a move is one more than the number of moves of a strictly higher value.
func rankProbabilities(values []float64, ps float64, probs []float64) {
	sum := 0.0
	for i, v := range values {
		rank := 0
		for _, u := range values {
			if u > v {
				rank++
			}
		}
		probs[i] = math.Pow(1-ps, float64(rank)) * ps // with PS = 1, 0^0 = 1 for the best moves, 0 for the rest
		sum += probs[i]
	}
	for i := range probs {
		probs[i] /= sum
	}
}
