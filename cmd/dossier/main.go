// Command dossier is a game engine that keeps a dossier on every opponent: a UCI engine by default,
// with the subcommands perft, bench, match, learn, memory (the per-opponent store) and review.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"

	"dossier/internal/cli"
)

// subcommands maps each subcommand to the function that runs it with its own arguments.
var subcommands = map[string]func(args []string, stdout, stderr io.Writer) int{
	"perft":  runPerft,
	"bench":  runBench,
	"match":  runMatch,
	"learn":  runLearn,
	"memory": runMemory,
	"review": runReview,
	"book":   runBook,
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
			return runHelp(args[1:], stdin, stdout, stderr)
		}
	}
	return runEngine(args, stdin, stdout, stderr)
}

// engineHelp is the help of the engine, which is also the overview of the whole binary.
const engineHelp = `usage: dossier [--game chess|checkers|connect4|tictactoe] [--protocol auto|uci|xboard]   run the engine on stdin/stdout
       dossier perft --depth N [--game G] [--fen F] [--divide] [--json] [--threads T]
       dossier bench [--game G] [--repeat N] [--reference ENGINE] [--json] | --suite FILE
       dossier match --player1 SPEC --player2 SPEC [options]
       dossier learn --player SPEC --opponent SPEC --out FILE [options]
       dossier memory ls|show|games|dump|import|forget|merge|compact [--memory DIR] [--json]
       dossier review FILE.pgn --engine PATH [--depth N] [--json]
       dossier book make --out FILE RECORDS... | show [FILE] [--fen F] [--moves M]
       dossier help [SUBCOMMAND]

dossier is a game engine that keeps a dossier on every opponent. Without a subcommand it speaks UCI (and its
dialects for the other games) or CECP, the xboard protocol, on stdin/stdout, as the first line asks; 'dossier help SUBCOMMAND' or 'dossier SUBCOMMAND --help' describes a subcommand.`

const helpHelp = `usage: dossier help [SUBCOMMAND]

Describes dossier, or the subcommand SUBCOMMAND: ` + "perft, bench, match, learn, memory, review, book."

// runHelp prints the help of the engine or of the subcommand named in args, on stdout.
func runHelp(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	cmd := cli.New("dossier help", helpHelp, stdout, stderr)
	if code, stop := cmd.Parse(args, 0, 1); stop {
		return code
	}
	if len(cmd.Args()) == 0 {
		return runEngine([]string{"--help"}, stdin, stdout, stderr)
	}
	name := cmd.Args()[0]
	sub, ok := subcommands[name]
	if !ok {
		names := make([]string, 0, len(subcommands))
		for n := range subcommands {
			names = append(names, n)
		}
		slices.Sort(names)
		return cmd.UsageError("unknown subcommand %q (want one of %s)", name, strings.Join(names, ", "))
	}
	return sub([]string{"--help"}, stdout, stderr)
}

// interruptible returns a context cancelled by an interrupt or SIGTERM, so that a long command stops cleanly
// and still reports what it did.
func interruptible() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
}

// printJSON prints v as one line of JSON.
func printJSON(cmd *cli.Command, stdout io.Writer, v any) int {
	b, err := json.Marshal(v)
	if err != nil {
		return cmd.Fail("%v", err)
	}
	fmt.Fprintln(stdout, string(b))
	return cli.ExitOK
}
