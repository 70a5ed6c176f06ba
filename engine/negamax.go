// The search thread: negamax alpha-beta with PVS, null move, late-move reductions and quiescence.

package engine

import (
	"math"
	"sync/atomic"

	"dossier/games"
)

// maxPly bounds the distance from the root a search reaches (extensions and quiescence included).
const maxPly = 128

// pollMask sets how often a thread polls its Control: every 2048 nodes.
const pollMask = 2047

// lmrTable[d][i] is the late-move reduction of the i-th move (from 0) at remaining depth d.
var lmrTable [64][64]int

func init() {
	for d := 1; d < 64; d++ {
		for i := 1; i < 64; i++ {
			lmrTable[d][i] = int(0.75 + math.Log(float64(d))*math.Log(float64(i))/2.25)
		}
	}
}

// thread is one search over one position: its scratch buffers (allocated once, so that a node allocates
// nothing), its ordering tables, and its node count. A thread is used by one goroutine at a time.
type thread struct {
	opts AlphaBetaOptions
	eval Evaluation
	tt   *TT

	pos      games.Position
	tactical games.Tactical // nil when the position has no tactical moves
	checker  games.Checker
	nuller   games.NullMover
	forced   games.ForcedTactics
	exchange games.Exchanger // nil unless SEEPruning and the position values exchanges

	experience     Experience // what deeper analyses found, read like the table (nil: none)
	experienceHits uint64     // nodes the experience settled in the current search

	ctl        *Control
	main       bool         // the thread that polls the Control and owns the result
	helperStop *atomic.Bool // set by the main thread to end the helpers' search
	helpers    []*thread    // whose node counts the main thread adds when it polls
	aborted    bool

	nodes     uint64
	published atomic.Uint64 // nodes, as other goroutines may read it
	seldepth  int
	rootDepth int
	rootSide  games.Side
	contempt  float64
	// horizonEvents counts the leaves whose value depends on the depth limit (static evaluations,
	// in-tree repetitions, null-move cutoffs, TT cutoffs that were not solved); a subtree during which it
	// did not change was searched to terminal positions, and its result holds at any depth.
	horizonEvents uint64
	// repetitions counts the in-tree repetitions among the horizon events: their draw depends on the path,
	// so no table entry may count as solved above them, but the root's path is fixed, so an iteration
	// whose only horizon events are repetitions has the value every deeper one would find.
	repetitions   uint64
	rootBest      games.Move // the latest move that raised alpha at ply 0 in this iteration or probe
	rootBestScore float64
	root          []games.Move // the root moves, best first
	rootFrom      int          // the first root move searchRoot searches: the earlier ones are a MultiPV's found lines
	aspWindow     float64      // initial aspiration half-width

	features []float64
	moves    [maxPly][games.MaxMoves]games.Move
	keys     [maxPly][games.MaxMoves]int32
	killers  [maxPly + 1][2]games.Move
	history  [2][historySize]int32
	nullPly  [maxPly + 1]bool   // whether the move into ply was a null move
	excluded [maxPly]games.Move // the move a singular-extension search at ply leaves out (games.NoMove: none)
	// evals[ply] is the static evaluation of the node at ply (NaN in check or unknown): a node whose
	// evaluation rose since its side's previous turn is "improving", and its late moves are pruned later.
	evals [maxPly + 1]float64
	pv    [maxPly + 1][maxPly + 1]games.Move
	pvLen [maxPly + 1]int
}

func newThread(game games.Game, eval Evaluation, opts AlphaBetaOptions, tt *TT) *thread {
	return &thread{opts: opts, eval: eval, tt: tt, features: make([]float64, len(game.FeatureNames()))}
}

// bind points the thread at a position and learns which optional interfaces it implements.
func (t *thread) bind(p games.Position) {
	t.pos = p
	t.tactical, _ = p.(games.Tactical)
	t.checker, _ = p.(games.Checker)
	t.nuller, _ = p.(games.NullMover)
	t.forced, _ = p.(games.ForcedTactics)
	t.exchange = nil
	if t.opts.SEEPruning {
		t.exchange, _ = p.(games.Exchanger)
	}
	t.aborted = false
	t.seldepth = 0
	t.experienceHits = 0
}

