// Test helpers: a fake UCI engine (this test binary, re-run), stand-in in-process players, module paths.

package match

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"dossier/engine"
	"dossier/games"
	"dossier/games/catalog"
)

// fakeEngineArg, as the test binary's first argument, makes it a fake UCI engine instead of running tests.
const fakeEngineArg = "fake-engine"

func TestMain(m *testing.M) {
	if len(os.Args) > 2 && os.Args[1] == fakeEngineArg {
		if strings.HasPrefix(os.Args[2], "cecp-") {
			os.Exit(runFakeCECP(os.Args[2]))
		}
		os.Exit(runFakeEngine(os.Args[2]))
	}
	os.Exit(m.Run())
}

// fakeStartsLog names the file a fake UCI engine appends its process id to when it starts; fakeOpponentLog the
// one it appends the value of each UCI_Opponent it is given to.
const (
	fakeStartsLog   = "DOSSIER_FAKE_UCI_STARTS"
	fakeOpponentLog = "DOSSIER_FAKE_UCI_OPPONENT"
)

// fakeSpec returns the spec of the fake engine in the given mode, with extra spec text appended.
func fakeSpec(t *testing.T, mode string, extra ...string) PlayerSpec {
	t.Helper()
	text := fmt.Sprintf("uci=%s args='%s %s' name=fake-%s %s", os.Args[0], fakeEngineArg, mode, mode, strings.Join(extra, " "))
	spec, err := ParseSpec(text)
	if err != nil {
		t.Fatalf("ParseSpec(%q): %v", text, err)
	}
	return spec
}

