// The perft subcommand: counts the leaves of the legal move tree, for correctness checks and speed figures.
package main

import (
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/spf13/pflag"

	"dossier/games"
	"dossier/games/catalog"
)

// perftReport is the one-line JSON form of a perft run.
type perftReport struct {
	Nodes   uint64  `json:"nodes"`
	Seconds float64 `json:"seconds"`
	NPS     float64 `json:"nps"`
}

func runPerft(args []string, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("perft", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	gameName := fs.String("game", "chess", "game: chess, checkers, connect4, tictactoe")
	fen := fs.String("fen", "", "start position (the game's position string); default the initial position")
	depth := fs.Int("depth", 0, "depth in plies (required, >= 1)")
	divide := fs.Bool("divide", false, "print the count below each root move")
	asJSON := fs.Bool("json", false, `print {"nodes":N,"seconds":S,"nps":R} on one line`)
	threads := fs.Int("threads", 1, "goroutines sharing the root moves")
	if err := fs.Parse(args); err != nil {
		fmt.Fprintln(stderr, "perft:", err)
		return 2
	}
	if *depth < 1 {
		fmt.Fprintln(stderr, "perft: --depth must be at least 1")
		return 2
	}
	if *threads < 1 {
		fmt.Fprintln(stderr, "perft: --threads must be at least 1")
		return 2
	}
	g, err := catalog.Lookup(*gameName)
	if err != nil {
		fmt.Fprintln(stderr, "perft:", err)
		return 2
	}
	p := g.Start()
	if *fen != "" {
		if p, err = g.ParsePosition(*fen); err != nil {
			fmt.Fprintln(stderr, "perft: bad position:", err)
			return 2
		}
	}
	start := time.Now()
	var nodes uint64
	if *divide {
		for _, e := range games.Divide(p, *depth) {
			nodes += e.Nodes
			if !*asJSON {
				fmt.Fprintf(stdout, "%s: %d\n", e.Move, e.Nodes)
			}
		}
	} else {
		nodes = games.ParallelPerft(p, *depth, *threads)
	}
	secs := time.Since(start).Seconds()
	rep := perftReport{Nodes: nodes, Seconds: secs, NPS: float64(nodes) / max(secs, 1e-9)}
	if *asJSON {
		b, _ := json.Marshal(rep)
		fmt.Fprintln(stdout, string(b))
		return 0
	}
	fmt.Fprintf(stdout, "nodes %d\nseconds %.3f\nnps %.0f\n", rep.Nodes, rep.Seconds, rep.NPS)
	return 0
}
