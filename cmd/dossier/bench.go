// The bench subcommand: speed figures for every game's move generator, with Stockfish's perft run in the
// same process as the reference, since the machines are too noisy for absolute figures to compare.
package main

import (
	"bufio"
	"dossier/bots/searchers"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"

	"dossier/bots/match"
	"dossier/engine"
	"dossier/games"
	"dossier/games/catalog"
	"dossier/internal/cli"
)

// benchCase is one timed perft.
type benchCase struct {
	Game  string `json:"game"`
	FEN   string `json:"fen,omitempty"`
	Depth int    `json:"depth"`
	Label string `json:"label"`
}

// benchFigure is the measured outcome of a benchCase (the best of the repetitions).
type benchFigure struct {
	benchCase
	Nodes   uint64  `json:"nodes"`
	Seconds float64 `json:"seconds"`
	NPS     float64 `json:"nps"`
	// CPUSeconds is the process's CPU time for the same run: on a loaded machine it tells the work done better
	// than the wall clock does.
	CPUSeconds float64 `json:"cpu_seconds"`
	// Depth is the depth a search case reached.
	Depth int `json:"depth_reached,omitempty"`
	// Reference* hold Stockfish's figures for the same chess perft, when it was run.
	ReferenceSeconds float64 `json:"reference_seconds,omitempty"`
	ReferenceNPS     float64 `json:"reference_nps,omitempty"`
	Ratio            float64 `json:"ratio_to_reference,omitempty"`
}

var benchCases = []benchCase{
	{Game: "chess", Depth: 6, Label: "chess start perft(6)"},
	{Game: "chess", FEN: "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", Depth: 5,
		Label: "chess kiwipete perft(5)"},
	{Game: "checkers", Depth: 12, Label: "checkers start perft(12)"},
	{Game: "connect4", Depth: 9, Label: "connect4 start perft(9)"},
	{Game: "tictactoe", Depth: 9, Label: "tictactoe start perft(9)"},
}

const benchHelp = `usage: dossier bench [--game G] [--repeat N] [--search-time D] [--reference ENGINE] [--json]
       dossier bench --suite FILE [--suite-time D] [--json]
       dossier bench --signature [--game G] [--json]

Times perft for every game (or --game's) on one thread, the fastest of --repeat runs, and the default chess
player's search for --search-time on two positions. For chess it runs the same perft with the reference
engine's go perft in the same process and prints the ratio, since the machines are too noisy for absolute
figures to compare; the default reference is used when it is installed, one given with --reference must
work. CPU seconds are printed beside wall time.

--suite solves an EPD suite instead (bm operations, e.g. WinAtChess) with the default chess player at
--suite-time a position, showing progress on stderr, and prints how many it solved and the misses.

--signature runs fixed-depth searches (alpha-beta and the model searches, one thread, a fresh table) over a
fixed set of positions of every game (or --game's) and prints their nodes and the total, the signature: it
changes exactly when a search's or an evaluation's behaviour changes, whatever the machine.`

// defaultReference is the reference engine bench uses when it is installed and --reference is not given.
const defaultReference = "/usr/games/stockfish"

