// Package bench measures dossier for dossier bench: speed figures for every game's move generator, with
// Stockfish's perft run in the same process as the reference (the machines are too noisy for absolute figures
// to compare), the chess search's speed, the node-count signature of fixed-depth searches, and EPD suites.
package bench

import (
	"bufio"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"

	"dossier/bots/match"
	"dossier/bots/searchers"
	"dossier/engine"
	"dossier/games"
	"dossier/games/catalog"
	"dossier/games/chess"
	"dossier/internal/cli"
)

// Case is one timed perft or search.
type Case struct {
	Game  string `json:"game"`
	FEN   string `json:"fen,omitempty"`
	Depth int    `json:"depth"`
	Label string `json:"label"`
}

// Figure is the measured outcome of a Case (the best of the repetitions).
type Figure struct {
	Case
	Nodes   uint64  `json:"nodes"`
	Seconds float64 `json:"seconds"`
	NPS     float64 `json:"nps"`
	// CPUSeconds is the process's CPU time for the same run: on a loaded machine it tells the work done better
	// than the wall clock does.
	CPUSeconds float64 `json:"cpu_seconds"`
	// Depth is the depth a search case reached.
	Depth int `json:"depth_reached,omitempty"`
	// Reference* hold the reference engine's figures for the same chess perft, or its nodes per second
	// searching the same position for the same time on one thread, when it was run.
	ReferenceSeconds float64 `json:"reference_seconds,omitempty"`
	ReferenceNPS     float64 `json:"reference_nps,omitempty"`
	Ratio            float64 `json:"ratio_to_reference,omitempty"`
}

// perftCases are the perfts bench times, a game's in a row.
var perftCases = []Case{
	{Game: "chess", Depth: 6, Label: "chess start perft(6)"},
	{Game: "chess", FEN: "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", Depth: 5,
		Label: "chess kiwipete perft(5)"},
	{Game: "checkers", Depth: 12, Label: "checkers start perft(12)"},
	{Game: "connect4", Depth: 9, Label: "connect4 start perft(9)"},
	{Game: "tictactoe", Depth: 9, Label: "tictactoe start perft(9)"},
}

// DefaultReference is the reference engine bench uses when it is installed and --reference is not given.
const DefaultReference = "/usr/games/stockfish"

// SpeedOptions are what the speed figures are asked.
type SpeedOptions struct {
	Game       string        // the game to bench, "" for every game
	Repeat     int           // runs of each perft; the fastest counts
	SearchTime time.Duration // time of each chess search speed measurement (0: none)
	Reference  string        // the UCI engine (go perft, and a search) for the chess reference ("" for none)
	// ReferenceGiven says the user named the reference, which must then work; the default one is used only
	// when it is installed.
	ReferenceGiven bool
}

// Check refuses a repeat count or a search time the figures cannot be measured with.
func (o SpeedOptions) Check() error {
	switch {
	case o.Repeat < 1:
		return cli.Usagef("--repeat must be at least 1")
	case o.SearchTime < 0:
		return cli.Usagef("--search-time must not be negative")
	}
	return nil
}

// chessName is chess's name in the cases.
var chessName = chess.Game{}.Name()

// BenchesChess reports whether the speed figures of game ("" for every game) include chess's, the only ones
// with a reference engine and a search speed.
func BenchesChess(game string) bool { return game == "" || game == chessName }

