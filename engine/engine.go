// Package engine is dossier's game-independent alpha-beta search, written once over the games interface:
// iterative deepening with aspiration windows and MultiPV, a principal-variation search with quiescence,
// a shared transposition table, move ordering and the selective techniques of AlphaBetaOptions, Lazy SMP
// threads, time control (Control, Limits), probes for other searches, and the Experience of deeper analyses
// read at its nodes. It also defines what every search shares: Evaluation, the Searcher interface and its
// Info and Result. The evaluation is an input, never a global. The opponent-model searches built on it live
// in package engine/model.
package engine

import (
	"fmt"
	"math"

	"dossier/games"
)

// Evaluation is an evaluation function: a weight vector over a game's features. Its value for a position
// is the dot product with the position's feature vector, from the side to move's point of view.
type Evaluation struct {
	// Name identifies the function in logs and presets ("strongest", "mat-tot25", "f1").
	Name string
	// Weights has one entry per feature of the game, in the order of games.Game.FeatureNames.
	Weights []float64
}

// Value returns the evaluation of a feature vector (the dot product).
func (e Evaluation) Value(features []float64) float64 {
	w := e.Weights
	if len(w) > len(features) {
		w = w[:len(features)]
	}
	var v float64
	for i, x := range w {
		v += x * features[i]
	}
	return v
}

// Check reports an error if the evaluation does not fit the game's features.
func (e Evaluation) Check(g games.Game) error {
	if n := len(g.FeatureNames()); len(e.Weights) != n {
		return fmt.Errorf("evaluation %q has %d weights but %s has %d features", e.Name, len(e.Weights), g.Name(), n)
	}
	for i, x := range e.Weights {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Errorf("evaluation %q: weight of %s is %v", e.Name, g.FeatureNames()[i], x)
		}
	}
	return nil
}

// Scores of won and lost positions. A win found at ply p from the root scores MateScore - p, so that
// faster wins score higher; evaluations must stay well inside (-MateBound, MateBound).
const (
	MateScore = 1_000_000.0
	MateBound = MateScore - 10_000
)

// IsMate reports whether a score is a forced win or loss, and in how many moves of the winner (negative
// when the side to move loses). The move count is what UCI's "score mate N" expects.
func IsMate(score float64) (moves int, ok bool) {
	if math.Abs(score) < MateBound {
		return 0, false
	}
	plies := int(MateScore - math.Abs(score))
	if score > 0 {
		return (plies + 1) / 2, true
	}
	return -(plies + 1) / 2, true
}

// Info is one progress report of a search, what UCI's "info" line shows.
type Info struct {
	Depth    int
	SelDepth int
	Score    float64 // from the side to move at the root
	Nodes    uint64
	TimeMS   int64
	HashFull int // per mille
	PV       []games.Move
	// Predicted is the opponent reply that the opponent model predicts, for the model searches.
	Predicted games.Move
	// MultiPV numbers the line from 1 (best first) when the search reports several root moves (UCI's
	// "multipv N"); 0 when it reports one.
	MultiPV int
	// Text is a free-form message (UCI's "info string").
	Text string
}

// Result is what a finished search returns.
type Result struct {
	Move   games.Move // games.NoMove when the side to move has no legal move
	Ponder games.Move // the expected reply, or games.NoMove
	Score  float64
	Depth  int
	Nodes  uint64
	PV     []games.Move
	// Lines are the best root moves with their values, best first, when the search was asked for more than
	// one (Limits.MultiPV > 1; the first is Move, Score and PV); nil otherwise.
	Lines []RootLine
}

// RootLine is one root move with the value a MultiPV search gave it and the line it expects.
type RootLine struct {
	Move  games.Move
	Score float64 // exact at the depth searched, from the side to move at the root
	PV    []games.Move
}

// Searcher is one search algorithm with its evaluation functions and opponent model bound in.
// Search is not called concurrently on one Searcher; Control is how other goroutines reach a running search.
type Searcher interface {
	// Search looks for the best move in p (which it leaves as it found it) until ctl says stop,
	// calling report (which may be nil) after each completed iteration.
	Search(p games.Position, ctl *Control, report func(Info)) Result
	// NewGame clears what the searcher learnt about the previous game (transposition table, history).
	NewGame()
}
