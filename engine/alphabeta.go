// The alpha-beta Searcher: iterative deepening, aspiration windows, the root move loop and Lazy SMP.

package engine

import (
	"math"
	"slices"
	"sync"
	"sync/atomic"

	"dossier/games"
)

// AlphaBeta is dossier's strength-maximising searcher: iterative-deepening negamax alpha-beta with a
// transposition table, for any game. It is also the probe the opponent-model searches call (see Probe).
type AlphaBeta struct {
	game        games.Game
	eval        Evaluation
	opts        AlphaBetaOptions
	tt          *TT
	threads     []*thread // threads[0] is the main thread, the others Lazy SMP helpers
	window      float64   // initial aspiration half-width
	stopHelpers atomic.Bool
	probeCtl    *Control
	// contemptSide is the side whose draws cost Contempt: the root side of the latest search. Stored draw
	// scores depend on it, so the table is cleared when it changes (only with a non-zero Contempt).
	contemptSide games.Side
	searched     bool
}

var _ Searcher = (*AlphaBeta)(nil)

// NewAlphaBeta returns an alpha-beta searcher for game that evaluates leaves with eval.
func NewAlphaBeta(game games.Game, eval Evaluation, opts AlphaBetaOptions) *AlphaBeta {
	s := &AlphaBeta{game: game, eval: eval, opts: opts, tt: NewTT(opts.HashMB)}
	for i := 0; i < max(opts.Threads, 1); i++ {
		t := newThread(game, eval, opts, s.tt)
		t.helperStop = &s.stopHelpers
		s.threads = append(s.threads, t)
	}
	s.threads[0].main = true
	s.threads[0].helpers = s.threads[1:]
	s.window = opts.AspirationWindow
	if s.window <= 0 {
		s.window = AutoWindow(eval)
	}
	for _, t := range s.threads {
		t.aspWindow = s.window
	}
	return s
}

// AutoWindow is the aspiration window NewAlphaBeta gives an evaluation when its options leave it 0 (and the
// one the opponent-model searches give their probes): a quarter of the median weight magnitude, about the
// value of a small change of one feature, whatever scale the evaluation uses.
func AutoWindow(eval Evaluation) float64 {
	var mags []float64
	for _, w := range eval.Weights {
		if w != 0 {
			mags = append(mags, math.Abs(w))
		}
	}
	if len(mags) == 0 {
		return 0
	}
	slices.Sort(mags)
	return mags[len(mags)/2] / 4
}

// SetExperience gives the search what deeper analyses found (nil: nothing): from the next search on, every
// thread reads it at its nodes as it reads the table (see Experience).
func (s *AlphaBeta) SetExperience(x Experience) {
	for _, t := range s.threads {
		t.experience = x
	}
}

// ExperienceHits returns how many nodes the experience settled in the last search (the main thread's).
func (s *AlphaBeta) ExperienceHits() uint64 { return s.threads[0].experienceHits }

// Options returns the options the searcher was built with.
func (s *AlphaBeta) Options() AlphaBetaOptions { return s.opts }

// Evaluation returns the evaluation the searcher uses at its leaves.
func (s *AlphaBeta) Evaluation() Evaluation { return s.eval }

// TT returns the searcher's transposition table (nil without one).
func (s *AlphaBeta) TT() *TT { return s.tt }

// NewGame clears the transposition table, history and killers.
func (s *AlphaBeta) NewGame() {
	s.tt.Clear()
	for _, t := range s.threads {
		clear(t.history[:])
		clear(t.killers[:])
		if t.correction != nil {
			clear(t.correction[:])
		}
	}
}

