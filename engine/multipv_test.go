// MultiPV: k distinct root moves sorted by value, each valued exactly, the best as single-PV finds it, and
// MultiPV 1 the single-PV search itself.
package engine

import (
	"math/rand/v2"
	"slices"
	"testing"

	"dossier/games"
	"dossier/games/checkers"
	"dossier/games/chess"
	"dossier/games/connect4"
	"dossier/games/tictactoe"
)

// searchLines runs a fixed-depth MultiPV search and returns its result with the infos it reported.
func searchLines(s Searcher, p games.Position, depth, k int) (Result, []Info) {
	var infos []Info
	res := s.Search(p, NewControl(Limits{Depth: depth, MultiPV: k}, p.ToMove()), func(i Info) { infos = append(infos, i) })
	return res, infos
}

// TestMultiPVValuesAreExact checks, under every value-preserving option set, that MultiPV k returns k
// distinct moves whose values are the reference minimax values of those moves, sorted, and that they are
// the k best values of the position; the first is the single-PV search's value.
func TestMultiPVValuesAreExact(t *testing.T) {
	cases := []struct {
		game  games.Game
		eval  Evaluation
		depth int
	}{
		{checkers.Game{}, checkersMaterial(), 4},
		{connect4.Game{}, connect4Windows(), 4},
		{tictactoe.Game{}, Evaluation{Name: "zero", Weights: make([]float64, len(tictactoe.Game{}.FeatureNames()))}, 9},
	}
	rng := rand.New(rand.NewPCG(7, 11))
	for _, c := range cases {
		for name, opts := range exactOptionSets() {
			t.Run(c.game.Name()+"/"+name, func(t *testing.T) {
				for range 4 {
					p := randomPosition(c.game, rng, 2+rng.IntN(8))
					moves := p.AppendMoves(nil)
					if len(moves) < 2 {
						continue
					}
					want := make([]float64, len(moves))
					for i, m := range moves {
						want[i] = childValue(p, c.eval, m, c.depth)
					}
					slices.SortFunc(want, func(a, b float64) int { return int(sign(b - a)) })
					k := min(3, len(moves))
					single := searchDepth(NewAlphaBeta(c.game, c.eval, opts), p, c.depth)
					res, _ := searchLines(NewAlphaBeta(c.game, c.eval, opts), p, c.depth, k)
					if len(res.Lines) != k {
						t.Fatalf("%s: %d lines, want %d", p.FEN(), len(res.Lines), k)
					}
					seen := map[games.Move]bool{}
					for i, l := range res.Lines {
						if seen[l.Move] {
							t.Fatalf("%s: move %s twice", p.FEN(), p.FormatMove(l.Move))
						}
						seen[l.Move] = true
						if got := childValue(p, c.eval, l.Move, c.depth); got != l.Score {
							t.Errorf("%s: line %d %s scored %v, minimax says %v", p.FEN(), i+1, p.FormatMove(l.Move), l.Score, got)
						}
						if l.Score != want[i] {
							t.Errorf("%s: line %d scored %v, the %d-th best value is %v", p.FEN(), i+1, l.Score, i+1, want[i])
						}
						if len(l.PV) == 0 || l.PV[0] != l.Move {
							t.Errorf("%s: line %d's PV does not start with its move", p.FEN(), i+1)
						}
					}
					if res.Move != res.Lines[0].Move || res.Score != res.Lines[0].Score || res.Score != single.Score {
						t.Errorf("%s: result %s %v, first line %v, single PV %v", p.FEN(), p.FormatMove(res.Move), res.Score,
							res.Lines[0].Score, single.Score)
					}
				}
			})
		}
	}
}

func sign(x float64) float64 {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

// TestMultiPVOneIsSinglePV checks that MultiPV 0 and 1 are the same search: same move, value, line and
// nodes, and no lines.
func TestMultiPVOneIsSinglePV(t *testing.T) {
	g := chess.Game{}
	for _, fen := range []string{
		"r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
		"8/8/4k3/8/2KR4/8/8/8 w - - 0 1",
	} {
		p, err := g.ParsePosition(fen)
		if err != nil {
			t.Fatal(err)
		}
		var results [2]Result
		for k := range 2 {
			s := NewAlphaBeta(g, chessMaterial(), testOptions(g))
			results[k] = s.Search(p, NewControl(Limits{Depth: 6, MultiPV: k}, p.ToMove()), nil)
		}
		a, b := results[0], results[1]
		if a.Move != b.Move || a.Score != b.Score || a.Nodes != b.Nodes || !slices.Equal(a.PV, b.PV) || b.Lines != nil {
			t.Errorf("%s: MultiPV 0 gave %v, MultiPV 1 gave %v", fen, a, b)
		}
	}
}

// TestMultiPVChessDefaults checks the pruned chess search: k distinct legal moves sorted by value, one
// report per line and depth numbered 1..k, and the first line's value the single-PV value within the
// noise the pruning adds.
func TestMultiPVChessDefaults(t *testing.T) {
	g := chess.Game{}
	p, err := g.ParsePosition("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
	if err != nil {
		t.Fatal(err)
	}
	const k, depth = 4, 6
	res, infos := searchLines(NewAlphaBeta(g, chessMaterial(), testOptions(g)), p, depth, k)
	if len(res.Lines) != k {
		t.Fatalf("%d lines, want %d", len(res.Lines), k)
	}
	seen := map[games.Move]bool{}
	for i, l := range res.Lines {
		if !games.IsLegal(p, l.Move) || seen[l.Move] {
			t.Errorf("line %d: move %d is illegal or repeated", i+1, l.Move)
		}
		seen[l.Move] = true
		if i > 0 && l.Score > res.Lines[i-1].Score {
			t.Errorf("line %d scores %v, above line %d's %v", i+1, l.Score, i, res.Lines[i-1].Score)
		}
	}
	if len(infos) != k*depth {
		t.Fatalf("%d reports, want %d", len(infos), k*depth)
	}
	for i, info := range infos {
		if info.MultiPV != i%k+1 || info.Depth != i/k+1 {
			t.Errorf("report %d: multipv %d depth %d, want %d and %d", i, info.MultiPV, info.Depth, i%k+1, i/k+1)
		}
	}
	single := searchDepth(NewAlphaBeta(g, chessMaterial(), testOptions(g)), p, depth)
	if d := res.Score - single.Score; d > 30 || d < -30 {
		t.Errorf("first line %v, single PV %v", res.Score, single.Score)
	}
}

// TestMultiPVFindsTheMate checks that the mate in one comes first among the lines and that a search with
// fewer legal moves than lines returns them all.
func TestMultiPVFindsTheMate(t *testing.T) {
	g := chess.Game{}
	p, err := g.ParsePosition("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1") // Ra8#
	if err != nil {
		t.Fatal(err)
	}
	res, _ := searchLines(NewAlphaBeta(g, chessMaterial(), testOptions(g)), p, 4, 3)
	if got := p.FormatMove(res.Move); got != "a1a8" || res.Score != MateScore-1 {
		t.Errorf("best %s %v, want a1a8 mate in one", got, res.Score)
	}
	q, err := g.ParsePosition("7k/8/8/8/8/8/8/K7 w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	res, _ = searchLines(NewAlphaBeta(g, chessMaterial(), testOptions(g)), q, 3, 10)
	if len(res.Lines) != 3 {
		t.Errorf("%d lines for the king's 3 moves", len(res.Lines))
	}
}
