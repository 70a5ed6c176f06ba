// OM search (opponent-model search with alpha-beta probing and beta-pruning) and the machinery it shares with PrOM and MEU.
package engine

import (
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
	Opponent Evaluation
	// ProbeDepth is how many plies the opponent searches from each of its moves; 0 means to the same
	// horizon as our search (the paper's assumption, and the one under which beta-pruning holds).
	ProbeDepth int
}

// OMOptions configure an OM search.
type OMOptions struct {
	// Probe configures the alpha-beta probes, ours (leaf values, with quiescence where the game has
	// tactics) and the opponent's. Searches that must equal fixed-depth minimax exactly need options
	// without selective techniques and without a table (transpositions graft deeper results).
	Probe AlphaBetaOptions
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
	return OMOptions{Probe: DefaultAlphaBetaOptions(g), BetaPruning: true}
}

// omProbe is one evaluation's alpha-beta probe: the engine's AlphaBeta as a subroutine, with its own
// transposition table kept across the probes of one search (cleared only by NewGame). It reads its
// evaluation's values from the search's value cache (see omValueCache).
type omProbe struct {
	ab   *AlphaBeta
	eval Evaluation // the real evaluation, whose values the probe sees as its one weighted feature
}

// omValueCacheEntries is the size of a model search's value cache (entries of one key and one value per
// evaluation: about 3 MiB with four evaluations).
const omValueCacheEntries = 1 << 16

// The probes are the engine's negamax alpha-beta, which wants every position's value for its side to
// move. A function f owned by one side is searched by negamax as f where its owner is to move and -f
// where the owner waits; an opponent's function f_opp is, for negamax, the root player's function
// -f_opp = ZeroSumOpponent(f_opp, mirror). So setup turns every evaluation into root-owned weights g
// (ours as they are, each opponent type's zero-sum counterpart), and a probe's leaf value for the side to
// move is g . x where the root player is to move and -(g mirrored) . x where it waits. Over difference
// features both are g . x: the negamax convention, with one value per position whoever is to move.

// omValueCache holds the values of a search's evaluations for recently seen positions: a position's
// features are extracted once and every evaluation (ours and each opponent's) computed from them, which is
// what makes several models affordable. The probes see a position's values as its features, each probe
// weighting its own with 1 (see omView), so a probe's value is bit for bit the value its evaluation gives.
// An entry holds each evaluation's value for the side to move when the root player is to move and, for
// an asymmetric mirror, when it waits. It is a direct-mapped table keyed by the position's hash, not safe
// for concurrent use.
type omValueCache struct {
	toMove   [][]float64 // per evaluation: root-owned weights, for positions where the root player moves
	waiting  [][]float64 // per evaluation: the negamax weights where the root player waits (nil: toMove's)
	stride   int         // values per entry: one per evaluation, two with waiting weights
	root     games.Side  // the root player of the current search
	keys     []uint64
	gens     []uint32 // the generation that wrote each entry; entries of older generations are empty
	gen      uint32
	values   []float64 // stride per entry
	features []float64
	// extractions counts the feature extractions (the cache's misses).
	extractions uint64
}

// newOMValueCache returns the cache for evaluations given as root-owned weights; waiting is nil when
// every evaluation is antisymmetric under the mirror (one value serves both sides).
func newOMValueCache(g games.Game, toMove, waiting [][]float64) *omValueCache {
	stride := len(toMove)
	if waiting != nil {
		stride *= 2
	}
	return &omValueCache{toMove: toMove, waiting: waiting, stride: stride, keys: make([]uint64, omValueCacheEntries),
		gens: make([]uint32, omValueCacheEntries), gen: 1, values: make([]float64, omValueCacheEntries*stride),
		features: make([]float64, len(g.FeatureNames()))}
}

