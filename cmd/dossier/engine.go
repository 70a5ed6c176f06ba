// Engine mode: dossier as a UCI engine (or one of its game dialects) on standard input and output.
package main

import (
	"fmt"
	"io"

	"dossier/bots"
	"dossier/games/catalog"
	"dossier/internal/cli"
	"dossier/protocol"
)

func runEngine(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	cmd := cli.New("dossier", engineHelp, stdout, stderr)
	gameName := cmd.Flags.String("game", "chess", "game to play until UCI_Variant says otherwise: chess, checkers, connect4, tictactoe")
	if code, stop := cmd.Parse(args, 0, -1); stop {
		return code
	}
	if len(cmd.Args()) > 0 {
		return cmd.UsageError("unknown subcommand %q", cmd.Args()[0])
	}
	g, err := catalog.Lookup(*gameName)
	if err != nil {
		return cmd.UsageError("--game: %v", err)
	}
	fmt.Fprintln(stdout, banner())
	player := bots.NewPlayer(g, bots.PlayerConfig{})
	session := protocol.NewSession(player, g, stdin, stdout, protocol.Config{Lookup: catalog.Lookup})
	if err := session.Run(); err != nil {
		return cmd.Fail("%v", err)
	}
	return cli.ExitOK
}
