// dossier memory study: the work left after games, done by a process of its own (bots/player.Study).

package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"dossier/bots/player"
	"dossier/memory"
)

// memoryStudy runs the study until no job is left (or with --follow until an interrupt or --time), progress on
// stderr, and prints what it did; an interrupt or SIGTERM gives the job in progress back to the queue.
func memoryStudy(m *memory.Memory, c *memoryContext) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	rep, err := player.Study(ctx, m, player.StudyOptions{Follow: c.follow, Time: c.budget, Nice: c.nice, Progress: c.stderr})
	if err != nil {
		return err
	}
	if c.json {
		return writeJSON(c.stdout, rep)
	}
	fmt.Fprintf(c.stdout, "studied: %d jobs done, %d given back, %d failed; learners folded for %d opponents\n",
		rep.Done, rep.GivenBack, rep.Failed, len(rep.Folded))
	return nil
}
