// Engine mode: dossier as a UCI engine (or one of its game dialects) on standard input and output.
package main

import (
	"fmt"
	"io"

	"github.com/spf13/pflag"

	"dossier/bots"
	"dossier/games/catalog"
	"dossier/play"
	"dossier/protocol"
)

func runEngine(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("dossier", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	gameName := fs.String("game", "chess", "game to play until UCI_Variant says otherwise: chess, checkers, connect4, tictactoe")
	memoryDir := fs.String("memory", "", "the memory directory (default $XDG_DATA_HOME/dossier, else ~/.local/share/dossier)")
	noMemory := fs.Bool("no-memory", false, "keep no dossier on opponents (the Memory option can turn it on)")
	logFile := fs.String("log-file", "", "write the log to this file instead of stderr (the LogFile option changes it)")
	logLevel := fs.String("log-level", "warn", "log level: debug, info, warn or error")
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
	sink := &logSink{stderr: stderr}
	defer sink.close()
	if err := sink.setFile(*logFile); err != nil {
		fmt.Fprintln(stderr, "dossier:", err)
		return 2
	}
	log, err := newLogger(sink, *logLevel)
	if err != nil {
		fmt.Fprintln(stderr, "dossier:", err)
		return 2
	}
	defer log.Sync()
	player := bots.NewPlayer(g, bots.PlayerConfig{})
	if err := player.UseMemory(bots.MemoryConfig{Enabled: !*noMemory, Dir: *memoryDir, Logger: log}); err != nil {
		fmt.Fprintln(stderr, "dossier:", err)
		return 1
	}
	logOption := play.Option{Name: "LogFile", Type: play.StringType, Default: *logFile, Apply: sink.setFile}
	session := protocol.NewSession(player, g, stdin, stdout, protocol.Config{Lookup: catalog.Lookup,
		Options: []play.Option{logOption}})
	if err := session.Run(); err != nil {
		fmt.Fprintln(stderr, "dossier:", err)
		return 1
	}
	return 0
}
