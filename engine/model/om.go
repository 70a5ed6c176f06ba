// OM search (opponent-model search with alpha-beta probing and beta-pruning) and the machinery it shares with PrOM and MEU.

package model

import (
	"dossier/engine"
	"fmt"
	"math"
	"slices"

	"dossier/games"
)

// OM search (Iida et al.; van den Herik, Donkers & Spronck 2005, Figure 1) assumes that the opponent is a
// minimax player whose evaluation and search depth we know. At our (MAX) nodes it maximises our own value;
// at the opponent's (MIN) nodes it asks an alpha-beta probe with the opponent's evaluation which move the
// opponent plays and follows that move only. Values are our own evaluation V0 from the root player's point
// of view; the opponent's values come from the probe, its evaluation valued for the opponent (who is to
// move at a MIN node). As in the M* family every evaluation is valued for its owner; OMOptions.Mirror
// says how to read the features from the side not to move.
//
// Beta-pruning: after the opponent's probe at a MIN node h returns value u (for the opponent) and move m,
// every grandchild h+m+m' is worth at least u to the opponent (we pick m' at h+m, and in the opponent's
// eyes we minimise its value), so the probe there may start from the window (u-, +inf) instead of
// (-inf, +inf). The paper writes this for a minimising MIN as the window (-inf, v+1); the negamax form
// is the mirror image. The window is valid only while the probes search to one common horizon, as the
// paper's opponent does; a probe that nevertheless fails low is repeated with the full window.

// omSimilarity: bounded-gain pruning at MAX nodes (our own reading of Donkers, van den Herik & Uiterwijk's
// similarity pruning for PrOM search, whose paper we do not have). Let every opponent evaluation, as MAX
// sees it, differ from our own V0 by at most delta at the leaves, up to a constant per evaluation. Minimax
// values then differ by at most delta too (minimax is monotone and commutes with constants), so a MIN node
// h's type i picks a child whose V0-minimax is at most mm0(h) + 2 delta (it prefers that child to the
// V0-optimal one under its own values). By induction the model's value of a node exceeds its V0-minimax
// value by at most 2 * sum_i P(w_i) delta_i per MIN level below it (delta_i = 0 for a type with our own
// weights), and is never below it. So at a MAX node whose best move so far is worth a, a MIN child h
// with r plies left cannot do better when mm0(h) + 2 delta' ceil(r/2) <= a, which a null-window probe of
// our own evaluation decides at the cost of alpha-beta's test of a non-principal move. With delta' = 0
// (the model is minimax's) the searches prune like alpha-beta at the MAX nodes.

// OMModel is OM search's model of the opponent: a minimax player with a known evaluation and depth.
type OMModel struct {
	// Opponent is the opponent's evaluation, valued from the opponent's point of view as the M* family
	// values its levels (OMOptions.Mirror reads the features from the side not to move). Minimax's
	// implicit model is ZeroSumOpponent(own, mirror); over difference features that has our own weights.
	Opponent engine.Evaluation
	// ProbeDepth is how many plies the opponent searches from each of its moves; 0 means to the same
	// horizon as our search (the paper's assumption, and the one under which beta-pruning holds).
	ProbeDepth int
}

// OMOptions configure an OM search.
type OMOptions struct {
	// Probe configures the alpha-beta probes, ours (leaf values, with quiescence where the game has
	// tactics) and the opponent's. Searches that must equal fixed-depth minimax exactly need options
	// without selective techniques and without a table (transpositions graft deeper results).
	Probe engine.AlphaBetaOptions
	// Mirror says how the game's features read from the side not to move (zero: all differences), so
	// that every evaluation is valued for its owner: ours for the root player, the model's for the
	// opponent, whoever is to move (see the sign conventions in model.go).
	Mirror Mirror
	// BetaPruning narrows the opponent's probes with the value of its probe two plies higher (Figure 1).
	BetaPruning bool
	// SimilarityPruning skips, at our nodes, the moves whose minimax value under our own evaluation
	// (tested with a null-window probe) plus the largest gain the model can bring is no better than the
	// best move so far. The gain is bounded by SimilarityBound (see omSimilarity); the pruning is exact
	// when the bound holds and a forward pruning when it does not.
	SimilarityPruning bool
	// SimilarityBound is delta >= 0: every opponent evaluation, as we see its values, differs from ours by
	// at most delta (up to a constant) at every leaf of the search.
	SimilarityBound float64
}

