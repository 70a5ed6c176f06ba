// Tests of the feature vector: colour symmetry, hand-counted terms, and its speed.

package chess

import (
	"math"
	"strings"
	"testing"
)

// mirrorFEN flips the board top to bottom and swaps the colours (and the side to move), which must leave
// every side-to-move feature unchanged.
func mirrorFEN(fen string) string {
	f := strings.Fields(fen)
	ranks := strings.Split(f[0], "/")
	for i, j := 0, len(ranks)-1; i < j; i, j = i+1, j-1 {
		ranks[i], ranks[j] = ranks[j], ranks[i]
	}
	swap := func(s string) string {
		return strings.Map(func(r rune) rune {
			switch {
			case r >= 'a' && r <= 'z':
				return r - 'a' + 'A'
			case r >= 'A' && r <= 'Z':
				return r - 'A' + 'a'
			}
			return r
		}, s)
	}
	f[0] = swap(strings.Join(ranks, "/"))
	if f[1] == "w" {
		f[1] = "b"
	} else {
		f[1] = "w"
	}
	if f[2] != "-" {
		c := swap(f[2])
		var out []byte
		for _, l := range "KQkq" {
			if strings.ContainsRune(c, l) {
				out = append(out, byte(l))
			}
		}
		f[2] = string(out)
	}
	if f[3] != "-" {
		f[3] = string([]byte{f[3][0], '1' + '8' - f[3][1]})
	}
	return strings.Join(f, " ")
}

func featuresOf(t *testing.T, fen string) map[string]float64 {
	t.Helper()
	p := mustFEN(t, fen)
	v := make([]float64, len(Game{}.FeatureNames()))
	p.Features(v)
	out := make(map[string]float64, len(v))
	for i, name := range (Game{}).FeatureNames() {
		out[name] = v[i]
	}
	return out
}

// TestFeatureNamesAndDocs checks that every feature has a unique name and a description.
func TestFeatureNamesAndDocs(t *testing.T) {
	names, docs := Game{}.FeatureNames(), FeatureDocs()
	if len(names) != len(docs) || len(names) < 40 || len(names) > 70 {
		t.Fatalf("%d names, %d docs", len(names), len(docs))
	}
	seen := map[string]bool{}
	for i, n := range names {
		if seen[n] || docs[i] == "" {
			t.Fatalf("feature %q duplicated or undocumented", n)
		}
		seen[n] = true
	}
}

// TestFeaturesColourSymmetric checks that mirroring the board and swapping colours changes no feature.
func TestFeaturesColourSymmetric(t *testing.T) {
	fens := []string{StartFEN, kiwipeteFEN,
		"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
		"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
		"rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 2",
		"r1bq1rk1/pp2ppbp/2np1np1/8/3NP3/2N1BP2/PPPQ2PP/R3KB1R w KQ - 3 9"}
	for _, fen := range fens {
		a, b := featuresOf(t, fen), featuresOf(t, mirrorFEN(fen))
		for name, v := range a {
			if math.Abs(v-b[name]) > 1e-9 {
				t.Errorf("%s: %s = %v but %v in the mirrored position %s", fen, name, v, b[name], mirrorFEN(fen))
			}
		}
	}
}

// TestFeaturesStartPosition checks that only tempo differs between the sides at the start.
func TestFeaturesStartPosition(t *testing.T) {
	for name, v := range featuresOf(t, StartFEN) {
		want := 0.0
		if name == "tempo" {
			want = 1
		}
		if v != want {
			t.Errorf("start position: %s = %v, want %v", name, v, want)
		}
	}
}

