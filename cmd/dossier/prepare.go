// dossier memory prepare: the preparation against one stored opponent, wired to bots/prepare.

package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"

	"dossier/bots/match"
	"dossier/bots/player"
	"dossier/bots/prepare"
	"dossier/games/catalog"
	"dossier/memory"

	"go.uber.org/zap"
)

// memoryPrepare prepares against the opponent named, with a progress line on stderr; an interrupt ends it
// with what was found so far filed.
func memoryPrepare(m *memory.Memory, c *memoryContext) error {
	g, err := catalog.Lookup(c.game) // runMemory checked it
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	var bar *match.Progress
	report := func(p prepare.Progress) {
		if bar == nil {
			bar = match.NewProgress(c.stderr, p.Total, match.IsTerminal(c.stderr))
		}
		tally := fmt.Sprintf("%d of %d positions", p.Done, p.Total)
		bar.Step(p.Done, tally, fmt.Sprintf("position %d/%d (reached %d times): %s %+.0f at depth %d; %s",
			p.Done, p.Total, p.Finding.Count, p.Finding.Move, p.Finding.Score, p.Finding.Depth, tally))
	}
	opts := prepare.OpponentOptions{Options: prepare.Options{Budget: c.budget}, MinCount: c.minCount}
	if c.book != "" {
		steer, closeBook, err := player.BookSteering(g, c.book, c.bookDepth, m, zap.NewNop())
		if err != nil {
			return fmt.Errorf("--book: %w", err)
		}
		defer closeBook()
		opts.Steer = steer
	}
	sum, err := prepare.ForOpponent(ctx, m, c.args[0], g, opts, report)
	if bar != nil {
		bar.Done()
	}
	if err != nil && ctx.Err() == nil {
		return err
	}
	if c.json {
		return writeJSON(c.stdout, sum)
	}
	steered := ""
	if c.book != "" {
		steered = " (steered by our book)"
	}
	fmt.Fprintf(c.stdout, "prepared %d of the %d positions of %s's repertoire in %s%s (%.0f s), filed as experience\n",
		sum.Prepared, sum.Repertoire, sum.Opponent, sum.Game, steered, sum.Seconds)
	for _, f := range sum.Findings {
		fmt.Fprintf(c.stdout, "  reached %d times (first at ply %d): %s %+.0f at depth %d  %s\n", f.Count, f.Ply, f.Move,
			f.Score, f.Depth, f.FEN)
	}
	return nil
}
