// Benchmarks of tic-tac-toe move generation (perft of the whole game tree) and feature extraction.

package tictactoe

import (
	"testing"

	"dossier/games"
)

// BenchmarkPerft counts the whole game tree's 127,872 leaves at depth 9 on the bitboards.
func BenchmarkPerft(b *testing.B) {
	p := &Position{}
	for b.Loop() {
		p.Perft(9)
	}
}

// BenchmarkPerftInterface counts the same leaves through the games.Position interface.
func BenchmarkPerftInterface(b *testing.B) {
	p := &Position{}
	for b.Loop() {
		games.InterfacePerft(p, 9)
	}
}

// BenchmarkFeatures measures one feature extraction on a position with four stones.
func BenchmarkFeatures(b *testing.B) {
	p := play(b, "b2 a1 c3 a3")
	dst := make([]float64, NumFeatures)
	for b.Loop() {
		p.Features(dst)
	}
}
