// Symmetric opponent modelling: backward induction in bounded-common-interest games, pruned with the bound.

package model

import (
	"dossier/engine"
	"fmt"
	"math"

	"dossier/games"
)

// Symmetric opponent modelling (van den Herik, Donkers & Spronck 2005, section 6.3) lets both players
// know that they value positions differently: a competitive part S that one gains what the other loses,
// and a common-interest part C that both gain, so the side to move receives C + S and the other side
// C - S. The game is then a nonzero-sum game of perfect information, solved by backward induction
// (Figure 3): at every node the side to move picks the child whose equilibrium pays it most. It is a
// bounded-common-interest (BCI) game when C always lies in [-B/2, B/2], that is |V1 + V2| <= B.
//
// Pruning. With |V1 + V2| <= B, a node's value for its side to move x and the value y its parent's side
// to move receives there satisfy |x + y| <= B, which turns alpha-beta's negamax window into one that
// widens by B per ply: a child of a node searched in (alpha, beta) is searched in
// (-beta - B, -alpha' + B), alpha' being the better of alpha and the best child so far. A child whose
// value for its own side reaches -alpha' + B pays the parent's side at most alpha' and cannot be picked;
// one whose value stays below -beta - B pays it at least beta, which cuts the node off. Ties go to the
// first best child in move order, with and without pruning, so both find the same equilibrium.
//
// Equilibrium range. Let v* be the minimax value of the root player's pay-off (the opponent taken to
// minimise it) and k the plies to the leaves. At the root player's nodes backward induction takes the
// maximum like minimax; at the opponent's nodes it may pick a child worth up to 2B more to the root
// player than the minimum (the opponent's pay-off of any leaf is within B of minus the root player's).
// So every equilibrium pays the root player within [v*, v* + 2B*floor(k/2)], inside v* +- B*k, and the
// opponent within B of minus that, inside -v* +- B*(k+1). That is the survey's v* +- B(d-1) for Player 1
// and -v* +- Bd for Player 2 with d counting the levels of nodes (d = k + 1): counted in plies it would
// be wrong already at two plies, where an equilibrium can pay Player 1 nearly v* + 2B.

// SymmetricModel is a BCI game's pay-offs: a competitive and a common-interest evaluation, in the
// negamax convention (their values for the side to move at a leaf), and the bound on common interest.
type SymmetricModel struct {
	// Competitive evaluates S: the side to move receives +S, the other side -S.
	Competitive engine.Evaluation
	// Common evaluates C, which both sides receive; it is clipped to [-Bound/2, Bound/2], which makes every
	// model a BCI game with bound Bound.
	Common engine.Evaluation
	// Bound is B >= 0: |V1 + V2| <= B at every leaf. B = 0 is a zero-sum game (minimax on Competitive).
	Bound float64
}

// Payoffs returns the pay-offs at a leaf with the given features: the side to move's and the other side's.
func (m SymmetricModel) Payoffs(features []float64) (mover, other float64) {
	s := m.Competitive.Value(features)
	c := min(max(m.Common.Value(features), -m.Bound/2), m.Bound/2)
	return c + s, c - s
}

// BCIRange returns the range of the equilibrium pay-offs of a BCI game whose leaves lie at most plies
// below the root, v* being the minimax value of the root player's pay-off (see the comment above).
func BCIRange(vStar, bound float64, plies int) (rootLow, rootHigh, otherLow, otherHigh float64) {
	k := float64(max(plies, 0))
	return vStar - bound*k, vStar + bound*k, -vStar - bound*(k+1), -vStar + bound*(k+1)
}

// SymmetricOptions configure a symmetric search.
type SymmetricOptions struct {
	// Pruning uses the bound B to prune (off: plain backward induction over the whole tree).
	Pruning bool
}