// DefaultOMOptions returns the options OM and PrOM play a game with: the alpha-beta defaults for the
// probes (each with its own table) and beta-pruning on.
func DefaultOMOptions(g games.Game) OMOptions {
	return OMOptions{Probe: engine.DefaultAlphaBetaOptions(g), BetaPruning: true}
}

// omGrandchildBound re-expresses an opponent's probe value at a MIN node as a lower bound on its value
// two plies lower: mate distances shrink by two plies there.
func omGrandchildBound(u float64) float64 {
	switch {
	case u >= engine.MateBound:
		return u + 2
	case u <= -engine.MateBound:
		return u - 2
	}
	return u
}

// frontier evaluates a node where the model search ends: a finished game, an in-tree repetition, the
// horizon or a position without moves. It returns the root player's value and true, or false when the
// search goes on below p (whose legal moves are then in moves).
func (b *omBase) frontier(p games.Position, depth, ply int) (value float64, moves []games.Move, done bool) {
	if o := p.Status(); o.Result != games.Ongoing {
		return b.outcomeValue(o.Result, ply), nil, true
	}
	if ply > 0 && p.Repetitions() > 0 {
		return 0, nil, true
	}
	if depth <= 0 || ply >= maxPly-2 {
		return b.leafValue(p, ply), nil, true
	}
	moves = b.movesAt(p, ply)
	if len(moves) == 0 {
		if o := p.NoMovesOutcome(); o.Result != games.Ongoing {
			return b.outcomeValue(o.Result, ply), nil, true
		}
		return b.leafValue(p, ply), nil, true // the frontier of a hand-built tree
	}
	return 0, moves, false
}

// leafValue is our own depth-0 value of p (quiescence where the game has tactics) for the root player.
func (b *omBase) leafValue(p games.Position, ply int) float64 {
	v := b.own.ab.Probe(p, 0, math.Inf(-1), math.Inf(1))
	return b.toRoot(p, v, ply)
}

// maxOverLeaves is the value of a node of the root player one ply above the horizon: the best of its
// children's leaf values, which our own alpha-beta probe to depth 1 finds with cut-offs instead of
// resolving every child's quiescence in full.
func (b *omBase) maxOverLeaves(p games.Position, ply int) float64 {
	return b.exactValue(p, 1, ply)
}

// orderMoves puts the move most likely best first: at the root the previous iteration's choice, elsewhere
// the best move our own probe's table holds for p. The other moves keep their order.
func (b *omBase) orderMoves(p games.Position, moves []games.Move, ply int) {
	first := games.NoMove
	if ply == 0 {
		first = b.rootFirst
	}
	if first == games.NoMove {
		if e, ok := b.own.ab.TT().Probe(p.Hash(), 0); ok {
			first = e.Move
		}
	}
	if i := slices.Index(moves, first); i > 0 {
		copy(moves[1:i+1], moves[:i])
		moves[0] = first
	}
}

// cannotBeat reports whether the MIN node p, with depth plies left and ply plies below the root, is
// worth no more than best to the model (see omSimilarity): its V0-minimax value plus the largest gain is
// at most best. It latches a stop.
func (b *omBase) cannotBeat(p games.Position, depth, ply int, best float64) bool {
	if !b.similarity || depth < 1 || math.IsInf(best, -1) {
		return false
	}
	threshold := best - b.gainPerLevel*float64((depth+1)/2)
	if math.Abs(threshold) >= engine.MateBound/2 {
		return false // mate scores count plies from different nodes; no pruning near them
	}
	// mm0(p) <= threshold for the root player is p's own probe value >= -threshold for the opponent.
	target := -threshold
	v := b.own.ab.Probe(p, depth, math.Nextafter(target, math.Inf(-1)), target)
	if b.stoppedBy() {
		return false
	}
	if v >= target {
		b.pruned++
		return true
	}
	return false
}

// exactValue is our own alpha-beta value of p to depth for the root player, with the full window (0
// when the probe was stopped, which it latches).
func (b *omBase) exactValue(p games.Position, depth, ply int) float64 {
	v := b.own.ab.Probe(p, depth, math.Inf(-1), math.Inf(1))
	if b.stoppedBy() {
		return 0
	}
	return b.toRoot(p, v, ply)
}

