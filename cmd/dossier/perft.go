// The perft subcommand: counts the leaves of the legal move tree, for correctness checks and speed figures.

package main

import (
	"fmt"
	"io"
	"time"

	"dossier/games"
	"dossier/games/catalog"
	"dossier/internal/cli"
)

const perftHelp = `usage: dossier perft --depth N [--game G] [--fen FEN] [--divide] [--json] [--threads T]

Counts the leaves of the legal move tree to depth N (leaves counted in bulk at the last ply, as Stockfish's
go perft does) and prints the count, the seconds and the nodes per second. --divide lists the count below
each root move first; --json prints one JSON object instead: {"nodes":N,"seconds":S,"nps":R}, with
"divide":[{"move":M,"nodes":N},...] under --divide.`

// perftReport is the one-line JSON form of a perft run.
type perftReport struct {
	Nodes   uint64              `json:"nodes"`
	Seconds float64             `json:"seconds"`
	NPS     float64             `json:"nps"`
	Divide  []games.DivideEntry `json:"divide,omitempty"`
}

func runPerft(args []string, stdout, stderr io.Writer) int {
	cmd := cli.New("dossier perft", perftHelp, stdout, stderr)
	fs := cmd.Flags
	gameName := fs.String("game", "chess", "game: chess, checkers, connect4, tictactoe")
	fen := fs.String("fen", "", "start position (the game's position string); default the initial position")
	depth := fs.Int("depth", 0, "depth in plies (required, >= 1)")
	divide := fs.Bool("divide", false, "print the count below each root move")
	asJSON := fs.Bool("json", false, "print the figures as one JSON object")
	threads := fs.Int("threads", 1, "goroutines sharing the root moves")
	if code, stop := cmd.Parse(args, 0, 0); stop {
		return code
	}
	if *depth < 1 {
		return cmd.UsageError("--depth must be at least 1")
	}
	if *threads < 1 {
		return cmd.UsageError("--threads must be at least 1")
	}
	g, err := catalog.Lookup(*gameName)
	if err != nil {
		return cmd.UsageError("--game: %v", err)
	}
	p := g.Start()
	if *fen != "" {
		if p, err = g.ParsePosition(*fen); err != nil {
			return cmd.UsageError("--fen: bad position: %v", err)
		}
	}
	start := time.Now()
	var rep perftReport
	if *divide {
		rep.Divide = games.ParallelDivide(p, *depth, *threads)
		for _, e := range rep.Divide {
			rep.Nodes += e.Nodes
		}
	} else {
		rep.Nodes = games.ParallelPerft(p, *depth, *threads)
	}
	rep.Seconds = time.Since(start).Seconds()
	rep.NPS = float64(rep.Nodes) / max(rep.Seconds, 1e-9)
	if *asJSON {
		return printJSON(cmd, stdout, rep)
	}
	for _, e := range rep.Divide {
		fmt.Fprintf(stdout, "%s: %d\n", e.Move, e.Nodes)
	}
	fmt.Fprintf(stdout, "nodes %d\nseconds %.3f\nnps %.0f\n", rep.Nodes, rep.Seconds, rep.NPS)
	return cli.ExitOK
}
