// The game's life cycle as the session reports it to the engine: the first search starts a game, take-backs,
// and the end of a game, whose result UCI never sends and the session infers from the final position.

package protocol

import (
	"time"

	"dossier/engine"
	"dossier/games"
	"dossier/play"
)

// startGame tells the engine about the record's game at its first search (our side is the side to move),
// under the dialect's name for the variant and its description of the time control.
func (s *Session) startGame(variant, timeControl string) {
	r := &s.record
	if r.gameName == "" {
		// A go without a position command: the game starts from the current position.
		*r = s.openRecord(s.pos.Clone())
	}
	if r.tracker.Started() {
		return
	}
	r.tracker.Start(play.GameStart{Game: s.game, Variant: variant, OurSide: s.pos.ToMove(), Start: r.start.Clone(),
		TimeControl: timeControl})
}

// endGame reports the end of the record's game, if it was started, with the result the final position
// shows; the record stays as it is (the caller replaces it).
func (s *Session) endGame() { s.closeGame(nil) }

// endGameAs reports the end of the record's game, if it was started, with the GUI's result and reason. The
// outcome is the rule ending the final position shows when it gives that result, else the bare result.
func (s *Session) endGameAs(result games.Result, reason string) {
	s.closeGame(&play.Verdict{Result: result, Reason: reason})
}

// closeGame reports the end of the record's game with the verdict given, or the result it infers from the
// final position when verdict is nil: after the engine's last bestmove too when no position command
// followed it (the GUI never sends the position after the move that ended the game).
func (s *Session) closeGame(verdict *play.Verdict) {
	r := &s.record
	if !r.tracker.Started() {
		return
	}
	// The opponent's moves after our last search (the move that ended the game) are observed too.
	s.observe(len(r.moves), r.tracker.OurSide(), -1)
	lastOwn := games.NoMove
	if r.lastBestAt == len(r.moves) {
		lastOwn = r.lastBest
	}
	if end, ok := r.tracker.End(r.moves, lastOwn, verdict); ok {
		s.debugf("game over: %s (%s)", end.Outcome.Result, end.Reason)
	}
}

// takeBack tells the engine that the record lost its last moves: a position command repeated the game
// with fewer moves than were accounted for.
func (s *Session) takeBack(keep int) {
	r := &s.record
	if len(r.moves)-keep <= 0 {
		return
	}
	r.moves = r.moves[:keep]
	r.tracker.TakeBack(keep)
}

// opponentElapsed returns the opponent's thinking time for its last move from the clocks of two searches
// (what its clock lost, plus the increment it gained), or -1 when the clocks do not tell.
func opponentElapsed(prev, now engine.Limits, opp games.Side) time.Duration {
	if prev.Time[opp] <= 0 || now.Time[opp] <= 0 {
		return -1
	}
	spent := prev.Time[opp] - now.Time[opp] + now.Inc[opp]
	if spent < 0 {
		return -1
	}
	return spent
}
