// The engine a front end drives, and the life cycle of a game as every front end reports it: new game, the
// opponent, the first search, each opponent move, take-backs, the end of the game with its result, close.

package play

import (
	"fmt"
	"time"

	"dossier/engine"
	"dossier/games"
)

// Engine is what a front end (a UCI or CECP session, dossier match) drives. The front end calls its methods
// from one goroutine at a time: Search runs on a goroutine of its own, and the front end calls nothing else on
// the engine until Search has returned. None of the life-cycle calls may be slow: they run on the clock of
// the game (an engine that stores them does so in the background).
type Engine interface {
	// Options returns the engine's own options (Hash, Threads, ...); a front end lists them after its own.
	Options() []Option
	// NewGame tells the engine that a new game of g begins (ucinewgame, CECP's new, a change of variant): it
	// clears what belongs to one game. The game's details follow with StartGame.
	NewGame(g games.Game)
	// SetOpponent tells the engine who it is playing (UCI_Opponent, CECP's name and rating, a match spec).
	SetOpponent(o Opponent)
	// StartGame tells the engine what the front end knows of the game once it first asks for a move in it:
	// only then is our side known under UCI.
	StartGame(g GameStart)
	// ObserveMove reports one move of the opponent; see ObservedMove. Each move is reported exactly once.
	ObserveMove(m ObservedMove)
	// TakeBack reports that moves were taken back: the game goes on from its first keep moves.
	TakeBack(keep int)
	// GameOver reports the end of the game begun by the last StartGame, with its result when the front end
	// knows or can infer it. It is called at most once per StartGame.
	GameOver(e GameEnd)
	// Search looks for a move in p (a copy the engine owns for the call) until ctl says stop, calling report
	// with progress; it follows engine.Searcher's contract.
	Search(p games.Position, ctl *engine.Control, report func(engine.Info)) engine.Result
	// Close ends the engine's use: whatever it keeps is flushed before Close returns.
	Close() error
}

// GameStart is what a front end knows of a game when it first searches in it.
type GameStart struct {
	// Game is the game played.
	Game games.Game
	// Variant is the front end's name for the variant ("standard", "fischerandom"), or "" when the game has
	// only one.
	Variant string
	// OurSide is the side the engine plays.
	OurSide games.Side
	// Start is the game's start position (a copy the engine may keep).
	Start games.Position
	// TimeControl describes the time control as far as the front end knows it ("300+2", "movetime 1000",
	// "depth 8"), or "".
	TimeControl string
}

// ObservedMove is one move of the opponent.
type ObservedMove struct {
	// Before is the position before the move (a copy the engine may keep).
	Before games.Position
	// Move is the move played.
	Move games.Move
	// Ply is the move's index in the game since GameStart.Start (0 for the first move played from it).
	Ply int
	// Elapsed is the opponent's thinking time for the move, or -1 when the front end cannot tell.
	Elapsed time.Duration
}

// GameEnd is how a game ended.
type GameEnd struct {
	// Outcome is the result and its reason in the game's terms; Result is games.Ongoing when the front end
	// does not know it (a UCI GUI that left a game unfinished).
	Outcome games.Outcome
	// Reason is the reason in words: the front end's ("White resigns", "time forfeit"), or Outcome's, or
	// "unknown".
	Reason string
	// Moves are the game's moves from GameStart.Start, as far as the front end saw them.
	Moves []games.Move
}

// DescribeTimeControl writes the limits of a game's first search as a time control ("300+2" for a clock of
// 300 s with a 2 s increment, "movetime 1000", "depth 8", "nodes 10000", "infinite"). The clock is read
// as the base time by InitialClock's rule (cutechess's first go of a 2+0.05 game, wtime 2050 winc 50, is
// "2+0.05").
func DescribeTimeControl(lim engine.Limits, ours games.Side) string {
	seconds := func(d time.Duration) string { return fmt.Sprintf("%g", d.Seconds()) }
	switch {
	case lim.Time[ours] > 0:
		tc := seconds(InitialClock(lim.Time[ours], lim.Inc[ours])) + "+" + seconds(lim.Inc[ours])
		if lim.MovesToGo > 0 {
			tc = fmt.Sprintf("%d/%s", lim.MovesToGo, tc)
		}
		return tc
	case lim.MoveTime > 0:
		return fmt.Sprintf("movetime %d", lim.MoveTime.Milliseconds())
	case lim.Depth > 0:
		return fmt.Sprintf("depth %d", lim.Depth)
	case lim.Nodes > 0:
		return fmt.Sprintf("nodes %d", lim.Nodes)
	}
	return "infinite"
}

// InitialClock returns the base time of a clock that a game's first search reads as clock (with increment
// inc). Some GUIs add the increment before the first move (cutechess: a 2+0.05 game starts with wtime 2050
// winc 50, a 60+1 game with 61000), others send the base itself (2000). The rule: the clock less one
// increment is the base when it is positive and rounder in milliseconds (more trailing zeros: 2000 against
// 2050, 60000 against 61000), or as round and a whole number of seconds (3000 against 5000 for a 3+2
// game: cutechess's convention decides); otherwise the clock is the base (2000 against 1950, 300000 against
// 298000, a clock in the middle of a game such as 123456 against 123406).
func InitialClock(clock, inc time.Duration) time.Duration {
	if inc <= 0 || clock <= inc {
		return clock
	}
	sent, less := roundness(clock), roundness(clock-inc)
	if less > sent || (less == sent && less >= 3) {
		return clock - inc
	}
	return clock
}

// roundness is the number of trailing zeros of d in whole milliseconds (0 for a d with a fraction of a
// millisecond).
func roundness(d time.Duration) int {
	if d%time.Millisecond != 0 {
		return 0
	}
	ms, n := d.Milliseconds(), 0
	for ms != 0 && ms%10 == 0 {
		ms /= 10
		n++
	}
	return n
}

// Preparer is implemented by engines that prepare for a game in the background (reading what their memory knows
// of the opponent) after NewGame and SetOpponent, so that a front end that sends a move request at once never
// waits for it on its clock. WaitPrepared returns when that preparation is done. Front ends call it where the
// other side waits anyway: UCI's isready, CECP's ping, a match before a game's first move.
type Preparer interface {
	WaitPrepared()
}

// WaitPrepared waits for e's preparation when e prepares in the background (see Preparer).
func WaitPrepared(e Engine) {
	if p, ok := e.(Preparer); ok {
		p.WaitPrepared()
	}
}
