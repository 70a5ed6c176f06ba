// Tests of the UCI client against a fake engine that misbehaves on purpose, and of the commands it sends.

package match

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"dossier/engine"
	"dossier/games"
	"dossier/games/checkers"
	"dossier/games/chess"
	"dossier/games/connect4"
)

func TestEngineFailuresLoseTheGame(t *testing.T) {
	cases := []struct {
		name    string
		game    games.Game
		mode    string
		limits  Limits
		kind    Termination
		details []string
	}{
		// A failure that is no stall is seen at once, so its move timeout is long: a loaded machine may take
		// longer than a stall's 600 ms to start the fake engine, which would then be taken to stall.
		{"dies", chess.Game{}, "die", Limits{Depth: 1}, EngineDied, []string{"fake-die exited", "exit status 3", "dying on purpose"}},
		{"stalls", checkers.Game{}, "hang", Limits{Depth: 1}, EngineStalled, []string{"fake-hang sent no bestmove within 600ms"}},
		{"stalls on a clock", connect4.Game{}, "hang", Limits{Clock: TimeControl{Base: 600 * time.Millisecond}}, TimeForfeit,
			[]string{"fake-hang sent no bestmove"}},
		{"illegal chess move", chess.Game{}, "illegal", Limits{Depth: 1}, IllegalMove, []string{"illegal move a1a8"}},
		{"illegal checkers move", checkers.Game{}, "illegal", Limits{Depth: 1}, IllegalMove, []string{"illegal move 1-32"}},
		{"no move", connect4.Game{}, "nomove", Limits{Depth: 1}, IllegalMove, []string{`bestmove "0000"`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg := quickConfig(c.game, mustSpec(t, "preset=zero depth=1"), fakeSpec(t, c.mode))
			cfg.Games, cfg.Limits, cfg.MoveTimeout, cfg.TimeMargin = 3, c.limits, 600*time.Millisecond, 50*time.Millisecond
			if c.kind != EngineStalled && c.kind != TimeForfeit {
				cfg.MoveTimeout = 30 * time.Second
			}
			sum, records := collect(t, cfg)
			if sum.Games != 3 || sum.Wins != 3 || sum.Terminations[c.kind] != 3 {
				t.Fatalf("summary %+v, want 3 wins of player 1 by %q", sum, c.kind)
			}
			for n, rec := range records {
				fake := rec.Player1.Other()
				if rec.Result != games.WinFor(rec.Player1) || rec.Termination != c.kind {
					t.Errorf("game %d: %v by %q, want a loss of the fake engine (%v) by %q", n, rec.Result, rec.Termination, fake, c.kind)
				}
				for _, d := range c.details {
					if !strings.Contains(rec.Detail, d) {
						t.Errorf("game %d: detail %q lacks %q", n, rec.Detail, d)
					}
				}
			}
		})
	}
}