// evaluate is the static evaluation of the current position for the side to move.
func (t *thread) evaluate() float64 {
	t.pos.Features(t.features)
	return t.eval.Value(t.features)
}

// drawScore is a draw's value for the side to move, with the contempt of the root side.
func (t *thread) drawScore() float64 {
	if t.contempt == 0 {
		return 0
	}
	if t.pos.ToMove() == t.rootSide {
		return -t.contempt
	}
	return t.contempt
}

// outcomeScore is the value of a finished game for the side to move at ply.
func (t *thread) outcomeScore(r games.Result, ply int) float64 {
	if r == games.Draw {
		return t.drawScore()
	}
	if w, _ := r.Winner(); w == t.pos.ToMove() {
		return MateScore - float64(ply)
	}
	return -(MateScore - float64(ply))
}

// poll checks the limits; the main thread asks the Control (which counts every thread's nodes), helpers
// only whether they should stop.
func (t *thread) poll() {
	t.published.Store(t.nodes)
	if t.main {
		if t.ctl != nil && t.ctl.Check(t.totalNodes()) {
			t.aborted = true
		}
		return
	}
	if (t.helperStop != nil && t.helperStop.Load()) || (t.ctl != nil && t.ctl.Stopped()) {
		t.aborted = true
	}
}

// totalNodes is the node count of this thread and its helpers.
func (t *thread) totalNodes() uint64 {
	n := t.nodes
	for _, h := range t.helpers {
		n += h.published.Load()
	}
	return n
}

// nextUp is the smallest score above x: the window (x, nextUp(x)) asks whether a value exceeds x.
func nextUp(x float64) float64 { return math.Nextafter(x, math.Inf(1)) }

// updatePV makes m followed by the child's PV the PV at ply.
func (t *thread) updatePV(ply int, m games.Move) {
	t.pv[ply][ply] = m
	n := t.pvLen[ply+1]
	copy(t.pv[ply][ply+1:n], t.pv[ply+1][ply+1:n])
	t.pvLen[ply] = max(n, ply+1)
}

