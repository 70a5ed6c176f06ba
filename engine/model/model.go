// Opponent models for Carmel & Markovitch's searches (M*, M* 1-pass, alpha-beta*) and what those searches share.

package model

import (
	"dossier/engine"
	"errors"
	"fmt"
	"slices"

	"dossier/games"
)

// Sign conventions of the model searches.
//
// Carmel & Markovitch value every board with each function from the point of view of that function's owner:
// in a player (f_n, (f_{n-1}, (... f_0))) the functions f_n, f_{n-2}, ... belong to the searching player and
// f_{n-1}, f_{n-3}, ... to its opponent, and f_i(b) is how good b is for f_i's owner, whoever is to move in b.
// Both players maximise their own functions. Minimax is the special case whose opponent model is -f_n:
// f_{n-1}(b) = -f_n(b).
//
// dossier's Evaluation is a weight vector over features measured from the side to move ("mine minus
// theirs"), so a function's value for its owner is its dot product with the owner's features: the side to
// move's features where the owner is to move, and where the other side is to move the same features read
// from the other side, which a Mirror describes (for a plain difference feature that is its negation; Tot,
// the number of pieces on the board, reads the same from both sides). The model searches apply the mirror
// themselves: every value they compute, return and compare is in the owner's point of view, exactly as the
// paper writes its vectors. In particular:
//
//   - PlayerModel{Eval: f} searches with f(board, root player) at every leaf; for an evaluation over
//     difference features that is what negamax over f computes.
//   - The paper's -f (minimax's implicit model of a player using f) is ZeroSumOpponent(f, mirror): its
//     value for the opponent is minus f's value for the player. Over difference features it has f's own
//     weights (the opponent measures the same things from its side), not Evaluation.Negated's. For
//     Carmel & Markovitch's checkers function Mat - Tot/25 it is Mat + Tot/25 (the bots preset mat+tot25),
//     while the "exchange-loving" opponent OP is Mat - Tot/25 again, from OP's side.
//   - Hand-built trees (games/gametree) store values from the first player's point of view and negate them
//     for the second, so a tree stores f_i as the owner's value for the first player's functions and as
//     minus the owner's value for the second player's.
//
// Levels are numbered from the searching player down: level 0 is the player (the paper's f_n), level 1
// its model of the opponent (f_{n-1}), level 2 the opponent's model of the player, and so on; vectors
// and bounds use the same order, the player's entry first.

// PlayerModel is a player as M* sees it: its evaluation function and its model of its opponent, which is
// again a player; the nesting may go to any depth. A nil Opponent is a player that does not model its
// opponent (the paper's (f, NIL)); below the search depth such a player is completed with
// (f, (-f, (f, ...))), i.e. it plays minimax with f.
type PlayerModel struct {
	// Eval is the player's evaluation function, valued from the player's point of view.
	Eval engine.Evaluation
	// Opponent is the player's model of its opponent, or nil.
	Opponent *PlayerModel
}

// NewPlayerModel returns the player (evals[0], (evals[1], (... evals[k]))): the player's evaluation, its
// model of the opponent's, the opponent's model of the player's, and so on. It returns nil for no
// evaluations.
func NewPlayerModel(evals ...engine.Evaluation) *PlayerModel {
	var m *PlayerModel
	for i := len(evals) - 1; i >= 0; i-- {
		m = &PlayerModel{Eval: evals[i], Opponent: m}
	}
	return m
}

// Level returns the modelling level of the player: 0 for a player without an opponent model, 1 for one
// whose opponent model does not model it, and so on. A model that refers back to itself has no finite
// level; Level stops counting at maxPly.
func (m *PlayerModel) Level() int {
	n := -1
	for ; m != nil && n < maxPly; m = m.Opponent {
		n++
	}
	return n
}

