// Reviewing a PGN file with a real UCI engine: reading the file and asking the engine for every position's
// value at the review's depth.

package review

import (
	"context"
	"fmt"
	"time"

	"dossier/bots/match"
	"dossier/engine"
	"dossier/games"
	"dossier/games/chess"
	"dossier/internal/cli"
	"dossier/internal/datafile"
	"dossier/internal/pgntext"
)

// Options are how the analysing engine is run.
type Options struct {
	Engine  string        // the UCI engine's path
	Depth   int           // the depth of every analysis
	HashMB  int           // the engine's Hash
	Timeout time.Duration // how long one position's analysis may take
}

// ReadFile reads the chess games of the PGN file at path (gzip-compressed when it ends in .gz); a file that
// does not open or read, or holds no game, is the command line's fault (cli.Usagef).
func ReadFile(path string) ([]pgntext.ChessGame, error) {
	f, err := datafile.Open(path)
	if err != nil {
		return nil, cli.Usagef("%v", err)
	}
	list, err := pgntext.ReadChessGames(f)
	f.Close()
	if err != nil {
		return nil, cli.Usagef("%s: %v", path, err)
	}
	if len(list) == 0 {
		return nil, cli.Usagef("%s holds no game", path)
	}
	return list, nil
}

// WithEngine starts the engine and reviews the games with its values (All); onBlunder is All's.
func WithEngine(ctx context.Context, list []pgntext.ChessGame, opts Options, onBlunder func(Blunder)) ([]PlayerReview, error) {
	spec := match.PlayerSpec{Command: opts.Engine, Options: []match.UCIOption{{Name: "Hash", Value: fmt.Sprint(opts.HashMB)}}}
	analyst, err := match.StartEngine(ctx, chess.Game{}, spec, 10*time.Second)
	if err != nil {
		return nil, err
	}
	defer analyst.Close()
	value := func(g pgntext.ChessGame, ply int, pos games.Position) (float64, error) {
		if err := analyst.NewGame(ctx); err != nil && ply == 0 {
			return 0, err
		}
		reply, err := analyst.Move(ctx, match.MoveRequest{Start: g.Start, Moves: g.Moves[:ply], Position: pos,
			Limits: engine.Limits{Depth: opts.Depth}, Timeout: opts.Timeout})
		if err != nil {
			return 0, err
		}
		if !reply.HasScore {
			return 0, fmt.Errorf("the engine gave no score at depth %d", opts.Depth)
		}
		return reply.Score, nil
	}
	return All(list, value, onBlunder)
}
