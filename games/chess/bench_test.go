// Benchmarks: perft speed (reported as leaf nodes per second), Play/Undo, feature extraction.

package chess

import (
	"fmt"
	"testing"
	"time"

	"dossier/games"
)

const kiwipeteFEN = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"

func benchmarkPerft(b *testing.B, fen string, depth int) {
	p, err := ParseFEN(fen)
	if err != nil {
		b.Fatal(err)
	}
	var nodes uint64
	start := time.Now()
	for b.Loop() {
		nodes += p.Perft(depth)
	}
	b.ReportMetric(float64(nodes)/time.Since(start).Seconds()/1e6, "Mnodes/s")
}

// BenchmarkPerftStart times perft 5 and 6 from the start position (119,060,324 leaves at depth 6).
func BenchmarkPerftStart(b *testing.B) {
	for _, depth := range []int{5, 6} {
		b.Run(fmt.Sprintf("depth%d", depth), func(b *testing.B) { benchmarkPerft(b, StartFEN, depth) })
	}
}

// BenchmarkPerftKiwipete times perft 4 and 5 of Kiwipete, rich in castling, pins and en passant.
func BenchmarkPerftKiwipete(b *testing.B) {
	for _, depth := range []int{4, 5} {
		b.Run(fmt.Sprintf("depth%d", depth), func(b *testing.B) { benchmarkPerft(b, kiwipeteFEN, depth) })
	}
}

// BenchmarkMakeUnmake times one Play plus Undo through the concrete type, averaged over Kiwipete's 48 moves.
func BenchmarkMakeUnmake(b *testing.B) {
	p, err := ParseFEN(kiwipeteFEN)
	if err != nil {
		b.Fatal(err)
	}
	var buf [games.MaxMoves]games.Move
	moves := p.AppendMoves(buf[:0])
	i := 0
	for b.Loop() {
		p.Play(moves[i])
		p.Undo()
		i++
		if i == len(moves) {
			i = 0
		}
	}
}

// BenchmarkGenerate times listing the legal moves of Kiwipete.
func BenchmarkGenerate(b *testing.B) {
	p, err := ParseFEN(kiwipeteFEN)
	if err != nil {
		b.Fatal(err)
	}
	var buf [games.MaxMoves]games.Move
	for b.Loop() {
		_ = p.AppendMoves(buf[:0])
	}
}
