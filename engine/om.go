// OM search (opponent-model search with alpha-beta probing and beta-pruning) and the machinery it shares with PrOM and MEU.
package engine

import (
	"fmt"
	"math"

	"dossier/games"
)

// OM search (Iida et al.; van den Herik, Donkers & Spronck 2005, Figure 1) assumes that the opponent is a
// minimax player whose evaluation and search depth we know. At our (MAX) nodes it maximises our own value;
// at the opponent's (MIN) nodes it asks an alpha-beta probe with the opponent's evaluation which move the
// opponent plays and follows that move only. Values are our own evaluation V0 from the root player's point
// of view; the opponent's values come from the probe, for the opponent to move (the negamax convention).
//
// Beta-pruning: after the opponent's probe at a MIN node h returns value u (for the opponent) and move m,
// every grandchild h+m+m' is worth at least u to the opponent (we pick m' at h+m, and in the opponent's
// eyes we minimise its value), so the probe there may start from the window (u-, +inf) instead of
// (-inf, +inf). The paper writes this for a minimising MIN as the window (-inf, v+1); the negamax form
// is the mirror image. The window is valid only while the probes search to one common horizon, as the
// paper's opponent does; a probe that nevertheless fails low is repeated with the full window.

// FixedDepthResult is what an opponent-model search to a fixed depth returns.
type FixedDepthResult struct {
	// Move is the chosen move at the root (games.NoMove when the root has no legal move).
	Move games.Move
	// Value is the search value of the root for the root player, in its own evaluation's units.
	Value float64
	// Predicted is the opponent's reply to Move that the model predicts (the most probable one for the
	// probabilistic models), or games.NoMove when the depth leaves the opponent no move to predict.
	Predicted games.Move
	// Nodes counts the nodes visited, probes included.
	Nodes uint64
	// Complete is false when the search was stopped before it finished; Move is then the best root move
	// among those already searched (games.NoMove if none was).
	Complete bool
}

// OMModel is OM search's model of the opponent: a minimax player with a known evaluation and depth.
type OMModel struct {
	// Opponent is the opponent's evaluation in the negamax convention: its value for the side to move,
	// whichever side that is. Minimax's implicit model is the searching player's own weights (the value of
	// every position for the opponent is minus ours).
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
	// BetaPruning narrows the opponent's probes with the value of its probe two plies higher (Figure 1).
	BetaPruning bool
}

// DefaultOMOptions returns the options OM and PrOM play a game with: the alpha-beta defaults for the
// probes (each with its own table) and beta-pruning on.
func DefaultOMOptions(g games.Game) OMOptions {
	return OMOptions{Probe: DefaultAlphaBetaOptions(g), BetaPruning: true}
}

// omProbe is one evaluation's alpha-beta probe: the engine's AlphaBeta as a subroutine, with its own
// transposition table kept across the probes of one search (cleared only by NewGame).
type omProbe struct {
	ab *AlphaBeta
}

func newOMProbe(g games.Game, eval Evaluation, opts AlphaBetaOptions) *omProbe {
	opts.Threads = 1
	return &omProbe{ab: NewAlphaBeta(g, eval, opts)}
}

// bestMove returns the probe value of p (for its side to move, mates counted from p) and the best move,
// searching from the window (alpha, +inf). When that window proves wrong (the value is not above alpha,
// which a selective or table-grafted probe can produce) it searches again with the full window. It
// returns games.NoMove only when the probe was stopped.
func (pr *omProbe) bestMove(p games.Position, depth int, alpha float64) (float64, games.Move, bool) {
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
}

// omPollMask sets how often a model search polls its Control: every 256 of its own nodes (probes poll
// on their own).
const omPollMask = 255

