// Tests of the match runner with in-process stand-in players: colours, openings, limits, adjudication,
// concurrency, cancellation and configuration errors.

package match

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"dossier/games"
	"dossier/games/checkers"
	"dossier/games/chess"
	"dossier/games/connect4"
)

// collect runs a match and returns its summary and the records by game number.
func collect(t *testing.T, cfg Config) (Summary, map[int]GameRecord) {
	t.Helper()
	records := map[int]GameRecord{}
	var last Summary
	cfg.OnGame = func(rec GameRecord, sum Summary) {
		if _, dup := records[rec.Number]; dup {
			t.Errorf("game %d reported twice", rec.Number)
		}
		records[rec.Number] = rec
		last = sum
	}
	sum, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if len(records) != sum.Games || last.Games != sum.Games {
		t.Fatalf("%d records and a last tally of %d games, but the summary has %d", len(records), last.Games, sum.Games)
	}
	return sum, records
}

func TestRunColoursAndOpenings(t *testing.T) {
	g := checkers.Game{}
	var openings []games.Position
	for _, fen := range []string{
		"B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,15",
		"W:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29",
	} {
		p, err := g.ParsePosition(fen)
		if err != nil {
			t.Fatal(err)
		}
		openings = append(openings, p)
	}
	cfg := quickConfig(g, mustSpec(t, "preset=material depth=3"), mustSpec(t, "preset=zero depth=1"))
	cfg.Games, cfg.Openings, cfg.MaxMoves = 6, openings, 60
	sum, records := collect(t, cfg)
	if sum.Games != 6 || sum.Players != [2]string{"material d3", "zero d1"} {
		t.Fatalf("summary %+v", sum)
	}
	for n := 1; n <= 6; n++ {
		rec := records[n]
		wantSide := games.First
		if n%2 == 0 {
			wantSide = games.Second
		}
		if rec.Player1 != wantSide || rec.Names[wantSide] != "material d3" || rec.Names[wantSide.Other()] != "zero d1" {
			t.Errorf("game %d: player 1 on %v, names %v", n, rec.Player1, rec.Names)
		}
		if want := openings[(n-1)/2%2].FEN(); rec.Start.FEN() != want {
			t.Errorf("game %d starts from %s, want opening %d %s", n, rec.Start.FEN(), (n-1)/2%2+1, want)
		}
		if rec.Result == games.Ongoing || rec.Termination == "" || len(rec.Moves) == 0 || len(rec.Moves) > 120 {
			t.Errorf("game %d: result %v, termination %q, %d moves", n, rec.Result, rec.Termination, len(rec.Moves))
		}
		// The record replays: every move is legal and the end agrees with the termination.
		p := rec.Start.Clone()
		for i, m := range rec.Moves {
			if !games.IsLegal(p, m) {
				t.Fatalf("game %d: move %d is illegal", n, i+1)
			}
			p.Play(m)
		}
		if o := games.OutcomeOf(p); o.Result.Over() != (rec.Termination != MoveLimit) {
			t.Errorf("game %d ended by %q but the final position's outcome is %v", n, rec.Termination, o)
		}
	}
	if sum.Wins+sum.Draws+sum.Losses != 6 {
		t.Errorf("W/D/L %d/%d/%d do not add up to 6", sum.Wins, sum.Draws, sum.Losses)
	}
	if sum.Wins < 4 {
		t.Errorf("material at depth 3 won only %d of 6 games against a zero evaluation at depth 1", sum.Wins)
	}
}

func TestRunConcurrencyGivesTheSameGames(t *testing.T) {
	g := connect4.Game{}
	play := func(concurrency int) map[int]GameRecord {
		cfg := quickConfig(g, mustSpec(t, "preset=material depth=4"), mustSpec(t, "preset=material depth=2"))
		cfg.Games, cfg.Concurrency, cfg.RandomPlies, cfg.Seed = 8, concurrency, 3, 42
		_, records := collect(t, cfg)
		return records
	}
	serial, parallel := play(1), play(3)
	for n := 1; n <= 8; n++ {
		a, b := serial[n], parallel[n]
		if a.Start.FEN() != b.Start.FEN() || fmt.Sprint(a.Moves) != fmt.Sprint(b.Moves) || a.Result != b.Result {
			t.Errorf("game %d differs: %s %v %v / %s %v %v", n, a.Start.FEN(), a.Moves, a.Result, b.Start.FEN(), b.Moves, b.Result)
		}
	}
	if serial[1].Start.FEN() != serial[2].Start.FEN() || serial[1].Start.FEN() == serial[3].Start.FEN() {
		t.Errorf("games 1 and 2 should share a random opening and game 3 have another: %s %s %s",
			serial[1].Start.FEN(), serial[2].Start.FEN(), serial[3].Start.FEN())
	}
	if serial[1].Start.Ply() != 3 {
		t.Errorf("the random opening has %d plies, want 3", serial[1].Start.Ply())
	}
}

