// Tests of Connect-Four's strongest player: exact scores from the solver, the fallback, and stopping.

package searchers

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"time"

	"dossier/engine"
	"dossier/games"
	"dossier/games/connect4"
	"dossier/games/gametest"
	"dossier/internal/testdeep"
)

// ponsCase is one line of Pons's benchmark sets: moves from the empty board and the exact score.
type ponsCase struct {
	moves string
	score int
}

// readPons reads the first n cases of a benchmark set.
func readPons(t *testing.T, name string, n int) []ponsCase {
	t.Helper()
	var cases []ponsCase
	sc := bufio.NewScanner(gametest.OpenTestData(t, "connect4/"+name))
	for sc.Scan() && len(cases) < n {
		fields := strings.Fields(sc.Text())
		score, err := strconv.Atoi(fields[len(fields)-1])
		if len(fields) != 2 || err != nil {
			t.Fatalf("%s: bad line %q", name, sc.Text())
		}
		cases = append(cases, ponsCase{fields[0], score})
	}
	return cases
}

// ponsMoves is the number of moves to the end that Pons's score means for the side to move: positive
// to its own win, negative to its loss, 0 for a draw (UCI's "mate" count).
func ponsMoves(score, stones int) int {
	switch {
	case score > 0:
		return 22 - score - stones/2
	case score < 0:
		return -(22 + score - (stones+1)/2)
	}
	return 0
}

func TestConnect4StrongestPlaysExactSolutions(t *testing.T) {
	n := 20
	if testing.Short() {
		n = 5
	}
	g := connect4.Game{}
	for _, set := range []string{"Test_L3_R1", "Test_L2_R1", "Test_L2_R2"} {
		t.Run(set, func(t *testing.T) {
			s := mustSearcher(t, g, Config{HashMB: 16})
			for _, pc := range readPons(t, set, n) {
				p := mustPosition(t, g, pc.moves)
				var texts []string
				res := s.Search(p, engine.NewControl(engine.Limits{Depth: 1}, p.ToMove()),
					func(i engine.Info) { texts = append(texts, i.Text) })
				got, _ := engine.IsMate(res.Score)
				if want := ponsMoves(pc.score, len(pc.moves)); got != want || (want == 0 && res.Score != 0) {
					t.Errorf("%s (Pons %d): score %v (%d moves to the end), want %d", pc.moves, pc.score, res.Score, got, want)
				}
				if len(texts) == 0 || !strings.HasPrefix(texts[0], "solved") || res.Depth != 42-len(pc.moves) {
					t.Errorf("%s: not solved (depth %d, info %q)", pc.moves, res.Depth, texts)
				}
				// The move keeps the score: the opponent's exact score after it is minus ours, one stone on.
				q := p.Clone()
				q.Play(res.Move)
				if o := games.OutcomeOf(q); o.Result == games.Ongoing {
					after := s.Search(q, engine.NewControl(engine.Limits{Depth: 1}, q.ToMove()), nil)
					if theirs, _ := engine.IsMate(after.Score); (pc.score > 0) != (theirs < 0) || (pc.score == 0) != (after.Score == 0) {
						t.Errorf("%s: after %s the opponent's score is %v", pc.moves, p.FormatMove(res.Move), after.Score)
					}
				}
			}
		})
	}
}

func TestConnect4StrongestFallsBackOnAlphaBeta(t *testing.T) {
	// 1,000 nodes cannot solve the board after d1, and the book is the first player's only:
	// alpha-beta with the sophisticated evaluation plays.
	g := connect4.Game{}
	s := mustSearcher(t, g, Config{HashMB: 4})
	var texts []string
	p := mustPosition(t, g, "4")
	res := s.Search(p, engine.NewControl(engine.Limits{Nodes: 1000}, games.Second),
		func(i engine.Info) { texts = append(texts, i.Text) })
	if res.Move == games.NoMove || res.Depth >= 42 || strings.Contains(strings.Join(texts, ""), "solved") {
		t.Errorf("result %+v with info %q, want an alpha-beta move", res, texts)
	}
}

