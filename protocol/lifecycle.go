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
		start := s.pos.Clone()
		*r = gameRecord{gameName: s.game.Name(), start: start, startKey: start.FEN()}
	}
	if r.started {
		return
	}
	r.started = true
	r.ourSide = s.pos.ToMove()
	start := play.GameStart{Game: s.game, Variant: variant, OurSide: r.ourSide, Start: r.start.Clone(),
		TimeControl: timeControl}
	s.safely("StartGame", func() { s.engine.StartGame(start) })
}

// endGame reports the end of the record's game, if it was started, with the result the final position
// shows; the record stays as it is (the caller replaces it).
func (s *Session) endGame() { s.closeGame(nil) }

// givenEnd is a result the GUI sent (CECP's result command) and its reason in words ("" when it gave none).
type givenEnd struct {
	result games.Result
	reason string
}

// endGameAs reports the end of the record's game, if it was started, with the GUI's result and reason. The
// outcome is the rule ending the final position shows when it gives that result, else the bare result.
func (s *Session) endGameAs(result games.Result, reason string) {
	s.closeGame(&givenEnd{result: result, reason: reason})
}

// closeGame reports the end of the record's game with the result given, or the one it infers when given
// is nil.
func (s *Session) closeGame(given *givenEnd) {
	r := &s.record
	if !r.started {
		return
	}
	// The opponent's moves after our last search (the move that ended the game) are observed too.
	s.observe(len(r.moves), r.ourSide, -1)
	r.started = false
	final := r.start.Clone()
	for _, m := range r.moves {
		final.Play(m)
	}
	moves := append([]games.Move(nil), r.moves...)
	outcome := games.OutcomeOf(final)
	if !outcome.Result.Over() && r.lastBest != games.NoMove && r.lastBestAt == len(r.moves) &&
		s.checker.legal(final, r.lastBest) {
		// Our last move ended the game: the GUI never sends the position after it.
		final.Play(r.lastBest)
		if o := games.OutcomeOf(final); o.Result.Over() {
			outcome = o
			moves = append(moves, r.lastBest)
		} else {
			final.Undo()
		}
	}
	reason := "unknown"
	if outcome.Result.Over() {
		reason = outcome.Reason.String()
	}
	if given != nil {
		if outcome.Result != given.result {
			outcome = games.Outcome{Result: given.result}
			reason = "unknown"
		}
		if given.reason != "" {
			reason = given.reason
		}
	}
	end := play.GameEnd{Outcome: outcome, Reason: reason, Moves: moves}
	s.debugf("game over: %s (%s)", outcome.Result, reason)
	s.safely("GameOver", func() { s.engine.GameOver(end) })
}

// takeBack tells the engine that the record lost its last moves: a position command repeated the game
// with fewer moves than were accounted for.
func (s *Session) takeBack(keep int) {
	r := &s.record
	plies := len(r.moves) - keep
	if plies <= 0 {
		return
	}
	r.moves = r.moves[:keep]
	r.accounted = min(r.accounted, keep)
	if r.started {
		s.safely("TakeBack", func() { s.engine.TakeBack(keep) })
	}
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