// search returns the negamax value of the current position to depth, within (alpha, beta) fail-soft.
// pvNode says the window is open (not a null window), which disables the cuts that only pay off in a
// null-window search and keeps the PV intact.
func (t *thread) search(depth, ply int, alpha, beta float64, pvNode bool) float64 {
	if depth <= 0 {
		return t.quiesce(ply, alpha, beta)
	}
	t.pvLen[ply] = ply
	t.nodes++
	if t.nodes&pollMask == 0 {
		t.poll()
	}
	if t.aborted {
		return 0
	}
	t.seldepth = max(t.seldepth, ply)
	pos := t.pos
	if o := pos.Status(); o.Result != games.Ongoing {
		return t.outcomeScore(o.Result, ply)
	}
	if ply > 0 && pos.Repetitions() > 0 {
		t.horizonEvents++
		t.repetitions++
		return t.drawScore()
	}
	if ply >= maxPly-1 {
		t.horizonEvents++
		return t.evaluate()
	}

	key := pos.Hash()
	hashMove := games.NoMove
	staticEval := math.NaN()
	// excluded is the move a singular-extension search leaves out: the node is the same position searched
	// without it, so the table's entry of the full node neither settles it nor is overwritten by it.
	excluded := t.excluded[ply]
	stored, hit := t.tt.Probe(key, ply)
	if hit {
		e := stored
		hashMove, staticEval = e.Move, e.Eval
		if excluded == games.NoMove && !pvNode && ply > 0 && e.Draft >= depth &&
			(e.Bound == BoundExact || (e.Bound == BoundLower && e.Score >= beta) || (e.Bound == BoundUpper && e.Score <= alpha)) {
			if e.Draft < SolvedDraft {
				t.horizonEvents++
			}
			return e.Score
		}
	}

	if t.experience != nil && ply > 0 && excluded == games.NoMove {
		// What a deeper analysis found here settles the node as a table entry of its depth would, at PV nodes
		// too: that is how a line analysed as lost is left, and a won one kept, from the root's first move on.
		score, cut, move := experienceCut(t.experience, key, depth, ply, alpha, beta)
		if cut {
			t.horizonEvents++
			t.experienceHits++
			return score
		}
		if hashMove == games.NoMove {
			hashMove = move
		}
	}

	inCheck := t.checker != nil && t.checker.InCheck()
	if inCheck && t.opts.CheckExtension && ply < 2*t.rootDepth {
		depth++
	}

	// The static evaluation, where a pruning below needs it (never in check).
	if !inCheck && math.IsNaN(staticEval) && t.needsStaticEval(pvNode) {
		staticEval = t.evaluate()
	}
	t.evals[ply] = staticEval
	if inCheck {
		t.evals[ply] = math.NaN()
	}
	improving := ply >= 2 && !inCheck && staticEval > t.evals[ply-2] // false when either is NaN

	if t.opts.ReverseFutilityMargin > 0 && !pvNode && !inCheck && ply > 0 && depth <= reverseFutilityDepth &&
		math.Abs(beta) < MateBound {
		if surplus := staticEval - t.opts.ReverseFutilityMargin*float64(depth) - beta; surplus >= 0 && staticEval < MateBound &&
			!t.threatens(ply, surplus) {
			t.horizonEvents++
			return staticEval
		}
	}

	if t.opts.NullMove && t.nuller != nil && !pvNode && !inCheck && depth >= 3 && ply > 0 && !t.nullPly[ply] &&
		excluded == games.NoMove &&
		math.Abs(beta) < MateBound {
		if math.IsNaN(staticEval) {
			staticEval = t.evaluate()
		}
		if staticEval >= beta {
			r := 2 + depth/4
			t.nuller.PlayNull()
			t.nullPly[ply+1] = true
			score := -t.search(depth-1-r, ply+1, -beta, -math.Nextafter(beta, math.Inf(-1)), false)
			t.nullPly[ply+1] = false
			t.nuller.UndoNull()
			if t.aborted {
				return 0
			}
			if score >= beta {
				t.horizonEvents++
				if score >= MateBound {
					score = beta // a mate found after passing is no proof of a mate
				}
				return score
			}
		}
	}

	if t.opts.InternalIterativeReduction && depth >= 4 && hashMove == games.NoMove && !inCheck {
		depth--
	}

	// Singular extension: where the table's move stood at least at its value to nearly this depth, and every
	// other move fails below that value less a margin in a search of half the depth, the table's move is the
	// only one that holds the node, and it is searched a ply deeper. Where the others reach the lowered bar
	// and it is still above beta, several moves beat beta: the node fails high at once (multi-cut).
	singular := games.NoMove
	if t.opts.SingularMargin > 0 && excluded == games.NoMove && ply > 0 && depth >= singularDepth && hit &&
		stored.Move != games.NoMove && stored.Bound != BoundUpper &&
		stored.Draft >= depth-singularDraftLag && math.Abs(stored.Score) < MateBound && ply < 2*t.rootDepth {
		bar := stored.Score - t.opts.SingularMargin*float64(depth)
		t.excluded[ply] = stored.Move
		score := t.search((depth-1)/2, ply, math.Nextafter(bar, math.Inf(-1)), bar, false)
		t.excluded[ply] = games.NoMove
		if t.aborted {
			return 0
		}
		t.pvLen[ply] = ply
		switch {
		case score < bar:
			singular = stored.Move
		case !pvNode && bar >= beta:
			t.horizonEvents++
			return bar
		}
	}

	moves := pos.AppendMoves(t.moves[ply][:0])
	if len(moves) == 0 {
		o := pos.NoMovesOutcome()
		if o.Result == games.Ongoing {
			return t.evaluate() // the frontier of a hand-built tree: its evaluation is its value
		}
		return t.outcomeScore(o.Result, ply)
	}
	keys := t.keys[ply][:len(moves)]
	t.scoreMoves(moves, keys, hashMove, ply, true)

	// Late quiet moves of a shallow non-PV node are pruned: by count (late-move pruning), and by the margin
	// the static evaluation lacks to reach alpha (futility pruning).
	selective := !pvNode && !inCheck && ply > 0
	lateMoves := math.MaxInt
	if selective && t.opts.LateMovePruning && depth <= lateMoveDepth && math.Abs(staticEval) < t.opts.LateMoveBalance {
		lateMoves = lateMoveCount(depth, improving)
	}
	futile := selective && t.opts.FutilityMargin > 0 && depth <= futilityDepth && !math.IsNaN(staticEval) &&
		staticEval+t.opts.FutilityMargin*float64(depth) <= alpha && math.Abs(alpha) < MateBound
	futilityValue := staticEval + t.opts.FutilityMargin*float64(depth)
	seePrune := t.opts.MainSEEPruning && t.exchange != nil && !inCheck && ply > 0 && depth <= seePruneDepth
	quietsSearched := 0
	mover := pos.ToMove()

	eventsBefore := t.horizonEvents
	alphaOrig := alpha
	best := math.Inf(-1)
	bestMove := games.NoMove
	for i := range moves {
		pickMove(moves, keys, i)
		m := moves[i]
		if m == excluded {
			continue
		}
		quiet := t.tactical == nil || !t.tactical.IsTactical(m)
		prunable := quiet && i > 0 && keys[i] < orderKiller && best > -MateBound
		losing := seePrune && i > 0 && best > -MateBound && !t.exchange.SEEGE(m, seePruneThreshold(!quiet, depth))
		pos.Play(m)
		if (losing || prunable && (quietsSearched >= lateMoves || futile)) && (t.checker == nil || !t.checker.InCheck()) {
			// A move that gives check is searched: quiet checks are how most mates begin.
			pos.Undo()
			t.horizonEvents++
			if futile && prunable {
				best = max(best, futilityValue)
			}
			continue
		}
		t.tt.Prefetch(pos.Hash()) // only for a move that is searched
		if quiet {
			quietsSearched++
		}
		newDepth := depth - 1
		if m == singular {
			newDepth++
		}
		var score float64
		if i == 0 {
			score = -t.search(newDepth, ply+1, -beta, -alpha, pvNode)
		} else {
			reduction := 0
			badCapture := t.opts.BadCaptureReductions && !quiet && isBadCaptureKey(keys[i])
			if t.opts.LMR && depth >= 3 && i >= 3 && (quiet || badCapture) && !inCheck && keys[i] < orderKiller &&
				(t.checker == nil || !t.checker.InCheck()) {
				reduction = lmrTable[min(depth, 63)][min(i, 63)]
				if pvNode {
					reduction--
				}
				if t.opts.HistoryReductions && quiet {
					if !improving {
						reduction++
					}
					reduction -= int(2 * t.history[mover][historySlot(m)] / historyMax)
				}
				reduction = min(max(reduction, 0), newDepth-1)
			}
			if t.opts.PVS {
				up := nextUp(alpha)
				score = -t.search(newDepth-reduction, ply+1, -up, -alpha, false)
				if score > alpha && reduction > 0 {
					score = -t.search(newDepth, ply+1, -up, -alpha, false)
				}
				if score > alpha && score < beta {
					score = -t.search(newDepth, ply+1, -beta, -alpha, pvNode)
				}
			} else {
				// Without PVS the later moves get the open window too, but they are expected to fail low
				// like null-window searches, so they are not PV nodes: table cutoffs apply there.
				score = -t.search(newDepth-reduction, ply+1, -beta, -alpha, false)
				if score > alpha && reduction > 0 {
					score = -t.search(newDepth, ply+1, -beta, -alpha, false)
				}
			}
		}
		pos.Undo()
		if t.aborted {
			return 0
		}
		if score > best {
			best = score
			if score > alpha {
				bestMove = m
				t.updatePV(ply, m)
				if ply == 0 {
					t.rootBest = m
				}
				if score >= beta {
					if quiet {
						t.rewardQuiet(m, moves[:i], ply, depth)
					}
					break
				}
				alpha = score
			}
		}
	}

	if excluded != games.NoMove {
		if math.IsInf(best, -1) { // the excluded move was the only one searched
			return alphaOrig
		}
		return best
	}
	bound := boundOf(best, alphaOrig, beta)
	draft := depth
	if t.horizonEvents == eventsBefore {
		draft = SolvedDraft
	}
	t.tt.Store(key, ply, bestMove, best, staticEval, draft, bound)
	return best
}