// TestFeatureTerms compares features with values counted by hand.
func TestFeatureTerms(t *testing.T) {
	tests := []struct {
		name string
		fen  string
		want map[string]float64
	}{
		{"pawn endgame: phase 0, passed, doubled, isolated", "4k3/8/8/8/8/P7/P6p/4K3 w - - 0 1", map[string]float64{
			// White: a2, a3 (doubled, both isolated; a3 passed, a2 behind it); black h2 passed on its 7th rank.
			"pawn_mg": 0, "pawn_eg": 1, "doubled_pawns_eg": 1, "isolated_pawns_eg": 2 - 1,
			"passed_rank3_eg": 1, "passed_rank7_eg": -1, "passed_free_eg": 0, "knight_mg": 0,
		}},
		{"material and bishop pair at full phase", "rn1qkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", map[string]float64{
			"bishop_mg": 1 * 23.0 / 24, "bishop_eg": 1 * 1.0 / 24, "bishop_pair_mg": 23.0 / 24, "pawn_mg": 0,
		}},
		{"rooks on open and semi-open files, seventh rank", "4k3/R6p/8/8/8/8/P7/4K2R b - - 0 1", map[string]float64{
			// Black to move: black has no rooks, white has Ra7 (semi-open a-file? no: own pawn a2) and Rh1
			// (semi-open: only black's h7 pawn).
			"rook_semiopen_file_mg": -1 * 4.0 / 24, "rook_open_file_mg": 0, "rook_seventh_mg": -4.0 / 24,
		}},
		{"knight outpost and king attack", "r5k1/5ppp/8/3N4/4P3/8/8/6K1 w - - 0 1", map[string]float64{
			// Nd5 defended by e4, no black pawn can attack d5; it attacks no square of g8's zone.
			"outposts_mg": 3.0 / 24, "king_attackers_mg": 0,
		}},
		{"queen and knight attack the king's zone", "6k1/5ppp/8/6N1/8/8/8/3Q2K1 w - - 0 1", map[string]float64{
			// Ng5 attacks f7 and h7 (2 zone squares, weight 2 each); Qd1 attacks g4? no: d1-g4 diagonal reaches
			// g4 and h5, outside the zone of g8 (f7 g7 h7 f8 h8 g8).
			"king_attackers_mg": 1 * 5.0 / 24, "king_attack_mg": 4 * 5.0 / 24, "king_danger_mg": 4 * 5.0 / 24,
		}},
		{"pawn shield and open files near the king", "3q2k1/5ppp/8/8/8/8/5PP1/3Q2K1 w - - 0 1", map[string]float64{
			// White's g1 king has f2 and g2 in front and no pawn on the h-file; black's g8 king has f7 g7 h7.
			"pawn_shield_mg": -1 * 8.0 / 24, "king_open_files_mg": 1 * 8.0 / 24, "pawn_eg": -1 * 16.0 / 24,
		}},
		{"mop-up: black's bare king in the corner", "k7/8/2K5/8/8/8/8/7Q b - - 0 1", map[string]float64{
			// Black to move, so White's term counts negative: a8 is 3+3 steps from the centre, the kings
			// 2+2 apart: 10*6 + 4*(14-4).
			"mop_up": -(10*6 + 4*10),
		}},
		{"mop-up: a bare king in the centre, a lone rook", "8/8/8/3k4/8/8/8/R3K3 w - - 0 1", map[string]float64{
			// d5 is a central square; the kings are 1+4 apart.
			"mop_up": 4 * (14 - 5),
		}},
		{"no mop-up with a bishop alone", "8/8/8/3k4/8/8/8/B3K3 w - - 0 1", map[string]float64{
			"mop_up": 0,
		}},
		{"no mop-up while the weaker king has a pawn", "8/8/8/3k4/3p4/8/8/R3K3 w - - 0 1", map[string]float64{
			"mop_up": 0,
		}},
		{"passed pawn with the kings near its stop square", "8/4k3/8/3P4/2K5/8/8/8 w - - 0 1", map[string]float64{
			// d5 is on white's 5th rank (factor 2); its stop square d6 is 2 from c4 and 1 from e7.
			"passed_rank5_eg": 1, "passed_free_eg": 1, "passed_blocked_eg": 0,
			"passed_king_own_eg": 2 * 2, "passed_king_enemy_eg": 2 * 1,
		}},
		{"passed pawn blocked by the enemy king", "8/8/3k4/3P4/2K5/8/8/8 b - - 0 1", map[string]float64{
			// Black to move: white's d5 is blocked by the king on d6 (distance 0), c4 is 2 away.
			"passed_free_eg": 0, "passed_blocked_eg": -1, "passed_king_own_eg": -4, "passed_king_enemy_eg": 0,
		}},
		{"a safe rook check", "6k1/8/8/8/8/8/8/R3K3 w - - 0 1", map[string]float64{
			// Ra1 reaches a8, from which it would check g8 along the empty 8th rank; black has no piece.
			"safe_checks_rook_mg": 2.0 / 24, "safe_checks_queen_mg": 0, "safe_checks_knight_mg": 0,
		}},
		{"safe and unsafe rook checks", "1r4k1/8/8/8/8/8/8/R3K3 w - - 0 1", map[string]float64{
			// White's a8 no longer checks (b8 blocks the rank); black's Rb8 checks safely from e8, while
			// b1 (on e1's rank up to a1) is covered by Ra1.
			"safe_checks_rook_mg": -1 * 4.0 / 24,
		}},
		{"opposite-coloured bishops scale the endgame by half", "4k3/p7/3b4/8/8/3B4/P1P5/4K3 w - - 0 1", map[string]float64{
			"pawn_eg": 1 * 22.0 / 24 * 0.5, "bishop_eg": 0,
		}},
		{"a lone knight cannot win: one eighth", "4k3/8/8/8/8/8/8/2N1K3 w - - 0 1", map[string]float64{
			"knight_eg": 23.0 / 24 * 0.125,
		}},
		{"rook against bishop without pawns: one quarter", "4k3/8/8/4b3/8/8/8/R3K3 b - - 0 1", map[string]float64{
			"rook_eg": -21.0 / 24 * 0.25, "bishop_eg": 21.0 / 24 * 0.25,
		}},
		{"same-coloured bishops with pawns are not scaled", "4k3/p7/3b4/8/8/2B5/P1P5/4K3 w - - 0 1", map[string]float64{
			"pawn_eg": 1 * 22.0 / 24,
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := featuresOf(t, tc.fen)
			for name, want := range tc.want {
				v, ok := got[name]
				if !ok {
					t.Fatalf("no feature %q", name)
				}
				if math.Abs(v-want) > 1e-9 {
					t.Errorf("%s = %v, want %v", name, v, want)
				}
			}
		})
	}
}

