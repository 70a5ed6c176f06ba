// Search benchmarks: nodes per second and allocations of fixed-depth searches in each game.
package engine

import (
	"testing"

	"dossier/games"
	"dossier/games/checkers"
	"dossier/games/chess"
	"dossier/games/connect4"
	"dossier/games/tictactoe"
)

// kiwipete is the chessprogramming wiki's second perft position, a busy middlegame.
const kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"

// benchSearch runs a fixed-depth search from a fresh table each time and reports nodes/s and nodes/op;
// allocs/op counts only the per-search setup (root move list, PV copies), never a node.
func benchSearch(b *testing.B, g games.Game, p games.Position, eval Evaluation, opts AlphaBetaOptions, depth int) {
	b.Helper()
	s := NewAlphaBeta(g, eval, opts)
	b.ReportAllocs()
	var nodes uint64
	for b.Loop() {
		s.NewGame()
		nodes += searchDepth(s, p, depth).Nodes
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
	b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
}

func BenchmarkSearch(b *testing.B) {
	cg := checkers.Game{}
	b.Run("checkers/start", func(b *testing.B) {
		benchSearch(b, cg, cg.Start(), checkersMaterial(), DefaultAlphaBetaOptions(cg), 14)
	})
	tt := tictactoe.Game{}
	b.Run("tictactoe/start", func(b *testing.B) {
		w := []float64{1, 0.5, -0.5, 0.3, 0.2}
		opts := DefaultAlphaBetaOptions(tt)
		opts.HashMB = 1 // clearing a bigger table would cost more than the search
		benchSearch(b, tt, tt.Start(), Evaluation{Name: "lines", Weights: w[:len(tt.FeatureNames())]}, opts, 9)
	})
	c4 := connect4.Game{}
	b.Run("connect4/start", func(b *testing.B) {
		benchSearch(b, c4, c4.Start(), connect4Windows(), DefaultAlphaBetaOptions(c4), 14)
	})
	ch := chess.Game{}
	b.Run("chess/start", func(b *testing.B) {
		benchSearch(b, ch, ch.Start(), chessMaterial(), DefaultAlphaBetaOptions(ch), 8)
	})
	kiwi, err := ch.ParsePosition(kiwipete)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("chess/kiwipete", func(b *testing.B) {
		benchSearch(b, ch, kiwi, chessMaterial(), DefaultAlphaBetaOptions(ch), 6)
	})
}

// BenchmarkProbe measures the probe the opponent-model searches call; it must report 0 allocs/op.
func BenchmarkProbe(b *testing.B) {
	cg := checkers.Game{}
	s := NewAlphaBeta(cg, checkersMaterial(), DefaultAlphaBetaOptions(cg))
	p := cg.Start()
	b.ReportAllocs()
	before := s.Nodes()
	for b.Loop() {
		s.Probe(p, 6, -MateScore, MateScore)
	}
	b.ReportMetric(float64(s.Nodes()-before)/b.Elapsed().Seconds(), "nodes/s")
}
