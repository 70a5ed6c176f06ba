// Tests of Connect-Four's strongest player: exact scores from the solver, the fallback, and stopping.
package bots

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"dossier/engine"
	"dossier/games"
	"dossier/games/connect4"
	"dossier/games/gametest"
)

// ponsCase is one line of Pons's benchmark sets: moves from the empty board and the exact score.
type ponsCase struct {
	moves string
	score int
}

// readPons reads the first n cases of a benchmark set.
func readPons(t *testing.T, name string, n int) []ponsCase {
	t.Helper()
	f, err := os.Open(filepath.Join(gametest.SharedData(t, ""), "connect4", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cases []ponsCase
	sc := bufio.NewScanner(f)
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
			s := mustSearcher(t, g, PlayerConfig{HashMB: 16})
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
	// 1,000 nodes cannot solve the empty board: alpha-beta with the sophisticated evaluation plays.
	g := connect4.Game{}
	s := mustSearcher(t, g, PlayerConfig{HashMB: 4})
	var texts []string
	res := s.Search(g.Start(), engine.NewControl(engine.Limits{Nodes: 1000}, games.First),
		func(i engine.Info) { texts = append(texts, i.Text) })
	if res.Move == games.NoMove || res.Depth >= 42 || strings.Contains(strings.Join(texts, ""), "solved") {
		t.Errorf("result %+v with info %q, want an alpha-beta move", res, texts)
	}
}

func TestConnect4StrongestStopsWhileSolving(t *testing.T) {
	// An infinite search of the empty board starts with a long solve; stop must end it at once.
	g := connect4.Game{}
	s := mustSearcher(t, g, PlayerConfig{HashMB: 4})
	ctl := engine.NewControl(engine.Limits{Infinite: true}, games.First)
	done := make(chan engine.Result, 1)
	go func() { done <- s.Search(g.Start(), ctl, nil) }()
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
		{"clock", engine.Limits{Time: [2]time.Duration{40*time.Second + engine.MoveOverhead, time.Minute}}, 500 * time.Millisecond, 0},
		{"infinite", engine.Limits{Infinite: true}, 0, openSolveNodes},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d, n := solveBudget(tc.lim, games.First)
			if d != tc.time || n != tc.nodes {
				t.Errorf("budget %v and %d nodes, want %v and %d", d, n, tc.time, tc.nodes)
			}
		})
	}
}
