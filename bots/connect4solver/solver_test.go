// Tests of the solver: Pons's benchmark sets, a brute-force reference on small boards, move scores,
// finished games, limits and the table across board sizes.

package connect4solver

import (
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"testing"
	"time"

	"dossier/games"
	"dossier/games/connect4"
)

// testTableMB is the table size of the tests: 8 M entries, as many as Pons's tutorial solver had.
const testTableMB = 64

// every returns every step-th case, from the first.
func every(cases []testCase, step int) []testCase {
	var picked []testCase
	for i := 0; i < len(cases); i += step {
		picked = append(picked, cases[i])
	}
	return picked
}

// TestSolveSets solves every position of Pons's quick sets (in -short, every 10th of L2_R2) exactly.
func TestSolveSets(t *testing.T) {
	sets := []struct {
		name      string
		shortStep int // in -short, solve every shortStep-th line
	}{
		{"Test_L3_R1", 1},
		{"Test_L2_R1", 1},
		{"Test_L1_R1", 1},
		{"Test_L2_R2", 10},
	}
	s := New(testTableMB)
	for _, set := range sets {
		t.Run(set.name, func(t *testing.T) {
			cases := loadSet(t, set.name)
			if testing.Short() {
				cases = every(cases, set.shortStep)
			}
			checkSolves(t, s, set.name, cases)
		})
	}
}

// TestSolveHardSet solves all of Test_L1_R2, Pons's hard set (about 100 s of CPU); it runs only with
// DOSSIER_LONG=1.
func TestSolveHardSet(t *testing.T) {
	if os.Getenv("DOSSIER_LONG") != "1" {
		t.Skip("set DOSSIER_LONG=1 to solve all of Test_L1_R2")
	}
	checkSolves(t, New(2*testTableMB), "Test_L1_R2", loadSet(t, "Test_L1_R2"))
}

// checkSolves compares the solver's strong score of each case with the set's, reporting a few failures.
func checkSolves(t *testing.T, s *Solver, name string, cases []testCase) {
	t.Helper()
	failures := 0
	for _, c := range cases {
		if got := s.Solve(c.position); got != c.score {
			failures++
			if failures <= 5 {
				t.Errorf("%s:%d %s: Solve = %d, want %d", name, c.line, c.moves, got, c.score)
			}
		}
	}
	if failures > 0 {
		t.Errorf("%s: %d of %d positions wrong", name, failures, len(cases))
	}
}

// TestWeakSolveSets checks that the weak solve gives the sign of every score (in -short and for the
// slower sets, of a sample), from an empty table so that no exact score learnt before can help it.
// The weak search is slower than the strong one on positions won quickly: with the window at 0 it
// may prove a long win before a short one.
func TestWeakSolveSets(t *testing.T) {
	sets := []struct {
		name            string
		step, shortStep int
	}{
		{"Test_L3_R1", 1, 1},
		{"Test_L2_R1", 1, 1},
		{"Test_L1_R1", 5, 20},
		{"Test_L2_R2", 10, 50},
	}
	for _, set := range sets {
		t.Run(set.name, func(t *testing.T) {
			step := set.step
			if testing.Short() {
				step = set.shortStep
			}
			s := New(testTableMB)
			for _, c := range every(loadSet(t, set.name), step) {
				if got := s.WeakSolve(c.position); got != sign(c.score) {
					t.Errorf("%s:%d %s: WeakSolve = %d, want %d (score %d)", set.name, c.line, c.moves, got,
						sign(c.score), c.score)
				}
			}
		})
	}
}

// TestBestMovesAgreesWithSolve checks BestMoves on a sample of every quick set: one entry per legal
// move, each the negated score of the child (or the immediate win), sorted best first, the best equal
// to the position's own score. Test_L1_R1 contributes only positions with at least 12 stones: its
// early positions are quick wins, but the other moves of a near-empty board take many seconds each.
func TestBestMovesAgreesWithSolve(t *testing.T) {
	sets := []struct {
		name            string
		step, shortStep int
		minStones       int
	}{
		{"Test_L3_R1", 20, 50, 0},
		{"Test_L2_R1", 20, 50, 0},
		{"Test_L1_R1", 50, 200, 12},
		{"Test_L2_R2", 20, 50, 0},
	}
	s := New(testTableMB)
	for _, set := range sets {
		t.Run(set.name, func(t *testing.T) {
			step := set.step
			if testing.Short() {
				step = set.shortStep
			}
			for _, c := range every(loadSet(t, set.name), step) {
				if c.position.Moves() >= set.minStones {
					checkBestMoves(t, s, c.position, c.score, c.moves)
				}
			}
		})
	}
}

