// Tests of the CECP client against a fake xboard engine (this test binary, re-run) that misbehaves on
// purpose, and of the commands the client sends it.

package match

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"dossier/games"
	"dossier/games/catalog"
	"dossier/games/checkers"
	"dossier/games/chess"
	"dossier/games/connect4"
	"dossier/games/tictactoe"
)

// fakeCECPLog, when set in the environment, is the file the fake CECP engine appends every line it reads to.
const fakeCECPLog = "DOSSIER_FAKE_CECP_LOG"

// fakeCECPSpec returns the spec of the fake CECP engine in the given mode, with extra spec text appended.
func fakeCECPSpec(t *testing.T, mode string, extra ...string) PlayerSpec {
	t.Helper()
	return mustSpec(t, fmt.Sprintf("cecp=%s args='%s cecp-%s' %s", os.Args[0], fakeEngineArg, mode, strings.Join(extra, " ")))
}

// runFakeCECP speaks CECP on stdin/stdout, playing the first legal move, and misbehaves as mode says:
//
//	cecp-good     announces ping, usermove, setboard, its name, the variants and an option; plays
//	cecp-san      the same, and asks for moves in SAN (san=1)
//	cecp-v1       announces nothing (a protocol version 1 engine): bare moves, no ping
//	cecp-resign   resigns instead of its second move
//	cecp-illegal  answers its second move with one that is not legal
//	cecp-hang     never answers its second move
//	cecp-claim    claims a draw instead of its second move
func runFakeCECP(mode string) int {
	in := bufio.NewScanner(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	say := func(format string, args ...any) {
		fmt.Fprintf(out, format+"\n", args...)
		out.Flush()
	}
	var log *os.File
	if path := os.Getenv(fakeCECPLog); path != "" {
		log, _ = os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	}
	game, _ := catalog.Lookup("chess")
	pos := game.Start()
	force, side, thought := false, games.Second, 0
	think := func() {
		thought++
		var buf [games.MaxMoves]games.Move
		moves := pos.AppendMoves(buf[:0])
		switch {
		case thought == 2 && mode == "cecp-resign":
			say("resign")
		case thought == 2 && mode == "cecp-claim":
			say("1/2-1/2 {Draw by agreement}")
		case thought == 2 && mode == "cecp-hang":
			time.Sleep(time.Hour)
		case thought == 2 && mode == "cecp-illegal":
			say("move %s", map[string]string{"chess": "a1a8", "checkers": "1-32", "connect4": "P@h9", "tictactoe": "z9"}[game.Name()])
		case len(moves) > 0:
			say("1 -7 0 12 %s", pos.FormatMove(moves[0]))
			say("move %s", pos.FormatMove(moves[0]))
			pos.Play(moves[0])
		}
	}
	play := func(text string) {
		m, err := pos.ParseMove(text)
		if err != nil {
			say("Illegal move: %s", text)
			return
		}
		pos.Play(m)
		if !force && pos.ToMove() == side {
			think()
		}
	}
	for in.Scan() {
		line := in.Text()
		if log != nil {
			fmt.Fprintln(log, line)
		}
		words := strings.Fields(line)
		if len(words) == 0 {
			continue
		}
		switch words[0] {
		case "protover":
			if mode == "cecp-san" {
				say("feature san=1")
			}
			if mode != "cecp-v1" {
				say(`feature ping=1 usermove=1 setboard=1 name=1 myname="fake cecp" variants="normal,checkers,cfour,tictactoe"`)
				say(`feature option="Level -spin 5 1 9" done=1`)
			}
		case "new":
			game, _ = catalog.Lookup("chess")
			pos, force, side = game.Start(), false, games.Second
		case "variant":
			game, _ = catalog.Lookup(words[1])
			pos = game.Start()
		case "force":
			force = true
		case "go":
			force, side = false, pos.ToMove()
			think()
		case "setboard":
			p, err := game.ParsePosition(strings.TrimSpace(strings.TrimPrefix(line, "setboard")))
			if err != nil {
				say("Error (bad position): %s", line)
				continue
			}
			pos = p
		case "usermove":
			play(words[1])
		case "ping":
			say("pong %s", words[1])
		case "quit":
			return 0
		default:
			if mode == "cecp-v1" {
				if _, err := pos.ParseMove(words[0]); err == nil {
					play(words[0])
				}
			}
		}
	}
	return 0
}

func TestCECPEnginePlaysEveryGame(t *testing.T) {
	for _, g := range []games.Game{chess.Game{}, checkers.Game{}, connect4.Game{}, tictactoe.Game{}} {
		t.Run(g.Name(), func(t *testing.T) {
			log := filepath.Join(t.TempDir(), "received")
			t.Setenv(fakeCECPLog, log)
			cfg := quickConfig(g, mustSpec(t, "preset=zero depth=1 name=zero"), fakeCECPSpec(t, "good", "Level=3"))
			cfg.Games, cfg.MaxMoves, cfg.Limits = 2, 30, Limits{Clock: TimeControl{Base: 5 * time.Second, Inc: 100 * time.Millisecond}}
			sum, records := collect(t, cfg)
			if sum.Players[1] != "fake cecp" {
				t.Errorf("players %v, want the engine's myname", sum.Players)
			}
			for n, rec := range records {
				switch rec.Termination {
				case EngineDied, EngineStalled, EngineError, IllegalMove, TimeForfeit:
					t.Errorf("game %d: %q: %s", n, rec.Termination, rec.Detail)
				}
				if len(rec.Moves) < 4 {
					t.Errorf("game %d over after %d plies: %s", n, len(rec.Moves), rec.Detail)
				}
			}
			text, err := os.ReadFile(log)
			if err != nil {
				t.Fatal(err)
			}
			received := strings.Split(strings.TrimSpace(string(text)), "\n")
			want := []string{"xboard", "protover 2", "accepted ping", "accepted usermove", "accepted setboard",
				"accepted name", "accepted myname", "accepted variants", "accepted option", "accepted done", "option Level=3", "ping 1", "new"}
			if g.Name() != "chess" {
				want = append(want, "variant "+games.VariantsOf(g).CECP)
			}
			want = append(want, "post", "easy", "computer", "name zero", "ping 2")
			if len(received) < len(want) || !slices.Equal(received[:len(want)], want) {
				t.Errorf("the engine read\n%s\nwant it to begin\n%s", strings.Join(received, "\n"), strings.Join(want, "\n"))
			}
			for _, line := range []string{"force", "level 0 0:05 0.1", "go", "result "} {
				if !slices.ContainsFunc(received, func(l string) bool { return strings.HasPrefix(l, line) }) {
					t.Errorf("the engine never read %q", line)
				}
			}
			// Game 1: the engine plays second and is told the other player's moves one at a time.
			if !slices.ContainsFunc(received, func(l string) bool { return strings.HasPrefix(l, "usermove ") }) ||
				!slices.ContainsFunc(received, func(l string) bool { return strings.HasPrefix(l, "otim ") }) {
				t.Errorf("no usermove or otim:\n%s", strings.Join(received, "\n"))
			}
		})
	}
}

func TestCECPEngineGetsSAN(t *testing.T) {
	log := filepath.Join(t.TempDir(), "received")
	t.Setenv(fakeCECPLog, log)
	cfg := quickConfig(chess.Game{}, mustSpec(t, "preset=zero depth=1"), fakeCECPSpec(t, "san"))
	cfg.Games, cfg.MaxMoves, cfg.Limits = 2, 10, Limits{Depth: 1}
	collect(t, cfg)
	text, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	var moves []string
	for _, line := range strings.Split(string(text), "\n") {
		if m, ok := strings.CutPrefix(line, "usermove "); ok {
			moves = append(moves, m)
		}
	}
	// The zero player's first legal moves from the start: pawn moves and knight moves, in SAN.
	if len(moves) == 0 || slices.ContainsFunc(moves, func(m string) bool { return len(m) == 4 && m[1] >= '1' && m[1] <= '8' && m[3] >= '1' && m[3] <= '8' }) {
		t.Errorf("moves sent %q, want SAN only", moves)
	}
}

func TestCECPEngineFailuresLoseTheGame(t *testing.T) {
	cases := []struct {
		name    string
		game    games.Game
		mode    string
		kind    Termination
		details []string
	}{
		{"resigns", chess.Game{}, "resign", Resignation, []string{"fake-resign resigns: resign"}},
		{"claims falsely", checkers.Game{}, "claim", EngineError, []string{`claimed "1/2-1/2 {Draw by agreement}"`}},
		{"stalls", chess.Game{}, "hang", EngineStalled, []string{"fake-hang sent no move within 600ms"}},
		{"illegal chess move", chess.Game{}, "illegal", IllegalMove, []string{"illegal move a1a8"}},
		{"illegal Connect-Four move", connect4.Game{}, "illegal", IllegalMove, []string{"illegal move P@h9"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg := quickConfig(c.game, mustSpec(t, "preset=zero depth=1"), fakeCECPSpec(t, c.mode, "name=fake-"+c.mode))
			cfg.Games, cfg.Limits, cfg.MoveTimeout, cfg.TimeMargin = 2, Limits{Depth: 1}, 600*time.Millisecond, 50*time.Millisecond
			sum, records := collect(t, cfg)
			if sum.Games != 2 || sum.Wins != 2 || sum.Terminations[c.kind] != 2 {
				t.Fatalf("summary %+v, want 2 wins of player 1 by %q", sum, c.kind)
			}
			for n, rec := range records {
				for _, d := range c.details {
					if !strings.Contains(rec.Detail, d) {
						t.Errorf("game %d: detail %q lacks %q", n, rec.Detail, d)
					}
				}
			}
		})
	}
}

func TestCECPEngineWithoutFeatures(t *testing.T) {
	if testing.Short() {
		t.Skip("waits out the start-up time-out of an engine that says nothing")
	}
	log := filepath.Join(t.TempDir(), "received")
	t.Setenv(fakeCECPLog, log)
	cfg := quickConfig(chess.Game{}, mustSpec(t, "preset=zero depth=1"), fakeCECPSpec(t, "v1"))
	cfg.Games, cfg.MaxMoves, cfg.Limits = 2, 20, Limits{MoveTime: 1500 * time.Millisecond, Depth: 1}
	cfg.MoveTimeout, cfg.StartupTimeout = 5*time.Second, 3*time.Second
	sum, records := collect(t, cfg)
	if sum.Players[1] != filepath.Base(os.Args[0]) {
		t.Errorf("players %v: an engine without myname is named after its program", sum.Players)
	}
	for n, rec := range records {
		switch rec.Termination {
		case EngineDied, EngineStalled, EngineError, IllegalMove, TimeForfeit:
			t.Errorf("game %d: %q: %s", n, rec.Termination, rec.Detail)
		}
		if len(rec.Moves) < 4 {
			t.Errorf("game %d over after %d plies: %s", n, len(rec.Moves), rec.Detail)
		}
	}
	text, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	received := string(text)
	for _, bad := range []string{"usermove", "ping", "accepted"} {
		if strings.Contains(received, bad) {
			t.Errorf("a version 1 engine was sent %q:\n%s", bad, received)
		}
	}
	if !strings.Contains(received, "st 2\n") || !strings.Contains(received, "sd 1\n") {
		t.Errorf("no st 2 (1.5 s rounded) and sd 1:\n%s", received)
	}
}

func TestParseFeatures(t *testing.T) {
	got := parseFeatures(`ping=1 myname="Fairy-Max 5.0b" option="Resign -check 0" done=0 junk variants="normal,shatranj"`)
	want := []feature{{"ping", "1"}, {"myname", "Fairy-Max 5.0b"}, {"option", "Resign -check 0"}, {"done", "0"},
		{"variants", "normal,shatranj"}}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestLevelCommand(t *testing.T) {
	tests := []struct {
		tc   TimeControl
		want string
	}{
		{TimeControl{Base: 5 * time.Minute}, "level 0 5 0"},
		{TimeControl{Moves: 40, Base: 90 * time.Second, Inc: 500 * time.Millisecond}, "level 40 1:30 0.5"},
		{TimeControl{Base: 200 * time.Millisecond, Inc: 10 * time.Millisecond}, "level 0 0:01 0.01"},
	}
	for _, tc := range tests {
		if got := levelCommand(tc.tc); got != tc.want {
			t.Errorf("%v: %q, want %q", tc.tc, got, tc.want)
		}
	}
}

func FuzzParseFeatures(f *testing.F) {
	f.Add(`ping=1 myname="x y" done=1`)
	f.Add(`option="a -combo b /// c" =3 x= "`)
	f.Fuzz(func(t *testing.T, text string) {
		for _, feat := range parseFeatures(text) {
			if strings.ContainsAny(feat.name, " \t") {
				t.Errorf("%q: feature name %q holds a space", text, feat.name)
			}
		}
	})
}