// omRun is an opponent-model search's fixed-depth search of p.
type omRun func(p games.Position, ctl *engine.Control, depth int) ModelResult

// fixedDepth runs a fixed-depth search of p without limits, in the game's move order at the root.
func (b *omBase) fixedDepth(p games.Position, depth int, run omRun) ModelResult {
	b.root, b.rootFirst = nil, games.NoMove
	return run(p, nil, depth)
}

// iterate is iterative deepening with run as the iteration, each searching the previous iteration's
// move first and only the Control's SearchMoves.
func (b *omBase) iterate(p games.Position, ctl *engine.Control, report func(engine.Info), run omRun) engine.Result {
	defer func() { b.root, b.rootFirst = nil, games.NoMove }()
	return iterateModel(p, ctl, report, func(depth int, first games.Move) ModelResult {
		b.root = searchableRootMoves(p, ctl, first, b.rootBuf[:0])
		b.rootFirst = first
		return run(p, ctl, depth)
	})
}

// searchFrom begins a search of p and runs body on the wrapped root and its moves, unless the root is a
// frontier (the end of the game or of the depth), whose value it returns.
func (b *omBase) searchFrom(p games.Position, ctl *engine.Control, depth int, body func(p games.Position, moves []games.Move) ModelResult) ModelResult {
	b.begin(p, ctl)
	defer b.end()
	p = b.wrap(p)
	v, moves, done := b.frontier(p, depth, 0)
	if done {
		return b.result(games.NoMove, games.NoMove, v)
	}
	b.nodes++
	return body(p, moves)
}

// result is the ModelResult of the search just run: its choice and value, and its effort since begin.
func (b *omBase) result(move, reply games.Move, value float64) ModelResult {
	r := ModelResult{Move: move, Predicted: reply, Value: value, Nodes: b.totalNodes(), Aborted: b.aborted}
	if b.cache != nil {
		r.Leaves = b.cache.extractions - b.extractionStart
	}
	return r
}

// newGame clears every probe's table and history, and the value cache.
func (b *omBase) newGame() {
	for _, pr := range b.probes {
		pr.ab.NewGame()
	}
	if b.cache != nil {
		b.cache.clear()
	}
}

// OMSearch is OM search with alpha-beta probing and beta-pruning (OmSearchBPb): our evaluation at the
// leaves, the opponent's model at its moves. It is PrOM search with a single opponent type of
// probability 1 (see PromSearch), whose expected value at a MIN node is the value of that type's move.
type OMSearch struct {
	promCore
	model OMModel
}

var _ engine.Searcher = (*OMSearch)(nil)

// NewOMSearch returns an OM search for game with our evaluation own and the opponent model.
func NewOMSearch(game games.Game, own engine.Evaluation, model OMModel, opts OMOptions) (*OMSearch, error) {
	if err := model.Opponent.Check(game); err != nil {
		return nil, fmt.Errorf("opponent model: %w", err)
	}
	if model.ProbeDepth < 0 {
		return nil, fmt.Errorf("opponent model: probe depth %d is negative", model.ProbeDepth)
	}
	s := &OMSearch{model: model}
	types := []OpponentType{{Name: model.Opponent.Name, Eval: model.Opponent}}
	if err := s.init(game, own, PromModel{Types: types, TypeProbabilities: []float64{1}}, opts); err != nil {
		return nil, err
	}
	s.probeDepths = []int{model.ProbeDepth}
	return s, nil
}

// checkSimilarity reports an error if the similarity bound is not a number >= 0.
func checkSimilarity(opts OMOptions) error {
	if d := opts.SimilarityBound; math.IsNaN(d) || math.IsInf(d, 0) || d < 0 {
		return fmt.Errorf("similarity bound %v, want a finite number >= 0", d)
	}
	return nil
}

// NewGame clears the probes' tables.
func (s *OMSearch) NewGame() { s.newGame() }

// SearchDepth runs OM search on p to depth plies without limits and returns the value, the move and the
// predicted reply; p is left as it was.
func (s *OMSearch) SearchDepth(p games.Position, depth int) ModelResult {
	return s.searchFixed(p, depth)
}

// Search runs iterative deepening OM search under ctl (see Searcher).
func (s *OMSearch) Search(p games.Position, ctl *engine.Control, report func(engine.Info)) engine.Result {
	return s.searchIterative(p, ctl, report)
}