// TestTableFeatures checks that the sparse table features, weighted by the tables' values, add up to the
// features that sum the tables (pst_mg, mobility_rook_eg, ...), and that they are colour-symmetric.
func TestTableFeatures(t *testing.T) {
	entries := TableEntries()
	if len(entries) != 2*TableSize {
		t.Fatalf("%d entries, want %d", len(entries), 2*TableSize)
	}
	fens := []string{StartFEN, kiwipeteFEN,
		"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
		"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
		"4k3/8/8/4b3/8/8/8/R3K3 b - - 0 1",
		"r1bq1rk1/pp2ppbp/2np1np1/8/3NP3/2N1BP2/PPPQ2PP/R3KB1R w KQ - 3 9"}
	for _, fen := range fens {
		t.Run(fen, func(t *testing.T) {
			features := featuresOf(t, fen)
			index, value := mustFEN(t, fen).TableFeatures(nil, nil)
			sums := map[string]float64{}
			for k, i := range index {
				sums[entries[i].Feature] += entries[i].Value * value[k]
			}
			for _, part := range tableParts {
				for _, name := range []string{part.feature + "_mg", part.feature + "_eg"} {
					if math.Abs(sums[name]-features[name]) > 1e-9 {
						t.Errorf("%s: the table features sum to %v, the feature is %v", name, sums[name], features[name])
					}
				}
			}
			mi, mv := mustFEN(t, mirrorFEN(fen)).TableFeatures(nil, nil)
			if len(mi) != len(index) {
				t.Fatalf("%d table features, %d in the mirrored position", len(index), len(mi))
			}
			for k := range mi {
				if mi[k] != index[k] || math.Abs(mv[k]-value[k]) > 1e-9 {
					t.Errorf("table feature %s: %v, %s %v in the mirrored position", entries[index[k]].Name, value[k], entries[mi[k]].Name, mv[k])
				}
			}
		})
	}
}

// BenchmarkFeatures times one feature extraction.
func BenchmarkFeatures(b *testing.B) {
	for _, fen := range []string{StartFEN, kiwipeteFEN} {
		p, err := ParseFEN(fen)
		if err != nil {
			b.Fatal(err)
		}
		dst := make([]float64, len(featureNames))
		b.Run(strings.Fields(fen)[0][:8], func(b *testing.B) {
			for b.Loop() {
				p.Features(dst)
			}
		})
	}
}