// boundOf says what a fail-soft result best of a window (alpha, beta) is: an upper bound at or below alpha, a
// lower bound at or above beta, else exact.
func boundOf(best, alpha, beta float64) Bound {
	switch {
	case best <= alpha:
		return BoundUpper
	case best >= beta:
		return BoundLower
	}
	return BoundExact
}

// threatens reports whether the opponent, were it to move, could win more than surplus by a capture, by the
// static exchange: the static evaluation overstates the position by that much, and reverse futility pruning
// keeps only the surplus beyond it (without this, the pruning cost six WinAtChess positions at 250,000 nodes).
// It stops at the first such capture. Games without a null move, tactical moves or static exchange are never
// threatened.
func (t *thread) threatens(ply int, surplus float64) bool {
	if t.nuller == nil || t.tactical == nil || t.exchange == nil || ply+1 >= maxPly {
		return false
	}
	t.nuller.PlayNull()
	defer t.nuller.UndoNull()
	more := int(math.Floor(surplus)) + 1 // SEE is whole units: more than surplus is at least this
	for _, m := range t.tactical.AppendTactical(t.moves[ply+1][:0]) {
		if t.exchange.SEEGE(m, more) {
			return true
		}
	}
	return false
}

// The shallowest node where SingularMargin tries a singular extension, and how much shallower than the node
// the table's entry may have been searched.
const (
	singularDepth    = 6
	singularDraftLag = 3
)

