// M* 1-pass (Carmel & Markovitch 1996, Figure 5): one expansion of the tree, a value vector per node.

package model

import (
	"dossier/engine"
	"math"
	"slices"

	"dossier/games"
)

// MStarOnePass is Carmel & Markovitch's M* 1-pass: it expands the tree once, as minimax does, and passes
// up a vector (V_0 ... V_d) per node, V_j being the node's value for model level j (0: the player, 1: its
// model of the opponent, ...). Where level j's owner is to move, V_j is the children's maximal V_j and
// V_{j-1} (the value for the level that models j) is taken from the child that level j chooses; among
// children that tie for level j's choice, the one worst for level j-1 (the minimal V_{j-1}) is passed up,
// as in Carmel & Markovitch's first paper. Its value equals M*'s (Theorem 1). It is a Searcher.
type MStarOnePass struct {
	modelSearcher
	vec  [maxPly + 1][]float64 // each ply's value vector, sized for the current depth
	flat []float64

	best, bestReply, reply games.Move
}

var _ engine.Searcher = (*MStarOnePass)(nil)

// NewMStarOnePass returns an M* 1-pass searcher for game with the given player model; game may be nil
// (the evaluations are then only checked against each other).
func NewMStarOnePass(game games.Game, model *PlayerModel, opts ModelOptions) (*MStarOnePass, error) {
	core, err := newPlayerModelCore(game, model, opts)
	if err != nil {
		return nil, err
	}
	s := &MStarOnePass{}
	s.modelSearcher = modelSearcher{core, s.run}
	return s, nil
}

// SearchMStarOnePass runs M* 1-pass on p to a fixed depth in the game's move order (see ModelOptions.Order).
func SearchMStarOnePass(p games.Position, depth int, model *PlayerModel, opts ModelOptions) (ModelResult, error) {
	s, err := NewMStarOnePass(nil, model, opts)
	return searchFixedDepth(s, err, p, depth)
}

// run searches the prepared root to depth.
func (s *MStarOnePass) run(p games.Position, ctl *engine.Control, depth int) ModelResult {
	c := s.core
	c.begin(p, ctl, depth)
	s.flat = sizeModelVectors(&s.vec, s.flat, c.levels)
	s.best, s.bestReply = games.NoMove, games.NoMove
	v := s.node(depth, 0)
	return c.result(s.best, s.bestReply, v[0], slices.Clone(v))
}

// node returns the value vector of the current position at ply, searched depth plies deeper.
func (s *MStarOnePass) node(depth, ply int) []float64 {
	c := s.core
	v := s.vec[ply]
	leaf, moves := c.vectorLeaf(depth, ply, v)
	if leaf || c.expand() {
		return v
	}
	initModelVector(v, ply)
	for _, m := range moves {
		if ply == 0 {
			s.reply = games.NoMove
		}
		c.pos.Play(m)
		u := s.node(depth-1, ply+1)
		c.pos.Undo()
		if c.aborted {
			return v
		}
		if mergeModelChild(v, u, ply) {
			s.chose(ply, m)
		}
	}
	return v
}

// chose records the move the mover's own level chose at the root (the player's move, with the reply
// its child predicted) or one ply below (the predicted reply).
func (s *MStarOnePass) chose(ply int, m games.Move) {
	switch ply {
	case 0:
		s.best, s.bestReply = m, s.reply
	case 1:
		s.reply = m
	}
}

// sizeModelVectors points vec[0..maxPly] at vectors of n entries carved from one buffer (reallocated only
// when n grows) and returns the buffer.
func sizeModelVectors(vec *[maxPly + 1][]float64, flat []float64, n int) []float64 {
	if len(flat) < n*(maxPly+1) {
		flat = make([]float64, n*(maxPly+1))
	}
	for i := range vec {
		vec[i] = flat[i*n : (i+1)*n : (i+1)*n]
	}
	return flat
}

// initModelVector starts a node's accumulation: the mover's levels at -Inf (they take maxima), the others at
// +Inf (they take the minimum over tied choices).
func initModelVector(v []float64, ply int) {
	for j := range v {
		if levelOwnerToMove(j, ply) {
			v[j] = math.Inf(-1)
		} else {
			v[j] = math.Inf(1)
		}
	}
}

// mergeModelChild folds a child's vector u into the node's vector v at ply (Figure 5): for each level j of
// the side to move, V_j is the maximum and V_{j-1} the value of j's choice, the minimal one among ties.
// The last level, when it belongs to the side not to move, has no level below it to choose for it and
// takes the minimum (it completes the tree as minimax would). mergeChild reports whether the child is
// now the choice of the mover's first level (the player at the root, the opponent model one ply down).
func mergeModelChild(v, u []float64, ply int) bool {
	mover := ply & 1
	chosen := false
	for j := mover; j < len(v); j += 2 {
		switch {
		case u[j] > v[j]:
			v[j] = u[j]
			if j > 0 {
				v[j-1] = u[j-1]
			}
			chosen = chosen || j == mover
		case u[j] == v[j] && j > 0 && u[j-1] < v[j-1]:
			v[j-1] = u[j-1]
			chosen = chosen || j == mover
		}
	}
	if last := len(v) - 1; last&1 != mover {
		v[last] = min(v[last], u[last])
	}
	return chosen
}
