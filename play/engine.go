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
// 300 s with a 2 s increment, "movetime 1000", "depth 8", "nodes 10000", "infinite").
func DescribeTimeControl(lim engine.Limits, ours games.Side) string {
	seconds := func(d time.Duration) string { return fmt.Sprintf("%g", d.Seconds()) }
	switch {
	case lim.Time[ours] > 0:
		tc := seconds(lim.Time[ours]) + "+" + seconds(lim.Inc[ours])
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
