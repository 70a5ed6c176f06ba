// Engine mode: dossier as a UCI engine (or one of its game dialects) on standard input and output.
package main

import (
	"fmt"
	"io"

	"github.com/spf13/pflag"

	"dossier/bots"
	"dossier/games/catalog"
	"dossier/protocol"
)

func runEngine(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("dossier", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	gameName := fs.String("game", "chess", "game to play until UCI_Variant says otherwise: chess, checkers, connect4, tictactoe")
	help := fs.BoolP("help", "h", false, "show usage")
	if err := fs.Parse(args); err != nil {
		fmt.Fprintln(stderr, "dossier:", err)
		usage(stderr)
		return 2
	}
	if *help {
		usage(stdout)
		return 0
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "dossier: unknown subcommand %q\n", fs.Arg(0))
		usage(stderr)
		return 2
	}
	g, err := catalog.Lookup(*gameName)
	if err != nil {
		fmt.Fprintln(stderr, "dossier:", err)
		return 2
	}
	player := bots.NewPlayer(g, bots.PlayerConfig{})
	session := protocol.NewSession(player, g, stdin, stdout, protocol.Config{Lookup: catalog.Lookup})
	if err := session.Run(); err != nil {
		fmt.Fprintln(stderr, "dossier:", err)
		return 1
	}
	return 0
}
