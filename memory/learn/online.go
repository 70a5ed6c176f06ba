// Online learning of opponent-type probabilities after every opponent move: Donkers and van den Herik's fast
// (reward and punish) and slow (naive Bayes over rank probabilities) learning.
package learn

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"

	"dossier/games"
)

// ModelTypeProbs names TypeLearner's state in memory.ModelUpdate events.
const ModelTypeProbs = "typeprobs"

// The learning modes of a TypeLearner.
const (
	// FastLearning uses only each type's best moves. After a move that exactly one type ranks best, that
	// type is rewarded and the others punished, P <- (1 - Rate) P + Rate e_i (the linear reward-penalty
	// scheme, which keeps the probabilities summing to 1). A move that several types rank best is
	// ambiguous and, as Donkers et al. show for counting, would bias the estimate towards equal
	// probabilities: it is not counted, and neither is a move no type ranks best.
	FastLearning = "fast"
	// SlowLearning values every move for every type, turns the values into Reibman and Ballard's rank
	// probabilities P(m | w_i) with PS (formula 1 of van den Herik, Donkers and Spronck), computes the
	// posterior P(w_i | m) by Bayes' rule (formula 2) and moves the probabilities towards it by the learning
	// factor, P <- (1 - Rate) P + Rate P(w | m) (formula 3).
	SlowLearning = "slow"
)

// TypeLearnerState is a TypeLearner's configuration and everything it learned: its JSON form is what the
// memory keeps per opponent.
type TypeLearnerState struct {
	// Types are the opponent types, each a fixed-depth minimax player; Donkers et al. make the first one our
	// own evaluation by convention.
	Types []MinimaxPlayer `json:"types"`
	// Probabilities are the current P(w_i), one per type, summing to 1 (the prior before any move; nil means
	// equal probabilities when a learner is made).
	Probabilities []float64 `json:"probabilities"`
	// Mode is FastLearning or SlowLearning.
	Mode string `json:"mode"`
	// Rate is the reward step of fast learning or the learning factor gamma of slow learning, in (0, 1].
	Rate float64 `json:"rate"`
	// PS is Reibman and Ballard's chance that a type plays its best move, in (0, 1), for slow learning and
	// for MoveProbabilities (fast learning keeps it too, for the latter).
	PS float64 `json:"ps"`
	// Moves counts the opponent moves observed; Updates those that changed the probabilities.
	Moves   int `json:"moves"`
	Updates int `json:"updates"`
}

// check reports an error unless the state is usable (Probabilities may be nil: equal ones).
func (s *TypeLearnerState) check() error {
	if len(s.Types) < 1 || len(s.Types) > maxTypes {
		return fmt.Errorf("type learner: %d types, want 1..%d", len(s.Types), maxTypes)
	}
	for i, t := range s.Types {
		if t.Depth < 1 || t.Depth > MaxDepth {
			return fmt.Errorf("type learner: type %d (%q) searches %d plies, want 1..%d", i+1, t.Eval.Name, t.Depth, MaxDepth)
		}
	}
	if s.Mode != FastLearning && s.Mode != SlowLearning {
		return fmt.Errorf("type learner: mode %q, want %q or %q", s.Mode, FastLearning, SlowLearning)
	}
	if !(s.Rate > 0 && s.Rate <= 1) {
		return fmt.Errorf("type learner: rate %v is not in (0, 1]", s.Rate)
	}
	if !(s.PS > 0 && s.PS < 1) {
		return fmt.Errorf("type learner: PS %v is not in (0, 1)", s.PS)
	}
	if s.Moves < 0 || s.Updates < 0 || s.Updates > s.Moves {
		return errors.New("type learner: the move counts are negative or do not add up")
	}
	if s.Probabilities == nil {
		return nil
	}
	if len(s.Probabilities) != len(s.Types) {
		return fmt.Errorf("type learner: %d probabilities for %d types", len(s.Probabilities), len(s.Types))
	}
	return checkDistribution(s.Probabilities)
}

// UnmarshalJSON reads a state written by encoding/json and checks it (not against a game: NewTypeLearner
// does that).
func (s *TypeLearnerState) UnmarshalJSON(data []byte) error {
	type plain TypeLearnerState
	var p plain
	if err := json.Unmarshal(data, &p); err != nil {
		return fmt.Errorf("type learner: %w", err)
	}
	if err := (*TypeLearnerState)(&p).check(); err != nil {
		return err
	}
	*s = TypeLearnerState(p)
	return nil
}

// TypeLearner learns the probabilities of opponent types from the opponent's moves, one move at a time. For
// each position it ranks every legal move under each type, searching every move with the type's evaluation
// to the type's depth, and keeps the values of the latest positions so that a position asked about twice
// (predicted, then observed) is searched once. It is a MoveModel: the PrOM mixture of the types' rank
// models. It is not safe for concurrent use.
type TypeLearner struct {
	game     games.Game
	state    TypeLearnerState
	searches []*fixedSearch
	cache    map[uint64]*rankedPosition
	// scratch for one position's probabilities under each type
	likelihood []float64
	probs      [games.MaxMoves]float64
}

// rankedPosition is a position's legal moves and their values under each type.
type rankedPosition struct {
	fen    string // tells apart positions that share a hash
	moves  []games.Move
	values [][]float64 // values[type][move]
}

// rankCacheSize bounds the positions a TypeLearner keeps the values of; the cache empties when full.
const rankCacheSize = 1024

