// Tests of M* with an opponent strategy (f, d) and its risk-reduced variant (Carmel & Markovitch 1993).
package model

import (
	"dossier/engine"
	"math"
	"math/rand/v2"
	"testing"

	"dossier/games"
)

// msModelValue is the opponent model's minimax value of the current position, from the model's point of
// view, searched depth plies with its own function (the reference for the strategy form).
func msModelValue(p games.Position, model engine.Evaluation, root games.Side, depth, ply int) float64 {
	opponent := root.Other()
	if o := p.Status(); o.Result != games.Ongoing {
		return msOutcome(p, o.Result, ply, opponent)
	}
	if ply > 0 && p.Repetitions() > 0 {
		return 0
	}
	if depth <= 0 {
		return msPlayerValue(p, model, Mirror{}, opponent)
	}
	moves := p.AppendMoves(nil)
	if len(moves) == 0 {
		if o := p.NoMovesOutcome(); o.Result != games.Ongoing {
			return msOutcome(p, o.Result, ply, opponent)
		}
		return msPlayerValue(p, model, Mirror{}, opponent)
	}
	modelMoves := p.ToMove() == opponent
	best := math.Inf(1)
	if modelMoves {
		best = math.Inf(-1)
	}
	for _, m := range moves {
		p.Play(m)
		v := msModelValue(p, model, root, depth-1, ply+1)
		p.Undo()
		if modelMoves {
			best = max(best, v)
		} else {
			best = min(best, v)
		}
	}
	return best
}

// msStrategyRef is the strategy form of M* written directly from its definition: at the player's nodes
// the best child; at the opponent's nodes the child the model prefers (its own minimax search to its
// frontier at ply modelDepth+1, or to the search's horizon below that), the worst for the player among
// equally preferred children; with riskReduced, the worst child at the opponent's nodes after the first.
func msStrategyRef(p games.Position, player, model engine.Evaluation, depth, modelDepth, ply int, riskReduced bool) float64 {
	root := p.ToMove() // the player moves at even plies
	if ply%2 == 1 {
		root = root.Other()
	}
	if o := p.Status(); o.Result != games.Ongoing {
		return msOutcome(p, o.Result, ply, root)
	}
	if ply > 0 && p.Repetitions() > 0 {
		return 0
	}
	if depth == ply {
		return msPlayerValue(p, player, Mirror{}, root)
	}
	moves := p.AppendMoves(nil)
	if len(moves) == 0 {
		if o := p.NoMovesOutcome(); o.Result != games.Ongoing {
			return msOutcome(p, o.Result, ply, root)
		}
		return msPlayerValue(p, player, Mirror{}, root)
	}
	frontier := 1 + modelDepth
	best := math.Inf(-1)
	if ply%2 == 1 {
		best = math.Inf(1)
	}
	bestModel := math.Inf(-1)
	for _, m := range moves {
		p.Play(m)
		v := msStrategyRef(p, player, model, depth, modelDepth, ply+1, riskReduced)
		horizon := depth
		if ply+1 <= frontier {
			horizon = min(frontier, depth)
		}
		mv := msModelValue(p, model, root, horizon-(ply+1), ply+1)
		p.Undo()
		switch {
		case ply%2 == 0:
			best = max(best, v)
		case riskReduced && ply > 1:
			best = min(best, v)
		case mv > bestModel || (mv == bestModel && v < best):
			best, bestModel = v, mv
		}
	}
	return best
}

func TestMStarStrategyOnRandomTrees(t *testing.T) {
	n := 1000
	if testing.Short() {
		n = 150
	}
	rng := rand.New(rand.NewPCG(51, 52))
	for i := range n {
		height := 2 + i%5
		maxB := []int{5, 4, 3, 3, 2}[height-2]
		tree := msRandomTree(rng, height, rng.IntN(2), maxB, 2, []int{2, 10, 1000}[rng.IntN(3)], nil)
		depth := 2 + rng.IntN(height)
		chain := msUnitChain(2)
		player, model := chain[0], chain[1]
		p := tree.StartPosition()
		mm := msMinimax(p, player, Mirror{}, games.First, depth, 0)
		for modelDepth := 1; modelDepth < depth; modelDepth++ {
			full := msMust(t)(SearchMStarStrategy(p, depth, player, Strategy{model, modelDepth}, false, ModelOptions{}))
			safe := msMust(t)(SearchMStarStrategy(p, depth, player, Strategy{model, modelDepth}, true, ModelOptions{}))
			for _, tc := range []struct {
				name string
				got  float64
				risk bool
			}{{"M*", full.Value, false}, {"risk-reduced M*", safe.Value, true}} {
				if want := msStrategyRef(p, player, model, depth, modelDepth, 0, tc.risk); tc.got != want {
					t.Fatalf("%s to depth %d, model depth %d: %v, reference %v\n%v", tc.name, depth, modelDepth, tc.got, want, tree)
				}
			}
			// Lemma 2: M* is never below minimax; the risk-reduced variant lies between them.
			if !(mm <= safe.Value && safe.Value <= full.Value) {
				t.Fatalf("depth %d, model depth %d: minimax %v, risk-reduced %v, M* %v: want that order", depth, modelDepth, mm, safe.Value, full.Value)
			}
		}
		// Lemma 1: the model (-f, d-1) makes M* minimax.
		zs := Strategy{ZeroSumOpponent(player, Mirror{}), depth - 1}
		if v := msMust(t)(SearchMStarStrategy(p, depth, player, zs, false, ModelOptions{})).Value; v != mm {
			t.Fatalf("depth %d: M* with (-f, d-1) = %v, minimax %v", depth, v, mm)
		}
		// A model that searches d-1 plies is the 1996 player (f, (f_model, NIL)).
		full := msMust(t)(SearchMStarStrategy(p, depth, player, Strategy{model, depth - 1}, false, ModelOptions{}))
		nested := msMust(t)(SearchMStarOnePass(p, depth, NewPlayerModel(player, model), ModelOptions{}))
		if full.Value != nested.Value || full.Move != nested.Move || full.Predicted != nested.Predicted {
			t.Fatalf("depth %d: strategy form %v (%v, %v), nested form %v (%v, %v)", depth, full.Value, full.Move,
				full.Predicted, nested.Value, nested.Move, nested.Predicted)
		}
	}
}

func TestMStarStrategyRejectsDeepModels(t *testing.T) {
	tree := msRandomTree(rand.New(rand.NewPCG(1, 1)), 3, 2, 2, 2, 5, nil)
	chain := msUnitChain(2)
	for _, tc := range []struct {
		name  string
		depth int
		model int
	}{{"as deep as the player", 3, 3}, {"deeper", 2, 4}, {"zero plies", 3, 0}} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := SearchMStarStrategy(tree.Start(), tc.depth, chain[0], Strategy{chain[1], tc.model}, false, ModelOptions{}); err == nil {
				t.Errorf("model depth %d under player depth %d accepted", tc.model, tc.depth)
			}
		})
	}
}
