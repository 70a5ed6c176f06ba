// Perft tests against the published counts and the shared tricky positions, and the perft benchmark.

package checkers

import (
	"testing"

	"dossier/games"
	"dossier/games/gametest"
)

// startPerft is perft from the start position, depths 1-12, counting captures of the same pieces by
// different routes separately (Aart Bik's figures, OEIS A133046).
var startPerft = []uint64{7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963680, 18391564, 85242128, 388623673}

func TestPerftStart(t *testing.T) {
	maxDepth := 10
	if !testing.Short() {
		maxDepth = 12
	}
	gametest.CheckPerft(t, StartPosition(), startPerft, maxDepth)
}

func TestPerftTrickyPositions(t *testing.T) {
	// From the shared README: positions that catch move-generator bugs, with the perft counts of two
	// independent generators.
	tests := []struct {
		name, fen string
		want      []uint64
	}{
		{"king multi-jump passes its own start square", "B:W18,26,27,25,11,19:BK15", []uint64{5, 26, 68, 414, 902, 5138}},
		{"king captures 4 and ends on its start square", "W:WK14:B19,18,11,10", []uint64{2}},
		{"man crowned by a capture stops", "B:W26,27:B22", []uint64{1, 2, 4}},
		{"middlegame", "W:W27,19,18,11,7,6,5:B28,26,25,20,17,10,9,4,3,2", []uint64{9, 76, 458, 2509, 11995, 61781, 255427, 1314029}},
		{"kings", "B:WK10,K19,K23,30:BK14,K22,K27,3", []uint64{2, 2, 14, 82, 458, 2935, 18139}},
		{"men about to crown", "W:W6,7,8:B2,3,K30", []uint64{2, 6, 17, 63, 186, 883}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := ParseFEN(tc.fen)
			if err != nil {
				t.Fatal(err)
			}
			gametest.CheckPerft(t, p, tc.want, len(tc.want))
			if !gametest.CheckPosition(t, Game{}, p) {
				t.Fatalf("%s fails the conformance checks", tc.fen)
			}
		})
	}
}

// TestPerftDuplicateRoutes checks that a king's two routes around the same four pieces are two moves.
func TestPerftDuplicateRoutes(t *testing.T) {
	p, err := ParseFEN("W:WK14:B19,18,11,10")
	if err != nil {
		t.Fatal(err)
	}
	var buf [games.MaxMoves]games.Move
	got := gametest.MoveSet(p, p.AppendMoves(buf[:0]))
	for _, want := range []string{"14x23x16x7x14", "14x7x16x23x14"} {
		if !got[want] {
			t.Errorf("missing %s among %v", want, got)
		}
	}
	if _, err := p.ParseMove("14x14"); err == nil {
		t.Errorf("14x14 parsed although two routes match")
	}
}

func BenchmarkPerft(b *testing.B) {
	p := StartPosition()
	var nodes uint64
	for b.Loop() {
		nodes += p.Perft(10)
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
}

// BenchmarkPerft12 is the brief's speed target: perft(12) from the start, single-threaded.
func BenchmarkPerft12(b *testing.B) {
	p := StartPosition()
	var nodes uint64
	for b.Loop() {
		nodes += p.Perft(12)
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
}
