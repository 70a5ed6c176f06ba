// Benchmarks of walking and evaluating game trees through the games interface.

package gametree

import (
	"math/rand/v2"
	"testing"

	"dossier/games"
)

// BenchmarkPerft walks a random tree of depth 6 and branching 2-6 through the interface.
func BenchmarkPerft(b *testing.B) {
	p := Random(rand.New(rand.NewPCG(1, 2)), 6, 2, 6, 2, 100).Start()
	for b.Loop() {
		games.Perft(p, 6)
	}
}

// BenchmarkFeatures measures one feature extraction, log counting included.
func BenchmarkFeatures(b *testing.B) {
	p := MustParse(example).StartPosition()
	dst := make([]float64, 2)
	for b.Loop() {
		p.Features(dst)
	}
}