func runBench(args []string, stdout, stderr io.Writer) int {
	cmd := cli.New("dossier bench", benchHelp, stdout, stderr)
	fs := cmd.Flags
	only := fs.String("game", "", "bench only this game: "+strings.Join(catalog.Names(), ", "))
	repeat := fs.Int("repeat", 3, "runs of each perft; the fastest counts")
	searchTime := fs.Duration("search-time", 5*time.Second, "time of each chess search speed measurement (0: none)")
	reference := fs.String("reference", defaultReference, "UCI engine with 'go perft' for the chess reference (empty: none)")
	asJSON := fs.Bool("json", false, "print the figures as one JSON value")
	suite := fs.String("suite", "", "an EPD suite (bm operations) to solve with the default chess player instead of the speed figures")
	suiteTime := fs.Duration("suite-time", time.Second, "search time per suite position")
	signature := fs.Bool("signature", false, "print the node-count signature of fixed-depth searches instead of the speed figures")
	if code, stop := cmd.Parse(args, 0, 0); stop {
		return code
	}
	game := ""
	if *only != "" {
		g, err := catalog.Lookup(*only)
		if err != nil {
			return cmd.UsageError("--game: %v", err)
		}
		game = g.Name()
	}
	if *signature {
		if code, stop := cmd.Refuse("with --signature", "repeat", "search-time", "reference", "suite", "suite-time"); stop {
			return code
		}
		rep, err := runSignature(game)
		if err != nil {
			return cmd.Fail("%v", err)
		}
		if *asJSON {
			return printJSON(cmd, stdout, rep)
		}
		rep.writeText(stdout)
		return cli.ExitOK
	}
	if *suite != "" {
		if code, stop := cmd.Refuse("with --suite", "repeat", "search-time", "reference"); stop {
			return code
		}
		if game != "" && game != "chess" {
			return cmd.UsageError("--suite is a chess EPD suite, not %s", game)
		}
		if *suiteTime <= 0 {
			return cmd.UsageError("--suite-time must be positive")
		}
		entries, err := loadSuite(*suite)
		if err != nil {
			return cmd.UsageError("--suite: %v", err)
		}
		progress := match.NewProgress(stderr, len(entries), match.IsTerminal(stderr))
		rep, err := runSuite(*suite, entries, *suiteTime, progress)
		progress.Done()
		if err != nil {
			return cmd.Fail("%v", err)
		}
		if *asJSON {
			return printJSON(cmd, stdout, rep)
		}
		rep.writeText(stdout)
		return cli.ExitOK
	}
	if code, stop := cmd.Refuse("without --suite", "suite-time"); stop {
		return code
	}
	switch {
	case *repeat < 1:
		return cmd.UsageError("--repeat must be at least 1")
	case *searchTime < 0:
		return cmd.UsageError("--search-time must not be negative")
	}
	chess := game == "" || game == "chess"
	if !chess {
		if code, stop := cmd.Refuse("without chess", "search-time", "reference"); stop {
			return code
		}
	}
	if chess && *reference != "" {
		if _, err := exec.LookPath(*reference); err != nil {
			if cmd.Changed("reference") {
				return cmd.UsageError("--reference: %v", err)
			}
			cmd.Warn("no reference figures: %v (install stockfish, or give --reference ENGINE or --reference '')", err)
			*reference = ""
		}
	}
	failed := false
	var figures []benchFigure
	for _, c := range benchCases {
		if game != "" && c.Game != game {
			continue
		}
		fig, err := benchPerft(c, *repeat)
		if err != nil {
			return cmd.Fail("%v", err)
		}
		if c.Game == "chess" && *reference != "" {
			secs, err := referencePerft(*reference, c, fig.Nodes, *repeat)
			if err != nil {
				failed = true
				cmd.Warn("reference %s: %v", *reference, err)
			} else {
				fig.ReferenceSeconds, fig.ReferenceNPS = secs, float64(fig.Nodes)/secs
				fig.Ratio = fig.NPS / fig.ReferenceNPS
			}
		}
		figures = append(figures, fig)
		if !*asJSON {
			fmt.Fprintf(stdout, "%-28s %13d nodes %8.3f s %7.1f M nodes/s (cpu %.3f s)", fig.Label, fig.Nodes,
				fig.Seconds, fig.NPS/1e6, fig.CPUSeconds)
			if fig.Ratio > 0 {
				fmt.Fprintf(stdout, "   reference %7.3f s %7.1f M nodes/s   ratio %.2f", fig.ReferenceSeconds,
					fig.ReferenceNPS/1e6, fig.Ratio)
			}
			fmt.Fprintln(stdout)
		}
	}
	if *searchTime > 0 && chess {
		for _, c := range searchCases {
			fig, err := benchSearch(c, *searchTime)
			if err != nil {
				return cmd.Fail("%v", err)
			}
			figures = append(figures, fig)
			if !*asJSON {
				fmt.Fprintf(stdout, "%-28s %13d nodes %8.3f s %7.2f M nodes/s (cpu %.3f s, %.2f M nodes/cpu-s)   depth %d\n",
					fig.Label, fig.Nodes, fig.Seconds, fig.NPS/1e6, fig.CPUSeconds, float64(fig.Nodes)/max(fig.CPUSeconds, 1e-9)/1e6, fig.Depth)
			}
		}
	}
	if *asJSON {
		if code := printJSON(cmd, stdout, figures); code != cli.ExitOK {
			return code
		}
	}
	if failed {
		return cli.ExitFailure
	}
	return cli.ExitOK
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

// benchPerft times the case's perft on one thread, keeping the fastest of repeat runs.
func benchPerft(c benchCase, repeat int) (benchFigure, error) {
	g, err := catalog.Lookup(c.Game)
	if err != nil {
		return benchFigure{}, err
	}
	p := g.Start()
	if c.FEN != "" {
		if p, err = g.ParsePosition(c.FEN); err != nil {
			return benchFigure{}, err
		}
	}
	fig := benchFigure{benchCase: c}
	for i := 0; i < repeat; i++ {
		start, cpu := time.Now(), cpuSeconds()
		n := games.Perft(p, c.Depth)
		secs, cpuSecs := time.Since(start).Seconds(), cpuSeconds()-cpu
		if i == 0 || secs < fig.Seconds {
			fig.Seconds, fig.CPUSeconds = secs, cpuSecs
		}
		fig.Nodes = n
	}
	fig.NPS = float64(fig.Nodes) / max(fig.Seconds, 1e-9)
	return fig, nil
}

// referencePerft runs "go perft" in a UCI engine that supports it (Stockfish) and returns the fastest time
// from sending the command to reading the node count, after the engine has started and answered readyok, so
// that its start-up is not counted. The node count must agree with ours.
func referencePerft(path string, c benchCase, wantNodes uint64, repeat int) (float64, error) {
	cmd := exec.Command(path)
	in, err := cmd.StdinPipe()
	if err != nil {
		return 0, err
	}
	outPipe, err := cmd.StdoutPipe()
	if err != nil {
		return 0, err
	}
	if err := cmd.Start(); err != nil {
		return 0, err
	}
	defer func() {
		fmt.Fprintln(in, "quit")
		in.Close()
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
			<-done
		}
	}()
	lines := make(chan string, 256)
	go func() {
		sc := bufio.NewScanner(outPipe)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	waitFor := func(prefix string, timeout time.Duration) (string, error) {
		deadline := time.After(timeout)
		for {
			select {
			case l, ok := <-lines:
				if !ok {
					return "", fmt.Errorf("engine closed its output before %q", prefix)
				}
				if strings.HasPrefix(l, prefix) {
					return l, nil
				}
			case <-deadline:
				return "", fmt.Errorf("no %q within %v", prefix, timeout)
			}
		}
	}
	position := "position startpos"
	if c.FEN != "" {
		position = "position fen " + c.FEN
	}
	fmt.Fprintf(in, "uci\nisready\n%s\n", position)
	if _, err := waitFor("readyok", 30*time.Second); err != nil {
		return 0, err
	}
	best := 0.0
	for i := 0; i < repeat; i++ {
		start := time.Now()
		fmt.Fprintf(in, "go perft %d\n", c.Depth)
		line, err := waitFor("Nodes searched", 10*time.Minute)
		if err != nil {
			return 0, err
		}
		secs := time.Since(start).Seconds()
		n, err := strconv.ParseUint(strings.TrimSpace(strings.TrimPrefix(line, "Nodes searched:")), 10, 64)
		if err != nil || n != wantNodes {
			return 0, fmt.Errorf("reference counted %q, we counted %d", line, wantNodes)
		}
		if i == 0 || secs < best {
			best = secs
		}
	}
	return best, nil
}

// searchCases are the positions whose search speed bench reports, searched by the strongest chess preset.
var searchCases = []benchCase{
	{Game: "chess", Label: "chess start search"},
	{Game: "chess", FEN: "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", Label: "chess kiwipete search"},
}

// benchSearch runs the default player's searcher on the case's position for the given time, on one thread
// with a fresh table, and reports the nodes searched per second and the depth reached.
func benchSearch(c benchCase, d time.Duration) (benchFigure, error) {
	g, err := catalog.Lookup(c.Game)
	if err != nil {
		return benchFigure{}, err
	}
	p := g.Start()
	if c.FEN != "" {
		if p, err = g.ParsePosition(c.FEN); err != nil {
			return benchFigure{}, err
		}
	}
	s, err := searchers.New(g, searchers.Config{HashMB: 64, Threads: 1})
	if err != nil {
		return benchFigure{}, err
	}
	ctl := engine.NewControl(engine.Limits{MoveTime: d}, p.ToMove())
	start, cpu := time.Now(), cpuSeconds()
	res := s.Search(p, ctl, nil)
	secs, cpuSecs := time.Since(start).Seconds(), cpuSeconds()-cpu
	fig := benchFigure{benchCase: c, Nodes: res.Nodes, Seconds: secs, NPS: float64(res.Nodes) / max(secs, 1e-9),
		CPUSeconds: cpuSecs}
	fig.Depth = res.Depth
	return fig, nil
}

// cpuSeconds returns the CPU time (user and system) this process has used so far.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}
