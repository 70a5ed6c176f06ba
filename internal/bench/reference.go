// The reference engine's search: a peer's nodes per second on the same position for the same time, read through
// the match runner's UCI client, so that our search speed is a ratio to what a peer does on the same machine at
// the same moment.

package bench

import (
	"context"
	"fmt"
	"time"

	"dossier/bots/match"
	"dossier/engine"
	"dossier/games"
	"dossier/games/chess"
)

// startReferenceSearcher starts the reference engine once for every search case, on one thread with a 64 MB
// table (as timeSearch gives ours).
func startReferenceSearcher(path string) (match.Contestant, error) {
	spec := match.PlayerSpec{Command: path, Protocol: match.UCI,
		Options: []match.UCIOption{{Name: "Threads", Value: "1"}, {Name: "Hash", Value: "64"}}}
	return match.StartEngine(context.Background(), chess.Game{}, spec, 30*time.Second)
}

// referenceSearch has the reference engine search p, from a new game, for d and returns its nodes per second:
// the nodes of its last report over the time from the go command to its move.
func referenceSearch(ref match.Contestant, p games.Position, d time.Duration) (float64, error) {
	ctx := context.Background()
	if err := ref.NewGame(ctx); err != nil {
		return 0, err
	}
	start := time.Now()
	reply, err := ref.Move(ctx, match.MoveRequest{Start: p, Position: p, Limits: engine.Limits{MoveTime: d},
		Timeout: d + time.Minute})
	secs := time.Since(start).Seconds()
	if err != nil {
		return 0, err
	}
	if reply.Nodes == 0 {
		return 0, fmt.Errorf("no node count reported in %v of search", d)
	}
	return float64(reply.Nodes) / secs, nil
}
