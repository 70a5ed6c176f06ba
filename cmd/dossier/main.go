// Command dossier is a game engine that keeps a dossier on every opponent: a UCI engine by default,
// with the subcommands perft, bench, match, learn and memory (the per-opponent store).
package main

import (
	"fmt"
	"io"
	"os"
)

// subcommands maps each subcommand to the function that runs it with its own arguments.
var subcommands = map[string]func(args []string, stdout, stderr io.Writer) int{
	"perft":  runPerft,
	"bench":  runBench,
	"match":  runMatch,
	"learn":  runLearn,
	"memory": runMemory,
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run dispatches to a subcommand, or to the engine when the first argument is not one.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		if cmd, ok := subcommands[args[0]]; ok {
			return cmd(args[1:], stdout, stderr)
		}
		if args[0] == "help" {
			usage(stdout)
			return 0
		}
	}
	return runEngine(args, stdin, stdout, stderr)
}

func usage(w io.Writer) {
	fmt.Fprint(w, `dossier: a game engine that keeps a dossier on every opponent.

usage:
  dossier [--game chess|checkers|connect4|tictactoe]   run the engine on stdin/stdout (UCI and its dialects)
  dossier perft --game G [--fen F] --depth N [--divide] [--json] [--threads T]
  dossier bench [--game G] [--repeat N] [--reference /usr/games/stockfish] [--json]
  dossier match --player1 SPEC --player2 SPEC [options]   (dossier match --help lists them)
  dossier learn --player SPEC --opponent SPEC --out FILE [options]   (learn an opponent's discrepancy counts)
  dossier memory ls|show|games|dump|import|forget|merge|compact   (the dossier on each opponent; dossier memory --help)
  dossier help
`)
}