// Chain returns the evaluations of the player and its nested models, the player's first (at most maxPly
// of them, for a model that refers back to itself).
func (m *PlayerModel) Chain() []engine.Evaluation {
	var out []engine.Evaluation
	for ; m != nil && len(out) < maxPly; m = m.Opponent {
		out = append(out, m.Eval)
	}
	return out
}

// Strategy is the opponent model of Carmel & Markovitch's first paper: the opponent searches Depth plies
// with plain minimax and evaluates the leaves with Eval (from its own point of view).
type Strategy struct {
	// Eval is the opponent's evaluation function, valued from the opponent's point of view.
	Eval engine.Evaluation
	// Depth is the opponent's search depth, at least 1 and at most the player's depth minus one.
	Depth int
}

// Mirror says how a game's features read from the side that is not to move: feature i from that side
// equals Sign[i] times feature Partner[i] from the side to move (an involution: Partner[Partner[i]] == i
// and Sign[i] == Sign[Partner[i]]). The zero Mirror means every feature is a difference ("mine minus
// theirs"), which reads negated from the other side.
type Mirror struct {
	// Partner[i] is the feature of the side to move that feature i of the other side reads.
	Partner []int
	// Sign[i] is +1 or -1, the sign that reading takes.
	Sign []float64
}

// Check reports an error unless the mirror is the zero Mirror or an involution over n features.
func (m Mirror) Check(n int) error {
	if m.Partner == nil && m.Sign == nil {
		return nil
	}
	if len(m.Partner) != n || len(m.Sign) != n {
		return fmt.Errorf("mirror has %d partners and %d signs for %d features", len(m.Partner), len(m.Sign), n)
	}
	for i, p := range m.Partner {
		if p < 0 || p >= n {
			return fmt.Errorf("mirror: feature %d has partner %d, outside 0..%d", i, p, n-1)
		}
		if m.Partner[p] != i || m.Sign[p] != m.Sign[i] {
			return fmt.Errorf("mirror is not an involution at feature %d (partner %d)", i, p)
		}
		if m.Sign[i] != 1 && m.Sign[i] != -1 {
			return fmt.Errorf("mirror: feature %d has sign %v, want 1 or -1", i, m.Sign[i])
		}
	}
	return nil
}

// otherSide returns the weights w' with w' . x = w . (x read from the side not to move), for a feature
// vector x of the side to move: the weights that value a position for an owner who is not to move.
func (m Mirror) otherSide(w []float64) []float64 {
	out := make([]float64, len(w))
	if m.Partner == nil {
		for i, x := range w {
			out[i] = -x
		}
		return out
	}
	for i, x := range w {
		out[m.Partner[i]] += x * m.Sign[i]
	}
	return out
}

// ZeroSumOpponent returns the paper's -f for a player using e: the evaluation whose value for the opponent
// is minus e's value for the player on every board. Over difference features (the zero Mirror) it has e's
// weights; features that read the same from both sides change sign.
func ZeroSumOpponent(e engine.Evaluation, mirror Mirror) engine.Evaluation {
	w := mirror.otherSide(e.Weights)
	for i := range w {
		w[i] = -w[i]
		if w[i] == 0 {
			w[i] = 0 // no negative zeros in printed weights
		}
	}
	return engine.Evaluation{Name: "zero-sum(" + e.Name + ")", Weights: w}
}

// ModelOptions configure the model searches.
type ModelOptions struct {
	// Mirror says how the game's features read from the side not to move (zero: all differences).
	Mirror Mirror
	// Order searches tactical moves first, most valuable victim first, at every node; the fixed-depth
	// searches otherwise keep the game's move order. Searchers also put the previous iteration's best
	// move first at the root.
	Order bool
}

// maxPly is the engine's ply limit: no search, the model searches included, goes deeper.
const maxPly = engine.MaxDepth + 1

// modelPollMask sets how often a model search polls its Control: every 1024 nodes.
const modelPollMask = 1023