// checkBestMoves checks BestMoves(p) against Solve on every child of p, whose score is want.
func checkBestMoves(t *testing.T, s *Solver, p *connect4.Position, want int, label string) {
	t.Helper()
	moves := s.BestMoves(p)
	legal := p.AppendMoves(nil)
	if len(moves) != len(legal) {
		t.Fatalf("%s: BestMoves gave %d moves, the position has %d", label, len(moves), len(legal))
	}
	cells := p.Width() * p.Height()
	for i, ms := range moves {
		if !slices.Contains(legal, ms.Move) {
			t.Fatalf("%s: BestMoves gave the illegal move %d", label, ms.Move)
		}
		p.Play(ms.Move)
		var child int
		if p.Status().Result.Over() && p.Status().Result != games.Draw {
			child = -(cells + 2 - p.Moves()) / 2 // the mover won with the stone just played, the p.Moves()-th
		} else {
			child = s.Solve(p)
		}
		p.Undo()
		if ms.Score != -child {
			t.Errorf("%s: move %d scores %d, but the child solves to %d", label, ms.Move, ms.Score, child)
		}
		if i > 0 && ms.Score > moves[i-1].Score {
			t.Errorf("%s: BestMoves not sorted: %v", label, moves)
		}
	}
	if len(moves) > 0 && moves[0].Score != want {
		t.Errorf("%s: best move scores %d, the position %d", label, moves[0].Score, want)
	}
	// BestMove picks the same move: the centre-most of those keeping the score.
	if best := s.BestMove(p); len(moves) > 0 && best != moves[0] {
		t.Errorf("%s: BestMove = %+v, BestMoves starts with %+v", label, best, moves[0])
	}
}

// TestBestMove checks on samples of every set, early positions included, that BestMove returns the
// position's score and a move after which the opponent's score is its negation.
func TestBestMove(t *testing.T) {
	sets := []struct {
		name            string
		step, shortStep int
	}{
		{"Test_L3_R1", 10, 50},
		{"Test_L2_R1", 10, 50},
		{"Test_L1_R1", 10, 50},
		{"Test_L2_R2", 20, 100},
	}
	s := New(testTableMB)
	for _, set := range sets {
		t.Run(set.name, func(t *testing.T) {
			step := set.step
			if testing.Short() {
				step = set.shortStep
			}
			for _, c := range every(loadSet(t, set.name), step) {
				p := c.position
				best := s.BestMove(p)
				if best.Score != c.score {
					t.Fatalf("%s:%d %s: BestMove scores %d, want %d", set.name, c.line, c.moves, best.Score, c.score)
				}
				if !slices.Contains(p.AppendMoves(nil), best.Move) {
					t.Fatalf("%s:%d %s: BestMove gave the illegal move %d", set.name, c.line, c.moves, best.Move)
				}
				p.Play(best.Move)
				child := s.Solve(p)
				p.Undo()
				if child != -c.score {
					t.Errorf("%s:%d %s: after BestMove %d the opponent scores %d, want %d", set.name, c.line,
						c.moves, best.Move, child, -c.score)
				}
			}
		})
	}
}

// referenceScore returns the score of p, where the game is not over, by plain negamax over every move
// with no pruning, memoised by position key; it uses only the connect4 package's rules.
func referenceScore(p *connect4.Position, memo map[uint64]int) int {
	if score, ok := memo[p.Key()]; ok {
		return score
	}
	cells := p.Width() * p.Height()
	if p.Moves() == cells {
		return 0
	}
	best := -cells
	for _, m := range p.AppendMoves(nil) {
		p.Play(m)
		var score int
		if result := p.Status().Result; result.Over() && result != games.Draw {
			score = (cells + 2 - p.Moves()) / 2 // we won with this stone: p.Moves()-1 stones were down before it
		} else {
			score = -referenceScore(p, memo)
		}
		p.Undo()
		best = max(best, score)
	}
	memo[p.Key()] = best
	return best
}

