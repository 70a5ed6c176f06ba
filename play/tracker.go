// The game tracker front ends share: a game's start, each opponent move once, take-backs and the inferred end.

package play

import (
	"time"

	"dossier/games"
)

// Tracker follows a game on behalf of a front end (a UCI or CECP session, a match's in-process player) and
// tells its engine what the Engine interface promises: StartGame at the first search, each opponent move
// exactly once, take-backs, and GameOver once per StartGame with the outcome inferred from the final
// position when the front end was told none. The front end keeps the game's moves and passes them in.
// Make one with NewTracker; a zero Tracker is a game never started, and must not be started.
type Tracker struct {
	engine Engine
	guard  func(what string, call func())

	started bool
	ourSide games.Side
	start   games.Position
	// observed counts the moves at the front of the game that the engine was told of or played itself.
	observed int
}

// Verdict is a result a front end was given or decided (CECP's result command, a match's termination),
// with its reason in words ("" when it has none).
type Verdict struct {
	Result games.Result
	Reason string
}

// NewTracker returns a tracker that tells eng of the game, each call through guard (which may recover a
// panic of the engine; nil calls directly), before any game.
func NewTracker(eng Engine, guard func(what string, call func())) Tracker {
	if guard == nil {
		guard = func(_ string, call func()) { call() }
	}
	return Tracker{engine: eng, guard: guard}
}

// Forget drops the game without telling the engine: the front end starts a new game record.
func (t *Tracker) Forget() {
	t.started, t.ourSide, t.start, t.observed = false, games.First, nil, 0
}

// Started reports whether the engine was told that the game started (and not yet that it ended).
func (t *Tracker) Started() bool { return t.started }

// OurSide returns the side the engine plays, as it was when the game started.
func (t *Tracker) OurSide() games.Side { return t.ourSide }

// Observed counts the moves at the front of the game that the engine was told of or played itself.
func (t *Tracker) Observed() int { return t.observed }

// Start tells the engine that the game g describes starts, unless it was told already; the tracker keeps a
// copy of g.Start, from which the moves passed later are played.
func (t *Tracker) Start(g GameStart) {
	if t.started {
		return
	}
	t.started, t.ourSide, t.start = true, g.OurSide, g.Start.Clone()
	t.guard("StartGame", func() { t.engine.StartGame(g) })
}

// Observe tells the engine of the moves of moves[:end] not observed yet that the side other than ours
// played (lastElapsed is the opponent's thinking time for the last of them, -1 when unknown), counts the
// moves up to end observed and returns the observed moves. Before the game started it does nothing.
func (t *Tracker) Observe(moves []games.Move, end int, ours games.Side, lastElapsed time.Duration) []ObservedMove {
	end = min(end, len(moves))
	if !t.started || end <= t.observed {
		return nil
	}
	var observed []ObservedMove
	p := t.start.Clone()
	for i, m := range moves[:end] {
		if i >= t.observed && p.ToMove() != ours {
			observed = append(observed, ObservedMove{Before: p.Clone(), Move: m, Ply: i, Elapsed: -1})
		}
		p.Play(m)
	}
	if len(observed) > 0 {
		observed[len(observed)-1].Elapsed = lastElapsed
	}
	for _, o := range observed {
		t.guard("ObserveMove", func() { t.engine.ObserveMove(o) })
	}
	t.observed = end
	return observed
}

// Played counts the first n moves of the game observed: the last of them is the engine's own move.
func (t *Tracker) Played(n int) { t.observed = n }

// TakeBack tells the engine, when the game started, that the game goes on from its first keep moves.
func (t *Tracker) TakeBack(keep int) {
	t.observed = min(t.observed, keep)
	if t.started {
		t.guard("TakeBack", func() { t.engine.TakeBack(keep) })
	}
}

// End tells the engine that the game ended, when it was started, and returns what it was told (false when
// nothing). The opponent's moves not yet observed are observed first. The outcome is the one the final
// position shows: after moves, or after lastOwn too, the engine's move that the front end saw played
// after them but not in moves (UCI: a bestmove no position command followed; NoMove for none) when it
// ends the game. A verdict whose result differs replaces it by the bare result with the reason "unknown";
// the verdict's reason, when it has one, is the reason.
func (t *Tracker) End(moves []games.Move, lastOwn games.Move, verdict *Verdict) (GameEnd, bool) {
	if !t.started {
		return GameEnd{}, false
	}
	t.Observe(moves, len(moves), t.ourSide, -1)
	t.started = false
	final := t.start.Clone()
	for _, m := range moves {
		final.Play(m)
	}
	moves = append([]games.Move(nil), moves...)
	outcome := games.OutcomeOf(final)
	if !outcome.Result.Over() && games.IsLegal(final, lastOwn) {
		final.Play(lastOwn)
		if o := games.OutcomeOf(final); o.Result.Over() {
			outcome = o
			moves = append(moves, lastOwn)
		}
	}
	reason := "unknown"
	if outcome.Result.Over() {
		reason = outcome.Reason.String()
	}
	if verdict != nil {
		if outcome.Result != verdict.Result {
			outcome = games.Outcome{Result: verdict.Result}
			reason = "unknown"
		}
		if verdict.Reason != "" {
			reason = verdict.Reason
		}
	}
	end := GameEnd{Outcome: outcome, Reason: reason, Moves: moves}
	t.guard("GameOver", func() { t.engine.GameOver(end) })
	return end, true
}