// modelCore is what every model search holds: the evaluations of the levels resolved to owner-to-move and
// owner-waiting weights, scratch buffers per ply (so that no node allocates), counters and the Control.
type modelCore struct {
	opts     ModelOptions
	chain    []engine.Evaluation // the player's evaluation, its model's, ... as given
	toMove   [][]float64         // per level: the weights that value a position whose side to move owns the level
	waiting  [][]float64         // per level: the weights for a position where the owner waits
	features []float64

	pos      games.Position
	tactical games.Tactical
	ctl      *engine.Control
	aborted  bool
	nodes    uint64
	leaves   uint64
	horizon  uint64 // static evaluations forced by the depth limit (not by the end of a hand-built tree)

	// levels is the vector length of the current search: every level of the model, and at least depth + 1
	// (the levels down to the one that only looks at the leaves); real is how many of them have an
	// evaluation of their own, the rest completing the deepest model as minimax.
	levels int
	real   int

	root  []games.Move
	moves [maxPly][games.MaxMoves]games.Move
	keys  [maxPly][games.MaxMoves]int32
}

// newModelCore checks the evaluations and the mirror against the game (nil: only against each other)
// and resolves the weights.
func newModelCore(game games.Game, chain []engine.Evaluation, opts ModelOptions) (*modelCore, error) {
	if len(chain) == 0 {
		return nil, errors.New("model search: no player model")
	}
	n := len(chain[0].Weights)
	if game != nil {
		n = len(game.FeatureNames())
	}
	for i, e := range chain {
		if game != nil {
			if err := e.Check(game); err != nil {
				return nil, fmt.Errorf("model level %d: %w", i, err)
			}
		} else if len(e.Weights) != n {
			return nil, fmt.Errorf("model level %d: evaluation %q has %d weights, level 0 has %d", i, e.Name, len(e.Weights), n)
		}
	}
	if err := opts.Mirror.Check(n); err != nil {
		return nil, err
	}
	c := &modelCore{opts: opts, chain: chain, features: make([]float64, n)}
	for _, e := range chain {
		c.toMove = append(c.toMove, slices.Clone(e.Weights))
		c.waiting = append(c.waiting, opts.Mirror.otherSide(e.Weights))
	}
	return c, nil
}

// newPlayerModelCore returns the core of a search for the player model (the M* family's constructors).
func newPlayerModelCore(game games.Game, model *PlayerModel, opts ModelOptions) (*modelCore, error) {
	if model == nil {
		return nil, errors.New("model search: nil player model")
	}
	return newModelCore(game, model.Chain(), opts)
}

// begin binds the core to a position and a Control for a search of the given depth.
func (c *modelCore) begin(p games.Position, ctl *engine.Control, depth int) {
	c.pos = p
	c.tactical, _ = p.(games.Tactical)
	c.ctl = ctl
	c.aborted = false
	c.nodes, c.leaves, c.horizon = 0, 0, 0
	c.levels = max(depth+1, len(c.chain))
	c.real = len(c.chain)
}

// expand counts a node, polls the Control now and then, and reports whether the search must stop.
func (c *modelCore) expand() bool {
	c.nodes++
	if c.nodes&modelPollMask == 0 && c.ctl != nil && c.ctl.Check(c.nodes) {
		c.aborted = true
	}
	return c.aborted
}

// levelOwnerToMove reports whether the owner of level j is to move at ply (the player owns the even levels
// and moves at even plies).
func levelOwnerToMove(j, ply int) bool { return (j^ply)&1 == 0 }

// weightsDot is the dot product of a weight vector with the feature buffer.
func weightsDot(w, x []float64) float64 {
	var v float64
	for i, wi := range w {
		v += wi * x[i]
	}
	return v
}

// staticVector evaluates the current position at ply for levels 0..len(dst)-1, each from its owner's
// point of view, with one feature extraction; levels past the real ones complete the deepest model.
func (c *modelCore) staticVector(ply int, dst []float64) {
	c.pos.Features(c.features)
	c.leaves++
	for j := range dst {
		if j >= c.real {
			dst[j] = -dst[j-1]
			continue
		}
		if levelOwnerToMove(j, ply) {
			dst[j] = weightsDot(c.toMove[j], c.features)
		} else {
			dst[j] = weightsDot(c.waiting[j], c.features)
		}
	}
}

