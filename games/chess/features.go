// The feature vector of a position for linear evaluation functions, tapered by game phase.

package chess

// Every feature is "mine minus theirs" from the side to move's point of view. Terms whose value differs
// between middlegame and endgame come as two features, name_mg = raw*phase and name_eg = raw*(1-phase),
// where phase = min(24, non-pawn material)/24 with knight and bishop 1, rook 2, queen 4 (1 at the start,
// 0 with only kings and pawns); a weight vector over them is a tapered evaluation. Counts are in pieces or
// squares, the piece-square sums in centipawns, so a weight of 1 on pst_mg/pst_eg is already sensible.

// taper says how a raw term becomes features.
type taper uint8

const (
	taperBoth taper = iota // name_mg and name_eg
	taperMG                // name_mg only (a middlegame term)
	taperEG                // name_eg only (an endgame term)
	taperNone              // name, untapered
)

// Raw per-side terms, in feature order.
const (
	rawPawns = iota
	rawKnights
	rawBishops
	rawRooks
	rawQueens
	rawBishopPair
	rawPSTMG
	rawPSTEG
	rawMobilityKnight
	rawMobilityBishop
	rawMobilityRook
	rawMobilityQueen
	rawKingAttack
	rawKingAttackers
	rawKingDanger
	rawPawnShield
	rawKingOpenFiles
	rawDoubled
	rawIsolated
	rawBackward
	rawConnected
	rawPassed2
	rawPassed3
	rawPassed4
	rawPassed5
	rawPassed6
	rawPassed7
	rawPassedFree
	rawRookOpenFile
	rawRookSemiOpenFile
	rawRookSeventh
	rawPawnThreats
	rawMinorThreats
	rawSpace
	rawOutposts
	rawTempo
	rawMopUp
	numRaw
)

// rawSpecs names and documents the raw terms (one line each) and says how each is tapered.
var rawSpecs = [numRaw]struct {
	name  string
	taper taper
	doc   string
}{
	{"pawn", taperBoth, "number of pawns"},
	{"knight", taperBoth, "number of knights"},
	{"bishop", taperBoth, "number of bishops"},
	{"rook", taperBoth, "number of rooks"},
	{"queen", taperBoth, "number of queens"},
	{"bishop_pair", taperBoth, "1 when the side has two or more bishops"},
	{"pst", taperMG, "sum of middlegame piece-square values (centipawns; centralisation, pawn advance, king shelter)"},
	{"pst", taperEG, "sum of endgame piece-square values (centipawns; centralisation, pawn advance, active king)"},
	{"mobility_knight", taperBoth, "squares knights attack that hold no own piece and no enemy pawn attacks"},
	{"mobility_bishop", taperBoth, "the same for bishops (x-raying nothing)"},
	{"mobility_rook", taperBoth, "the same for rooks"},
	{"mobility_queen", taperBoth, "the same for queens"},
	{"king_attack", taperMG, "attacks on the enemy king's zone (king square and neighbours), knight/bishop 2, rook 3, queen 5 per square"},
	{"king_attackers", taperMG, "number of knights, bishops, rooks and queens attacking the enemy king's zone"},
	{"king_danger", taperMG, "king_attackers times king_attack: grows fast when several pieces join an attack"},
	{"pawn_shield", taperMG, "own pawns on the king's and adjacent files, one or two ranks in front of the king"},
	{"king_open_files", taperMG, "files among the king's and adjacent files with no own pawn (a weakness)"},
	{"doubled_pawns", taperBoth, "pawns with another own pawn behind them on the same file"},
	{"isolated_pawns", taperBoth, "pawns with no own pawn on an adjacent file"},
	{"backward_pawns", taperBoth, "pawns whose stop square no own pawn can defend and an enemy pawn attacks"},
	{"connected_pawns", taperBoth, "pawns defended by an own pawn or beside one on the same rank"},
	{"passed_rank2", taperBoth, "passed pawns on the side's 2nd rank"},
	{"passed_rank3", taperBoth, "passed pawns on the 3rd rank"},
	{"passed_rank4", taperBoth, "passed pawns on the 4th rank"},
	{"passed_rank5", taperBoth, "passed pawns on the 5th rank"},
	{"passed_rank6", taperBoth, "passed pawns on the 6th rank"},
	{"passed_rank7", taperBoth, "passed pawns on the 7th rank"},
	{"passed_free", taperEG, "passed pawns whose next square is empty"},
	{"rook_open_file", taperMG, "rooks on a file without pawns"},
	{"rook_semiopen_file", taperMG, "rooks on a file with enemy pawns but no own pawn"},
	{"rook_seventh", taperBoth, "rooks on the side's 7th rank"},
	{"pawn_threats", taperNone, "enemy pieces (not pawns) attacked by own pawns"},
	{"minor_threats", taperNone, "enemy rooks and queens attacked by own knights and bishops"},
	{"space", taperMG, "safe squares behind own pawns on files c-f, ranks 2-4 (not attacked by enemy pawns)"},
	{"outposts", taperMG, "knights and bishops on ranks 4-6 defended by a pawn that no enemy pawn can ever attack"},
	{"tempo", taperNone, "1 for the side to move (so mine minus theirs is always 1)"},
	{"mop_up", taperNone, "against a bare king with a rook's worth of pieces or more: 10 per step of the enemy king from the centre (Manhattan, 0-6) plus 4 per step the kings are closer than 14 apart"},
}