// Search runs iterative deepening on p until ctl (which must not be nil) stops it, the depth limit is
// reached or the position is solved, and returns the best move of the deepest completed iteration (or a
// better move the interrupted iteration already proved). When pondering or searching infinitely it does
// not return before ctl is released (PonderHit or Stop), as UCI requires.
func (s *AlphaBeta) Search(p games.Position, ctl *Control, report func(Info)) Result {
	defer ctl.WaitRelease()
	if s.opts.Contempt != 0 && s.searched && p.ToMove() != s.contemptSide {
		s.tt.Clear()
	}
	s.contemptSide, s.searched = p.ToMove(), true
	s.tt.NewSearch()
	main := s.threads[0]
	main.bind(p)
	main.ctl = ctl
	var res Result
	// A root that Status calls over but that still has legal moves is a draw one may claim (threefold
	// repetition, the move rules): the game goes on until somebody claims it, so the search plays on.
	rootMoves := p.AppendMoves(make([]games.Move, 0, games.MaxMoves))
	if o := p.Status(); o.Result != games.Ongoing && len(rootMoves) == 0 {
		res.Score = main.outcomeScore(o.Result, 0)
		return res
	}
	if len(rootMoves) == 0 {
		if o := p.NoMovesOutcome(); o.Result != games.Ongoing {
			res.Score = main.outcomeScore(o.Result, 0)
		} else {
			res.Score = main.evaluate()
		}
		return res
	}
	if only := ctl.Limits().SearchMoves; len(only) > 0 {
		restricted := rootMoves[:0:0]
		for _, m := range rootMoves {
			if slices.Contains(only, m) {
				restricted = append(restricted, m)
			}
		}
		if len(restricted) > 0 {
			rootMoves = restricted
		}
	}

	s.stopHelpers.Store(false)
	var wg sync.WaitGroup
	for k, h := range s.threads[1:] {
		h.bind(p.Clone())
		h.ctl = ctl
		h.nodes = 0
		h.published.Store(0)
		wg.Go(func() { h.iterate(rootMoves, nil, (k+1)&1) })
	}
	if k := ctl.Limits().MultiPV; k > 1 && len(rootMoves) > 1 {
		res = main.iterateLines(rootMoves, report, min(k, len(rootMoves)))
	} else {
		res = main.iterate(rootMoves, report, 0)
	}
	s.stopHelpers.Store(true)
	wg.Wait()
	res.Nodes = main.totalNodes()
	res.Ponder = s.ponderMove(p, res)
	return res
}

// ponderMove is the expected reply: the second PV move, or the table's move for the position after the
// best move when the PV ends there.
func (s *AlphaBeta) ponderMove(p games.Position, res Result) games.Move {
	if len(res.PV) >= 2 {
		return res.PV[1]
	}
	if res.Move == games.NoMove {
		return games.NoMove
	}
	p.Play(res.Move)
	defer p.Undo()
	e, ok := s.tt.Probe(p.Hash(), 1)
	if !ok || e.Move == games.NoMove || p.Status().Result != games.Ongoing {
		return games.NoMove
	}
	if games.IsLegal(p, e.Move) {
		return e.Move
	}
	return games.NoMove
}

// iterate is the iterative deepening loop of one thread over the given root moves; helpers search
// depthOffset plies deeper than the iteration number so that the threads spread over two depths.
func (t *thread) iterate(rootMoves []games.Move, report func(Info), depthOffset int) Result {
	lim, maxDepth := t.startIterations(rootMoves)
	res := Result{Move: t.root[0]}
	prev := 0.0
	for depth := 1; depth+depthOffset <= maxDepth; depth++ {
		if t.main && !t.ctl.NextIteration(depth) {
			break
		}
		if !t.main && (t.helperStop.Load() || t.ctl.Stopped()) {
			break
		}
		d := depth + depthOffset
		t.rootDepth = d
		t.rootBest = games.NoMove
		eventsBefore, repetitionsBefore := t.horizonEvents, t.repetitions
		score := t.aspirate(d, prev)
		if t.aborted {
			if t.rootBest != games.NoMove {
				res.Move, res.Score = t.rootBest, t.rootBestScore
				res.PV = slices.Clone(t.pv[0][:t.pvLen[0]])
				if len(res.PV) == 0 || res.PV[0] != res.Move {
					res.PV = []games.Move{res.Move} // the PV of an earlier aspiration pass is gone
				}
			}
			break
		}
		// Solved: every line ended the game, or repeated a position, before the depth limit.
		solved := t.horizonEvents-eventsBefore == t.repetitions-repetitionsBefore
		prev = score
		res = Result{Move: t.root[0], Score: score, Depth: d, PV: slices.Clone(t.pv[0][:t.pvLen[0]])}
		if len(res.PV) == 0 || res.PV[0] != res.Move {
			res.PV = []games.Move{res.Move}
		}
		if report != nil {
			report(Info{
				Depth:    d,
				SelDepth: t.seldepth,
				Score:    score,
				Nodes:    t.totalNodes(),
				TimeMS:   t.ctl.Elapsed().Milliseconds(),
				HashFull: t.tt.HashFull(),
				PV:       res.PV,
			})
		}
		if solved || provenMate(score, d) || (t.main && len(t.root) == 1 && d >= 4 && clockOnly(lim)) {
			break // nothing left to learn, or nothing to choose while the clock runs
		}
	}
	t.published.Store(t.nodes)
	return res
}

