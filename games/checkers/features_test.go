// Feature tests: hand-computed vectors, colour symmetry, and the feature benchmark.

package checkers

import (
	"fmt"
	"math/bits"
	"strings"
	"testing"

	"dossier/games"
)

func TestFeaturesKnownPositions(t *testing.T) {
	tests := []struct {
		fen  string
		want map[int]float64 // features not listed are 0
	}{
		{StartFEN, map[int]float64{FeatTotal: 24}},
		{"B:W6,32:B1,28", map[int]float64{FeatTotal: 4, FeatMobility: -1, FeatThreats: 1, FeatDogHole: 1, FeatEdge: 1}},
		{"W:WK14,30,32:B2,3,7,K18", map[int]float64{FeatMen: -1, FeatTotal: 7, FeatAdvance: -1, FeatBridge: 1, FeatOreo: -1,
			FeatMainDiagonal: -1, FeatDoubleCorner: 1, FeatBacked: -1, FeatIsolated: 2}},
		{"B:W29:B12,9", map[int]float64{FeatMen: 1, FeatTotal: 3, FeatAdvance: 4, FeatBackRank: -1, FeatRunaway: 1,
			FeatMobility: 2, FeatDoubleCorner: 1, FeatMainDiagonal: -1, FeatBacked: -1, FeatIsolated: 1}},
		{"W:WK5,K10:B20,25", map[int]float64{FeatMen: -2, FeatKings: 2, FeatTotal: 4, FeatAdvance: -10, FeatCentreKings: 1,
			FeatNearCrown: -1, FeatRunaway: -2, FeatMobility: 3, FeatDoubleCorner: 2, FeatMainDiagonal: -1}},
	}
	names := Game{}.FeatureNames()
	for _, tc := range tests {
		t.Run(tc.fen, func(t *testing.T) {
			p := mustFEN(t, tc.fen)
			got := make([]float64, NumFeatures)
			p.Features(got)
			for i := range got {
				if got[i] != tc.want[i] {
					t.Errorf("%s = %v, want %v", names[i], got[i], tc.want[i])
				}
			}
		})
	}
}

// mirrorFEN swaps the colours and turns the board round (square s becomes 33-s), side to move included.
func mirrorFEN(p *Position) string {
	var b board
	b.side = p.board.side ^ 1
	for s := games.First; s <= games.Second; s++ {
		for pieces := p.board.pieces[s]; pieces != 0; pieces &= pieces - 1 {
			sq := bits.TrailingZeros32(pieces)
			bit := uint32(1) << (31 - sq)
			b.pieces[s^1] |= bit
			if p.board.kings>>sq&1 != 0 {
				b.kings |= bit
			}
		}
	}
	return newPosition(b).FEN()
}

// TestFeaturesColourSymmetry checks that every feature is defined the same way for both colours: the
// mirrored position, with the other colour to move, has the same feature vector.
func TestFeaturesColourSymmetry(t *testing.T) {
	var buf [games.MaxMoves]games.Move
	got, mirrored := make([]float64, NumFeatures), make([]float64, NumFeatures)
	names := Game{}.FeatureNames()
	positions := 0
	for g := 0; g < 50; g++ {
		p := StartPosition()
		seed := uint64(g) + 99
		for ply := 0; ply < 150; ply++ {
			q := mustFEN(t, mirrorFEN(p))
			p.Features(got)
			q.Features(mirrored)
			for i := range got {
				if got[i] != mirrored[i] {
					t.Fatalf("%s: %s = %v but %v in the mirror %s", p.FEN(), names[i], got[i], mirrored[i], q.FEN())
				}
			}
			if n, m := p.CountMoves(), q.CountMoves(); n != m {
				t.Fatalf("%s has %d moves, its mirror %s %d", p.FEN(), n, q.FEN(), m)
			}
			positions++
			moves := p.AppendMoves(buf[:0])
			if len(moves) == 0 {
				break
			}
			seed = seed*6364136223846793005 + 1442695040888963407
			p.Play(moves[int(seed>>33)%len(moves)])
		}
	}
	t.Logf("%d positions checked", positions)
}

func TestFeatureDocs(t *testing.T) {
	names, docs := Game{}.FeatureNames(), FeatureDocs()
	seen := map[string]bool{}
	for i, name := range names {
		if name == "" || docs[i] == "" || seen[name] || strings.ContainsAny(name, " ,") {
			t.Errorf("feature %d: name %q doc %q", i, name, docs[i])
		}
		seen[name] = true
	}
	for i, want := range map[int]string{FeatMen: "men", FeatKings: "kings", FeatTotal: "tot"} {
		if names[i] != want {
			t.Errorf("feature %d is %q, want %q", i, names[i], want)
		}
	}
}

func BenchmarkFeatures(b *testing.B) {
	var positions []*Position
	var buf [games.MaxMoves]games.Move
	p := StartPosition()
	for ply := 0; ply < 60; ply++ {
		moves := p.AppendMoves(buf[:0])
		if len(moves) == 0 {
			break
		}
		p.Play(moves[ply*7%len(moves)])
		positions = append(positions, mustFEN(b, p.FEN()))
	}
	dst := make([]float64, NumFeatures)
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		positions[i%len(positions)].Features(dst)
	}
}

func ExamplePosition_Features() {
	p := StartPosition()
	dst := make([]float64, NumFeatures)
	p.Features(dst)
	fmt.Println(Game{}.FeatureNames()[FeatTotal], dst[FeatTotal], dst[FeatMen])
	// Output: tot 24 0
}
