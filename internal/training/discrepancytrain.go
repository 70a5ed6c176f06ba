// Training a discrepancy learner by playing: distinct random starting configurations, and a match whose
// games the learner observes one by one.
package training

import (
	"context"
	"fmt"

	"dossier/bots/match"
	"dossier/memory/learn"
)

// TrainDiscrepancies plays the match cfg describes with the learner's player as player 1 and observes
// every move of player 2 after each game (cfg.OnGame, if set, is called after the learner has seen the
// game). It returns the match's tally; a game the learner cannot replay ends the training with an error.
func TrainDiscrepancies(ctx context.Context, cfg match.Config, learner *learn.DiscrepancyLearner) (match.Summary, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	onGame := cfg.OnGame
	var observeErr error
	cfg.OnGame = func(rec match.GameRecord, sum match.Summary) {
		// Run calls OnGame one game at a time, so observeErr needs no lock.
		if observeErr == nil {
			if _, err := learner.ObserveGame(rec.Start, rec.Moves, rec.Player1.Other()); err != nil {
				observeErr = fmt.Errorf("game %d: %w", rec.Number, err)
				cancel()
			}
		}
		if onGame != nil {
			onGame(rec, sum)
		}
	}
	sum, err := match.Run(ctx, cfg)
	if observeErr != nil {
		return sum, observeErr
	}
	return sum, err
}
