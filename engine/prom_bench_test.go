// Benchmark of PrOM search's cost: three chess opponent types against alpha-beta with the strongest preset.
package engine_test

import (
	"testing"
	"time"

	"dossier/bots"
	"dossier/engine"
	"dossier/games"
	"dossier/games/chess"
)

// promBenchPositions are chess positions of the opening and middlegame for the time-per-move benchmark.
var promBenchPositions = []string{
	"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
	"r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
	"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
	"r1bq1rk1/pp2bppp/2n1pn2/2pp4/2PP4/2N1PN2/PP1BBPPP/R2QK2R w KQ - 0 8",
	"2r2rk1/pp1q1ppp/2n1pn2/3p4/3P4/2NBPN2/PPQ2PPP/2R2RK1 b - - 0 14",
	"r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
}

// BenchmarkPromChess times one move at equal depth: PrOM search with the types strongest, materialist and
// attacker at P = 0.5/0.3/0.2 (strongest being our own function), and alpha-beta with strongest, each with
// the engine's default options and fresh tables for every position. It reports milliseconds per move of
// both and their ratio; the two searches alternate position by position, so that the machine's load
// falls on both alike.
func BenchmarkPromChess(b *testing.B) {
	g := chess.Game{}
	preset := func(name string) engine.Evaluation {
		p, err := bots.LookupPreset(g, name)
		if err != nil {
			b.Fatal(err)
		}
		return p.Eval
	}
	strongest, materialist, attacker := preset("strongest"), preset("materialist"), preset("attacker")
	model := engine.PromModel{
		Types: []engine.OpponentType{
			{Name: "strongest", Eval: strongest}, {Name: "materialist", Eval: materialist}, {Name: "attacker", Eval: attacker},
		},
		TypeProbabilities: []float64{0.5, 0.3, 0.2},
	}
	var positions []games.Position
	for _, fen := range promBenchPositions {
		p, err := g.ParsePosition(fen)
		if err != nil {
			b.Fatal(err)
		}
		positions = append(positions, p)
	}
	for _, depth := range []int{3, 4, 5} {
		b.Run("depth"+string(rune('0'+depth)), func(b *testing.B) {
			ab := engine.NewAlphaBeta(g, strongest, engine.DefaultAlphaBetaOptions(g))
			prom, err := engine.NewPromSearch(g, strongest, model, engine.DefaultOMOptions(g))
			if err != nil {
				b.Fatal(err)
			}
			var abTime, promTime time.Duration
			moves := 0
			for b.Loop() {
				for _, p := range positions {
					for _, s := range []engine.Searcher{ab, prom} {
						s.NewGame()
						start := time.Now()
						s.Search(p, engine.NewControl(engine.Limits{Depth: depth}, p.ToMove()), nil)
						if s == engine.Searcher(ab) {
							abTime += time.Since(start)
						} else {
							promTime += time.Since(start)
						}
					}
					moves++
				}
			}
			abMS := float64(abTime.Microseconds()) / 1000 / float64(moves)
			promMS := float64(promTime.Microseconds()) / 1000 / float64(moves)
			b.ReportMetric(abMS, "ab-ms/move")
			b.ReportMetric(promMS, "prom-ms/move")
			b.ReportMetric(promMS/abMS, "prom/ab")
		})
	}
}
