// The go command: its limits, the search goroutine, info and bestmove lines, and go perft.

package protocol

import (
	"fmt"
	"math"
	"sync"
	"time"

	"dossier/engine"
	"dossier/games"
)

// Bounds that keep absurd go values from overflowing the time arithmetic or the engine's tables.
const (
	maxMillis    = 1_000_000_000 // 11.6 days: beyond any real clock, far from overflowing a time.Duration
	maxDepth     = 1000
	maxMovesToGo = 10_000
)

// runningSearch is a search (or perft) running on its own goroutine.
type runningSearch struct {
	ctl  *engine.Control
	done chan struct{} // closed once the goroutine has written its last line
	// ponder is set for go ponder; ponderHit once the GUI confirmed the guessed move. Both belong to Run.
	ponder    bool
	ponderHit bool
	// perft is set for go perft, a count that the end of the input lets finish (Stockfish counts before
	// it reads on).
	perft bool
	// best is the move the bestmove line gave (NoMove for 0000 or a perft) and score the search's value of
	// the position for the side to move; both set before done is closed.
	best  games.Move
	score float64

	// pondersAfter, when set (CECP's hard), is asked once the move is written whether to ponder then on
	// the reply the search expects (see ponderOnReply).
	pondersAfter func() bool

	// mu guards what the session goroutine and the search goroutine share at the search's end: silent
	// (the search's move is not to be written: CECP's force, new, result), finished (the move is written)
	// and the lines deferred until then (CECP's pong); stopped once stop was called, and the control of
	// the ponder search that follows the move, if one runs.
	mu        sync.Mutex
	silent    bool
	finished  bool
	deferred  []string
	stopped   bool
	pondering *engine.Control
}

// stop ends the search, and the ponder search that follows its move if one runs or is about to.
func (r *runningSearch) stop() {
	r.ctl.Stop()
	r.mu.Lock()
	r.stopped = true
	ponder := r.pondering
	r.mu.Unlock()
	if ponder != nil {
		ponder.Stop()
	}
}

// discardSearch stops a running search without writing its move (if it has not been written yet) and
// waits for it.
func (s *Session) discardSearch() {
	if s.search == nil {
		return
	}
	r := s.search
	r.mu.Lock()
	r.silent = true
	r.mu.Unlock()
	s.finishSearch()
}

// afterMove sends line once the running search has written its move, or at once when none runs.
func (s *Session) afterMove(line string) {
	if r := s.search; r != nil {
		r.mu.Lock()
		defer r.mu.Unlock()
		if !r.finished {
			r.deferred = append(r.deferred, line)
			return
		}
	}
	s.send(line)
}

// collectFinished joins the running search if it has already finished, without waiting or stopping it.
func (s *Session) collectFinished() {
	if s.search == nil {
		return
	}
	select {
	case <-s.search.done:
		s.joinSearch()
	default:
	}
}

// finishSearch stops a running search, waits for its bestmove, and settles what it left pending.
func (s *Session) finishSearch() {
	if s.search == nil {
		return
	}
	s.search.stop()
	s.joinSearch()
}

// endOfInput stops a running search at once, as quit does, so that the engine exits with its move
// printed whatever the search's limits; a perft is let finish.
func (s *Session) endOfInput() {
	if s.search != nil && s.search.perft {
		s.joinSearch()
		return
	}
	s.finishSearch()
}

// joinSearch waits for the search goroutine and observes a guessed move the GUI confirmed with ponderhit;
// a guess it never confirmed leaves the game.
func (s *Session) joinSearch() {
	r := s.search
	<-r.done
	s.search = nil
	if r.ponder && !r.ponderHit {
		s.dropGuess()
	} else if r.best != games.NoMove {
		s.record.lastBest, s.record.lastBestAt, s.record.lastScore = r.best, len(s.record.moves), r.score
	}
	if r.ponder && r.ponderHit {
		s.observe(len(s.record.moves), s.pos.ToMove(), -1)
	}
	s.dialect.joined(r)
}

// dropGuess takes the GUI's guess of the opponent's reply, the last move of a go ponder's position, out of
// the record and the position once the ponder search ended without ponderhit: the move was never played.
// The next position command would replace it; but a game that ends while the engine ponders (a
// resignation, an agreed draw, a flag) is followed by ucinewgame or quit instead, and would be filed with
// a move that was never made. A position without the guess in its move list (a FEN) has nothing to drop.
func (s *Session) dropGuess() {
	r := &s.record
	if n := len(r.moves); n > 0 && n > r.tracker.Observed() {
		r.moves = r.moves[:n-1]
		s.pos.Undo()
	}
}

// claimable reports whether a game end is a draw a player must claim (repetition, a move rule) rather than
// one that ends the game by itself.
func claimable(o games.Outcome) bool {
	return o.Result == games.Draw && (o.Reason == games.Repetition || o.Reason == games.MoveRule)
}

// millis converts a count of milliseconds, already bounded, to a duration.
func millis(n int64) time.Duration { return time.Duration(n) * time.Millisecond }

