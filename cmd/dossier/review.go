// The review subcommand: every move of a PGN file re-analysed by a UCI engine at a fixed depth (internal/review).

package main

import (
	"fmt"
	"io"
	"time"

	"dossier/internal/cli"
	"dossier/internal/review"
)

const reviewHelp = `usage: dossier review FILE.pgn --engine PATH [--depth N] [--json | --blunders]

Re-analyses every move of the chess games in FILE.pgn (gzip-compressed when it ends in .gz) with a UCI engine
at a fixed depth, and reports for each player (by the PGN's White and Black tags) the games, the average game
length, the average centipawn loss and the count of inaccuracies, mistakes and blunders.

Each position is searched once; a move's loss is the mover's value of the position before it minus its value
of the position after it (the engine's score there, negated), with both values clamped to +-1000 centipawns
(a mate counts 1000) and the loss capped at 1000. A move counts only when the position before it is not
decided yet, |value| < 500: losing a piece in a position already won or lost decides nothing. As lichess:
an inaccuracy loses 50 or more, a mistake 100 or more, a blunder 200 or more (two pawns).`

// runReview reviews a PGN file; 2 is a usage error, 1 a failure (the engine, the file).
func runReview(args []string, stdout, stderr io.Writer) int {
	cmd := cli.New("dossier review", reviewHelp, stdout, stderr)
	fs := cmd.Flags
	var opts review.Options
	fs.StringVar(&opts.Engine, "engine", "", "the UCI engine that analyses (required), e.g. /usr/games/stockfish")
	fs.IntVar(&opts.Depth, "depth", 12, "the depth of every analysis")
	fs.IntVar(&opts.HashMB, "hash", 64, "the engine's Hash in MiB")
	fs.DurationVar(&opts.Timeout, "timeout", time.Minute, "how long one position's analysis may take")
	asJSON := fs.Bool("json", false, "print the players as JSON instead of the table")
	listBlunders := fs.Bool("blunders", false, "print every blunder (game, move, loss) before the table")
	if code, stop := cmd.Parse(args, 1, 1); stop {
		return code
	}
	switch {
	case opts.Engine == "":
		return cmd.UsageError("--engine is required (e.g. --engine /usr/games/stockfish)")
	case opts.Depth < 1 || opts.Depth > 60:
		return cmd.UsageError("--depth must be in 1..60")
	case opts.HashMB < 1:
		return cmd.UsageError("--hash must be positive")
	}
	list, err := review.ReadFile(cmd.Args()[0])
	if err != nil {
		return cmd.Exit(err)
	}
	ctx, stop := interruptible()
	defer stop()
	var onBlunder func(review.Blunder)
	if *listBlunders && !*asJSON {
		onBlunder = func(b review.Blunder) { fmt.Fprintln(stdout, b) }
	}
	players, err := review.WithEngine(ctx, list, opts, onBlunder)
	if err != nil {
		return cmd.Fail("%v", err)
	}
	if *asJSON {
		return printJSON(cmd, stdout, players)
	}
	review.WriteTable(stdout, players, opts.Depth)
	return cli.ExitOK
}
