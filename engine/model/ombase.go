// omBase: the machinery OM, PrOM and MEU share: setting up the probes, the node budget and stop, move
// lists by ply, and mate scores seen from the root.

package model

import (
	"dossier/engine"
	"dossier/games"
	"math"
	"slices"
)

// setup builds the probes of a model search: own is our evaluation (whose probe also gives our leaf
// values), opponents the opponent's evaluations, each valued for its owner under mirror. It returns the
// probe of own followed by one per opponent evaluation. Evaluations that negamax searches identically
// (equal root-owned weights: an opponent type that is ZeroSumOpponent(own, mirror) and ours, or two
// equal types) share a probe and its table.
func (b *omBase) setup(game games.Game, opts engine.AlphaBetaOptions, mirror Mirror, own engine.Evaluation, opponents []engine.Evaluation) []*omProbe {
	b.game = game
	evals := append([]engine.Evaluation{own}, opponents...)
	rootOwned := make([][]float64, len(evals))
	rootOwned[0] = slices.Clone(own.Weights)
	for i, e := range opponents {
		rootOwned[i+1] = ZeroSumOpponent(e, mirror).Weights
	}
	var distinct [][]float64
	var names []engine.Evaluation // the first evaluation of each distinct probe, for names and windows
	index := make([]int, len(evals))
	for i, w := range rootOwned {
		index[i] = slices.IndexFunc(distinct, func(d []float64) bool { return slices.Equal(d, w) })
		if index[i] < 0 {
			index[i] = len(distinct)
			distinct = append(distinct, w)
			names = append(names, evals[i])
		}
	}
	// Where the root player waits its function reads -(g mirrored) = ZeroSumOpponent(g): the same
	// weights for every antisymmetric function, and then one value per position serves both sides.
	waiting := make([][]float64, len(distinct))
	symmetric := true
	for k, w := range distinct {
		waiting[k] = ZeroSumOpponent(engine.Evaluation{Weights: w}, mirror).Weights
		symmetric = symmetric && slices.Equal(waiting[k], w)
	}
	if symmetric {
		waiting = nil
	}
	b.cache = newOMValueCache(game, distinct, waiting)
	vgame := omValueGame{Game: game}
	for _, e := range names {
		vgame.names = append(vgame.names, "value of "+e.Name)
	}
	b.probes = b.probes[:0]
	for k, e := range names {
		unit := engine.Evaluation{Name: e.Name, Weights: make([]float64, len(distinct))}
		unit.Weights[k] = 1
		o := opts
		o.Threads = 1
		if o.AspirationWindow <= 0 {
			o.AspirationWindow = engine.AutoWindow(e) // the real evaluation's scale, not the unit vector's
		}
		b.probes = append(b.probes, &omProbe{ab: engine.NewAlphaBeta(vgame, unit, o), eval: e})
	}
	out := make([]*omProbe, len(evals))
	for i := range evals {
		out[i] = b.probes[index[i]]
	}
	b.own = out[0]
	return out
}

// wrap returns the view of p that the search walks, so that every probe reads the value cache.
func (b *omBase) wrap(p games.Position) games.Position { return newOMView(p, b.cache) }

// bestMove returns the probe value of p (for its side to move, mates counted from p) and the best move,
// searching from the window (alpha, +inf). When that window proves wrong (the value is not above alpha,
// which a selective or table-grafted probe can produce) it searches again with the full window. It
// returns games.NoMove only when the probe was stopped.
//
// A probe of p to the same depth that the table still holds exactly (the type's predicted line through
// p, or a transposition) is taken from it instead of searched again. Otherwise, when the table knows no
// move for p, hint (unless games.NoMove) is searched first: the move another type chose at p, often this
// type's best too, and the one it then picks among equally good moves, which keeps the types' predicted
// replies together where the type is indifferent.
func (pr *omProbe) bestMove(p games.Position, depth int, alpha float64, hint games.Move) (float64, games.Move, bool) {
	tt := pr.ab.TT()
	key := p.Hash()
	if e, ok := tt.Probe(key, 0); ok {
		if e.Bound == engine.BoundExact && e.Move != games.NoMove && (e.Draft == depth || e.Draft >= engine.SolvedDraft) {
			return e.Score, e.Move, false
		}
	} else if hint != games.NoMove {
		tt.Store(key, 0, hint, 0, math.NaN(), 0, engine.BoundNone) // a move to try first, no score
	}
	v, m := pr.ab.ProbeMove(p, depth, alpha, math.Inf(1))
	if m != games.NoMove && v > alpha {
		return v, m, false
	}
	if math.IsInf(alpha, -1) {
		return v, m, false
	}
	v, m = pr.ab.ProbeMove(p, depth, math.Inf(-1), math.Inf(1))
	return v, m, true
}

