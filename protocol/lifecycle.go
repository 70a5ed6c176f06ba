// The game's life cycle as the session reports it to the engine: the first search starts a game, take-backs,
// and the end of a game, whose result UCI never sends and the session infers from the final position.

package protocol

import (
	"fmt"
	"slices"
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
	moves := r.moves
	if verdict == nil {
		if inferred := s.inferLoss(lastOwn); inferred != nil {
			// Our last move was played: the GUI answered it with the move that ended the game.
			verdict = inferred
			if lastOwn != games.NoMove {
				moves, lastOwn = append(slices.Clip(moves), lastOwn), games.NoMove
			}
		}
	}
	if end, ok := r.tracker.End(moves, lastOwn, verdict); ok {
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

// inferLoss returns the loss the record's game must have ended in when nothing says how it ended, or nil.
// A UCI GUI never sends the opponent's move that mates us: the game just stops after our last bestmove
// (lastOwn; NoMove when the record already holds our last move, as under CECP). When our last search saw
// the opponent win on its next move whatever we played (its score a mate in one against us, or every legal
// move of ours allowing a win at once) and our move indeed allows one, the game is inferred lost, and the
// reason says so ("checkmate (inferred: ...)"), so that the memory tells it from a result the GUI sent.
func (s *Session) inferLoss(lastOwn games.Move) *play.Verdict {
	r := &s.record
	ours := r.tracker.OurSide()
	before := r.start.Clone()
	for _, m := range r.moves {
		before.Play(m)
	}
	if lastOwn == games.NoMove {
		// Then our last move must be the record's last, and the one our last search chose.
		n := len(r.moves)
		if n == 0 || r.lastBestAt != n-1 || r.moves[n-1] != r.lastBest {
			return nil
		}
		before.Undo()
		lastOwn = r.lastBest
	}
	if before.ToMove() != ours || !games.IsLegal(before, lastOwn) || games.OutcomeOf(before).Result.Over() {
		return nil
	}
	moves, mate := engine.IsMate(r.lastScore)
	if !(mate && moves == -1) && !everyMoveLosesAtOnce(before) {
		return nil
	}
	before.Play(lastOwn)
	how, loses := winAtOnce(before)
	if !loses {
		return nil
	}
	return &play.Verdict{Result: games.WinFor(ours.Other()),
		Reason: fmt.Sprintf("%s (inferred: our last search saw a loss in one whatever we played, and no position followed our move)", how.Reason)}
}

// everyMoveLosesAtOnce reports whether every legal move of the side to move in p lets the other side win
// with its reply.
func everyMoveLosesAtOnce(p games.Position) bool {
	var buf [games.MaxMoves]games.Move
	for _, m := range p.AppendMoves(buf[:0]) {
		p.Play(m)
		_, loses := winAtOnce(p)
		p.Undo()
		if !loses {
			return false
		}
	}
	return true
}

// winAtOnce reports whether the side to move in p has a move that wins the game, and the outcome it gives.
func winAtOnce(p games.Position) (games.Outcome, bool) {
	if games.OutcomeOf(p).Result.Over() {
		return games.Outcome{}, false
	}
	mover := p.ToMove()
	var buf [games.MaxMoves]games.Move
	for _, m := range p.AppendMoves(buf[:0]) {
		p.Play(m)
		o := games.OutcomeOf(p)
		p.Undo()
		if winner, won := o.Result.Winner(); won && winner == mover {
			return o, true
		}
	}
	return games.Outcome{}, false
}