// staticValue evaluates the current position at ply for level j alone, from its owner's point of view.
// A completion level below the real ones is f or -f of the deepest real level, f valued for its owner.
func (c *modelCore) staticValue(ply, j int) float64 {
	c.pos.Features(c.features)
	c.leaves++
	sign := 1.0
	if j >= c.real {
		if (j-c.real)&1 == 0 {
			sign = -1
		}
		j = c.real - 1
	}
	w := c.waiting[j]
	if levelOwnerToMove(j, ply) {
		w = c.toMove[j]
	}
	return sign * weightsDot(w, c.features)
}

// outcomeValue is the value of a finished game at ply for the owner of level j: a win scores
// MateScore - ply (faster wins higher), a loss minus that, a draw 0.
func (c *modelCore) outcomeValue(r games.Result, ply, j int) float64 {
	if r == games.Draw {
		return 0
	}
	w, _ := r.Winner()
	ownerIsMover := levelOwnerToMove(j, ply)
	if (w == c.pos.ToMove()) == ownerIsMover {
		return engine.MateScore - float64(ply)
	}
	return -(engine.MateScore - float64(ply))
}

// leafKind classifies the current position before it is expanded.
type leafKind uint8

const (
	leafNone     leafKind = iota
	leafFinished          // the game is over (by Status) or an in-tree repetition (a draw)
	leafHorizon           // the depth limit is reached
)

// classify says whether the position at ply is a leaf before move generation, and which outcome ends it.
func (c *modelCore) classify(depth, ply int) (leafKind, games.Result) {
	if o := c.pos.Status(); o.Result != games.Ongoing {
		return leafFinished, o.Result
	}
	if ply > 0 && c.pos.Repetitions() > 0 {
		return leafFinished, games.Draw
	}
	if depth <= 0 {
		return leafHorizon, games.Ongoing
	}
	return leafNone, games.Ongoing
}

// movesAt generates (and, with Order, orders) the moves at ply; the root uses the prepared root list.
func (c *modelCore) movesAt(ply int) []games.Move {
	if ply == 0 && c.root != nil {
		return c.root
	}
	return c.order(c.pos.AppendMoves(c.moves[ply][:0]), c.keys[ply][:])
}

// order sorts tactical moves first, most valuable victim first, when the Order option asks for it;
// the sort is stable, so that moves of equal rank keep the game's order.
func (c *modelCore) order(moves []games.Move, keyBuf []int32) []games.Move {
	if !c.opts.Order || c.tactical == nil || len(moves) < 2 {
		return moves
	}
	keys := keyBuf[:len(moves)]
	for i, m := range moves {
		keys[i] = 0
		if c.tactical.IsTactical(m) {
			keys[i] = 1 + int32(min(max(c.tactical.TacticalGain(m), 0), 1<<20))
		}
	}
	for i := 1; i < len(moves); i++ {
		m, k := moves[i], keys[i]
		j := i
		for ; j > 0 && keys[j-1] < k; j-- {
			moves[j], keys[j] = moves[j-1], keys[j-1]
		}
		moves[j], keys[j] = m, k
	}
	return moves
}

// vectorLeaf fills dst with the leaf vector of the position at ply when it is a leaf (finished, at the
// depth limit, or a hand-built tree's frontier with no moves) and reports whether it was; otherwise it
// returns the moves to search.
func (c *modelCore) vectorLeaf(depth, ply int, dst []float64) (bool, []games.Move) {
	kind, r := c.classify(depth, ply)
	switch kind {
	case leafFinished:
		for j := range dst {
			dst[j] = c.outcomeValue(r, ply, j)
		}
		return true, nil
	case leafHorizon:
		c.horizon++
		c.staticVector(ply, dst)
		return true, nil
	}
	moves := c.movesAt(ply)
	if len(moves) == 0 {
		if o := c.pos.NoMovesOutcome(); o.Result != games.Ongoing {
			for j := range dst {
				dst[j] = c.outcomeValue(o.Result, ply, j)
			}
		} else {
			c.staticVector(ply, dst)
		}
		return true, nil
	}
	return false, moves
}