// featureSpec maps a feature to its raw term and scaling.
type featureSpec struct {
	raw   int
	scale taper // taperMG: times phase; taperEG: times 1-phase; taperNone: unscaled
	name  string
	doc   string
}

var (
	featureSpecs []featureSpec
	featureNames []string
	// featureRaw and featureScale flatten featureSpecs for Features' inner loop.
	featureRaw   [len(rawSpecs) * 2]uint8
	featureScale [len(rawSpecs) * 2]uint8
)

func init() {
	for i, r := range rawSpecs {
		switch r.taper {
		case taperBoth:
			featureSpecs = append(featureSpecs,
				featureSpec{i, taperMG, r.name + "_mg", r.doc + ", times phase"},
				featureSpec{i, taperEG, r.name + "_eg", r.doc + ", times 1-phase"})
		case taperMG:
			featureSpecs = append(featureSpecs, featureSpec{i, taperMG, r.name + "_mg", r.doc + ", times phase"})
		case taperEG:
			featureSpecs = append(featureSpecs, featureSpec{i, taperEG, r.name + "_eg", r.doc + ", times 1-phase"})
		default:
			featureSpecs = append(featureSpecs, featureSpec{i, taperNone, r.name, r.doc})
		}
	}
	for i, f := range featureSpecs {
		featureNames = append(featureNames, f.name)
		featureRaw[i], featureScale[i] = uint8(f.raw), uint8(f.scale)
	}
	initFeatureTables()
}

// FeatureDocs returns a one-line description of each feature, parallel to Game.FeatureNames.
func FeatureDocs() []string {
	docs := make([]string, len(featureSpecs))
	for i, f := range featureSpecs {
		docs[i] = f.doc
	}
	return docs
}

// Feature tables, filled once.
var (
	pstMG, pstEG  [16][64]int32 // by piece code (colour<<3 | type) and square, from that piece's side
	relativeRank  [2][8]uint64  // relativeRank[side][r]: the rank that is the side's r-th (0-based)
	shieldSquares [2][64]uint64 // the king's and adjacent files, one and two ranks in front of a king on sq
)

// centreness is 3 on d4-e5, 2 on the ring around them, down to 0 on the edge.
func centreness(sq int) int32 {
	f, r := sq&7, sq>>3
	df := max(3-f, f-4)
	dr := max(3-r, r-4)
	return 3 - int32(max(df, dr))
}

// MopUpMax is the largest mop_up term: a king in the corner with the other king next to it.
const MopUpMax = 10*6 + 4*13

// mopUp scores a bare king at loser against the king at winner: 10 per step of loser from the centre
// (Manhattan distance to the central four squares, 0-6) and 4 per step the kings are closer than 14.
func mopUp(winner, loser int) int32 {
	f, r := loser&7, loser>>3
	fromCentre := max(3-f, f-4) + max(3-r, r-4)
	apart := abs(winner&7-f) + abs(winner>>3-r)
	return int32(10*fromCentre + 4*(14-apart))
}

func initFeatureTables() {
	for sq := 0; sq < 64; sq++ {
		f, r := sq&7, sq>>3
		c := centreness(sq)
		var mg, eg [7]int32
		if r >= 1 && r <= 6 {
			mg[Pawn] = int32(r-1) * 4
			eg[Pawn] = int32(r-1) * 10
			if (f == 3 || f == 4) && (r == 3 || r == 4) {
				mg[Pawn] += 15
			}
		}
		mg[Knight], eg[Knight] = c*12-18, c*8-12
		mg[Bishop], eg[Bishop] = c*6-9, c*5-8
		if r == 6 {
			mg[Rook] = 10
		}
		if f >= 2 && f <= 5 {
			mg[Rook] += 3
		}
		mg[Queen], eg[Queen] = c*3-5, c*6-9
		switch {
		case r == 0 && (f == 1 || f == 6):
			mg[King] = 25
		case r == 0 && (f == 0 || f == 2 || f == 7):
			mg[King] = 15
		case r == 0:
			mg[King] = 0
		default:
			mg[King] = -15 * int32(min(r, 3))
		}
		eg[King] = c*12 - 18
		for pt := Pawn; pt <= King; pt++ {
			pstMG[White<<3|pt][sq], pstEG[White<<3|pt][sq] = mg[pt], eg[pt]
			pstMG[Black<<3|pt][sq^56], pstEG[Black<<3|pt][sq^56] = mg[pt], eg[pt]
		}
		files := fileOf[sq]
		if f > 0 {
			files |= fileOf[sq-1]
		}
		if f < 7 {
			files |= fileOf[sq+1]
		}
		var front [2]uint64
		for d := 1; d <= 2; d++ {
			if r+d <= 7 {
				front[White] |= rank1 << uint(8*(r+d))
			}
			if r-d >= 0 {
				front[Black] |= rank1 << uint(8*(r-d))
			}
		}
		shieldSquares[White][sq] = files & front[White]
		shieldSquares[Black][sq] = files & front[Black]
	}
	for r := 0; r < 8; r++ {
		relativeRank[White][r] = rank1 << uint(8*r)
		relativeRank[Black][r] = rank1 << uint(8*(7-r))
	}
}