// SymmetricResult is the equilibrium a symmetric search found, with the range check.
type SymmetricResult struct {
	// Move is the root player's equilibrium move; Predicted the opponent's equilibrium reply to it.
	Move, Predicted games.Move
	// RootPayoff and OtherPayoff are the equilibrium pay-offs of the root player and of its opponent.
	RootPayoff, OtherPayoff float64
	// VStar is the minimax value of the root player's pay-off (its zero-sum value).
	VStar float64
	// InRange reports whether the pay-offs lie in BCIRange (always, unless the theory is wrong); SearchDepth
	// sets it and VStar, the Searcher does not spend the time.
	InRange bool
	// Leaves counts the leaves whose pay-offs the equilibrium search computed.
	Leaves uint64
	// Nodes counts every node visited, the minimax search for VStar included.
	Nodes uint64
	// Complete is false when the search was stopped.
	Complete bool
}

// SymmetricSearch finds a subgame-perfect equilibrium of a BCI game by backward induction.
type SymmetricSearch struct {
	omBase
	model    SymmetricModel
	opts     SymmetricOptions
	features []float64
	leaves   uint64
}

var _ engine.Searcher = (*SymmetricSearch)(nil)

// NewSymmetricSearch returns a symmetric search for game under the model.
func NewSymmetricSearch(game games.Game, model SymmetricModel, opts SymmetricOptions) (*SymmetricSearch, error) {
	if err := model.Competitive.Check(game); err != nil {
		return nil, fmt.Errorf("competitive evaluation: %w", err)
	}
	if err := model.Common.Check(game); err != nil {
		return nil, fmt.Errorf("common-interest evaluation: %w", err)
	}
	if math.IsNaN(model.Bound) || math.IsInf(model.Bound, 0) || model.Bound < 0 {
		return nil, fmt.Errorf("bound on common interest is %v, want a finite number >= 0", model.Bound)
	}
	s := &SymmetricSearch{model: model, opts: opts, features: make([]float64, len(game.FeatureNames()))}
	s.game = game
	return s, nil
}

// NewGame does nothing: the search keeps nothing between moves.
func (s *SymmetricSearch) NewGame() {}

// symBound says what a returned value is: exact, or a bound outside the search window.
type symBound uint8

const (
	symExact symBound = iota
	symLower          // the value for the side to move is at least beta
	symUpper          // the value for the side to move is at most alpha
)

// SearchDepth finds the equilibrium of the game tree below p to depth plies, its v* and the range check.
func (s *SymmetricSearch) SearchDepth(p games.Position, depth int) SymmetricResult {
	s.root, s.rootFirst = nil, games.NoMove
	return s.searchDepth(p, depth, nil, true)
}

// searchDepth finds the equilibrium and, when withRange is set, v* and the range check.
func (s *SymmetricSearch) searchDepth(p games.Position, depth int, ctl *engine.Control, withRange bool) SymmetricResult {
	s.begin(p, ctl)
	defer s.end()
	s.leaves = 0
	x, y, move, reply, _ := s.induce(p, depth, 0, math.Inf(-1), math.Inf(1))
	res := SymmetricResult{Move: move, Predicted: reply, RootPayoff: x, OtherPayoff: y, Leaves: s.leaves}
	if withRange && !s.aborted {
		res.VStar = s.rootMinimax(p, depth, 0, math.Inf(-1), math.Inf(1))
		lo, hi, otherLo, otherHi := BCIRange(res.VStar, s.model.Bound, depth)
		slack := 1e-9 * max(1, math.Abs(res.VStar))
		res.InRange = x >= lo-slack && x <= hi+slack && y >= otherLo-slack && y <= otherHi+slack
	}
	res.Complete = !s.aborted
	res.Nodes = s.nodes
	return res
}

// leafPayoffs are the pay-offs at a node where the search ends, for its side to move and the other.
func (s *SymmetricSearch) leafPayoffs(p games.Position) (mover, other float64) {
	s.leaves++
	p.Features(s.features)
	return s.model.Payoffs(s.features)
}