func TestEnginePlaysEveryGame(t *testing.T) {
	for _, g := range []games.Game{chess.Game{}, checkers.Game{}, connect4.Game{}} {
		t.Run(g.Name(), func(t *testing.T) {
			cfg := quickConfig(g, mustSpec(t, "preset=zero depth=1"), fakeSpec(t, "good", "Hash=8", `"Skill Level=3"`))
			cfg.Games, cfg.MaxMoves, cfg.Limits = 2, 40, Limits{MoveTime: 5 * time.Millisecond}
			cfg.Openings = []games.Position{g.Start()}
			if g.Name() == "chess" {
				cfg.Openings = []games.Position{mustPos(t, g, "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2")}
			}
			sum, records := collect(t, cfg)
			if sum.Players[1] != "fake-good" {
				t.Errorf("players %v", sum.Players)
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
		})
	}
}

// restart=on runs an external engine one process a game, as lichess-bot and cutechess-cli's restart=on do;
// without it one process plays the whole match.
func TestEngineRestartsEveryGame(t *testing.T) {
	for _, tc := range []struct {
		extra     string
		processes int
	}{{"restart=on", 4}, {"", 1}, {"restart=off", 1}} {
		t.Run(tc.extra, func(t *testing.T) {
			starts, opponents := filepath.Join(t.TempDir(), "starts"), filepath.Join(t.TempDir(), "opponents")
			t.Setenv(fakeStartsLog, starts)
			t.Setenv(fakeOpponentLog, opponents)
			cfg := quickConfig(chess.Game{}, mustSpec(t, "preset=zero depth=1"), fakeSpec(t, "good", tc.extra))
			cfg.Games, cfg.MaxMoves, cfg.Limits = 4, 10, Limits{MoveTime: 5 * time.Millisecond}
			cfg.Openings = []games.Position{chess.Game{}.Start()}
			_, records := collect(t, cfg)
			for n, rec := range records {
				if rec.Termination == EngineDied || rec.Termination == EngineError || rec.Termination == EngineStalled {
					t.Errorf("game %d: %q: %s", n, rec.Termination, rec.Detail)
				}
			}
			data, err := os.ReadFile(starts)
			if err != nil {
				t.Fatal(err)
			}
			pids := map[string]bool{}
			for _, pid := range strings.Fields(string(data)) {
				pids[pid] = true
			}
			if len(pids) != tc.processes {
				t.Fatalf("%d games ran in %d processes, want %d", len(records), len(pids), tc.processes)
			}
			// Every game tells the engine who it plays, as cutechess-cli does.
			told, err := os.ReadFile(opponents)
			if err != nil {
				t.Fatal(err)
			}
			want := strings.Repeat("none none computer zero d1\n", len(records)) // the in-process player's name
			if string(told) != want {
				t.Fatalf("UCI_Opponent told:\n%s\nwant:\n%s", told, want)
			}
		})
	}
}

func TestEngineResigns(t *testing.T) {
	cfg := quickConfig(checkers.Game{}, mustSpec(t, "preset=zero depth=1"), fakeSpec(t, "losing"))
	cfg.Games, cfg.Limits, cfg.ResignScore, cfg.ResignMoves = 2, Limits{Depth: 1}, 1000, 2
	sum, records := collect(t, cfg)
	if sum.Wins != 2 || sum.Terminations[Resignation] != 2 {
		t.Fatalf("summary %+v, want two resignations of the fake engine", sum)
	}
	for n, rec := range records {
		if fakeMoves := (len(rec.Moves) + int(rec.Player1.Other()^1)) / 2; fakeMoves != 2 {
			t.Errorf("game %d: the fake engine resigned after %d of its moves (%d plies), want 2", n, fakeMoves, len(rec.Moves))
		}
	}
}

func TestStartEngineErrors(t *testing.T) {
	cases := []struct {
		name string
		game games.Game
		spec func(t *testing.T) PlayerSpec
		want string
	}{
		{"no uciok", chess.Game{}, func(t *testing.T) PlayerSpec { return fakeSpec(t, "silent") }, "sent no uciok within 500ms"},
		{"no variant", checkers.Game{}, func(t *testing.T) PlayerSpec { return fakeSpec(t, "chessonly") }, "no UCI_Variant option"},
		{"no Chess960", chess.Game{Chess960: true}, func(t *testing.T) PlayerSpec { return fakeSpec(t, "chessonly") }, "no UCI_Chess960 option"},
		{"unknown option", chess.Game{}, func(t *testing.T) PlayerSpec { return fakeSpec(t, "good", "Frob=1") }, `no option "Frob"`},
		{"not executable", chess.Game{}, func(t *testing.T) PlayerSpec { return mustSpec(t, "uci=/dev/null") }, "/dev/null"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			timeout := 10 * time.Second // generous: the engine answers at once unless it is the silent one
			if strings.Contains(c.want, "no uciok") {
				timeout = 500 * time.Millisecond
			}
			p, err := StartEngine(context.Background(), c.game, c.spec(t), timeout)
			if err == nil {
				p.Close()
			}
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want one containing %q", err, c.want)
			}
		})
	}
}

