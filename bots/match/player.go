// The contestants of a match: the Contestant interface, how a game can end badly for one, and the in-process player.

package match

import (
	"context"
	"errors"
	"fmt"
	"time"

	"dossier/engine"
	"dossier/games"
	"dossier/play"
)

// Contestant is one side of a game, in-process or external. A Contestant plays one game at a time; the runner
// gives every concurrent game its own players.
type Contestant interface {
	// Name returns the display name.
	Name() string
	// NewGame tells the player a new game begins.
	NewGame(ctx context.Context) error
	// Move asks for a move in req.Position and waits at most req.Timeout for it. The error is a
	// *PlayerError when the failure costs the player the game.
	Move(ctx context.Context, req MoveRequest) (Reply, error)
	// Close releases the player (stops an engine's process); the player is not used afterwards.
	Close() error
}

// MoveRequest is what a player is asked to move in.
type MoveRequest struct {
	// Start is the game's start position and Moves the moves played since; players must not change them.
	Start games.Position
	Moves []games.Move
	// Position is Start with Moves played: the position to move in. Players must not change it.
	Position games.Position
	// Limits are the search limits of this move, clocks included.
	Limits engine.Limits
	// Clock is the player's time control (zero without one), for protocols that announce it up front
	// (CECP's level).
	Clock TimeControl
	// Timeout is how long the runner waits for the move before the player loses.
	Timeout time.Duration
}

// Reply is a player's move with what it said about it.
type Reply struct {
	Move games.Move
	// Score is the player's evaluation from its own point of view (centipawn-like units, mates as
	// engine.MateScore minus plies); HasScore is false when it reported none.
	Score    float64
	HasScore bool
	Depth    int
	Nodes    uint64
}

// Termination is why a game ended, as the summary counts it: a game rule's reason (games.Reason's words)
// or one of the match's own terminations below.
type Termination string

// The terminations that the match runner decides rather than the game's rules.
const (
	MoveLimit       Termination = "move limit"
	AdjudicatedDraw Termination = "adjudicated draw"
	Resignation     Termination = "resignation"
	TimeForfeit     Termination = "time forfeit"
	IllegalMove     Termination = "illegal move"
	EngineDied      Termination = "engine died"
	EngineStalled   Termination = "engine stalled"
	EngineError     Termination = "engine error"
	NoOpening       Termination = "no opening"
)

// PlayerError is a failure of a player that loses it the game: Kind says which termination it is.
type PlayerError struct {
	Kind Termination
	Err  error
}

// Error writes the failure.
func (e *PlayerError) Error() string { return e.Err.Error() }

// Unwrap returns the underlying error.
func (e *PlayerError) Unwrap() error { return e.Err }

// playerErrorf builds a PlayerError with a formatted message.
func playerErrorf(kind Termination, format string, args ...any) *PlayerError {
	return &PlayerError{Kind: kind, Err: fmt.Errorf(format, args...)}
}

// InProcess is what a SearcherFactory builds for an in-process player.
type InProcess struct {
	// Engine plays the moves; the runner drives it through the game's life cycle as a UCI session does
	// (new game, the opponent's name, start, each opponent move, the end with its result, close).
	Engine play.Engine
	// Name is the default display name ("strongest d8").
	Name string
	// Depth is the depth cap of the player's preset (0: none); the smaller of it and the depth limit applies.
	Depth int
}

// SearcherFactory builds the in-process player a spec asks for (dossier's bots.Player, adapted).
type SearcherFactory func(g games.Game, spec PlayerSpec) (InProcess, error)

// SearcherEngine returns a play.Engine that searches with s and keeps nothing of the game's life cycle:
// an in-process player without a memory.
func SearcherEngine(s engine.Searcher) play.Engine { return searcherEngine{s} }

// searcherEngine is SearcherEngine's engine.
type searcherEngine struct{ engine.Searcher }

func (searcherEngine) Options() []play.Option        { return nil }
func (e searcherEngine) NewGame(games.Game)          { e.Searcher.NewGame() }
func (searcherEngine) SetOpponent(play.Opponent)     {}
func (searcherEngine) StartGame(play.GameStart)      {}
func (searcherEngine) ObserveMove(play.ObservedMove) {}
func (searcherEngine) TakeBack(int)                  {}
func (searcherEngine) GameOver(play.GameEnd)         {}
func (searcherEngine) Close() error                  { return nil }