// Speed times every case of the game (perft with the reference's beside it for chess, then chess's search
// speed) and returns the figures, printing each as a line on text unless it is nil; warn reports a reference
// engine that is not there or fails, and referenceFailed says one failed.
func Speed(o SpeedOptions, text io.Writer, warn func(format string, a ...any)) (figures []Figure, referenceFailed bool, err error) {
	benchesChess := BenchesChess(o.Game)
	if benchesChess && o.Reference != "" {
		if _, err := exec.LookPath(o.Reference); err != nil {
			if o.ReferenceGiven {
				return nil, false, cli.Usagef("--reference: %v", err)
			}
			warn("no reference figures: %v (install stockfish, or give --reference ENGINE or --reference '')", err)
			o.Reference = ""
		}
	}
	for _, c := range perftCases {
		if o.Game != "" && c.Game != o.Game {
			continue
		}
		fig, err := timePerft(c, o.Repeat)
		if err != nil {
			return figures, referenceFailed, err
		}
		if c.Game == chessName && o.Reference != "" {
			secs, err := referencePerft(o.Reference, c, fig.Nodes, o.Repeat)
			if err != nil {
				referenceFailed = true
				warn("reference %s: %v", o.Reference, err)
			} else {
				fig.ReferenceSeconds, fig.ReferenceNPS = secs, float64(fig.Nodes)/secs
				fig.Ratio = fig.NPS / fig.ReferenceNPS
			}
		}
		figures = append(figures, fig)
		if text != nil {
			fmt.Fprintf(text, "%-28s %13d nodes %8.3f s %7.1f M nodes/s (cpu %.3f s)", fig.Label, fig.Nodes,
				fig.Seconds, fig.NPS/1e6, fig.CPUSeconds)
			if fig.Ratio > 0 {
				fmt.Fprintf(text, "   reference %7.3f s %7.1f M nodes/s   ratio %.2f", fig.ReferenceSeconds,
					fig.ReferenceNPS/1e6, fig.Ratio)
			}
			fmt.Fprintln(text)
		}
	}
	if o.SearchTime > 0 && benchesChess {
		var ref match.Contestant
		if o.Reference != "" {
			if ref, err = startReferenceSearcher(o.Reference); err != nil {
				referenceFailed = true
				warn("reference %s: %v", o.Reference, err)
			} else {
				defer ref.Close()
			}
		}
		for _, c := range searchCases {
			fig, p, err := timeSearch(c, o.SearchTime)
			if err != nil {
				return figures, referenceFailed, err
			}
			if ref != nil {
				nps, err := referenceSearch(ref, p, o.SearchTime)
				if err != nil {
					referenceFailed = true
					warn("reference %s: %v", o.Reference, err)
				} else {
					fig.ReferenceNPS, fig.Ratio = nps, fig.NPS/nps
				}
			}
			figures = append(figures, fig)
			if text != nil {
				fmt.Fprintf(text, "%-28s %13d nodes %8.3f s %7.2f M nodes/s (cpu %.3f s, %.2f M nodes/cpu-s)   depth %d",
					fig.Label, fig.Nodes, fig.Seconds, fig.NPS/1e6, fig.CPUSeconds, float64(fig.Nodes)/max(fig.CPUSeconds, 1e-9)/1e6, fig.Depth)
				if fig.Ratio > 0 {
					fmt.Fprintf(text, "   reference %7.2f M nodes/s   ratio %.2f", fig.ReferenceNPS/1e6, fig.Ratio)
				}
				fmt.Fprintln(text)
			}
		}
	}
	return figures, referenceFailed, nil
}

// timePerft times the case's perft on one thread, keeping the fastest of repeat runs.
func timePerft(c Case, repeat int) (Figure, error) {
	_, p, err := casePosition(c.Game, c.FEN)
	if err != nil {
		return Figure{}, err
	}
	fig := Figure{Case: c}
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
func referencePerft(path string, c Case, wantNodes uint64, repeat int) (float64, error) {
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
var searchCases = []Case{
	{Game: "chess", Label: "chess start search"},
	{Game: "chess", FEN: "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", Label: "chess kiwipete search"},
}

// timeSearch runs the default player's searcher on the case's position for the given time, on one thread
// with a fresh table, and reports the nodes searched per second and the depth reached, with the position.
func timeSearch(c Case, d time.Duration) (Figure, games.Position, error) {
	g, p, err := casePosition(c.Game, c.FEN)
	if err != nil {
		return Figure{}, nil, err
	}
	s, err := searchers.New(g, searchers.Config{HashMB: 64, Threads: 1})
	if err != nil {
		return Figure{}, nil, err
	}
	ctl := engine.NewControl(engine.Limits{MoveTime: d}, p.ToMove())
	start, cpu := time.Now(), cpuSeconds()
	res := s.Search(p, ctl, nil)
	secs, cpuSecs := time.Since(start).Seconds(), cpuSeconds()-cpu
	fig := Figure{Case: c, Nodes: res.Nodes, Seconds: secs, NPS: float64(res.Nodes) / max(secs, 1e-9),
		CPUSeconds: cpuSecs}
	fig.Depth = res.Depth
	return fig, p, nil
}

// cpuSeconds returns the CPU time (user and system) this process has used so far.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}

// casePosition returns a case's game and its position: the start, or the FEN's.
func casePosition(game, fen string) (games.Game, games.Position, error) {
	g, err := catalog.Lookup(game)
	if err != nil {
		return nil, nil, err
	}
	if fen == "" {
		return g, g.Start(), nil
	}
	p, err := g.ParsePosition(fen)
	return g, p, err
}
