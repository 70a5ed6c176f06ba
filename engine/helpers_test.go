// Test helpers: a reference minimax, random evaluations and positions, and the repository's data folder.
package engine

import (
	"math"
	"math/rand/v2"

	"dossier/games"
)

// minimax is the reference: plain negamax to depth with the same leaf and terminal rules as the engine
// (terminal positions by Status, in-tree repetitions as draws, depth-0 leaves and a hand-built tree's
// frontier evaluated), and no pruning at all.
func minimax(p games.Position, eval Evaluation, depth, ply int) float64 {
	return minimaxQ(p, eval, depth, ply, false)
}

// minimaxQ is minimax whose depth-0 leaves are resolved by quiescence when quiesce is set: the best of
// standing pat and every tactical move, all moves in check, and no standing pat while tactics are forced.
func minimaxQ(p games.Position, eval Evaluation, depth, ply int, quiesce bool) float64 {
	if o := p.Status(); o.Result != games.Ongoing {
		return terminalScore(p, o.Result, ply)
	}
	if ply > 0 && p.Repetitions() > 0 {
		return 0
	}
	if depth == 0 {
		if tp, ok := p.(games.Tactical); ok && quiesce {
			return quiescenceValue(p, tp, eval, ply)
		}
		return staticValue(p, eval)
	}
	moves := p.AppendMoves(nil)
	if len(moves) == 0 {
		if o := p.NoMovesOutcome(); o.Result != games.Ongoing {
			return terminalScore(p, o.Result, ply)
		}
		return staticValue(p, eval)
	}
	best := math.Inf(-1)
	for _, m := range moves {
		p.Play(m)
		best = max(best, -minimaxQ(p, eval, depth-1, ply+1, quiesce))
		p.Undo()
	}
	return best
}

func quiescenceValue(p games.Position, tp games.Tactical, eval Evaluation, ply int) float64 {
	if o := p.Status(); o.Result != games.Ongoing {
		return terminalScore(p, o.Result, ply)
	}
	if ply > 0 && p.Repetitions() > 0 {
		return 0
	}
	best := math.Inf(-1)
	var moves []games.Move
	if c, ok := p.(games.Checker); ok && c.InCheck() {
		moves = p.AppendMoves(nil)
	} else {
		if f, ok := p.(games.ForcedTactics); !ok || !f.TacticsForced() {
			best = staticValue(p, eval)
		}
		moves = tp.AppendTactical(nil)
		if len(moves) == 0 && math.IsInf(best, -1) {
			moves = p.AppendMoves(nil)
		}
	}
	if len(moves) == 0 && math.IsInf(best, -1) {
		if o := p.NoMovesOutcome(); o.Result != games.Ongoing {
			return terminalScore(p, o.Result, ply)
		}
		return staticValue(p, eval)
	}
	for _, m := range moves {
		p.Play(m)
		best = max(best, -quiescenceValue(p, tp, eval, ply+1))
		p.Undo()
	}
	return best
}

func staticValue(p games.Position, eval Evaluation) float64 {
	f := make([]float64, len(eval.Weights))
	p.Features(f)
	return eval.Value(f)
}

func terminalScore(p games.Position, r games.Result, ply int) float64 {
	if r == games.Draw {
		return 0
	}
	if w, _ := r.Winner(); w == p.ToMove() {
		return MateScore - float64(ply)
	}
	return -(MateScore - float64(ply))
}

// randomEvaluation draws a weight vector with normal entries for the game's features.
func randomEvaluation(g games.Game, rng *rand.Rand) Evaluation {
	w := make([]float64, len(g.FeatureNames()))
	for i := range w {
		w[i] = rng.NormFloat64()
	}
	return Evaluation{Name: "random", Weights: w}
}

// randomPosition plays up to plies random moves from the start, stopping before the game ends.
func randomPosition(g games.Game, rng *rand.Rand, plies int) games.Position {
	p := g.Start()
	for i := 0; i < plies; i++ {
		moves := p.AppendMoves(nil)
		if len(moves) == 0 {
			break
		}
		p.Play(moves[rng.IntN(len(moves))])
		if p.Status().Result != games.Ongoing || len(p.AppendMoves(nil)) == 0 {
			p.Undo()
			break
		}
	}
	return p
}

// searchDepth runs a fixed-depth search and returns its result.
func searchDepth(s Searcher, p games.Position, depth int) Result {
	return s.Search(p, NewControl(Limits{Depth: depth}, p.ToMove()), nil)
}

// childValue is the reference value of playing m in p, for the side to move in p.
func childValue(p games.Position, eval Evaluation, m games.Move, depth int) float64 {
	p.Play(m)
	defer p.Undo()
	return -minimax(p, eval, depth-1, 1)
}

// optionSets are the configurations whose values must equal minimax's at a fixed depth: everything that
// preserves the value (no table, since table cutoffs from deeper drafts change fixed-depth values; no
// quiescence, null move or reductions, which change the tree).
func exactOptionSets() map[string]AlphaBetaOptions {
	return map[string]AlphaBetaOptions{
		"plain":   {},
		"pvs":     {PVS: true},
		"ordered": {PVS: true, Killers: true, History: true},
		"all":     {PVS: true, Aspiration: true, Killers: true, History: true},
		"narrow":  {PVS: true, Aspiration: true, AspirationWindow: 1e-3, Killers: true, History: true},
	}
}

// testOptions are the game's default options with a small table, which tests allocate many times.
func testOptions(g games.Game) AlphaBetaOptions {
	o := DefaultAlphaBetaOptions(g)
	o.HashMB = 2
	return o
}