// fill writes the values of every evaluation for p, for its side to move, into dst.
func (c *omValueCache) fill(p games.Position, dst []float64) {
	key := p.Hash()
	i := int(key & (omValueCacheEntries - 1))
	entry := c.values[i*c.stride : i*c.stride+c.stride]
	if c.gens[i] != c.gen || c.keys[i] != key {
		p.Features(c.features)
		c.extractions++
		n := len(c.toMove)
		for k, w := range c.toMove {
			entry[k] = weightsDot(w, c.features)
		}
		for k, w := range c.waiting {
			entry[n+k] = weightsDot(w, c.features)
		}
		c.keys[i], c.gens[i] = key, c.gen
	}
	if c.waiting != nil && p.ToMove() != c.root {
		entry = entry[len(c.toMove):]
	}
	copy(dst, entry)
}

// clear empties the cache by starting a new generation (clearing the table only when the count wraps).
func (c *omValueCache) clear() {
	c.gen++
	if c.gen == 0 {
		clear(c.gens)
		c.gen = 1
	}
}

// omValueGame is a game whose features are the values of a model search's evaluations: the game the
// probes are built for.
type omValueGame struct {
	games.Game
	names []string
}

// FeatureNames names one feature per evaluation.
func (g omValueGame) FeatureNames() []string { return g.names }

// omRootSalt separates the probe table entries of searches for the two root players when some function
// is not antisymmetric: a position's negamax value then depends on who the root player is.
const omRootSalt = 0x9e3779b97f4a7c15

// omView is a position whose features are its evaluation values from the cache; it passes the optional
// interfaces a search uses through (a wrapped position without one behaves as a game without it: no
// tactical moves, never in check, no forced tactics).
type omView struct {
	games.Position
	cache    *omValueCache
	salt     uint64
	tactical games.Tactical
	checker  games.Checker
	forced   games.ForcedTactics
}

// omNullView is an omView of a position that can pass the move.
type omNullView struct {
	*omView
	nuller games.NullMover
}

func newOMView(p games.Position, cache *omValueCache) games.Position {
	v := &omView{Position: p, cache: cache}
	if cache.waiting != nil && cache.root == games.Second {
		v.salt = omRootSalt
	}
	v.tactical, _ = p.(games.Tactical)
	v.checker, _ = p.(games.Checker)
	v.forced, _ = p.(games.ForcedTactics)
	if n, ok := p.(games.NullMover); ok {
		return omNullView{omView: v, nuller: n}
	}
	return v
}

// Features writes the position's evaluation values.
func (v *omView) Features(dst []float64) { v.cache.fill(v.Position, dst) }

// Hash returns the wrapped position's hash, salted by the root player where values depend on it.
func (v *omView) Hash() uint64 { return v.Position.Hash() ^ v.salt }

// Clone returns a view of a clone sharing the cache (which must then be used by one goroutine at a time).
func (v *omView) Clone() games.Position { return newOMView(v.Position.Clone(), v.cache) }

// AppendTactical appends the wrapped position's tactical moves, if it has any.
func (v *omView) AppendTactical(dst []games.Move) []games.Move {
	if v.tactical == nil {
		return dst
	}
	return v.tactical.AppendTactical(dst)
}

// IsTactical reports whether m is a tactical move of the wrapped position.
func (v *omView) IsTactical(m games.Move) bool { return v.tactical != nil && v.tactical.IsTactical(m) }

// TacticalGain scores m as the wrapped position does, 0 without tactical moves.
func (v *omView) TacticalGain(m games.Move) int {
	if v.tactical == nil {
		return 0
	}
	return v.tactical.TacticalGain(m)
}

// InCheck reports whether the side to move of the wrapped position is in check.
func (v *omView) InCheck() bool { return v.checker != nil && v.checker.InCheck() }

// TacticsForced reports whether the wrapped position forces a tactical move.
func (v *omView) TacticsForced() bool { return v.forced != nil && v.forced.TacticsForced() }

// PlayNull passes the move in the wrapped position.
func (v omNullView) PlayNull() { v.nuller.PlayNull() }

// UndoNull takes back PlayNull.
func (v omNullView) UndoNull() { v.nuller.UndoNull() }