func northFill(b uint64) uint64 {
	b |= b << 8
	b |= b << 16
	return b | b<<32
}

func southFill(b uint64) uint64 {
	b |= b >> 8
	b |= b >> 16
	return b | b>>32
}

// frontSpan returns the squares strictly in front of the pieces in b, from side's point of view.
func frontSpan(b uint64, side int) uint64 {
	if side == White {
		return northFill(b << 8)
	}
	return southFill(b >> 8)
}

// adjacentFiles returns the whole files next to (not including) the files of the pieces in b.
func adjacentFiles(b uint64) uint64 {
	files := southFill(northFill(b))
	return (files&^fileA)>>1 | (files&^fileH)<<1
}

// widen adds the neighbouring files.
func widen(b uint64) uint64 { return b | (b&^fileA)>>1 | (b&^fileH)<<1 }

// Features writes the feature vector (see FeatureDocs) from the side to move's point of view into dst.
func (p *Position) Features(dst []float64) {
	var raw [2][numRaw]int32
	phase := p.st.features(&raw)
	us := int(p.st.side)
	var diff [numRaw]float64
	for i := range diff {
		diff[i] = float64(raw[us][i] - raw[us^1][i])
	}
	scales := [4]float64{taperMG: phase, taperEG: 1 - phase, taperNone: 1}
	dst = dst[:len(featureSpecs)]
	for i := range dst {
		dst[i] = diff[featureRaw[i]%numRaw] * scales[featureScale[i]&3]
	}
}