// omBase holds what OM, PrOM and MEU share: our own evaluation's probe for leaf values, the root
// player, the per-ply move buffers, the node count and the link to the Control.
type omBase struct {
	game     games.Game
	cache    *omValueCache
	own      *omProbe
	probes   []*omProbe // every probe of the search, for node counting and control
	rootSide games.Side
	moves    [][]games.Move

	ctl        *engine.Control
	aborted    bool
	nodes      uint64 // nodes of the model search itself
	probeStart []uint64
	// reprobes counts the beta-pruned probes that had to be repeated with the full window.
	reprobes uint64
	// similarity enables the bounded-gain pruning at MAX nodes, with gainPerLevel = 2 * sum P(w_i) delta_i.
	similarity   bool
	gainPerLevel float64
	// rootFirst is the root move to search first (the previous iteration's choice).
	rootFirst games.Move
	// root is the root move list of the current iteration of Search (the searchable moves, rootFirst
	// first), nil in a fixed-depth search, which generates it.
	root    []games.Move
	rootBuf [games.MaxMoves]games.Move
	// pruned counts the MAX-node children skipped by the similarity test.
	pruned uint64
	// extractionStart is the value cache's feature extractions when the search began.
	extractionStart uint64
}

// omPollMask sets how often a model search polls its Control: every 256 of its own nodes (probes poll
// on their own).
const omPollMask = 255

func (b *omBase) begin(p games.Position, ctl *engine.Control) {
	b.rootSide = p.ToMove()
	if b.cache != nil {
		b.cache.root = b.rootSide
		b.extractionStart = b.cache.extractions
	}
	b.ctl = ctl
	b.aborted = false
	b.nodes = 0
	b.reprobes = 0
	b.pruned = 0
	b.probeStart = b.probeStart[:0]
	for _, pr := range b.probes {
		pr.ab.SetProbeControl(ctl)
		pr.ab.TT().NewSearch()
		b.probeStart = append(b.probeStart, pr.ab.Nodes())
	}
}

func (b *omBase) end() {
	for _, pr := range b.probes {
		pr.ab.SetProbeControl(nil)
	}
}

// totalNodes is the search's own nodes plus every probe's since begin.
func (b *omBase) totalNodes() uint64 {
	n := b.nodes
	for i, pr := range b.probes {
		n += pr.ab.Nodes() - b.probeStart[i]
	}
	return n
}

// visit counts a node and polls the Control now and then; it reports whether the search must stop.
func (b *omBase) visit() bool {
	b.nodes++
	if b.ctl != nil && (b.ctl.Stopped() || (b.nodes&omPollMask == 0 && b.ctl.Check(b.totalNodes()))) {
		b.aborted = true
	}
	return b.aborted
}

// stoppedBy reports (and latches) whether the Control stopped the search, after a probe returned.
func (b *omBase) stoppedBy() bool {
	if b.ctl != nil && b.ctl.Stopped() {
		b.aborted = true
	}
	return b.aborted
}

// movesAt returns the legal moves of p in the buffer of ply (at the root of an iteration of Search, the
// prepared root moves).
func (b *omBase) movesAt(p games.Position, ply int) []games.Move {
	if ply == 0 && b.root != nil {
		return b.root
	}
	for len(b.moves) <= ply {
		b.moves = append(b.moves, make([]games.Move, 0, games.MaxMoves))
	}
	b.moves[ply] = p.AppendMoves(b.moves[ply][:0])
	return b.moves[ply]
}

// outcomeValue is a finished game's value for the root player at ply (faster wins score higher).
func (b *omBase) outcomeValue(r games.Result, ply int) float64 {
	if r == games.Draw {
		return 0
	}
	if w, _ := r.Winner(); w == b.rootSide {
		return engine.MateScore - float64(ply)
	}
	return -(engine.MateScore - float64(ply))
}

// toRoot turns a probe score of p (for p's side to move, mates counted from p) into the root player's
// value with mates counted from the root, p lying ply plies below it.
func (b *omBase) toRoot(p games.Position, score float64, ply int) float64 {
	score = omMateFromAncestor(score, ply)
	if p.ToMove() != b.rootSide {
		return -score
	}
	return score
}

// omMateFromAncestor re-expresses a score counted from a node as counted from its ancestor plies higher.
func omMateFromAncestor(score float64, plies int) float64 {
	switch {
	case score >= engine.MateBound:
		return score - float64(plies)
	case score <= -engine.MateBound:
		return score + float64(plies)
	}
	return score
}
