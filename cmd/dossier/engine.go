// Engine mode: dossier as a UCI engine (or one of its game dialects) or a CECP (xboard) engine on standard input
// and output.

package main

import (
	"fmt"
	"io"
	"os"
	"runtime/pprof"
	"syscall"

	"dossier/bots/player"
	"dossier/bots/searchers"
	"dossier/games/catalog"
	"dossier/internal/cli"
	"dossier/memory"
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
	cpuProfile := cmd.Flags.String("cpu-profile", "", "write a CPU profile of the whole session to this file (go tool pprof reads it)")
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
	// A mistyped URL would otherwise become a directory named after it, password and all, and the engine
	// would file its games there without a word.
	if err := memory.CheckLocation(*memoryDir); err != nil {
		return cmd.UsageError("--memory: %v", err)
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
	if *cpuProfile != "" {
		stop, err := startCPUProfile(*cpuProfile)
		if err != nil {
			return cmd.UsageError("--cpu-profile: %v", err)
		}
		defer stop()
	}
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

// startCPUProfile profiles the process into path until the returned function is called: the way to see where a
// session's time goes (the search, the memory's parts beside it) in the conditions it is played in.
func startCPUProfile(path string) (stop func(), err error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}, nil
}