// stopGrace is how long a search that was told to stop may take to return before its player is given up.
const stopGrace = 5 * time.Second

// enginePlayer runs a play.Engine in this process, telling it the game's life cycle.
type enginePlayer struct {
	name   string
	game   games.Game
	engine play.Engine
	// lost is set when a search did not return in time: its goroutine may still be running on the
	// engine, so the player must not be used again.
	lost bool
	// tracker follows the game in progress for the engine.
	tracker play.Tracker
}

// NewEngineContestant returns a Contestant of game g that moves with eng.
func NewEngineContestant(name string, g games.Game, eng play.Engine) Contestant {
	return &enginePlayer{name: name, game: g, engine: eng, tracker: play.NewTracker(eng, nil)}
}

// Name is the player's display name.
func (p *enginePlayer) Name() string { return p.name }

// SetOpponentName tells the engine who it plays (a computer, named as the match names it).
func (p *enginePlayer) SetOpponentName(name string) {
	p.engine.SetOpponent(play.Opponent{Name: name, Kind: play.Computer, Source: "match"})
}

// NewGame starts a new game, as ucinewgame would.
func (p *enginePlayer) NewGame(context.Context) error {
	if p.lost {
		return errors.New("the player's previous search never returned")
	}
	p.tracker.Forget()
	p.engine.NewGame(p.game)
	play.WaitPrepared(p.engine) // as a GUI's isready after ucinewgame: off the game's clock
	return nil
}

// EndGame tells the engine how the game ended: the match's result and termination, with the rule that
// ended the game when the final position shows it.
func (p *enginePlayer) EndGame(rec GameRecord) {
	if p.lost {
		return
	}
	reason := string(rec.Termination)
	if reason == "" {
		reason = "unknown"
	}
	p.tracker.End(rec.Moves, games.NoMove, &play.Verdict{Result: rec.Result, Reason: reason})
}

// Close closes the engine, which flushes what it keeps.
func (p *enginePlayer) Close() error {
	if p.lost {
		return nil
	}
	return p.engine.Close()
}

// catchUp starts the game for the engine at its first move and tells it the opponent's moves since its last.
func (p *enginePlayer) catchUp(req MoveRequest) {
	if !p.tracker.Started() {
		ours := req.Position.ToMove()
		p.tracker.Start(play.GameStart{Game: p.game, OurSide: ours, Start: req.Start.Clone(),
			TimeControl: play.DescribeTimeControl(req.Limits, ours)})
	}
	p.tracker.Observe(req.Moves, len(req.Moves), p.tracker.OurSide(), -1)
}

// Move searches the request's position under its limits.
func (p *enginePlayer) Move(ctx context.Context, req MoveRequest) (Reply, error) {
	if p.lost {
		return Reply{}, playerErrorf(EngineError, "%s: the previous search never returned", p.name)
	}
	p.catchUp(req)
	root := req.Position.Clone()
	ctl := engine.NewControl(req.Limits, root.ToMove())
	type outcome struct {
		res   engine.Result
		panic any
	}
	done := make(chan outcome, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				done <- outcome{panic: r}
			}
		}()
		done <- outcome{res: p.engine.Search(root, ctl, nil)}
	}()
	timer := time.NewTimer(req.Timeout)
	defer timer.Stop()
	var out outcome
	select {
	case out = <-done:
	case <-timer.C:
		ctl.Stop()
		select {
		case <-done:
		case <-time.After(stopGrace):
			p.lost = true
		}
		return Reply{}, playerErrorf(EngineStalled, "%s: no move within %v", p.name, req.Timeout.Round(time.Millisecond))
	case <-ctx.Done():
		ctl.Stop()
		select {
		case <-done:
		case <-time.After(stopGrace):
			p.lost = true
		}
		return Reply{}, ctx.Err()
	}
	if out.panic != nil {
		return Reply{}, playerErrorf(EngineError, "%s: the search failed: %v", p.name, out.panic)
	}
	res := out.res
	if !games.IsLegal(req.Position, res.Move) {
		if res.Move == games.NoMove {
			return Reply{}, playerErrorf(IllegalMove, "%s returned no move", p.name)
		}
		return Reply{}, playerErrorf(IllegalMove, "%s returned an illegal move (%d)", p.name, uint64(res.Move))
	}
	p.tracker.Played(len(req.Moves) + 1)
	return Reply{Move: res.Move, Score: res.Score, HasScore: true, Depth: res.Depth, Nodes: res.Nodes}, nil
}
