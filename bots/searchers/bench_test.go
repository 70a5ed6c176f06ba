// Benchmarks: fixed-depth searches of every preset from the start, and the cost of the player's view.

package searchers

import (
	"testing"

	"dossier/bots/presets"
	"dossier/engine"
	"dossier/games"
	"dossier/games/checkers"
)

// benchDepth is the search depth of BenchmarkPresetSearch per game, a few milliseconds to a second each.
var benchDepth = map[string]int{"chess": 6, "checkers": 9, "connect4": 9, "tictactoe": 9}

func BenchmarkPresetSearch(b *testing.B) {
	for _, g := range bookedGames() {
		for _, preset := range presets.Names(g.Name()) {
			b.Run(g.Name()+"/"+preset, func(b *testing.B) {
				s := mustSearcher(b, g, Config{Preset: preset, Depth: benchDepth[g.Name()], HashMB: 16})
				var nodes uint64
				for b.Loop() {
					s.NewGame()
					nodes += searchLimited(s, g.Start(), engine.Limits{Nodes: 5_000_000}).Nodes
				}
				b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
			})
		}
	}
}

func BenchmarkPlayerViewFeatures(b *testing.B) {
	g := checkers.Game{}
	partner, sign, _ := presets.MirrorTable(g)
	p := mustPosition(b, g, "W:W27,19,18,11,7,6,5:B28,26,25,20,17,10,9,4,3,2")
	x := make([]float64, checkers.NumFeatures)
	var viewed games.Position = &playerView{Position: p, root: games.First, spec: ViewSpec{partner, sign},
		scratch: make([]float64, len(partner))}
	for name, q := range map[string]games.Position{"plain": p, "view": viewed} {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				q.Features(x)
			}
		})
	}
}