// startIterations prepares the thread for iterative deepening over the given root moves and returns the
// search's limits with the deepest iteration they allow.
func (t *thread) startIterations(rootMoves []games.Move) (Limits, int) {
	t.root = append(t.root[:0], rootMoves...)
	t.rootFrom = 0
	t.orderRoot()
	t.rootSide = t.pos.ToMove()
	t.contempt = t.opts.Contempt
	t.nodes = 0
	t.horizonEvents, t.repetitions = 0, 0
	t.ageHistory()
	lim := t.ctl.Limits()
	maxDepth := maxPly - 1
	if lim.Depth > 0 {
		maxDepth = min(lim.Depth, maxDepth)
	}
	return lim, maxDepth
}

// provenMate reports whether score, the result of an iteration to depth plies, is a mate within those
// plies, for the side to move or against it. A mate score comes from lines that end the game, and within
// the depth every defence was searched, so deeper iterations would find the same mate again (at most a
// shorter one that a reduction hid): not worth their time.
func provenMate(score float64, depth int) bool {
	return math.Abs(score) >= MateBound && MateScore-math.Abs(score) <= float64(depth)
}

// clockOnly reports whether a search is limited by the clock alone (not pondering, not infinite, no fixed
// depth, nodes or move time), where time spent on a forced move is time lost.
func clockOnly(lim Limits) bool {
	return lim.clocked() && !lim.Ponder && !lim.Infinite && lim.Depth == 0 && lim.Nodes == 0 && lim.MoveTime == 0
}

// orderRoot puts the table's move first and tactical moves next, keeping the game's order otherwise.
func (t *thread) orderRoot() {
	hashMove := games.NoMove
	if e, ok := t.tt.Probe(t.pos.Hash(), 0); ok {
		hashMove = e.Move
	}
	keys := t.keys[0][:len(t.root)]
	t.scoreMoves(t.root, keys, hashMove, 0, true)
	for i := range t.root {
		pickMove(t.root, keys, i)
	}
}

// aspirate searches the root to depth in a window around the previous iteration's score, widening it
// on each fail until the score falls inside.
func (t *thread) aspirate(depth int, prev float64) float64 {
	window := t.aspWindow
	if !t.opts.Aspiration || depth < aspirationDepth || window <= 0 || math.Abs(prev) >= MateBound {
		return t.searchRoot(depth, math.Inf(-1), math.Inf(1))
	}
	delta := window
	alpha, beta := prev-delta, prev+delta
	for {
		score := t.searchRoot(depth, alpha, beta)
		if t.aborted {
			return score
		}
		switch {
		case score <= alpha:
			alpha = score - delta
		case score >= beta:
			beta = score + delta
		default:
			return score
		}
		delta *= 2
		if delta > aspirationMaxWidening*window || math.Abs(score) >= MateBound {
			alpha, beta = math.Inf(-1), math.Inf(1)
		}
	}
}

// searchRoot is the move loop at the root: the previous best move first with the full window, the others
// with a null window first (PVS). A move that raises alpha becomes rootBest at once, so that an
// interrupted iteration can still use it, and moves to the front for the next iteration.
func (t *thread) searchRoot(depth int, alpha, beta float64) float64 {
	pos := t.pos
	t.pvLen[0] = 0
	t.nodes++
	alphaOrig := alpha
	best := math.Inf(-1)
	root := t.root[t.rootFrom:] // a MultiPV pass leaves out the moves earlier passes found
	for i, m := range root {
		pos.Play(m)
		var score float64
		if i == 0 || !t.opts.PVS {
			score = -t.search(depth-1, 1, -beta, -alpha, true)
		} else {
			score = -t.search(depth-1, 1, -nextUp(alpha), -alpha, false)
			if score > alpha && score < beta {
				score = -t.search(depth-1, 1, -beta, -alpha, true)
			}
		}
		pos.Undo()
		if t.aborted {
			return 0
		}
		if score > best {
			best = score
			if score > alpha {
				t.rootBest, t.rootBestScore = m, score
				t.updatePV(0, m)
				if i > 0 {
					copy(root[1:i+1], root[:i])
					root[0] = m
				}
				if score >= beta {
					break
				}
				alpha = score
			}
		}
	}
	bound := boundOf(best, alphaOrig, beta)
	if t.rootFrom == 0 { // the value of a pass without the best moves is not the position's
		t.tt.Store(pos.Hash(), 0, t.rootBest, best, math.NaN(), depth, bound)
	}
	return best
}