// features fills the raw terms of both sides and returns the phase.
func (s *state) features(raw *[2][numRaw]int32) float64 {
	occ := s.occupied()
	var pawns, pawnAtt, zone [2]uint64
	for c := 0; c < 2; c++ {
		pawns[c] = s.pieces[Pawn] & s.colors[c]
		pawnAtt[c] = captureWest(pawns[c], c) | captureEast(pawns[c], c)
		k := int(s.king[c])
		zone[c] = kingAttacks[k] | bit(k)
	}
	allPawns := pawns[0] | pawns[1]
	openFiles := ^southFill(northFill(allPawns))

	var pstSum [2][2]int32
	for c := 0; c < 2; c++ {
		var mg, eg int32
		for b := s.colors[c]; b != 0; b &= b - 1 {
			sq := lsb(b) & 63
			code := s.board[sq] & 15
			mg += pstMG[code][sq]
			eg += pstEG[code][sq]
		}
		pstSum[c] = [2]int32{mg, eg}
	}

	npm := 0
	for c := 0; c < 2; c++ {
		them := c ^ 1
		t := &raw[c]
		own := s.colors[c]
		theirs := s.colors[them]
		t[rawPawns] = int32(popcount(pawns[c]))
		t[rawKnights] = int32(popcount(s.pieces[Knight] & own))
		t[rawBishops] = int32(popcount(s.pieces[Bishop] & own))
		t[rawRooks] = int32(popcount(s.pieces[Rook] & own))
		t[rawQueens] = int32(popcount(s.pieces[Queen] & own))
		npm += int(t[rawKnights] + t[rawBishops] + 2*t[rawRooks] + 4*t[rawQueens])
		if t[rawBishops] >= 2 {
			t[rawBishopPair] = 1
		}
		t[rawPSTMG], t[rawPSTEG] = pstSum[c][0], pstSum[c][1]

		// Pieces: mobility, attacks on the enemy king's zone, threats.
		area := ^own &^ pawnAtt[them]
		enemyZone := zone[them]
		var attackWeight, attackers int32
		var minorAttacks uint64
		for b := s.pieces[Knight] & own; b != 0; b &= b - 1 {
			a := knightAttacks[lsb(b)]
			t[rawMobilityKnight] += int32(popcount(a & area))
			minorAttacks |= a
			if z := a & enemyZone; z != 0 {
				attackers++
				attackWeight += 2 * int32(popcount(z))
			}
		}
		for b := s.pieces[Bishop] & own; b != 0; b &= b - 1 {
			a := bishopAttacks(lsb(b), occ)
			t[rawMobilityBishop] += int32(popcount(a & area))
			minorAttacks |= a
			if z := a & enemyZone; z != 0 {
				attackers++
				attackWeight += 2 * int32(popcount(z))
			}
		}
		for b := s.pieces[Rook] & own; b != 0; b &= b - 1 {
			sq := lsb(b)
			a := rookAttacks(sq, occ)
			t[rawMobilityRook] += int32(popcount(a & area))
			if z := a & enemyZone; z != 0 {
				attackers++
				attackWeight += 3 * int32(popcount(z))
			}
			switch {
			case openFiles&bit(sq) != 0:
				t[rawRookOpenFile]++
			case fileOf[sq]&pawns[c] == 0:
				t[rawRookSemiOpenFile]++
			}
		}
		t[rawRookSeventh] = int32(popcount(s.pieces[Rook] & own & relativeRank[c][6]))
		for b := s.pieces[Queen] & own; b != 0; b &= b - 1 {
			a := queenAttacks(lsb(b), occ)
			t[rawMobilityQueen] += int32(popcount(a & area))
			if z := a & enemyZone; z != 0 {
				attackers++
				attackWeight += 5 * int32(popcount(z))
			}
		}
		t[rawKingAttack] = attackWeight
		t[rawKingAttackers] = attackers
		t[rawKingDanger] = attackers * attackWeight
		t[rawPawnThreats] = int32(popcount(pawnAtt[c] & theirs &^ pawns[them]))
		t[rawMinorThreats] = int32(popcount(minorAttacks & theirs & (s.pieces[Rook] | s.pieces[Queen])))

		// King shelter.
		k := int(s.king[c])
		t[rawPawnShield] = int32(popcount(shieldSquares[c][k] & pawns[c]))
		for f := max(k&7-1, 0); f <= min(k&7+1, 7); f++ {
			if fileA<<uint(f)&pawns[c] == 0 {
				t[rawKingOpenFiles]++
			}
		}

		// Pawn structure.
		behindOwn := frontSpan(pawns[c], them) // squares behind own pawns
		t[rawDoubled] = int32(popcount(pawns[c] & frontSpan(pawns[c], c)))
		t[rawIsolated] = int32(popcount(pawns[c] &^ adjacentFiles(pawns[c])))
		stops := pushUp(pawns[c], c)
		defendable := pawnAtt[c] | frontSpan(pawnAtt[c], c)
		t[rawBackward] = int32(popcount(stops &^ defendable & pawnAtt[them]))
		t[rawConnected] = int32(popcount(pawns[c] & (pawnAtt[c] | (pawns[c]&^fileA)>>1 | (pawns[c]&^fileH)<<1)))
		passed := pawns[c] &^ widen(frontSpan(pawns[them], them)) &^ behindOwn
		for r := 1; r <= 6; r++ {
			t[rawPassed2+r-1] = int32(popcount(passed & relativeRank[c][r]))
		}
		t[rawPassedFree] = int32(popcount(pushUp(passed, c) &^ occ))

		// Space and outposts.
		const centreFiles = fileA<<2 | fileA<<3 | fileA<<4 | fileA<<5
		spaceZone := centreFiles & (relativeRank[c][1] | relativeRank[c][2] | relativeRank[c][3])
		t[rawSpace] = int32(popcount(spaceZone & behindOwn &^ pawns[c] &^ pawnAtt[them]))
		enemyReach := pawnAtt[them] | frontSpan(pawnAtt[them], them)
		outpostZone := relativeRank[c][3] | relativeRank[c][4] | relativeRank[c][5]
		t[rawOutposts] = int32(popcount((s.pieces[Knight] | s.pieces[Bishop]) & own & outpostZone & pawnAtt[c] &^ enemyReach))
	}
	raw[s.side][rawTempo] = 1
	// Mop-up: a search without tablebases finds the mate against a bare king only when the evaluation
	// drives the king to the edge and our king to it; material alone leaves every such position equal.
	for c := 0; c < 2; c++ {
		them := c ^ 1
		if s.colors[them] != bit(int(s.king[them])) {
			continue
		}
		t := &raw[c]
		if t[rawQueens] == 0 && t[rawRooks] == 0 && t[rawKnights]+t[rawBishops] < 2 {
			continue
		}
		t[rawMopUp] = mopUp(int(s.king[c]), int(s.king[them]))
	}
	return float64(min(npm, 24)) / 24
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