// runFakeEngine speaks UCI on stdin/stdout, playing the first legal move, and misbehaves as mode says:
//
//	good      always answers, with score cp 0
//	die       exits with status 3 at its second go
//	hang      never answers its second go, nor quit after its first
//	illegal   answers its second go with a move that is not legal
//	nomove    answers bestmove 0000
//	losing    reports score cp -5000 with every move
//	silent    never answers uci
//	chessonly announces no UCI_Variant or UCI_Chess960 option
func runFakeEngine(mode string) int {
	if log := os.Getenv(fakeStartsLog); log != "" {
		if f, err := os.OpenFile(log, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600); err == nil {
			fmt.Fprintln(f, os.Getpid())
			f.Close()
		}
	}
	in := bufio.NewScanner(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	say := func(format string, args ...any) {
		fmt.Fprintf(out, format+"\n", args...)
		out.Flush()
	}
	game, _ := catalog.Lookup("chess")
	pos := game.Start()
	goes := 0
	for in.Scan() {
		words := strings.Fields(in.Text())
		if len(words) == 0 {
			continue
		}
		switch words[0] {
		case "uci":
			if mode == "silent" {
				continue
			}
			say("id name fake %s", mode)
			say("option name Hash type spin default 16 min 1 max 1024")
			say("option name Skill Level type spin default 20 min 0 max 20")
			say("option name UCI_Opponent type string default")
			if mode != "chessonly" {
				say("option name UCI_Variant type combo default chess var chess var checkers var cfour var tictactoe")
				say("option name UCI_Chess960 type check default false")
			}
			say("uciok")
		case "isready":
			say("readyok")
		case "setoption":
			if log := os.Getenv(fakeOpponentLog); log != "" && len(words) >= 5 && words[2] == "UCI_Opponent" {
				if f, err := os.OpenFile(log, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600); err == nil {
					fmt.Fprintln(f, strings.Join(words[4:], " "))
					f.Close()
				}
			}
			if len(words) >= 5 && words[2] == "UCI_Variant" {
				if g, err := catalog.Lookup(words[4]); err == nil {
					game, pos = g, g.Start()
				}
			}
			if len(words) >= 5 && words[2] == "UCI_Chess960" && words[4] == "true" {
				game, _ = catalog.Lookup("chess960")
				pos = game.Start()
			}
		case "position":
			p, err := fakePosition(game, words[1:])
			if err != nil {
				fmt.Fprintln(os.Stderr, "fake engine:", err)
				return 4
			}
			pos = p
		case "go":
			goes++
			var buf [games.MaxMoves]games.Move
			moves := pos.AppendMoves(buf[:0])
			switch {
			case mode == "die" && goes == 2:
				fmt.Fprintln(os.Stderr, "fake engine: dying on purpose")
				return 3
			case mode == "hang" && goes == 2:
				time.Sleep(time.Hour) // not select{}: the runtime would call that a deadlock and exit
			case mode == "illegal" && goes == 2:
				say("bestmove %s", map[string]string{"chess": "a1a8", "checkers": "1-32", "connect4": "9", "tictactoe": "z9"}[game.Name()])
			case mode == "nomove" || len(moves) == 0:
				say("bestmove 0000")
			case mode == "losing":
				say("info depth 1 score cp -5000 nodes 1 pv %s", pos.FormatMove(moves[0]))
				say("bestmove %s", pos.FormatMove(moves[0]))
			default:
				say("info depth 1 seldepth 1 score cp 0 nodes 1 time 0 pv %s", pos.FormatMove(moves[0]))
				say("bestmove %s", pos.FormatMove(moves[0]))
			}
		case "quit":
			if mode == "hang" && goes >= 1 {
				time.Sleep(time.Hour) // not select{}: the runtime would call that a deadlock and exit
			}
			return 0
		}
	}
	return 0
}

// fakePosition reads the arguments of a position command.
func fakePosition(g games.Game, words []string) (games.Position, error) {
	movesAt := len(words)
	for i, w := range words {
		if w == "moves" {
			movesAt = i
		}
	}
	var p games.Position
	switch {
	case len(words) > 0 && words[0] == "startpos":
		p = g.Start()
	case len(words) > 1 && words[0] == "fen":
		var err error
		if p, err = g.ParsePosition(strings.Join(words[1:movesAt], " ")); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("bad position command %q", strings.Join(words, " "))
	}
	for _, text := range words[min(movesAt+1, len(words)):] {
		m, err := p.ParseMove(text)
		if err != nil {
			return nil, err
		}
		p.Play(m)
	}
	return p, nil
}

// standInWeights are hand-made material evaluations, the stand-in for bots' presets: "material" values
// material as usual, "greedy" counts only men or pawns, and "zero" values nothing (it plays the first move
// among equals, deterministically).
var standInWeights = map[string]map[string]map[string]float64{
	"checkers": {"material": {"men": 100, "kings": 150}, "greedy": {"men": 100}},
	"chess": {"material": {"pawn_mg": 100, "pawn_eg": 100, "knight_mg": 300, "knight_eg": 300, "bishop_mg": 300,
		"bishop_eg": 300, "rook_mg": 500, "rook_eg": 500, "queen_mg": 900, "queen_eg": 900}},
	"connect4": {"material": {"h2_mine": 10, "h2_theirs": -10, "h3_mine": 40, "h3_theirs": -40, "centre": 3}},
}

// standInFactory builds alpha-beta players over the stand-in weights, depth 2 unless the spec says.
func standInFactory(g games.Game, spec PlayerSpec) (InProcess, error) {
	names := g.FeatureNames()
	w := make([]float64, len(names))
	if spec.Preset != "zero" {
		byName, ok := standInWeights[g.Name()][spec.Preset]
		if !ok {
			return InProcess{}, fmt.Errorf("no stand-in preset %q for %s", spec.Preset, g.Name())
		}
		for i, n := range names {
			w[i] = byName[n]
		}
	}
	opts := engine.DefaultAlphaBetaOptions(g)
	opts.HashMB = 1
	depth := spec.Depth
	if depth == 0 {
		depth = 2
	}
	searcher := engine.NewAlphaBeta(g, engine.Evaluation{Name: spec.Preset, Weights: w}, opts)
	return InProcess{Engine: SearcherEngine(searcher), Name: spec.Preset + " d" + strconv.Itoa(depth), Depth: depth}, nil
}

// mustSpec parses a spec or fails the test.
func mustSpec(t *testing.T, text string) PlayerSpec {
	t.Helper()
	spec, err := ParseSpec(text)
	if err != nil {
		t.Fatalf("ParseSpec(%q): %v", text, err)
	}
	return spec
}

// quickConfig returns a match configuration over the stand-in players with short timeouts.
func quickConfig(g games.Game, p1, p2 PlayerSpec) Config {
	return Config{Game: g, Players: [2]PlayerSpec{p1, p2}, NewSearcher: standInFactory,
		MoveTimeout: 2 * time.Second, StartupTimeout: 5 * time.Second}
}
