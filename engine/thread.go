// The search thread's state and what every node of its search uses: the scratch buffers and ordering
// tables, the node count and the polling of the limits, the node prologue, and the scores of finished games.

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
	// structure is the position's when the options correct the evaluation by it (nil: no correction), and
	// correction the corrections learned, by side to move and structure (see corrected), allocated only when
	// the options ask for them (256 KB: the memory's scoring and analysis build many searchers).
	structure  games.Structured
	correction *[2][1 << correctionBits]float64
	pv         [maxPly + 1][maxPly + 1]games.Move
	pvLen      [maxPly + 1]int
}

func newThread(game games.Game, eval Evaluation, opts AlphaBetaOptions, tt *TT) *thread {
	t := &thread{opts: opts, eval: eval, tt: tt, features: make([]float64, len(game.FeatureNames()))}
	if opts.CorrectionLimit > 0 {
		t.correction = new([2][1 << correctionBits]float64)
	}
	return t
}

// bind points the thread at a position and learns which optional interfaces it implements.
func (t *thread) bind(p games.Position) {
	t.pos = p
	t.tactical, _ = p.(games.Tactical)
	t.checker, _ = p.(games.Checker)
	t.nuller, _ = p.(games.NullMover)
	t.forced, _ = p.(games.ForcedTactics)
	t.structure = nil
	if t.correction != nil {
		t.structure, _ = p.(games.Structured)
	}
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

// enterNode is the prologue every node of the search and of quiescence shares: it counts the node, polls the
// limits every pollMask+1 nodes, and ends the node where its value needs no search (done true, with the value):
// the search was stopped (0, thrown away by the caller), the game is over, a position of the line repeats (a draw:
// in-tree repetitions are scored as draws at once), or the node is a leaf (leaf set by the caller, or the ply
// limit reached), which takes the static evaluation. A node ended by the depth limit or a repetition counts as a
// horizon event: its value would change with a deeper search or another path.
func (t *thread) enterNode(ply int, leaf bool) (score float64, done bool) {
	t.pvLen[ply] = ply
	t.nodes++
	if t.nodes&pollMask == 0 {
		t.poll()
	}
	if t.aborted {
		return 0, true
	}
	t.seldepth = max(t.seldepth, ply)
	pos := t.pos
	if o := pos.Status(); o.Result != games.Ongoing {
		return t.outcomeScore(o.Result, ply), true
	}
	if ply > 0 && pos.Repetitions() > 0 {
		t.horizonEvents++
		t.repetitions++
		return t.drawScore(), true
	}
	if leaf || ply >= maxPly-1 {
		t.horizonEvents++
		return t.evaluate(), true
	}
	return 0, false
}

// noMovesScore is the value of a node at ply whose side to move has no legal move: what the game's own rule
// makes of it (checkmate or stalemate in chess, a loss in checkers), or, where the game goes on (a leaf of a
// hand-built tree: a search frontier), its static evaluation. The search and quiescence (in check, and where a
// tactical move is compulsory) both end such nodes here.
func (t *thread) noMovesScore(ply int) float64 {
	o := t.pos.NoMovesOutcome()
	if o.Result == games.Ongoing {
		return t.evaluate()
	}
	return t.outcomeScore(o.Result, ply)
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