// ending reports the pay-offs (side to move, other) of a node that ends the search, or false.
func (s *SymmetricSearch) ending(p games.Position, depth, ply int) (mover, other float64, moves []games.Move, done bool) {
	outcome := func(r games.Result) (float64, float64) {
		if r == games.Draw {
			return 0, 0
		}
		win := engine.MateScore - float64(ply)
		if w, _ := r.Winner(); w == p.ToMove() {
			return win, -win
		}
		return -win, win
	}
	if o := p.Status(); o.Result != games.Ongoing {
		x, y := outcome(o.Result)
		return x, y, nil, true
	}
	if ply > 0 && p.Repetitions() > 0 {
		return 0, 0, nil, true
	}
	if depth <= 0 || ply >= maxPly-2 {
		x, y := s.leafPayoffs(p)
		return x, y, nil, true
	}
	moves = s.movesAt(p, ply)
	if len(moves) == 0 {
		if o := p.NoMovesOutcome(); o.Result != games.Ongoing {
			x, y := outcome(o.Result)
			return x, y, nil, true
		}
		x, y := s.leafPayoffs(p)
		return x, y, nil, true
	}
	return 0, 0, moves, false
}

// induce is backward induction below p within the window (alpha, beta) on the side to move's pay-off.
// It returns the equilibrium pay-offs of the side to move (x) and of the other side (y), the move and
// the child's own equilibrium move, and what x is: exact, or a bound when it falls outside the window.
func (s *SymmetricSearch) induce(p games.Position, depth, ply int, alpha, beta float64) (x, y float64, move, reply games.Move, kind symBound) {
	if s.visit() {
		return 0, 0, games.NoMove, games.NoMove, symExact
	}
	x, y, moves, done := s.ending(p, depth, ply)
	if done {
		return x, y, games.NoMove, games.NoMove, symExact
	}
	b := s.model.Bound
	best, bestOther := math.Inf(-1), math.Inf(1)
	move = games.NoMove
	for _, m := range moves {
		childAlpha, childBeta := math.Inf(-1), math.Inf(1)
		if s.opts.Pruning {
			childAlpha, childBeta = -beta-b, -max(alpha, best)+b
		}
		p.Play(m)
		cx, cy, cm, _, ck := s.induce(p, depth-1, ply+1, childAlpha, childBeta)
		p.Undo()
		if s.aborted {
			return 0, 0, games.NoMove, games.NoMove, symExact
		}
		switch ck {
		case symLower: // pays us at most alpha': never picked
			continue
		case symUpper: // pays us at least beta
			return cy, cx, m, cm, symLower
		}
		if cy > best {
			best, bestOther, move, reply = cy, cx, m, cm
			if best >= beta {
				return best, bestOther, move, reply, symLower
			}
		}
	}
	if move == games.NoMove || best <= alpha {
		return best, bestOther, move, reply, symUpper
	}
	return best, bestOther, move, reply, symExact
}

// rootMinimax is the minimax value of the root player's pay-off below p (the root player maximising it,
// the opponent minimising it), with alpha-beta pruning: the v* of the equilibrium range.
func (s *SymmetricSearch) rootMinimax(p games.Position, depth, ply int, alpha, beta float64) float64 {
	if s.visit() {
		return 0
	}
	x, y, moves, done := s.ending(p, depth, ply)
	if done {
		if p.ToMove() == s.rootSide {
			return x
		}
		return y
	}
	maximising := p.ToMove() == s.rootSide
	best := math.Inf(1)
	if maximising {
		best = math.Inf(-1)
	}
	for _, m := range moves {
		p.Play(m)
		v := s.rootMinimax(p, depth-1, ply+1, alpha, beta)
		p.Undo()
		if s.aborted {
			return 0
		}
		if maximising {
			best = max(best, v)
			alpha = max(alpha, v)
		} else {
			best = min(best, v)
			beta = min(beta, v)
		}
		if alpha >= beta {
			break
		}
	}
	return best
}

// Search runs iterative deepening symmetric search under ctl (see Searcher); the score is the root
// player's equilibrium pay-off and the predicted reply the opponent's equilibrium move.
func (s *SymmetricSearch) Search(p games.Position, ctl *engine.Control, report func(engine.Info)) engine.Result {
	return s.iterate(p, ctl, report, func(p games.Position, ctl *engine.Control, depth int) ModelResult {
		r := s.searchDepth(p, depth, ctl, false)
		return ModelResult{Move: r.Move, Value: r.RootPayoff, Predicted: r.Predicted, Nodes: r.Nodes, Leaves: r.Leaves,
			Aborted: !r.Complete}
	})
}