func TestConnect4StrongestStopsWhileSolving(t *testing.T) {
	// An infinite search of the board after d1 (out of the book) starts with a long solve; stop must
	// end it at once.
	g := connect4.Game{}
	s := mustSearcher(t, g, Config{HashMB: 4})
	ctl := engine.NewControl(engine.Limits{Infinite: true}, games.Second)
	done := make(chan engine.Result, 1)
	p := mustPosition(t, g, "4")
	go func() { done <- s.Search(p, ctl, nil) }()
	time.Sleep(50 * time.Millisecond)
	ctl.Stop()
	select {
	case res := <-done:
		if res.Move == games.NoMove {
			t.Error("no move after stop")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the search did not stop")
	}
}

func TestConnect4SolveBudget(t *testing.T) {
	tests := []struct {
		name  string
		lim   engine.Limits
		time  time.Duration
		nodes uint64
	}{
		{"depth only", engine.Limits{Depth: 5}, 0, defaultSolveNodes},
		{"nodes", engine.Limits{Nodes: 1000}, 0, 500},
		{"movetime", engine.Limits{MoveTime: time.Second}, 500 * time.Millisecond, 0},
		{"movetime less the overhead", engine.Limits{MoveTime: time.Second + engine.DefaultMoveOverhead,
			MoveOverhead: engine.DefaultMoveOverhead}, 500 * time.Millisecond, 0},
		{"clock", engine.Limits{Time: [2]time.Duration{20*time.Second + engine.DefaultMoveOverhead, time.Minute},
			MoveOverhead: engine.DefaultMoveOverhead}, 500 * time.Millisecond, 0},
		{"increment only", engine.Limits{Inc: [2]time.Duration{time.Second, time.Second}}, 500 * time.Millisecond, 0},
		{"opponent's clock only", engine.Limits{Time: [2]time.Duration{0, time.Minute}}, engine.DefaultMoveTime / 2, 0},
		{"infinite", engine.Limits{Infinite: true}, 0, openSolveNodes},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d, n := solveBudget(engine.NewControl(tc.lim, games.First))
			if d != tc.time || n != tc.nodes {
				t.Errorf("budget %v and %d nodes, want %v and %d", d, n, tc.time, tc.nodes)
			}
		})
	}
}

func TestConnect4StrongestPlaysFromBook(t *testing.T) {
	// The book answers at once in every time control, the weakest included, with the exact score.
	g := connect4.Game{}
	tests := []struct {
		name  string
		moves string
		lim   engine.Limits
	}{
		{"empty board depth 1", "", engine.Limits{Depth: 1}},
		{"empty board 10 nodes", "", engine.Limits{Nodes: 10}},
		{"empty board 1 ms", "", engine.Limits{MoveTime: time.Millisecond}},
		{"empty board clock", "", engine.Limits{Time: [2]time.Duration{time.Second, time.Second}}},
		{"after d1 a1 depth 1", "41", engine.Limits{Depth: 1}},
		{"after d1 g1 depth 1", "47", engine.Limits{Depth: 1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := mustSearcher(t, g, Config{HashMB: 4})
			p := g.Start()
			if err := connect4.PlayMoveString(p.(*connect4.Position), tc.moves); err != nil {
				t.Fatal(err)
			}
			var texts []string
			res := s.Search(p, engine.NewControl(tc.lim, p.ToMove()), func(i engine.Info) { texts = append(texts, i.Text) })
			if len(texts) != 1 || !strings.HasPrefix(texts[0], "book") {
				t.Errorf("info %q, want one book line", texts)
			}
			if moves, mate := engine.IsMate(res.Score); !mate || moves <= 0 || !games.IsLegal(p, res.Move) {
				t.Errorf("move %v score %v, want a legal move with a forced win", res.Move, res.Score)
			}
			if tc.moves == "" && res.Move != connect4.ColumnMove(3) {
				t.Errorf("first move %s, want d1 (the only winning move)", p.FormatMove(res.Move))
			}
		})
	}
}

// playConnect4 plays a game from the empty board between first and second, each under its own limits
// per move, checking every move's legality, and returns the outcome and the moves as Pons digits.
func playConnect4(t *testing.T, first, second engine.Searcher, limFirst, limSecond engine.Limits) (games.Outcome, string) {
	t.Helper()
	p := connect4.Game{}.Start()
	players := [2]engine.Searcher{first, second}
	limits := [2]engine.Limits{limFirst, limSecond}
	first.NewGame()
	second.NewGame()
	var line []byte
	for {
		if o := games.OutcomeOf(p); o.Result != games.Ongoing {
			return o, string(line)
		}
		side := p.ToMove()
		res := searchLimited(players[side], p.Clone(), limits[side])
		if !games.IsLegal(p, res.Move) {
			t.Fatalf("%s: illegal move %d returned", line, res.Move)
		}
		p.Play(res.Move)
		line = append(line, '1'+byte(connect4.MoveColumn(res.Move)))
	}
}

