// Alpha-beta on tic-tac-toe: the game is a draw, and every reachable position is solved exactly.
package engine

import (
	"math/rand/v2"
	"testing"

	"dossier/games"
	"dossier/games/tictactoe"
)

// reachable returns every position reachable from the start where the game is still on, once each.
func reachable(g games.Game) []games.Position {
	seen := map[uint64]bool{}
	var out []games.Position
	var walk func(p games.Position)
	walk = func(p games.Position) {
		if seen[p.Hash()] || p.Status().Result != games.Ongoing {
			return
		}
		seen[p.Hash()] = true
		out = append(out, p.Clone())
		for _, m := range p.AppendMoves(nil) {
			p.Play(m)
			walk(p)
			p.Undo()
		}
	}
	walk(g.Start())
	return out
}

// winsAtOnce reports whether playing m ends the game with a win for the side that plays it.
func winsAtOnce(p games.Position, m games.Move) bool {
	side := p.ToMove()
	p.Play(m)
	defer p.Undo()
	w, ok := p.Status().Result.Winner()
	return ok && w == side
}

// allowsWin reports whether after m the opponent has a move that wins at once.
func allowsWin(p games.Position, m games.Move) bool {
	p.Play(m)
	defer p.Undo()
	if p.Status().Result != games.Ongoing {
		return false
	}
	for _, r := range p.AppendMoves(nil) {
		if winsAtOnce(p, r) {
			return true
		}
	}
	return false
}

func TestTicTacToeStartIsADraw(t *testing.T) {
	g := tictactoe.Game{}
	rng := rand.New(rand.NewPCG(5, 6))
	configs := map[string]AlphaBetaOptions{"no table": {PVS: true}, "default": testOptions(g)}
	smp := testOptions(g)
	smp.Threads = 2
	configs["two threads"] = smp
	for name, opts := range configs {
		t.Run(name, func(t *testing.T) {
			for i := 0; i < 5; i++ {
				eval := randomEvaluation(g, rng)
				res := NewAlphaBeta(g, eval, opts).Search(g.Start(), NewControl(Limits{}, games.First), nil)
				if res.Score != 0 {
					t.Errorf("evaluation %v: the start scores %v, not a draw", eval.Weights, res.Score)
				}
			}
		})
	}
}

func TestTicTacToeSolvesEveryPosition(t *testing.T) {
	g := tictactoe.Game{}
	positions := reachable(g)
	if len(positions) != 4520 {
		t.Fatalf("%d reachable positions with the game on, want 4520", len(positions))
	}
	rng := rand.New(rand.NewPCG(7, 8))
	step := 1
	if testing.Short() {
		step = 9
	}
	configs := []struct {
		name string
		opts AlphaBetaOptions
	}{
		{"plain", AlphaBetaOptions{}},
		{"ordered", AlphaBetaOptions{PVS: true, Killers: true, History: true}},
		{"table", AlphaBetaOptions{HashMB: 1}},
		{"default", testOptions(g)},
	}
	for _, c := range configs {
		opts := c.opts
		t.Run(c.name, func(t *testing.T) {
			// One searcher for all positions: its table carries solved entries from one search to the next.
			s := NewAlphaBeta(g, randomEvaluation(g, rng), opts)
			for i := 0; i < len(positions); i += step {
				p := positions[i]
				res := s.Search(p, NewControl(Limits{}, p.ToMove()), nil)
				want := minimax(p, s.Evaluation(), 9, 0)
				if res.Score != want {
					t.Fatalf("%s: score %v, solver %v", p.FEN(), res.Score, want)
				}
				if got := childValue(p, s.Evaluation(), res.Move, 9); got != want {
					t.Fatalf("%s: %s has value %v, not %v", p.FEN(), p.FormatMove(res.Move), got, want)
				}
				moves := p.AppendMoves(nil)
				canWin, canHold := false, false
				for _, m := range moves {
					canWin = canWin || winsAtOnce(p, m)
					canHold = canHold || !allowsWin(p, m)
				}
				if canWin && !winsAtOnce(p, res.Move) {
					t.Fatalf("%s: %s misses an immediate win", p.FEN(), p.FormatMove(res.Move))
				}
				if !canWin && canHold && allowsWin(p, res.Move) {
					t.Fatalf("%s: %s lets the opponent win at once", p.FEN(), p.FormatMove(res.Move))
				}
			}
		})
	}
}

func TestContemptScoresDrawsForTheRootSide(t *testing.T) {
	g := tictactoe.Game{}
	for _, contempt := range []float64{0.25, -0.25} {
		opts := testOptions(g)
		opts.Contempt = contempt
		s := NewAlphaBeta(g, randomEvaluation(g, rand.New(rand.NewPCG(9, 10))), opts)
		for _, p := range []games.Position{g.Start(), reachable(g)[1]} {
			res := s.Search(p, NewControl(Limits{}, p.ToMove()), nil)
			if res.Score != -contempt {
				t.Errorf("contempt %v, %s: drawn position scores %v", contempt, p.FEN(), res.Score)
			}
		}
	}
}
