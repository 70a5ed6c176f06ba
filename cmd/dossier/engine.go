// Engine mode: dossier as a UCI engine (or one of its game dialects) or a CECP (xboard) engine on standard input
// and output.

package main

import (
	"fmt"
	"io"
	"syscall"

	"dossier/bots/player"
	"dossier/bots/searchers"
	"dossier/games/catalog"
	"dossier/internal/cli"
	"dossier/play"
	"dossier/protocol"
)

func runEngine(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	cmd := cli.New("dossier", engineHelp, stdout, stderr)
	gameName := cmd.Flags.String("game", "chess", "game to play until UCI_Variant says otherwise: chess, checkers, connect4, tictactoe")
	memoryDir := cmd.Flags.String("memory", "", "the memory: a directory (default $XDG_DATA_HOME/dossier, else ~/.local/share/dossier) or a postgres:// URL")
	noMemory := cmd.Flags.Bool("no-memory", false, "keep no dossier on opponents (the Memory option can turn it on)")
	logFile := cmd.Flags.String("log-file", "", "write the log to this file instead of stderr (the LogFile option changes it)")
	logLevel := cmd.Flags.String("log-level", "warn", "log level: debug, info, warn or error")
	proto := cmd.Flags.String("protocol", "auto", "protocol: uci, xboard (CECP), or auto (xboard when the first line is xboard, else uci)")
	if code, stop := cmd.Parse(args, 0, -1); stop {
		return code
	}
	if len(cmd.Args()) > 0 {
		return cmd.UsageError("unknown subcommand %q", cmd.Args()[0])
	}
	switch *proto {
	case "auto":
		*proto = ""
	case protocol.ProtocolUCI, protocol.ProtocolCECP:
	default:
		return cmd.UsageError("--protocol: %q is not auto, uci or xboard", *proto)
	}
	g, err := catalog.Lookup(*gameName)
	if err != nil {
		return cmd.UsageError("--game: %v", err)
	}
	sink := &logSink{stderr: stderr}
	defer sink.close()
	if err := sink.setFile(*logFile); err != nil {
		return cmd.UsageError("--log-file: %v", err)
	}
	log, err := newLogger(sink, *logLevel)
	if err != nil {
		return cmd.UsageError("--log-level: %v", err)
	}
	defer log.Sync()
	fmt.Fprintln(stdout, banner())
	eng := player.New(g, searchers.Config{})
	if err := eng.UseMemory(player.MemoryConfig{Enabled: !*noMemory, Dir: *memoryDir, Logger: log}); err != nil {
		return cmd.Fail("%v", err)
	}
	logOption := play.Option{Name: "LogFile", Type: play.StringType, Default: *logFile, Apply: sink.setFile}
	input, stopWatching := endInputOnSignal(stdin, syscall.SIGTERM)
	defer stopWatching()
	session := protocol.NewSession(eng, g, input, stdout, protocol.Config{Lookup: catalog.Lookup,
		Options: []play.Option{logOption}, Protocol: *proto})
	if err := session.Run(); err != nil {
		return cmd.Fail("%v", err)
	}
	return cli.ExitOK
}