func (b *omBase) begin(p games.Position, ctl *Control) {
	b.rootSide = p.ToMove()
	b.ctl = ctl
	b.aborted = false
	b.nodes = 0
	b.reprobes = 0
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

// movesAt returns the legal moves of p in the buffer of ply.
func (b *omBase) movesAt(p games.Position, ply int) []games.Move {
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

// exactValue is our own alpha-beta value of p to depth for the root player, with the full window.
func (b *omBase) exactValue(p games.Position, depth, ply int) float64 {
	v := b.own.ab.Probe(p, depth, math.Inf(-1), math.Inf(1))
	return b.toRoot(p, v, ply)
}

// newGame clears every probe's table and history.
func (b *omBase) newGame() {
	for _, pr := range b.probes {
		pr.ab.NewGame()
	}
}

// OMSearch is OM search with alpha-beta probing and beta-pruning (OmSearchBPb): our evaluation at the
// leaves, the opponent's model at its moves.
type OMSearch struct {
	omBase
	model OMModel
	opts  OMOptions
	opp   *omProbe
}

var _ Searcher = (*OMSearch)(nil)

// NewOMSearch returns an OM search for game with our evaluation own and the opponent model.
func NewOMSearch(game games.Game, own Evaluation, model OMModel, opts OMOptions) (*OMSearch, error) {
	if err := own.Check(game); err != nil {
		return nil, err
	}
	if err := model.Opponent.Check(game); err != nil {
		return nil, fmt.Errorf("opponent model: %w", err)
	}
	if model.ProbeDepth < 0 {
		return nil, fmt.Errorf("opponent model: probe depth %d is negative", model.ProbeDepth)
	}
	s := &OMSearch{model: model, opts: opts}
	s.game = game
	s.own = newOMProbe(game, own, opts.Probe)
	s.opp = newOMProbe(game, model.Opponent, opts.Probe)
	s.probes = []*omProbe{s.own, s.opp}
	return s, nil
}

// NewGame clears the probes' tables.
func (s *OMSearch) NewGame() { s.newGame() }

// SearchDepth runs OM search on p to depth plies without limits and returns the value, the move and the
// predicted reply; p is left as it was.
func (s *OMSearch) SearchDepth(p games.Position, depth int) FixedDepthResult {
	return s.searchDepth(p, depth, nil)
}

func (s *OMSearch) searchDepth(p games.Position, depth int, ctl *Control) FixedDepthResult {
	s.begin(p, ctl)
	defer s.end()
	res := FixedDepthResult{Value: math.Inf(-1)}
	v, moves, done := s.frontier(p, depth, 0)
	if done {
		return FixedDepthResult{Value: v, Nodes: 1, Complete: true}
	}
	s.nodes++
	for _, m := range moves {
		p.Play(m)
		v, reply := s.value(p, depth-1, 1, math.Inf(-1))
		p.Undo()
		if s.aborted {
			break
		}
		if v > res.Value {
			res.Value, res.Move, res.Predicted = v, m, reply
		}
	}
	res.Nodes = s.totalNodes()
	res.Complete = !s.aborted
	return res
}

// value is the OM value of p for the root player, with the opponent's reply when p is a MIN node.
// bound is a lower bound on the opponent's probe value at the MIN nodes of this MAX node's children
// (-inf for none).
func (s *OMSearch) value(p games.Position, depth, ply int, bound float64) (float64, games.Move) {
	if s.visit() {
		return 0, games.NoMove
	}
	v, moves, done := s.frontier(p, depth, ply)
	if done {
		return v, games.NoMove
	}
	if p.ToMove() == s.rootSide {
		best := math.Inf(-1)
		for _, m := range moves {
			p.Play(m)
			v, _ := s.value(p, depth-1, ply+1, bound)
			p.Undo()
			if s.aborted {
				return 0, games.NoMove
			}
			best = max(best, v)
		}
		return best, games.NoMove
	}
	probeDepth := depth
	if s.model.ProbeDepth > 0 {
		probeDepth = min(s.model.ProbeDepth, depth)
	}
	alpha := math.Inf(-1)
	if s.opts.BetaPruning {
		alpha = math.Nextafter(bound, math.Inf(-1))
	}
	u, reply, again := s.opp.bestMove(p, probeDepth, alpha)
	if again {
		s.reprobes++
	}
	if s.stoppedBy() || reply == games.NoMove {
		s.aborted = true
		return 0, games.NoMove
	}
	childBound := math.Inf(-1)
	if probeDepth == depth { // the grandchildren's probes search to the same horizon
		childBound = omGrandchildBound(u)
	}
	p.Play(reply)
	v, _ = s.value(p, depth-1, ply+1, childBound)
	p.Undo()
	return v, reply
}

// Search runs iterative deepening OM search under ctl (see Searcher).
func (s *OMSearch) Search(p games.Position, ctl *Control, report func(Info)) Result {
	return omIterate(p, ctl, report, func(depth int) FixedDepthResult { return s.searchDepth(p, depth, ctl) })
}

// omIterate is the iterative deepening loop of the opponent-model searches: one fixed-depth search per
// depth until ctl stops it or its depth limit is reached. The move of the deepest completed iteration is
// played; an interrupted first iteration still yields its best searched root move, and a search stopped
// before that the first legal move, so that a legal move is always returned. When pondering or searching
// infinitely it does not return before ctl is released, as UCI requires.
func omIterate(p games.Position, ctl *Control, report func(Info), searchDepth func(depth int) FixedDepthResult) Result {
	defer func() { <-ctl.Released() }()
	var buf [games.MaxMoves]games.Move
	if o := p.Status(); o.Result != games.Ongoing {
		return Result{Score: omRootOutcome(o.Result, p.ToMove())}
	}
	moves := p.AppendMoves(buf[:0])
	if len(moves) == 0 {
		if o := p.NoMovesOutcome(); o.Result != games.Ongoing {
			return Result{Score: omRootOutcome(o.Result, p.ToMove())}
		}
		r := searchDepth(0)
		return Result{Score: r.Value, Nodes: r.Nodes}
	}
	res := Result{Move: moves[0], PV: []games.Move{moves[0]}}
	maxDepth := maxPly - 2
	if d := ctl.Limits().Depth; d > 0 {
		maxDepth = min(d, maxDepth)
	}
	var nodes uint64
	for depth := 1; depth <= maxDepth && ctl.NextIteration(depth); depth++ {
		r := searchDepth(depth)
		nodes += r.Nodes
		if !r.Complete {
			if res.Depth == 0 && r.Move != games.NoMove {
				res.Move, res.Score, res.Ponder = r.Move, r.Value, r.Predicted
				res.PV = omPV(r)
			}
			break
		}
		res = Result{Move: r.Move, Ponder: r.Predicted, Score: r.Value, Depth: depth, PV: omPV(r)}
		if report != nil {
			report(Info{Depth: depth, SelDepth: depth, Score: r.Value, Nodes: nodes,
				TimeMS: ctl.Elapsed().Milliseconds(), PV: res.PV, Predicted: r.Predicted})
		}
	}
	res.Nodes = nodes
	return res
}

// omPV is the principal variation an opponent-model search knows: its move and the predicted reply.
func omPV(r FixedDepthResult) []games.Move {
	if r.Predicted == games.NoMove {
		return []games.Move{r.Move}
	}
	return []games.Move{r.Move, r.Predicted}
}

// omRootOutcome is a finished game's score for the side to move at the root.
func omRootOutcome(r games.Result, toMove games.Side) float64 {
	if r == games.Draw {
		return 0
	}
	if w, _ := r.Winner(); w == toMove {
		return MateScore
	}
	return -MateScore
}
