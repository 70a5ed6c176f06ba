// Test helpers for the M* family: trees from owners' values, bounded random trees, reference minimax and
// alpha-beta over a player's function, unit evaluations.
package model

import (
	"dossier/engine"
	"math"
	"math/rand/v2"
	"strconv"
	"testing"

	"dossier/games"
	"dossier/games/gametree"
)

// msUnitChain returns the evaluations e_0, ..., e_{n-1} over n features: on a hand-built tree e_j is the
// tree's function j.
func msUnitChain(n int) []engine.Evaluation {
	chain := make([]engine.Evaluation, n)
	for j := range chain {
		w := make([]float64, n)
		w[j] = 1
		chain[j] = engine.Evaluation{Name: "f" + strconv.Itoa(j), Weights: w}
	}
	return chain
}

// msStored converts owners' values (level j owned by the first player for even j) into the first
// player's point of view that gametree stores.
func msStored(owner ...float64) []float64 {
	out := make([]float64, len(owner))
	for j, v := range owner {
		if j&1 == 1 {
			v = -v
		}
		out[j] = v
	}
	return out
}

// msRandomTree draws a tree of the given depth with minB..maxB children per node and one value per level
// at every node, integers from owners' points of view: level 0 uniform in [-valueRange, valueRange],
// level j+1 equal to minus level j plus a uniform integer in [-gap[j], gap[j]], so that
// |f_j + f_{j+1}| <= gap[j] everywhere. A nil gap draws every level independently.
func msRandomTree(rng *rand.Rand, depth, minB, maxB, levels, valueRange int, gap []int) *gametree.Tree {
	var grow func(name string, depth int) *gametree.Node
	grow = func(name string, depth int) *gametree.Node {
		owner := make([]float64, levels)
		for j := range owner {
			if j == 0 || gap == nil {
				owner[j] = float64(rng.IntN(2*valueRange+1) - valueRange)
			} else {
				owner[j] = -owner[j-1] + float64(rng.IntN(2*gap[j-1]+1)-gap[j-1])
			}
		}
		node := &gametree.Node{Name: name, Values: msStored(owner...)}
		if depth > 0 {
			node.Children = make([]*gametree.Node, minB+rng.IntN(maxB-minB+1))
			for i := range node.Children {
				node.Children[i] = grow(name+"."+strconv.Itoa(i), depth-1)
			}
		}
		return node
	}
	t, err := gametree.NewTree(grow("r", depth), levels)
	if err != nil {
		panic(err)
	}
	return t
}

// msPlayerValue is a player's function at the current position from the player's point of view, the
// player being root (the side to move where the search started).
func msPlayerValue(p games.Position, eval engine.Evaluation, mirror Mirror, root games.Side) float64 {
	x := make([]float64, len(eval.Weights))
	p.Features(x)
	if p.ToMove() == root {
		return eval.Value(x)
	}
	return weightsDot(mirror.otherSide(eval.Weights), x)
}

// msOutcome is a finished game's value for root at ply, as the model searches score it.
func msOutcome(p games.Position, r games.Result, ply int, root games.Side) float64 {
	if r == games.Draw {
		return 0
	}
	if w, _ := r.Winner(); w == root {
		return engine.MateScore - float64(ply)
	}
	return -(engine.MateScore - float64(ply))
}

// msMinimax is the reference: plain minimax to depth over the player's function valued for root at
// every leaf (max where root moves, min elsewhere), with the leaf rules of the model searches.
func msMinimax(p games.Position, eval engine.Evaluation, mirror Mirror, root games.Side, depth, ply int) float64 {
	v, _ := msAlphaBeta(p, eval, mirror, root, depth, ply, math.Inf(-1), math.Inf(1), false)
	return v
}

// msAlphaBeta is textbook alpha-beta (cut as soon as a value reaches the window's far side) over the
// player's function, in the game's move order; without prune it is plain minimax. It also returns the
// first best move at the root.
func msAlphaBeta(p games.Position, eval engine.Evaluation, mirror Mirror, root games.Side, depth, ply int, alpha, beta float64, prune bool) (float64, games.Move) {
	if o := p.Status(); o.Result != games.Ongoing {
		return msOutcome(p, o.Result, ply, root), games.NoMove
	}
	if ply > 0 && p.Repetitions() > 0 {
		return 0, games.NoMove
	}
	if depth <= 0 {
		return msPlayerValue(p, eval, mirror, root), games.NoMove
	}
	moves := p.AppendMoves(nil)
	if len(moves) == 0 {
		if o := p.NoMovesOutcome(); o.Result != games.Ongoing {
			return msOutcome(p, o.Result, ply, root), games.NoMove
		}
		return msPlayerValue(p, eval, mirror, root), games.NoMove
	}
	maximise := p.ToMove() == root
	best, bestMove := math.Inf(1), games.NoMove
	if maximise {
		best = math.Inf(-1)
	}
	for _, m := range moves {
		p.Play(m)
		v, _ := msAlphaBeta(p, eval, mirror, root, depth-1, ply+1, alpha, beta, prune)
		p.Undo()
		if maximise {
			if v > best {
				best, bestMove = v, m
			}
			alpha = max(alpha, best)
		} else {
			if v < best {
				best, bestMove = v, m
			}
			beta = min(beta, best)
		}
		if prune && alpha >= beta {
			break
		}
	}
	return best, bestMove
}

// msLeafGaps returns, for the search of p to depth with the given chain of evaluations (completed as
// minimax below its end), the largest |f_k + f_{k+1}| over the static leaves for each pair of real
// levels: the tightest bounds alpha-beta* may be given.
func msLeafGaps(t testing.TB, p games.Position, depth int, chain []engine.Evaluation, opts ModelOptions) []float64 {
	t.Helper()
	c, err := newModelCore(nil, chain, opts)
	if err != nil {
		t.Fatal(err)
	}
	c.begin(p, nil, depth)
	pairs := max(c.real-1, 0)
	gaps := make([]float64, pairs)
	vec := make([]float64, c.levels)
	var walk func(depth, ply int)
	walk = func(depth, ply int) {
		leaf, moves := c.vectorLeaf(depth, ply, vec)
		if leaf {
			for k := range gaps {
				gaps[k] = max(gaps[k], math.Abs(vec[k]+vec[k+1]))
			}
			return
		}
		moves = append([]games.Move(nil), moves...)
		for _, m := range moves {
			p.Play(m)
			walk(depth-1, ply+1)
			p.Undo()
		}
	}
	walk(depth, 0)
	return gaps
}

// msMust returns a function that fails the test on an error and otherwise returns the result, for
// msMust(t)(SearchMStar(...)).
func msMust(t testing.TB) func(ModelResult, error) ModelResult {
	return func(r ModelResult, err error) ModelResult {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
}