// prepareRoot sets the root move list for a search of p: the legal moves (tactical first with Order),
// restricted to the Control's SearchMoves when any of them is legal, with first (when legal) moved to the
// front.
func (c *modelCore) prepareRoot(p games.Position, ctl *engine.Control, first games.Move) {
	c.tactical, _ = p.(games.Tactical)
	c.root = c.order(searchableRootMoves(p, ctl, games.NoMove, c.root), c.keys[0][:])
	moveToFront(c.root, first)
}

// modelRun is a model Searcher's fixed-depth search of the root its core has prepared.
type modelRun func(p games.Position, ctl *engine.Control, depth int) ModelResult

// modelSearcher gives an M*-family search its Searcher methods and its fixed-depth search, around run,
// the search's own fixed-depth search of a prepared root.
type modelSearcher struct {
	core *modelCore
	run  modelRun
}

// SearchDepth runs the search on p to depth plies in the game's move order (see ModelOptions.Order) and
// returns the player's move, the predicted reply, the value (and vector) and the effort; p is left as it
// was.
func (m *modelSearcher) SearchDepth(p games.Position, depth int) ModelResult {
	return m.core.searchDepth(p, depth, m.run)
}

// Search runs iterative deepening until ctl (not nil) stops it; the previous iteration's best move is
// searched first, and Info.Predicted is the model's predicted reply.
func (m *modelSearcher) Search(p games.Position, ctl *engine.Control, report func(engine.Info)) engine.Result {
	return m.core.search(p, ctl, report, m.run)
}

// NewGame does nothing: the search keeps nothing from one search to the next.
func (m *modelSearcher) NewGame() {}

// Leaves returns the static evaluations of the latest SearchDepth, or of every iteration of the latest
// Search.
func (m *modelSearcher) Leaves() uint64 { return m.core.leaves }

// searchDepth runs a fixed-depth search of p in the game's move order (with Order, tactical moves
// first); p is left as it was.
func (c *modelCore) searchDepth(p games.Position, depth int, run modelRun) ModelResult {
	c.prepareRoot(p, nil, games.NoMove)
	return run(p, nil, max(depth, 0))
}

// search is iterative deepening with run as the iteration; afterwards the core's leaf count covers
// every iteration.
func (c *modelCore) search(p games.Position, ctl *engine.Control, report func(engine.Info), run modelRun) engine.Result {
	var leaves uint64
	res := iterateModel(p, ctl, report, func(depth int, first games.Move) ModelResult {
		c.prepareRoot(p, ctl, first)
		r := run(p, ctl, depth)
		leaves += r.Leaves
		return r
	})
	c.leaves = leaves
	return res
}

// result is the ModelResult of the search the core has just run, with its effort and state.
func (c *modelCore) result(move, reply games.Move, value float64, vector []float64) ModelResult {
	return ModelResult{Move: move, Predicted: reply, Value: value, Vector: vector, Nodes: c.nodes, Leaves: c.leaves,
		Aborted: c.aborted, Solved: c.horizon == 0 && !c.aborted}
}

// searchFixedDepth runs a searcher that was just built (or returns the error that prevented it) to depth
// on p: the SearchMStar-style functions.
func searchFixedDepth[S interface {
	SearchDepth(p games.Position, depth int) ModelResult
}](s S, err error, p games.Position, depth int) (ModelResult, error) {
	if err != nil {
		return ModelResult{}, err
	}
	return s.SearchDepth(p, depth), nil
}
