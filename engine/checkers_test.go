// Alpha-beta on checkers: fixed-depth values equal minimax's, quiescence resolves compulsory captures.
package engine

import (
	"math/rand/v2"
	"testing"

	"dossier/games/checkers"
)

func TestCheckersMatchesMinimax(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	g := checkers.Game{}
	positions, maxDepth := 40, 5
	if testing.Short() {
		positions, maxDepth = 10, 4
	}
	for name, opts := range exactOptionSets() {
		t.Run(name, func(t *testing.T) {
			for i := 0; i < positions; i++ {
				p := randomPosition(g, rng, rng.IntN(40))
				eval := randomEvaluation(g, rng)
				s := NewAlphaBeta(g, eval, opts)
				depth := 1 + i%maxDepth
				res := searchDepth(s, p, depth)
				want := minimax(p, eval, depth, 0)
				if res.Score != want {
					t.Fatalf("%s depth %d: score %v, minimax %v", p.FEN(), depth, res.Score, want)
				}
				if got := childValue(p, eval, res.Move, depth); got != want {
					t.Fatalf("%s depth %d: move %s has value %v, not the best %v", p.FEN(), depth, p.FormatMove(res.Move), got, want)
				}
			}
		})
	}
}

func TestCheckersQuiescenceMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	g := checkers.Game{}
	positions, maxDepth := 40, 4
	if testing.Short() {
		positions, maxDepth = 10, 3
	}
	for name, opts := range exactOptionSets() {
		opts.Quiescence = true
		t.Run(name, func(t *testing.T) {
			for i := 0; i < positions; i++ {
				p := randomPosition(g, rng, rng.IntN(50))
				eval := randomEvaluation(g, rng)
				depth := 1 + i%maxDepth
				res := searchDepth(NewAlphaBeta(g, eval, opts), p, depth)
				if want := minimaxQ(p, eval, depth, 0, true); res.Score != want {
					t.Fatalf("%s depth %d: score %v, minimax with quiescence %v", p.FEN(), depth, res.Score, want)
				}
			}
		})
	}
}

func TestCheckersCompulsoryCapture(t *testing.T) {
	// The first position has one legal move, a capture that crowns. In the others one of the two moves
	// walks into a forced capture; both look equal to a depth-1 search without quiescence, which then plays
	// the first generated one, the losing one.
	tests := []struct {
		fen  string
		best string
	}{
		{"B:W26,27:B22", "22x31"},
		{"B:W21:B14", "14-18"},
		{"B:W22:B15", "15-19"},
		{"W:W23:B14", "23-19"},
		{"W:W19:B10", "19-16"},
	}
	g := checkers.Game{}
	w := make([]float64, len(g.FeatureNames()))
	w[checkers.FeatMen], w[checkers.FeatKings] = 1, 1.5
	eval := Evaluation{Name: "material", Weights: w}
	for _, tc := range tests {
		t.Run(tc.fen, func(t *testing.T) {
			p, err := g.ParsePosition(tc.fen)
			if err != nil {
				t.Fatal(err)
			}
			res := searchDepth(NewAlphaBeta(g, eval, testOptions(g)), p, 1)
			if got := p.FormatMove(res.Move); got != tc.best {
				t.Errorf("best move %s, want %s (score %v)", got, tc.best, res.Score)
			}
		})
	}
}