// seePruneDepth is the deepest node whose losing moves MainSEEPruning skips.
const seePruneDepth = 6

// seePruneThreshold is the least static exchange (the game's material units: centipawns in chess) a move
// keeps at a node of depth under MainSEEPruning: a tactical move may lose 100 a ply of depth, a quiet move
// 30 times the depth squared (little at a shallow node, more at a deeper one, where the search has room to
// show what a sacrifice buys).
func seePruneThreshold(tactical bool, depth int) int {
	if tactical {
		return -100 * depth
	}
	return -30 * depth * depth
}

// reverseFutilityDepth is the deepest node reverse futility pruning returns from.
const reverseFutilityDepth = 6

// The deepest nodes whose late quiet moves are pruned by count and by futility.
const (
	lateMoveDepth = 3
	futilityDepth = 3
)

// lateMoveCount is how many quiet moves a node of depth searches before late-move pruning: 3 + depth², half
// that when the node is not improving.
func lateMoveCount(depth int, improving bool) int {
	n := 3 + depth*depth
	if !improving {
		n /= 2
	}
	return n
}

// needsStaticEval reports whether a pruning of this node uses the static evaluation.
// Late-move pruning needs it at PV nodes too: their evaluation tells whether the nodes two plies below improve.
func (t *thread) needsStaticEval(pvNode bool) bool {
	return t.opts.LateMovePruning || (!pvNode && (t.opts.ReverseFutilityMargin > 0 || t.opts.FutilityMargin > 0))
}

