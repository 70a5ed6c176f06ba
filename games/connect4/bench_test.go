// Benchmarks of Connect-Four move generation (perft) and feature extraction.

package connect4

import (
	"testing"

	"dossier/games"
)

// BenchmarkPerft measures the bitboard perft from the empty 7x6 board, reporting leaves per second.
func BenchmarkPerft(b *testing.B) {
	p, _ := Game{}.StartPosition()
	var leaves uint64
	for b.Loop() {
		leaves += p.Perft(8)
	}
	b.ReportMetric(float64(leaves)/b.Elapsed().Seconds(), "leaves/s")
}

// BenchmarkPerftInterface measures perft through the games.Position interface, making every leaf move.
func BenchmarkPerftInterface(b *testing.B) {
	p, _ := Game{}.StartPosition()
	var leaves uint64
	for b.Loop() {
		leaves += games.InterfacePerft(p, 6)
	}
	b.ReportMetric(float64(leaves)/b.Elapsed().Seconds(), "leaves/s")
}

// BenchmarkFeatures measures one feature extraction on a middlegame position.
func BenchmarkFeatures(b *testing.B) {
	p := play(b, "4453123376")
	dst := make([]float64, NumFeatures)
	for b.Loop() {
		p.Features(dst)
	}
}

// BenchmarkPlayUndo measures a drop and its take-back.
func BenchmarkPlayUndo(b *testing.B) {
	p := play(b, "4453123376")
	m := ColumnMove(3)
	for b.Loop() {
		p.Play(m)
		p.Undo()
	}
}