// TestSmallBoards compares Solve, WeakSolve and BestMoves with the brute-force reference on random
// positions of several board sizes, with the solver's table shared across sizes.
func TestSmallBoards(t *testing.T) {
	boards := []struct {
		width, height int
		empties       int // positions are set up with this many empty cells left (at most)
		positions     int
	}{
		{4, 4, 16, 1}, // the empty board
		{4, 4, 12, 40},
		{5, 4, 14, 40},
		{4, 5, 14, 40},
		{6, 5, 13, 30},
		{7, 6, 13, 30},
		{8, 7, 12, 20},
		{3, 3, 9, 1}, // no four in a row fits: always a draw
		{1, 5, 5, 1}, // one column: whoever fills four cells of it first
		{7, 1, 7, 1}, // one row: no vertical or diagonal lines
		{6, 2, 12, 5},
	}
	if testing.Short() {
		for i := range boards {
			boards[i].positions = min(boards[i].positions, 10)
		}
	}
	s := New(16)
	rng := rand.New(rand.NewPCG(1, 2))
	for _, b := range boards {
		t.Run(fmt.Sprintf("%dx%d_%d_empty", b.width, b.height, b.empties), func(t *testing.T) {
			memo := map[uint64]int{}
			for range b.positions {
				p, label := randomPosition(t, rng, b.width, b.height, b.empties)
				want := referenceScore(p, memo)
				if got := s.Solve(p); got != want {
					t.Fatalf("%s: Solve = %d, want %d\n%s", label, got, want, p)
				}
				if got := s.WeakSolve(p); got != sign(want) {
					t.Fatalf("%s: WeakSolve = %d, want %d\n%s", label, got, sign(want), p)
				}
				checkBestMoves(t, s, p, want, label)
			}
		})
	}
}

// randomPosition plays random moves on an empty width x height board until at most empties cells are
// left, starting over whenever the game ends first; it returns the position and its move digits.
func randomPosition(t *testing.T, rng *rand.Rand, width, height, empties int) (*connect4.Position, string) {
	t.Helper()
	for {
		p, err := connect4.Game{Width: width, Height: height}.StartPosition()
		if err != nil {
			t.Fatal(err)
		}
		var digits []byte
		for p.Moves() < width*height-empties && !p.Status().Result.Over() {
			moves := p.AppendMoves(nil)
			m := moves[rng.IntN(len(moves))]
			p.Play(m)
			digits = append(digits, byte('1'+connect4.MoveColumn(m)))
		}
		if !p.Status().Result.Over() {
			return p, string(digits)
		}
	}
}

// TestFinishedAndImmediate covers the positions the search itself never sees: a game already won, a
// full board, and a win with the next stone.
func TestFinishedAndImmediate(t *testing.T) {
	fullDraw := findFullBoardDraw(t)
	tests := []struct {
		name      string
		moves     string
		score     int
		weak      int
		bestMoves int // number of entries BestMoves returns
	}{
		// The first player's vertical four with its fourth stone: 8 stones down, the second player to move
		// has lost to a win that came with 22 - 4 = 18.
		{"vertical four on the board", "4141414", -18, -1, 0},
		{"full board, drawn", fullDraw, 0, 0, 0},
		{"last cell, drawn", fullDraw[:len(fullDraw)-1], 0, 0, 1},
		{"win with the next stone", "414141", 18, 1, 7},
	}
	s := New(testTableMB)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := mustPosition(t, tc.moves)
			if got := s.Solve(p); got != tc.score {
				t.Errorf("Solve = %d, want %d", got, tc.score)
			}
			if got := s.WeakSolve(p); got != tc.weak {
				t.Errorf("WeakSolve = %d, want %d", got, tc.weak)
			}
			if got := s.BestMoves(p); len(got) != tc.bestMoves {
				t.Errorf("BestMoves = %v, want %d entries", got, tc.bestMoves)
			}
			switch best := s.BestMove(p); {
			case tc.bestMoves == 0 && best.Move != games.NoMove:
				t.Errorf("BestMove = %+v in a finished game, want NoMove", best)
			case tc.bestMoves > 0 && (best.Move == games.NoMove || best.Score != tc.score):
				t.Errorf("BestMove = %+v, want a move scoring %d", best, tc.score)
			}
		})
	}
}

