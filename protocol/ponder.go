// Pondering on the opponent's time after the engine's own move, as CECP's hard asks (UCI's GUIs ponder with
// go ponder themselves).

package protocol

import (
	"dossier/engine"
	"dossier/games"
)

// expectedReply returns the opponent's reply a search's result expects after best: its ponder move, or the
// second move of its principal variation; NoMove when it has none.
func expectedReply(res engine.Result, best games.Move) games.Move {
	if res.Ponder != games.NoMove {
		return res.Ponder
	}
	if len(res.PV) > 1 && res.PV[0] == best {
		return res.PV[1]
	}
	return games.NoMove
}

// ponderOnReply runs on r's goroutine once its move (r.best) is written: while r.pondersAfter says so and
// nothing stopped r, it searches the position after that move and the expected reply until r is stopped,
// reporting as the move's search did, so that the engine's tables hold that position when the opponent's
// move comes. The ponder search leaves the session's position and record alone: the opponent's move, the
// expected one or another, is played as any move is, and the engine's next search runs under the clock the
// GUI sent (time, otim), on the tables the ponder filled.
func (s *Session) ponderOnReply(r *runningSearch, view games.Position, chk *moveChecker, reply games.Move,
	report func(games.Position, *moveChecker, engine.Info)) {
	if !chk.legal(view, r.best) {
		return
	}
	view.Play(r.best)
	defer view.Undo()
	if games.OutcomeOf(view).Result.Over() || !chk.legal(view, reply) {
		return
	}
	view.Play(reply)
	defer view.Undo()
	if games.OutcomeOf(view).Result.Over() || chk.first(view) == games.NoMove {
		return
	}
	ctl := engine.NewControl(engine.Limits{Ponder: true}, view.ToMove())
	r.mu.Lock()
	if r.stopped || !r.pondersAfter() {
		r.mu.Unlock()
		return
	}
	r.pondering = ctl
	r.mu.Unlock()
	// As for the move's search, a report arriving after the search returned is dropped (callSearch).
	s.callSearch(view.Clone(), ctl, func(info engine.Info) { report(view, chk, info) })
	ctl.WaitRelease()
}

// isPondering reports whether r's goroutine runs a ponder search after r's move.
func (r *runningSearch) isPondering() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.pondering != nil
}
