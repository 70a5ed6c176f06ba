// The players of a match: the Player interface, how a game can end badly for one, and the in-process player.
package match

import (
	"context"
	"errors"
	"fmt"
	"time"

	"dossier/engine"
	"dossier/games"
)

// Player is one side of a game, in-process or external. A Player plays one game at a time; the runner
// gives every concurrent game its own players.
type Player interface {
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
	// Searcher plays the moves.
	Searcher engine.Searcher
	// Name is the default display name ("strongest d8").
	Name string
	// Depth is the depth cap of the player's preset (0: none); the smaller of it and the depth limit applies.
	Depth int
}

// SearcherFactory builds the in-process player a spec asks for (dossier's bots.NewSearcher, adapted).
type SearcherFactory func(g games.Game, spec PlayerSpec) (InProcess, error)

// stopGrace is how long a search that was told to stop may take to return before its player is given up.
const stopGrace = 5 * time.Second

// searcherPlayer runs an engine.Searcher in this process.
type searcherPlayer struct {
	name     string
	searcher engine.Searcher
	// lost is set when a search did not return in time: its goroutine may still be running on the
	// searcher, so the player must not be used again.
	lost bool
}

// NewSearcherPlayer returns a Player that moves with searcher.
func NewSearcherPlayer(name string, searcher engine.Searcher) Player {
	return &searcherPlayer{name: name, searcher: searcher}
}

// Name is the player's display name.
func (p *searcherPlayer) Name() string { return p.name }

// NewGame clears the searcher's tables, as ucinewgame would.
func (p *searcherPlayer) NewGame(context.Context) error {
	if p.lost {
		return errors.New("the player's previous search never returned")
	}
	p.searcher.NewGame()
	return nil
}

// Close has nothing to release: the searcher runs in this process.
func (p *searcherPlayer) Close() error { return nil }

// Move searches the request's position under its limits.
func (p *searcherPlayer) Move(ctx context.Context, req MoveRequest) (Reply, error) {
	if p.lost {
		return Reply{}, playerErrorf(EngineError, "%s: the previous search never returned", p.name)
	}
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
		done <- outcome{res: p.searcher.Search(root, ctl, nil)}
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
	if !isLegal(req.Position, res.Move) {
		if res.Move == games.NoMove {
			return Reply{}, playerErrorf(IllegalMove, "%s returned no move", p.name)
		}
		return Reply{}, playerErrorf(IllegalMove, "%s returned an illegal move (%d)", p.name, uint64(res.Move))
	}
	return Reply{Move: res.Move, Score: res.Score, HasScore: true, Depth: res.Depth, Nodes: res.Nodes}, nil
}

// isLegal reports whether m is one of the legal moves of p.
func isLegal(p games.Position, m games.Move) bool {
	if m == games.NoMove {
		return false
	}
	var buf [games.MaxMoves]games.Move
	for _, legal := range p.AppendMoves(buf[:0]) {
		if legal == m {
			return true
		}
	}
	return false
}