// findFullBoardDraw returns the moves of a random 7x6 game that fills the board without a four.
func findFullBoardDraw(t *testing.T) string {
	t.Helper()
	rng := rand.New(rand.NewPCG(3, 4))
	for {
		p := mustPosition(t, "")
		var digits []byte
		for !p.Status().Result.Over() {
			moves := p.AppendMoves(nil)
			m := moves[rng.IntN(len(moves))]
			p.Play(m)
			digits = append(digits, byte('1'+connect4.MoveColumn(m)))
		}
		if p.Status().Result == games.Draw {
			return string(digits)
		}
	}
}

// mustPosition plays Pons's move digits on the empty 7x6 board.
func mustPosition(t testing.TB, moves string) *connect4.Position {
	t.Helper()
	p, err := connect4.Game{}.StartPosition()
	if err != nil {
		t.Fatal(err)
	}
	if err := connect4.PlayMoveString(p, moves); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestLimits checks that a limited solve gives up when it must, says so, and leaves the table sound.
func TestLimits(t *testing.T) {
	// Test_L1_R2 line 1: a few hundred thousand nodes from an empty table.
	const moves, score = "32751571231557", -3
	stopped := make(chan struct{})
	close(stopped)
	tests := []struct {
		name   string
		limits Limits
		ok     bool
	}{
		{"node limit", Limits{MaxNodes: 1000}, false},
		{"stop already closed", Limits{Stop: stopped}, false},
		{"deadline passed", Limits{Deadline: time.Now().Add(-time.Second)}, false},
		{"generous limits", Limits{MaxNodes: 1 << 40, Deadline: time.Now().Add(time.Hour), Stop: make(chan struct{})}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := New(testTableMB)
			p := mustPosition(t, moves)
			got, ok := s.SolveWithin(p, tc.limits)
			if ok != tc.ok {
				t.Fatalf("SolveWithin ok = %v, want %v", ok, tc.ok)
			}
			if ok && got != score {
				t.Fatalf("SolveWithin = %d, want %d", got, score)
			}
			if !ok && tc.limits.MaxNodes > 0 && s.Nodes() > tc.limits.MaxNodes+1 {
				t.Errorf("searched %d nodes past a limit of %d", s.Nodes(), tc.limits.MaxNodes)
			}
			if _, ok := s.BestMovesWithin(p, tc.limits); ok != tc.ok {
				t.Errorf("BestMovesWithin ok = %v, want %v", ok, tc.ok)
			}
			s.Reset()
			if best, ok := s.BestMoveWithin(p, tc.limits); ok != tc.ok || ok && best.Score != score {
				t.Errorf("BestMoveWithin = %+v, %v; want ok %v and the score %d", best, ok, tc.ok, score)
			}
			// Whatever the interrupted searches stored must still lead to the exact score.
			if got := s.Solve(p); got != score {
				t.Errorf("Solve after the limited searches = %d, want %d", got, score)
			}
		})
	}
	t.Run("stop closed during the search", func(t *testing.T) {
		s := New(testTableMB)
		stop := make(chan struct{})
		timer := time.AfterFunc(time.Millisecond, func() { close(stop) })
		defer timer.Stop()
		if _, ok := s.SolveLimited(mustPosition(t, moves), 0, stop); ok && s.Nodes() > 1<<24 {
			t.Errorf("the search ran on for %d nodes after the stop", s.Nodes())
		}
	})
}

// TestNodesAndReset checks that Nodes counts the search and Reset zeroes it.
func TestNodesAndReset(t *testing.T) {
	s := New(1)
	p := mustPosition(t, "2252576253462244111563365343671351441")
	if got := s.Solve(p); got != -1 {
		t.Fatalf("Solve = %d, want -1", got)
	}
	if s.Nodes() == 0 {
		t.Error("Nodes = 0 after a search")
	}
	s.Reset()
	if s.Nodes() != 0 {
		t.Errorf("Nodes = %d after Reset", s.Nodes())
	}
}

// TestSolveAllocatesNothing checks that a solve of a middle-game position allocates nothing.
func TestSolveAllocatesNothing(t *testing.T) {
	s := New(testTableMB)
	p := mustPosition(t, "2252576253462244111563365343671351441")
	if allocs := testing.AllocsPerRun(3, func() {
		s.Reset()
		s.Solve(p)
	}); allocs != 0 {
		t.Errorf("Solve allocates %.0f times", allocs)
	}
}