// A player with randommoves=N varies its first N moves of every game at random, the same at any concurrency, and
// the other player's moves are its own: from the start position, between two depth-limited players that would
// otherwise play one game over and over.
func TestRunRandomMovesVaryOnePlayersOpenings(t *testing.T) {
	g := connect4.Game{}
	play := func(concurrency int) map[int]GameRecord {
		cfg := quickConfig(g, mustSpec(t, "preset=material depth=4"), mustSpec(t, "preset=material depth=2 randommoves=2"))
		cfg.Games, cfg.Concurrency, cfg.Seed = 8, concurrency, 7
		_, records := collect(t, cfg)
		return records
	}
	serial, parallel := play(1), play(2)
	openings := map[string]bool{}
	for n := 1; n <= 8; n++ {
		a, b := serial[n], parallel[n]
		if fmt.Sprint(a.Moves) != fmt.Sprint(b.Moves) || a.Result != b.Result {
			t.Errorf("game %d differs between concurrency 1 and 2: %v %v / %v %v", n, a.Moves, a.Result, b.Moves, b.Result)
		}
		if a.Start.FEN() != g.Start().FEN() {
			t.Errorf("game %d starts from %s, not the start position", n, a.Start.FEN())
		}
		if len(a.Moves) < 4 {
			t.Fatalf("game %d has %d moves", n, len(a.Moves))
		}
		openings[fmt.Sprint(a.Moves[:4])] = true
		// The deterministic player's moves are its own: its first reply to the same moves is always the same.
		if n%2 == 1 { // player 1 (material d4) moves first: its first move is the same in every such game
			if a.Moves[0] != serial[1].Moves[0] {
				t.Errorf("game %d: player 1 opened %v, game 1 %v", n, a.Moves[0], serial[1].Moves[0])
			}
		}
	}
	if len(openings) < 5 {
		t.Errorf("8 games with two random moves a game gave only %d different first four plies: %v", len(openings), openings)
	}
}

func TestRunAdjudication(t *testing.T) {
	g := checkers.Game{}
	cases := []struct {
		name   string
		p1, p2 string
		setup  func(*Config)
		check  func(t *testing.T, rec GameRecord)
	}{
		{"move limit", "preset=zero depth=1", "preset=zero depth=1", func(c *Config) { c.MaxMoves = 5 },
			func(t *testing.T, rec GameRecord) {
				if rec.Termination != MoveLimit || rec.Result != games.Draw || len(rec.Moves) != 10 {
					t.Errorf("%q %v after %d plies, want a draw by the move limit after 10", rec.Termination, rec.Result, len(rec.Moves))
				}
			}},
		{"draw by scores", "preset=zero depth=2", "preset=zero depth=2", func(c *Config) { c.DrawAfter, c.DrawScore = 6, 0 },
			func(t *testing.T, rec GameRecord) {
				if rec.Termination != AdjudicatedDraw || rec.Result != games.Draw || len(rec.Moves) != 6 {
					t.Errorf("%q %v after %d plies, want an adjudicated draw after 6", rec.Termination, rec.Result, len(rec.Moves))
				}
			}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg := quickConfig(g, mustSpec(t, c.p1), mustSpec(t, c.p2))
			cfg.Games = 2
			c.setup(&cfg)
			_, records := collect(t, cfg)
			for _, rec := range records {
				c.check(t, rec)
			}
		})
	}
}

func TestRunClock(t *testing.T) {
	if testing.Short() {
		t.Skip("plays two games under a clock")
	}
	cfg := quickConfig(connect4.Game{}, mustSpec(t, "preset=material"), mustSpec(t, "preset=material tc=1+0.05"))
	cfg.Games, cfg.TimeMargin = 2, 500*time.Millisecond // generous: the test is about the bookkeeping
	cfg.Limits = Limits{Clock: TimeControl{Moves: 10, Base: time.Second, Inc: 10 * time.Millisecond}}
	sum, records := collect(t, cfg)
	for n, rec := range records {
		if rec.Termination == TimeForfeit {
			t.Errorf("game %d lost on time: %s", n, rec.Detail)
		}
		p1, p2 := rec.Limits[rec.Player1], rec.Limits[rec.Player1.Other()]
		if p1.Clock.Moves != 10 || p2.Clock.Base != time.Second || p2.Clock.Inc != 50*time.Millisecond || p2.Clock.Moves != 0 {
			t.Errorf("game %d limits %v / %v, want player 1 on 10/1+0.01 and player 2 on its own 1+0.05", n, p1, p2)
		}
	}
	if sum.Games != 2 {
		t.Errorf("%d games", sum.Games)
	}
}

func TestRunCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cfg := quickConfig(checkers.Game{}, mustSpec(t, "preset=material depth=2"), mustSpec(t, "preset=zero depth=1"))
	cfg.Games, cfg.MaxMoves = 1000, 30
	var mu sync.Mutex
	seen := 0
	cfg.OnGame = func(GameRecord, Summary) {
		mu.Lock()
		defer mu.Unlock()
		if seen++; seen == 3 {
			cancel()
		}
	}
	sum, err := Run(ctx, cfg)
	if err != context.Canceled {
		t.Fatalf("error %v, want context.Canceled", err)
	}
	if sum.Games < 3 || sum.Games > 4 {
		t.Errorf("%d games counted after cancelling at the third", sum.Games)
	}
}

func TestRunConfigErrors(t *testing.T) {
	g := checkers.Game{}
	cases := []struct {
		name  string
		setup func(t *testing.T, c *Config)
		want  string
	}{
		{"unknown preset", func(t *testing.T, c *Config) { c.Players[1] = mustSpec(t, "preset=nonesuch") }, `player 2: no stand-in preset "nonesuch"`},
		{"no factory", func(t *testing.T, c *Config) { c.NewSearcher = nil }, "no searcher factory"},
		{"missing engine", func(t *testing.T, c *Config) { c.Players[0] = mustSpec(t, "uci=/nonexistent/engine") }, "/nonexistent/engine"},
		{"engine without limits", func(t *testing.T, c *Config) { c.Players[1] = fakeSpec(t, "good") }, "player 2 (fake-good) has no limit"},
		{"finished opening", func(t *testing.T, c *Config) {
			c.Openings = []games.Position{g.Start(), mustPos(t, g, "B:W18:B")}
		}, "opening 2"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg := quickConfig(g, mustSpec(t, "preset=material depth=2"), mustSpec(t, "preset=zero depth=1"))
			c.setup(t, &cfg)
			_, err := Run(context.Background(), cfg)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want one containing %q", err, c.want)
			}
		})
	}
}

func mustPos(t *testing.T, g games.Game, fen string) games.Position {
	t.Helper()
	p, err := g.ParsePosition(fen)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestChess960Match plays a Chess960 match against the stand-in engine, which is told UCI_Chess960: each
// pair of games starts from one of the 960 positions, drawn again for the next pair, the same for the same
// seed, and the games' moves are legal from there.
func TestChess960Match(t *testing.T) {
	g := chess.Game{Chess960: true}
	cfg := quickConfig(g, mustSpec(t, "preset=material depth=1"), fakeSpec(t, "good"))
	cfg.Games, cfg.MaxMoves, cfg.Seed, cfg.Limits = 4, 10, 7, Limits{Depth: 1}
	sum, records := collect(t, cfg)
	if sum.Games != 4 {
		t.Fatalf("%d games played", sum.Games)
	}
	starts := map[int]string{}
	for n, rec := range records {
		starts[n] = rec.Start.FEN()
		if !strings.HasSuffix(starts[n], " w KQkq - 0 1") || !strings.Contains(starts[n], "/pppppppp/8/8/8/8/PPPPPPPP/") {
			t.Errorf("game %d starts from %s, not a Chess960 start", n, starts[n])
		}
		if !rec.Start.(*chess.Position).Chess960() {
			t.Errorf("game %d: the start position does not write Chess960 castling", n)
		}
		if rec.Termination == IllegalMove || rec.Termination == EngineDied || rec.Termination == EngineStalled {
			t.Errorf("game %d ended by %s: %s", n, rec.Termination, rec.Detail)
		}
	}
	if starts[1] != starts[2] || starts[3] != starts[4] || starts[1] == starts[3] {
		t.Errorf("start positions by game: %v; want one per pair of games, differing between pairs", starts)
	}
	again, err := cfg.opening(3)
	if err != nil || again.FEN() != starts[3] {
		t.Errorf("game 3's start drawn again: %v, %v; want %s", again, err, starts[3])
	}
}