// quiesce resolves the tactics of a depth-0 leaf: stand pat on the static evaluation (unless a tactical
// move is compulsory or the side to move is in check), then try the tactical moves (all evasions in check).
func (t *thread) quiesce(ply int, alpha, beta float64) float64 {
	t.pvLen[ply] = ply
	t.nodes++
	if t.nodes&pollMask == 0 {
		t.poll()
	}
	if t.aborted {
		return 0
	}
	t.seldepth = max(t.seldepth, ply)
	pos := t.pos
	if o := pos.Status(); o.Result != games.Ongoing {
		return t.outcomeScore(o.Result, ply)
	}
	if ply > 0 && pos.Repetitions() > 0 {
		t.horizonEvents++
		t.repetitions++
		return t.drawScore()
	}
	if t.tactical == nil || !t.opts.Quiescence || ply >= maxPly-1 {
		t.horizonEvents++
		return t.evaluate()
	}

	// The table: a stored result that settles this window ends the node, and a stored static evaluation
	// saves computing it again.
	useTable := t.opts.QuiescenceTable && t.tt != nil
	var key uint64
	standPat := math.NaN()
	if useTable {
		key = pos.Hash()
		if e, ok := t.tt.Probe(key, ply); ok {
			if e.Bound == BoundExact || (e.Bound == BoundLower && e.Score >= beta) ||
				(e.Bound == BoundUpper && e.Score <= alpha) {
				if e.Draft < SolvedDraft {
					t.horizonEvents++
				}
				return e.Score
			}
			standPat = e.Eval
		}
	}
	alphaOrig := alpha

	inCheck := t.checker != nil && t.checker.InCheck()
	best := math.Inf(-1)
	var moves []games.Move
	if inCheck {
		moves = pos.AppendMoves(t.moves[ply][:0])
		if len(moves) == 0 {
			o := pos.NoMovesOutcome()
			if o.Result == games.Ongoing {
				return t.evaluate()
			}
			return t.outcomeScore(o.Result, ply)
		}
	} else {
		forced := t.forced != nil && t.forced.TacticsForced()
		if !forced {
			t.horizonEvents++
			if math.IsNaN(standPat) {
				standPat = t.evaluate()
			}
			best = standPat
			if best >= beta {
				if useTable {
					t.tt.Store(key, ply, games.NoMove, best, standPat, 0, BoundLower)
				}
				return best
			}
			alpha = max(alpha, best)
		}
		moves = t.tactical.AppendTactical(t.moves[ply][:0])
		if len(moves) == 0 {
			if !forced {
				return best
			}
			// A compulsory tactical move that AppendTactical does not list: fall back on all moves.
			moves = pos.AppendMoves(t.moves[ply][:0])
			if len(moves) == 0 {
				o := pos.NoMovesOutcome()
				if o.Result == games.Ongoing {
					return t.evaluate()
				}
				return t.outcomeScore(o.Result, ply)
			}
		}
	}
	// Out of check, a capture the static exchange says loses material is not searched: the side to move
	// stands pat instead, or has a better capture.
	prune := t.exchange != nil && !inCheck && best > math.Inf(-1)
	keys := t.keys[ply][:len(moves)]
	t.scoreMoves(moves, keys, games.NoMove, ply, false)
	bestMove := games.NoMove
	for i := range moves {
		pickMove(moves, keys, i)
		m := moves[i]
		if prune && !t.exchange.SEEGE(m, 0) {
			continue
		}
		pos.Play(m)
		if useTable {
			t.tt.Prefetch(pos.Hash())
		}
		score := -t.quiesce(ply+1, -beta, -alpha)
		pos.Undo()
		if t.aborted {
			return 0
		}
		if score > best {
			best = score
			if score > alpha {
				bestMove = m
				t.updatePV(ply, m)
				if score >= beta {
					break
				}
				alpha = score
			}
		}
	}
	if useTable && best > math.Inf(-1) {
		bound := boundOf(best, alphaOrig, beta)
		t.tt.Store(key, ply, bestMove, best, standPat, 0, bound)
	}
	return best
}
