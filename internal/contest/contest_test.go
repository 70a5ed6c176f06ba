// Tests of the match runner: the players' names, the options refused as the command line's fault, and a short
// match played to its records.

package contest

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"dossier/bots/match"
	"dossier/bots/presets"
	"dossier/bots/searchers"
	"dossier/games/chess"
	"dossier/games/tictactoe"
	"dossier/internal/cli"
	"dossier/play"
)

func TestNewPlayerNames(t *testing.T) {
	g := tictactoe.Game{}
	first := presets.Of(g)[0].Name
	tests := []struct {
		spec match.PlayerSpec
		want string
	}{
		{match.PlayerSpec{Depth: 2}, first + " d2"},
		{match.PlayerSpec{Depth: 3, Elo: 1500}, first + " d3 elo1500"},
		{match.PlayerSpec{Depth: 3, Mode: searchers.EvenMode}, first + " d3 even"},
		{match.PlayerSpec{Depth: 3, Search: "mstar", Model: first + "@2"}, first + " d3 mstar(" + first + "@2)"},
		{match.PlayerSpec{Depth: 2, Mix: first + ":1"}, "mix(" + first + ":1)"},
	}
	for _, tc := range tests {
		p, err := NewPlayer(g, tc.spec)
		if err != nil {
			t.Fatalf("%+v: %v", tc.spec, err)
		}
		if p.Name != tc.want {
			t.Errorf("%+v: named %q, want %q", tc.spec, p.Name, tc.want)
		}
	}
	if _, err := NewPlayer(g, match.PlayerSpec{Mix: first + ":1", Preset: first}); err == nil {
		t.Error("a mix with a preset was accepted")
	}
	if _, err := NewPlayer(g, match.PlayerSpec{Prepare: 30}); err == nil || !strings.Contains(err.Error(), "memory=") {
		t.Errorf("prepare= without memory=: %v, want an error that asks for memory=", err)
	}
	withMemory, err := NewPlayer(g, match.PlayerSpec{Memory: filepath.Join(t.TempDir(), "memory"), Prepare: 30})
	if err != nil {
		t.Fatalf("prepare= with memory=: %v", err)
	}
	if err := withMemory.Engine.Close(); err != nil {
		t.Error(err)
	}
	if _, err := NewPlayer(g, match.PlayerSpec{MemoryRisk: 40, MemoryRiskSet: true}); err == nil || !strings.Contains(err.Error(), "memory=") {
		t.Errorf("memoryrisk= without memory=: %v, want an error that asks for memory=", err)
	}
	risky, err := NewPlayer(g, match.PlayerSpec{Memory: filepath.Join(t.TempDir(), "memory"), MemoryRisk: 40, MemoryRiskSet: true})
	if err != nil {
		t.Fatalf("memoryrisk= with memory=: %v", err)
	}
	defer risky.Engine.Close()
	options, ok := risky.Engine.(interface{ Options() []play.Option })
	if !ok {
		t.Fatalf("the in-process player %T has no options", risky.Engine)
	}
	if o, found := play.FindOption(options.Options(), "MemoryRisk"); !found || o.Default != "40" {
		t.Errorf("memoryrisk=40: the player's MemoryRisk is %+v (found %v), want 40", o.Default, found)
	}
	if o, found := play.FindOption(options.Options(), "MemoryContempt"); !found || o.Default != "false" {
		t.Errorf("without memorycontempt=: the player's MemoryContempt is %+v (found %v), want false", o.Default, found)
	}
	if _, err := NewPlayer(g, match.PlayerSpec{MemoryContempt: true}); err == nil || !strings.Contains(err.Error(), "memory=") {
		t.Errorf("memorycontempt= without memory=: %v, want an error that asks for memory=", err)
	}
	contemptuous, err := NewPlayer(g, match.PlayerSpec{Memory: filepath.Join(t.TempDir(), "memory"), MemoryContempt: true})
	if err != nil {
		t.Fatalf("memorycontempt= with memory=: %v", err)
	}
	defer contemptuous.Engine.Close()
	o, found := play.FindOption(contemptuous.Engine.(interface{ Options() []play.Option }).Options(), "MemoryContempt")
	if !found || o.Default != "true" {
		t.Errorf("memorycontempt=on: the player's MemoryContempt is %+v (found %v), want true", o.Default, found)
	}
}

// options returns options that play one quick game of tic-tac-toe; changed sees the flags named set.
func options(set ...string) (Options, func(string) bool) {
	o := Options{GameName: "tictactoe", Player1: "depth=2", Player2: "depth=1", Games: 1, Concurrency: 1,
		ResignMoves: 3, Seed: 1, DrawScore: 10, Event: "test", MoveTimeout: time.Minute, StartupTimeout: time.Second,
		Alpha: match.DefaultAlpha, Beta: match.DefaultBeta}
	return o, func(flag string) bool {
		for _, s := range set {
			if s == flag {
				return true
			}
		}
		return false
	}
}