// setup builds the probes of a model search: own is our evaluation (whose probe also gives our leaf
// values), opponents the opponent's evaluations, each valued for its owner under mirror. It returns the
// probe of own followed by one per opponent evaluation. Evaluations that negamax searches identically
// (equal root-owned weights: an opponent type that is ZeroSumOpponent(own, mirror) and ours, or two
// equal types) share a probe and its table.
func (b *omBase) setup(game games.Game, opts AlphaBetaOptions, mirror Mirror, own Evaluation, opponents []Evaluation) []*omProbe {
	b.game = game
	evals := append([]Evaluation{own}, opponents...)
	rootOwned := make([][]float64, len(evals))
	rootOwned[0] = slices.Clone(own.Weights)
	for i, e := range opponents {
		rootOwned[i+1] = ZeroSumOpponent(e, mirror).Weights
	}
	var distinct [][]float64
	var names []Evaluation // the first evaluation of each distinct probe, for names and windows
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
		waiting[k] = ZeroSumOpponent(Evaluation{Weights: w}, mirror).Weights
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
		unit := Evaluation{Name: e.Name, Weights: make([]float64, len(distinct))}
		unit.Weights[k] = 1
		o := opts
		o.Threads = 1
		if o.AspirationWindow <= 0 {
			o.AspirationWindow = autoWindow(e) // the real evaluation's scale, not the unit vector's
		}
		b.probes = append(b.probes, &omProbe{ab: NewAlphaBeta(vgame, unit, o), eval: e})
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
		if e.Bound == BoundExact && e.Move != games.NoMove && (e.Draft == depth || e.Draft >= SolvedDraft) {
			return e.Score, e.Move, false
		}
	} else if hint != games.NoMove {
		tt.Store(key, 0, hint, 0, math.NaN(), 0, BoundNone) // a move to try first, no score
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

	ctl        *Control
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

func (b *omBase) begin(p games.Position, ctl *Control) {
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
		return MateScore - float64(ply)
	}
	return -(MateScore - float64(ply))
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
	case score >= MateBound:
		return score - float64(plies)
	case score <= -MateBound:
		return score + float64(plies)
	}
	return score
}

// omGrandchildBound re-expresses an opponent's probe value at a MIN node as a lower bound on its value
// two plies lower: mate distances shrink by two plies there.
func omGrandchildBound(u float64) float64 {
	switch {
	case u >= MateBound:
		return u + 2
	case u <= -MateBound:
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
	if math.Abs(threshold) >= MateBound/2 {
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
type omRun func(p games.Position, ctl *Control, depth int) ModelResult

// fixedDepth runs a fixed-depth search of p without limits, in the game's move order at the root.
func (b *omBase) fixedDepth(p games.Position, depth int, run omRun) ModelResult {
	b.root, b.rootFirst = nil, games.NoMove
	return run(p, nil, depth)
}

// iterate is iterative deepening with run as the iteration, each searching the previous iteration's
// move first and only the Control's SearchMoves.
func (b *omBase) iterate(p games.Position, ctl *Control, report func(Info), run omRun) Result {
	defer func() { b.root, b.rootFirst = nil, games.NoMove }()
	return iterateModel(p, ctl, report, func(depth int, first games.Move) ModelResult {
		b.root = searchableRootMoves(p, ctl, first, b.rootBuf[:0])
		b.rootFirst = first
		return run(p, ctl, depth)
	})
}

// searchFrom begins a search of p and runs body on the wrapped root and its moves, unless the root is a
// frontier (the end of the game or of the depth), whose value it returns.
func (b *omBase) searchFrom(p games.Position, ctl *Control, depth int, body func(p games.Position, moves []games.Move) ModelResult) ModelResult {
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

var _ Searcher = (*OMSearch)(nil)

// NewOMSearch returns an OM search for game with our evaluation own and the opponent model.
func NewOMSearch(game games.Game, own Evaluation, model OMModel, opts OMOptions) (*OMSearch, error) {
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
func (s *OMSearch) Search(p games.Position, ctl *Control, report func(Info)) Result {
	return s.searchIterative(p, ctl, report)
}