func TestEngineCloseKillsAHungEngine(t *testing.T) {
	g := chess.Game{}
	p, err := StartEngine(context.Background(), g, fakeSpec(t, "hang"), 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	e := p.(*uciEngine)
	req := MoveRequest{Start: g.Start(), Position: g.Start(), Limits: engine.Limits{Depth: 1}, Timeout: time.Second}
	if _, err := p.Move(context.Background(), req); err != nil {
		t.Fatalf("first move: %v", err)
	}
	began := time.Now()
	p.Close() // the fake engine ignores quit now that it hangs
	select {
	case <-e.exited:
	default:
		t.Fatal("Close returned before the process exited")
	}
	if d := time.Since(began); d > quitGrace+engineWaitDelay+time.Second {
		t.Errorf("Close took %v", d)
	}
}

func TestGoCommand(t *testing.T) {
	cases := []struct {
		game games.Game
		lim  engine.Limits
		want string
	}{
		{chess.Game{}, engine.Limits{Depth: 8}, "go depth 8"},
		{chess.Game{}, engine.Limits{Nodes: 1000, MoveTime: 50 * time.Millisecond}, "go nodes 1000 movetime 50"},
		{chess.Game{}, engine.Limits{Time: [2]time.Duration{60 * time.Second, 30 * time.Second},
			Inc: [2]time.Duration{600 * time.Millisecond, 0}, MovesToGo: 40}, "go wtime 60000 btime 30000 winc 600 movestogo 40"},
		// In checkers Black (the first player) moves first, so wtime is the second player's clock.
		{checkers.Game{}, engine.Limits{Time: [2]time.Duration{10 * time.Second, 20 * time.Second},
			Inc: [2]time.Duration{100 * time.Millisecond, 200 * time.Millisecond}}, "go wtime 20000 btime 10000 winc 200 binc 100"},
		{connect4.Game{}, engine.Limits{Time: [2]time.Duration{time.Second, 0}}, "go wtime 1000"},
		{chess.Game{}, engine.Limits{}, "go infinite"},
	}
	for _, c := range cases {
		if got := goCommand(c.game, c.lim); got != c.want {
			t.Errorf("%s %+v: %q, want %q", c.game.Name(), c.lim, got, c.want)
		}
	}
}

func TestPositionCommand(t *testing.T) {
	g := checkers.Game{}
	start := g.Start()
	p := start.Clone()
	var moves []games.Move
	for _, text := range []string{"11-15", "23-19"} {
		m := mustMoveOf(t, p, text)
		moves = append(moves, m)
		p.Play(m)
	}
	if got := positionCommand(g, start, moves); got != "position startpos moves 11-15 23-19" {
		t.Errorf("got %q", got)
	}
	if got := positionCommand(g, p, nil); got != "position fen "+p.FEN() {
		t.Errorf("got %q", got)
	}
}

func mustMoveOf(t *testing.T, p games.Position, text string) games.Move {
	t.Helper()
	m, err := p.ParseMove(text)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestReadInfo(t *testing.T) {
	cases := []struct {
		line  string
		want  Reply
		score bool
	}{
		{"depth 12 seldepth 20 score cp -35 nodes 123456 nps 1 pv e2e4", Reply{Depth: 12, Nodes: 123456, Score: -35, HasScore: true}, true},
		{"depth 9 score mate 2 lowerbound", Reply{Depth: 9, Score: engine.MateScore - 3, HasScore: true}, true},
		{"depth 9 score mate -1", Reply{Depth: 9, Score: -(engine.MateScore - 2), HasScore: true}, true},
		{"string score cp 500 is a joke", Reply{}, false},
		{"depth x score cp y nodes", Reply{}, false},
		{"score", Reply{}, false},
	}
	for _, c := range cases {
		var got Reply
		readInfo(strings.Fields(c.line), &got)
		if got != c.want {
			t.Errorf("info %s: got %+v, want %+v", c.line, got, c.want)
		}
	}
}

func TestParseOptionLine(t *testing.T) {
	name, vars := parseOptionLine(strings.Fields("option name UCI_Variant type combo default chess var chess var checkers var cfour"))
	if name != "UCI_Variant" || strings.Join(vars, ",") != "chess,checkers,cfour" {
		t.Errorf("got %q %q", name, vars)
	}
	if name, _ := parseOptionLine(strings.Fields("option name Skill Level type spin default 20 min 0 max 20")); name != "Skill Level" {
		t.Errorf("got %q", name)
	}
	if name, _ := parseOptionLine(strings.Fields("option type spin")); name != "" {
		t.Errorf("got %q for a line without a name", name)
	}
}