// startSearch runs the engine's search of the current position on a goroutine of its own.
func (s *Session) startSearch(lim engine.Limits) { s.startSearchThenPonder(lim, nil) }

// startSearchThenPonder is startSearch, and once the move is written the same goroutine ponders on the reply
// the search expects while pondersAfter (when not nil) says so (see ponderOnReply).
func (s *Session) startSearchThenPonder(lim engine.Limits, pondersAfter func() bool) {
	root := s.pos.Clone()
	view := s.pos.Clone() // for writing moves while the engine plays on root
	chk := &moveChecker{}
	lim.MoveOverhead = s.moveOverhead
	ctl := engine.NewControl(lim, root.ToMove())
	r := &runningSearch{ctl: ctl, done: make(chan struct{}), ponder: lim.Ponder, pondersAfter: pondersAfter}
	s.search = r
	sendInfo, sendBest := s.dialect.searchOutput()
	go func() {
		defer close(r.done)
		res := s.callSearch(root, ctl, func(info engine.Info) { sendInfo(view, chk, info) })
		ctl.WaitRelease()
		r.mu.Lock()
		if !r.silent {
			r.best, r.score = sendBest(view, chk, res), res.Score
		}
		r.finished = true
		for _, line := range r.deferred {
			s.send(line)
		}
		r.mu.Unlock()
		if r.pondersAfter != nil && r.best != games.NoMove {
			s.ponderOnReply(r, view, chk, expectedReply(res, r.best), sendInfo)
		}
	}()
}

// callSearch runs the engine's search, turning a panic into an error report and an empty result, for which
// sendBestMove still finds a legal move.
func (s *Session) callSearch(root games.Position, ctl *engine.Control, report func(engine.Info)) (res engine.Result) {
	// A report arriving after Search returned (from a helper goroutine the engine left behind) is dropped: the
	// caller's position belongs to the bestmove, or is undone, then.
	var reportMu sync.Mutex
	searching := true
	defer func() {
		reportMu.Lock()
		searching = false
		reportMu.Unlock()
		if r := recover(); r != nil {
			s.errorf("internal error in the search: %v", r)
			res = engine.Result{}
		}
	}()
	return s.engine.Search(root, ctl, func(info engine.Info) {
		reportMu.Lock()
		defer reportMu.Unlock()
		if searching {
			report(info)
		}
	})
}

// clampScore keeps an engine's score finite and within the mate range, so that nothing downstream
// converts NaN or infinity to an integer.
func clampScore(score float64) float64 {
	if math.IsNaN(score) {
		return 0
	}
	return max(-engine.MateScore, min(score, engine.MateScore))
}

// formatLine writes the moves of a line from view, stopping at the first move that is not legal there
// (a line from the engine is checked, not trusted); view is left as it was.
func (c *moveChecker) formatLine(view games.Position, line []games.Move) []string {
	out := make([]string, 0, len(line))
	for _, m := range line {
		if !c.legal(view, m) {
			break
		}
		out = append(out, view.FormatMove(m))
		view.Play(m)
	}
	for range out {
		view.Undo()
	}
	return out
}

// perftChunk is the depth below which perft runs the game's own fast counter without checking for stop.
const perftChunk = 4

// startPerft runs "go perft N" on the search goroutine: the count below each root move, then the total,
// as Stockfish prints them. stop interrupts it.
func (s *Session) startPerft(depth int) {
	pos := s.pos.Clone()
	ctl := engine.NewControl(engine.Limits{}, pos.ToMove())
	r := &runningSearch{ctl: ctl, done: make(chan struct{}), perft: true}
	s.search = r
	go func() {
		defer close(r.done)
		defer func() {
			if r := recover(); r != nil {
				s.errorf("internal error in perft: %v", r)
			}
		}()
		start := time.Now()
		var buf [games.MaxMoves]games.Move
		var total uint64
		for _, m := range pos.AppendMoves(buf[:0]) {
			name := pos.FormatMove(m)
			pos.Play(m)
			n, ok := stoppablePerft(pos, depth-1, ctl)
			pos.Undo()
			if !ok {
				s.infof("perft stopped")
				return
			}
			s.send(fmt.Sprintf("%s: %d", name, n))
			total += n
		}
		elapsed := time.Since(start)
		s.send("")
		s.send(fmt.Sprintf("Nodes searched: %d", total))
		s.infof("perft %d: %d nodes in %d ms", depth, total, elapsed.Milliseconds())
	}()
}

// stoppablePerft counts the leaves below p to depth, checking for stop above the last perftChunk plies;
// ok is false when it was stopped.
func stoppablePerft(p games.Position, depth int, ctl *engine.Control) (nodes uint64, ok bool) {
	if depth <= 0 {
		return 1, true
	}
	if depth <= perftChunk {
		return games.Perft(p, depth), !ctl.Stopped()
	}
	var buf [games.MaxMoves]games.Move
	for _, m := range p.AppendMoves(buf[:0]) {
		p.Play(m)
		n, ok := stoppablePerft(p, depth-1, ctl)
		p.Undo()
		if !ok {
			return 0, false
		}
		nodes += n
	}
	return nodes, true
}