func TestRunRefusesBadOptions(t *testing.T) {
	tests := []struct {
		name   string
		change func(*Options)
		set    []string
		want   string
	}{
		{"a flag without the one it refines", nil, []string{"seed"}, "--seed needs --random-plies"},
		{"an unknown game", func(o *Options) { o.GameName = "go" }, nil, "go"},
		{"no second player", func(o *Options) { o.Player2 = "" }, nil, "--player1 and --player2 are required"},
		{"no games", func(o *Options) { o.Games = 0 }, nil, "--games must be at least 1"},
		{"both record formats", func(o *Options) { o.PGN, o.PDN = "a", "b" }, nil, "not both"},
		{"a bad clock", func(o *Options) { o.TimeControl = "x" }, nil, "--tc"},
		{"PDN for tic-tac-toe", func(o *Options) { o.PDN = filepath.Join(t.TempDir(), "x.pdn") }, nil, "PDN"},
		{"alpha without sprt", nil, []string{"alpha"}, "--alpha needs --sprt"},
		{"beta without sprt", nil, []string{"beta"}, "--beta needs --sprt"},
		{"sprt with one bound", func(o *Options) { o.SPRT = "5" }, nil, "want elo0,elo1"},
		{"sprt bounds crossed", func(o *Options) { o.SPRT = "5,0" }, nil, "elo0 (5) must be below elo1 (0)"},
		{"sprt alpha out of range", func(o *Options) { o.SPRT, o.Alpha = "0,5", 1.5 }, nil, "alpha (1.5) and beta (0.05) must be between 0 and 1"},
		{"sprt odd games", func(o *Options) { o.SPRT, o.Games = "0,5", 9 }, []string{"games"}, "must be even, not 9"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o, changed := options(tc.set...)
			if tc.change != nil {
				tc.change(&o)
			}
			_, err := Run(t.Context(), o, changed, &bytes.Buffer{}, t.Errorf)
			if !cli.IsUsage(err) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want a usage error with %q", err, tc.want)
			}
		})
	}
}

func TestRunPlaysAndRecords(t *testing.T) {
	o, changed := options()
	o.Games = 2
	o.PGN = filepath.Join(t.TempDir(), "games.pgn")
	out, err := Run(t.Context(), o, changed, &bytes.Buffer{}, t.Errorf)
	if err != nil || out.RecordFailed || out.Summary.Games != 2 {
		t.Fatalf("outcome %+v, error %v", out, err)
	}
	data, err := os.ReadFile(o.PGN)
	if err != nil || strings.Count(string(data), `[Event "test"]`) != 2 {
		t.Errorf("records %q, %v: want two games", data, err)
	}
}

func TestRunSPRT(t *testing.T) {
	cases := []struct {
		name        string
		set         []string
		games       int
		randomPlies int
		sprt        string
		wantGames   func(int) bool
		verdict     match.Verdict
		wantWarn    bool
	}{
		// Two identical tic-tac-toe players split every pair (two draws, or each wins with the side its
		// random opening favours): a pair mean of exactly 1/2, so H0 (elo 0) is accepted against H1 (elo
		// 200) after a few pairs, far below the default limit of DefaultSPRTGames.
		{"default limit", []string{"sprt", "random-plies"}, 1, 2, "0,200", func(n int) bool { return n < 100 && n%2 == 0 },
			match.AcceptH0, false},
		// With --games the match stops there when the test has not decided: 2 pairs cannot decide 0 against
		// 5 Elo. Without openings or random plies every pair starts from the same position: a warning.
		{"game limit", []string{"sprt", "games"}, 4, 0, "0,5", func(n int) bool { return n == 4 }, match.Undecided, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o, changed := options(c.set...)
			o.Player1, o.Player2, o.SPRT, o.Games, o.RandomPlies = "depth=9", "depth=9", c.sprt, c.games, c.randomPlies
			var warned []string
			warn := func(format string, a ...any) { warned = append(warned, format) }
			out, err := Run(t.Context(), o, changed, &bytes.Buffer{}, warn)
			if err != nil {
				t.Fatal(err)
			}
			sum := out.Summary
			if !c.wantGames(sum.Games) || sum.SPRT == nil || sum.Games != 2*sum.Pairs() || sum.Verdict != c.verdict {
				t.Errorf("%d games in %d pairs %v, SPRT %v, verdict %v (want %v)", sum.Games, sum.Pairs(),
					sum.Pentanomial, sum.SPRT, sum.Verdict, c.verdict)
			}
			if (len(warned) > 0) != c.wantWarn {
				t.Errorf("warnings %q, want a warning: %v", warned, c.wantWarn)
			}
		})
	}
}

// TestOwnBookSpec checks ownbook=: on turns the player's OwnBook on with the built-in repertoire, a file
// sets its BookFile too, a missing file fails the player, and mix= refuses it.
func TestOwnBookSpec(t *testing.T) {
	g := chess.Game{}
	option := func(in match.InProcess, name string) string {
		o, ok := play.FindOption(in.Engine.Options(), name)
		if !ok {
			t.Fatalf("no option %s", name)
		}
		return o.Default
	}
	in, err := NewPlayer(g, match.PlayerSpec{OwnBook: "on"})
	if err != nil || option(in, "OwnBook") != "true" || option(in, "BookFile") != "<default>" {
		t.Fatalf("ownbook=on: %v", err)
	}
	in.Engine.Close()
	if _, err := NewPlayer(g, match.PlayerSpec{OwnBook: filepath.Join(t.TempDir(), "missing.bin")}); err == nil || !strings.Contains(err.Error(), "missing.bin") {
		t.Fatalf("ownbook=missing file: %v", err)
	}
	if _, err := NewPlayer(g, match.PlayerSpec{Mix: "strongest:1", OwnBook: "on"}); err == nil || !strings.Contains(err.Error(), "ownbook=") {
		t.Fatalf("mix= with ownbook=: %v", err)
	}
}