// NewTypeLearner returns a learner for game g in the given state (a new configuration or a state read back
// from the memory). Every type must fit the game.
func NewTypeLearner(g games.Game, state TypeLearnerState) (*TypeLearner, error) {
	if err := state.check(); err != nil {
		return nil, err
	}
	state.Types = append([]MinimaxPlayer(nil), state.Types...)
	if state.Probabilities == nil {
		state.Probabilities = make([]float64, len(state.Types))
		for i := range state.Probabilities {
			state.Probabilities[i] = 1 / float64(len(state.Types))
		}
	} else {
		state.Probabilities = append([]float64(nil), state.Probabilities...)
	}
	l := &TypeLearner{game: g, state: state, cache: map[uint64]*rankedPosition{},
		likelihood: make([]float64, len(state.Types))}
	for i, t := range state.Types {
		if err := t.Check(g); err != nil {
			return nil, fmt.Errorf("type learner: type %d: %w", i+1, err)
		}
		l.searches = append(l.searches, newFixedSearch(g, t.Eval, true))
	}
	return l, nil
}

// State returns a copy of the learner's state.
func (l *TypeLearner) State() TypeLearnerState {
	s := l.state
	s.Types = append([]MinimaxPlayer(nil), s.Types...)
	s.Probabilities = append([]float64(nil), s.Probabilities...)
	return s
}

// Probabilities returns the current type probabilities.
func (l *TypeLearner) Probabilities() []float64 {
	return append([]float64(nil), l.state.Probabilities...)
}

// ranked returns the moves of p and their values under every type, from the cache when p was ranked before.
func (l *TypeLearner) ranked(p games.Position) (*rankedPosition, error) {
	key, fen := p.Hash(), p.FEN()
	if r, ok := l.cache[key]; ok && r.fen == fen {
		return r, nil
	}
	moves, err := legalMoves(p)
	if err != nil {
		return nil, err
	}
	r := &rankedPosition{fen: fen, moves: moves, values: make([][]float64, len(l.searches))}
	for i, s := range l.searches {
		r.values[i] = make([]float64, len(moves))
		s.moveValues(p, moves, l.state.Types[i].Depth, r.values[i])
	}
	if len(l.cache) >= rankCacheSize {
		clear(l.cache)
	}
	l.cache[key] = r
	return r, nil
}

// Observe learns from one opponent move m played in p (p is left as it was). It reports whether the
// probabilities changed; a move that is not legal in p, or a position that is over, is an error and
// changes nothing.
func (l *TypeLearner) Observe(p games.Position, m games.Move) (bool, error) {
	r, err := l.ranked(p)
	if err != nil {
		return false, err
	}
	played, err := indexOf(p, r.moves, m)
	if err != nil {
		return false, err
	}
	l.state.Moves++
	probs := l.state.Probabilities
	switch l.state.Mode {
	case FastLearning:
		best := -1
		for i, values := range r.values {
			if !isBest(values, played) {
				continue
			}
			if best >= 0 {
				return false, nil // ambiguous: several types rank the move best
			}
			best = i
		}
		if best < 0 {
			return false, nil // no type explains the move
		}
		for i := range probs {
			probs[i] *= 1 - l.state.Rate
		}
		probs[best] += l.state.Rate
	case SlowLearning:
		evidence := 0.0
		for i, values := range r.values {
			ps := l.probs[:len(values)]
			rankProbabilities(values, l.state.PS, ps)
			l.likelihood[i] = ps[played] * probs[i]
			evidence += l.likelihood[i]
		}
		if evidence <= 0 {
			return false, nil // every type with a chance at all ruled the move out
		}
		for i := range probs {
			probs[i] = (1-l.state.Rate)*probs[i] + l.state.Rate*l.likelihood[i]/evidence
		}
	}
	Normalise(probs)
	l.state.Updates++
	return true, nil
}

// isBest reports whether move i has the highest value.
func isBest(values []float64, i int) bool {
	for _, v := range values {
		if v > values[i] {
			return false
		}
	}
	return true
}

// Normalise divides probabilities by their sum, so that they sum to 1 within rounding: it removes what
// repeated updates, or a grammar's tolerance, leave in the sum.
func Normalise(probs []float64) {
	sum := 0.0
	for _, p := range probs {
		sum += p
	}
	for i := range probs {
		probs[i] /= sum
	}
}

// MoveProbabilities implements MoveModel: the opponent is type i with probability P(w_i) and plays as
// type i's rank model with PS.
func (l *TypeLearner) MoveProbabilities(p games.Position, moves []games.Move, probs []float64) error {
	r, err := l.ranked(p)
	if err != nil {
		return err
	}
	if len(moves) != len(r.moves) || len(probs) != len(moves) {
		return errors.New("type learner: the moves are not the position's legal moves")
	}
	clear(probs)
	for i, values := range r.values {
		ps := l.probs[:len(values)]
		rankProbabilities(values, l.state.PS, ps)
		for j, m := range moves {
			k, err := indexOf(p, r.moves, m)
			if err != nil {
				return err
			}
			probs[j] += l.state.Probabilities[i] * ps[k]
		}
	}
	return nil
}

// MaxError is the largest difference between the learned and the given probabilities.
func MaxError(learned, truth []float64) float64 {
	worst := 0.0
	for i := range learned {
		worst = max(worst, math.Abs(learned[i]-truth[i]))
	}
	return worst
}
