// Benchmark of PrOM search's cost: three chess opponent types against alpha-beta with the strongest preset.
package model_test

import (
	"fmt"
	"testing"
	"time"

	"dossier/bots/presets"
	"dossier/engine"
	"dossier/engine/enginetest"
	"dossier/engine/model"
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
// the engine's default options and fresh tables for every position. PrOM runs exact and with similarity
// pruning under assumed bounds delta (in centipawns; these types differ from strongest by 150-400 cp
// within a few plies, so the pruning is then a forward pruning, not exact). It reports CPU milliseconds
// per move (the process's, so that other processes' load does not count) and each PrOM variant's ratio to
// alpha-beta; the searches alternate position by position. For exact PrOM it also reports where the nodes
// went against alpha-beta's (PromEffort) and the ratio of the minimal trees the two must search.
func BenchmarkPromChess(b *testing.B) {
	g := chess.Game{}
	preset := func(name string) engine.Evaluation {
		p, err := presets.Lookup(g, name)
		if err != nil {
			b.Fatal(err)
		}
		return p.Eval
	}
	strongest, materialist, attacker := preset("strongest"), preset("materialist"), preset("attacker")
	prom := model.PromModel{
		Types: []model.OpponentType{
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
	variants := []struct {
		name  string
		opts  model.OMOptions
		exact bool
	}{
		{"prom", model.DefaultOMOptions(g), true},
		{"prom-delta50", promSimilar(g, 50), false},
		{"prom-delta0", promSimilar(g, 0), false},
	}
	for _, depth := range []int{3, 4, 5} {
		b.Run(fmt.Sprintf("depth%d", depth), func(b *testing.B) {
			searchers := []engine.Searcher{engine.NewAlphaBeta(g, strongest, engine.DefaultAlphaBetaOptions(g))}
			for _, v := range variants {
				s, err := model.NewPromSearch(g, strongest, prom, v.opts)
				if err != nil {
					b.Fatal(err)
				}
				searchers = append(searchers, s)
			}
			spent := make([]time.Duration, len(searchers))
			moves := 0
			var abNodes, abMinimal uint64
			var exact model.PromEffort
			for b.Loop() {
				for _, p := range positions {
					for i, s := range searchers {
						s.NewGame()
						start := enginetest.CPUTime()
						res := s.Search(p, engine.NewControl(engine.Limits{Depth: depth}, p.ToMove()), nil)
						spent[i] += enginetest.CPUTime() - start
						if i == 0 {
							abNodes += res.Nodes
							for d := 1; d <= depth; d++ {
								abMinimal += model.MinimalTreeLeaves(len(p.AppendMoves(nil)), d)
							}
						} else if variants[i-1].exact {
							promAddEffort(&exact, s.(*model.PromSearch).Effort())
						}
					}
					moves++
				}
			}
			perMove := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 / float64(moves) }
			b.ReportMetric(perMove(spent[0]), "ab-ms/move")
			if exact.Nodes > 0 {
				// Where exact PrOM's nodes go, against alpha-beta's (see PromEffort), and the ratio of the
				// minimal trees: what exact PrOM must prove against what alpha-beta must, every iteration.
				var probes uint64
				for _, n := range exact.ProbeNodes {
					probes += n
				}
				ratio := func(n uint64) float64 { return float64(n) / float64(abNodes) }
				b.ReportMetric(ratio(exact.Nodes), "prom-nodes/ab")
				b.ReportMetric(ratio(probes), "type-probe-nodes/ab")
				b.ReportMetric(ratio(exact.LeafNodes), "leaf-nodes/ab")
				b.ReportMetric(float64(exact.MinimalLeaves)/float64(abMinimal), "minimal-trees-prom/ab")
				b.ReportMetric(float64(abNodes)/float64(moves), "ab-nodes/move")
			}
			for i, v := range variants {
				b.ReportMetric(perMove(spent[i+1]), v.name+"-ms/move")
				b.ReportMetric(perMove(spent[i+1])/perMove(spent[0]), v.name+"/ab")
			}
		})
	}
}

// promSimilar is the default PrOM options with similarity pruning under the assumed bound delta.
func promSimilar(g games.Game, delta float64) model.OMOptions {
	o := model.DefaultOMOptions(g)
	o.SimilarityPruning, o.SimilarityBound = true, delta
	return o
}

// promAddEffort adds the counts of one search to a total.
func promAddEffort(total *model.PromEffort, e model.PromEffort) {
	total.Nodes += e.Nodes
	total.ModelNodes += e.ModelNodes
	total.MaxNodes += e.MaxNodes
	total.MinNodes += e.MinNodes
	total.TableHits += e.TableHits
	total.MinimalLeaves += e.MinimalLeaves
	total.LeafNodes += e.LeafNodes
	total.Extractions += e.Extractions
	if total.ProbeNodes == nil {
		total.Probes, total.ProbeNodes = make([]uint64, len(e.Probes)), make([]uint64, len(e.ProbeNodes))
	}
	for k := range e.Probes {
		total.Probes[k] += e.Probes[k]
		total.ProbeNodes[k] += e.ProbeNodes[k]
	}
}
