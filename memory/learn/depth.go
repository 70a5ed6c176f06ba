// Carmel and Markovitch's learning of the opponent's search depth from its moves, its evaluation known
// (their Figure 6).

package learn

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"

	"dossier/engine"
	"dossier/games"
)

// ModelDepth names DepthLearner's state in memory.ModelUpdate events.
const ModelDepth = "depth"

// DepthLearnerState is a DepthLearner's configuration and its counters: its JSON form is what the memory
// keeps per opponent.
type DepthLearnerState struct {
	// Eval is the opponent's evaluation function, taken as known.
	Eval engine.Evaluation `json:"eval"`
	// MaxDepth is the deepest search the opponent is thought capable of, 1..MaxDepth.
	MaxDepth int `json:"maxDepth"`
	// Counts[d-1] is the counter of depth d: over the examples, the moves that a depth-d search values no
	// better than the move played minus those it values better.
	Counts []float64 `json:"counts"`
	// Examples counts the opponent moves learned from.
	Examples int `json:"examples"`
}

// check reports an error unless the state is usable (Counts may be nil: all zero).
func (s *DepthLearnerState) check() error {
	if s.MaxDepth < 1 || s.MaxDepth > MaxDepth {
		return fmt.Errorf("depth learner: maximal depth %d, want 1..%d", s.MaxDepth, MaxDepth)
	}
	if s.Examples < 0 {
		return errors.New("depth learner: a negative number of examples")
	}
	if s.Counts == nil {
		return nil
	}
	if len(s.Counts) != s.MaxDepth {
		return fmt.Errorf("depth learner: %d counters for depths 1..%d", len(s.Counts), s.MaxDepth)
	}
	limit := float64(s.Examples) * games.MaxMoves
	for d, c := range s.Counts {
		if math.Abs(c) > limit || c != math.Trunc(c) {
			return fmt.Errorf("depth learner: the counter of depth %d is %v after %d examples", d+1, c, s.Examples)
		}
	}
	return nil
}

// UnmarshalJSON reads a state written by encoding/json and checks it (not against a game: NewDepthLearner
// does that).
func (s *DepthLearnerState) UnmarshalJSON(data []byte) error {
	type plain DepthLearnerState
	var p plain
	if err := json.Unmarshal(data, &p); err != nil {
		return fmt.Errorf("depth learner: %w", err)
	}
	if err := (*DepthLearnerState)(&p).check(); err != nil {
		return err
	}
	*s = DepthLearnerState(p)
	return nil
}

// DepthLearner learns the depth d of an opponent that plays as a fixed-depth minimax player (f, d) with a
// known f. For every example (board, move played) and every depth d it takes M, the value of the move
// played by a depth-d search, and adds to depth d's counter the number of moves a depth-d search values at
// most M minus the number it values above M; the learned depth has the largest counter. The true depth
// counts every move of every example, so it always has the largest counter (Carmel and Markovitch). Whether
// a move beats M is settled by a null-window probe, far cheaper than the move's value. It is not safe for
// concurrent use.
type DepthLearner struct {
	game   games.Game
	state  DepthLearnerState
	search *fixedSearch
}

// NewDepthLearner returns a learner for game g in the given state (a new configuration or one read back
// from the memory).
func NewDepthLearner(g games.Game, state DepthLearnerState) (*DepthLearner, error) {
	if err := state.check(); err != nil {
		return nil, err
	}
	if err := state.Eval.Check(g); err != nil {
		return nil, fmt.Errorf("depth learner: %w", err)
	}
	if state.Counts == nil {
		state.Counts = make([]float64, state.MaxDepth)
	} else {
		state.Counts = append([]float64(nil), state.Counts...)
	}
	return &DepthLearner{game: g, state: state, search: newFixedSearch(g, state.Eval, true)}, nil
}

// State returns a copy of the learner's state.
func (l *DepthLearner) State() DepthLearnerState {
	s := l.state
	s.Counts = append([]float64(nil), s.Counts...)
	return s
}

// Observe learns from one opponent move m played in p (p is left as it was). A move that is not legal in p,
// or a position that is over, is an error and changes nothing.
func (l *DepthLearner) Observe(p games.Position, m games.Move) error {
	moves, err := legalMoves(p)
	if err != nil {
		return err
	}
	if _, err := indexOf(p, moves, m); err != nil {
		return err
	}
	for d := 1; d <= l.state.MaxDepth; d++ {
		p.Play(m)
		played := fromParent(l.search.childValue(p, d, math.Inf(-1), math.Inf(1)))
		p.Undo()
		count := 1.0 // the move played is valued at most M
		for _, b := range moves {
			if b == m {
				continue
			}
			if l.search.beats(p, b, d, played) {
				count--
			} else {
				count++
			}
		}
		l.state.Counts[d-1] += count
	}
	l.state.Examples++
	return nil
}

// Depth returns the learned depth: the one with the largest counter, the shallowest of equal ones (1 before
// any example).
func (l *DepthLearner) Depth() int {
	best := 0
	for d, c := range l.state.Counts {
		if c > l.state.Counts[best] {
			best = d
		}
	}
	return best + 1
}