func TestConnect4StrongestNeverLosesAsFirstPlayer(t *testing.T) {
	// Connect-Four is a first player's win: as first player the strongest player must win against every
	// preset, at its weakest settings too. The players are deterministic, so each pairing is one game;
	// the opponent plays at the same setting (as in a match with one limit for both) or at another.
	limits := map[string]engine.Limits{
		"depth 1": {Depth: 1}, "depth 4": {Depth: 4}, "depth 8": {Depth: 8},
		"100 ms": {MoveTime: 100 * time.Millisecond}, "500 ms": {MoveTime: 500 * time.Millisecond},
	}
	tests := []struct {
		opponent, ours, theirs string
		short                  bool // played in the short and the plain run too
	}{
		{"strongest", "depth 1", "depth 1", true},
		{"strongest", "depth 4", "depth 4", true},
		{"strongest", "depth 1", "depth 4", false},
		{"strongest", "depth 1", "depth 8", false},
		{"strongest", "depth 4", "depth 8", false},
		{"strongest", "100 ms", "100 ms", false},
		{"strongest", "500 ms", "500 ms", false},
		{"strongest", "depth 1", "500 ms", false},
		{"strongest", "100 ms", "500 ms", false},
		{"strongest", "500 ms", "100 ms", false},
		{"sophisticated", "depth 1", "depth 1", true},
		{"sophisticated", "depth 4", "depth 4", true},
		{"sophisticated", "depth 1", "depth 8", false},
		{"sophisticated", "depth 4", "depth 8", false},
		{"sophisticated", "100 ms", "100 ms", false},
		{"sophisticated", "500 ms", "500 ms", false},
		{"sophisticated", "depth 1", "100 ms", false},
		{"sp", "depth 1", "depth 1", true},
		{"sp", "depth 4", "depth 4", true},
		{"sp", "100 ms", "100 ms", false},
		{"sp", "500 ms", "500 ms", false},
	}
	g := connect4.Game{}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%s vs %s at %s", tc.ours, tc.opponent, tc.theirs), func(t *testing.T) {
			// The plain run plays the short run's pairings and one timed one; the deep run all.
			quick := tc.short || !testing.Short() && tc.opponent == "strongest" && tc.ours == "100 ms" && tc.theirs == "100 ms"
			if testdeep.Quick() && !quick {
				t.Skip("timed and deeper pairings are played in the deep run (DOSSIER_DEEP_TESTS=1)")
			}
			us := mustSearcher(t, g, Config{})
			them := mustSearcher(t, g, Config{Preset: tc.opponent})
			o, line := playConnect4(t, us, them, limits[tc.ours], limits[tc.theirs])
			if o.Result != games.FirstWins {
				t.Errorf("the strongest player as first player: %v after %s", o, line)
			}
			t.Logf("won in %d plies: %s", len(line), line)
		})
	}
}

func TestConnect4StrongestBeatsRandomReplies(t *testing.T) {
	// At its weakest setting (depth 1: the book, then the solver on 2M nodes a move), the strongest
	// player wins every game as first player against uniformly random replies.
	games200 := 200
	if testing.Short() {
		games200 = 20
	}
	g := connect4.Game{}
	us := mustSearcher(t, g, Config{})
	rng := rand.New(rand.NewPCG(2024, 7))
	var buf [games.MaxMoves]games.Move
	lost := 0
	for game := range games200 {
		us.NewGame()
		p := g.Start()
		var line []byte
		for games.OutcomeOf(p).Result == games.Ongoing {
			var m games.Move
			if p.ToMove() == games.First {
				m = searchLimited(us, p.Clone(), engine.Limits{Depth: 1}).Move
			} else {
				moves := p.AppendMoves(buf[:0])
				m = moves[rng.IntN(len(moves))]
			}
			if !games.IsLegal(p, m) {
				t.Fatalf("game %d, %s: illegal move %d", game, line, m)
			}
			p.Play(m)
			line = append(line, '1'+byte(connect4.MoveColumn(m)))
		}
		if o := games.OutcomeOf(p); o.Result != games.FirstWins {
			lost++
			t.Errorf("game %d: %v after %s", game, o, line)
		}
	}
	t.Logf("%d games, %d not won", games200, lost)
}
