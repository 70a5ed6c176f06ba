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
	rawMobilityKnightMG
	rawMobilityKnightEG
	rawMobilityBishopMG
	rawMobilityBishopEG
	rawMobilityRookMG
	rawMobilityRookEG
	rawMobilityQueenMG
	rawMobilityQueenEG
	rawKingAttack
	rawKingAttackers
	rawKingDanger
	rawPawnShield
	rawKingOpenFiles
	rawSafeCheckKnight
	rawSafeCheckBishop
	rawSafeCheckRook
	rawSafeCheckQueen
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
	rawPassedBlocked
	rawPassedKingOwn
	rawPassedKingEnemy
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
	{"mobility_knight", taperMG, "middlegame mobility values of the knights (centipawns; a tuned table by the number of squares a knight attacks that hold no own piece and no enemy pawn attacks)"},
	{"mobility_knight", taperEG, "endgame mobility values of the knights (centipawns; a tuned table by the same count)"},
	{"mobility_bishop", taperMG, "middlegame mobility values of the bishops (a tuned table by the count, x-raying nothing)"},
	{"mobility_bishop", taperEG, "endgame mobility values of the bishops"},
	{"mobility_rook", taperMG, "middlegame mobility values of the rooks (a tuned table by the count)"},
	{"mobility_rook", taperEG, "endgame mobility values of the rooks"},
	{"mobility_queen", taperMG, "middlegame mobility values of the queens (a tuned table by the count)"},
	{"mobility_queen", taperEG, "endgame mobility values of the queens"},
	{"king_attack", taperMG, "attacks on the enemy king's zone (king square and neighbours), knight/bishop 2, rook 3, queen 5 per square"},
	{"king_attackers", taperMG, "number of knights, bishops, rooks and queens attacking the enemy king's zone"},
	{"king_danger", taperMG, "king_attackers times king_attack: grows fast when several pieces join an attack"},
	{"pawn_shield", taperMG, "own pawns on the king's and adjacent files, one or two ranks in front of the king"},
	{"king_open_files", taperMG, "files among the king's and adjacent files with no own pawn (a weakness)"},
	{"safe_checks_knight", taperMG, "squares from which a knight would check the enemy king that an own knight attacks, holding no own piece and attacked by no enemy piece or pawn"},
	{"safe_checks_bishop", taperMG, "the same for bishops"},
	{"safe_checks_rook", taperMG, "the same for rooks"},
	{"safe_checks_queen", taperMG, "the same for queens (checking along a rank, file or diagonal)"},
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
	{"passed_blocked", taperBoth, "passed pawns whose next square holds an enemy piece"},
	{"passed_king_own", taperEG, "for passed pawns on the 4th-7th ranks, the own king's distance to the pawn's next square (at most 5) times 1-4 by rank"},
	{"passed_king_enemy", taperEG, "the same with the enemy king's distance"},
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
	for _, f := range featureSpecs {
		featureNames = append(featureNames, f.name)
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
	pstMG, pstEG  [16][64]int32 // by piece code (colour<<3 | type) and square: tunedTables' piece-square values
	distance      [64][64]int32 // Chebyshev (king-move) distance between squares
	pstIndex      [16][64]int16 // the tables' index of a piece code on a square (TableFeatures)
	relativeRank  [2][8]uint64  // relativeRank[side][r]: the rank that is the side's r-th (0-based)
	shieldSquares [2][64]uint64 // the king's and adjacent files, one and two ranks in front of a king on sq
)

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
		for pt := Pawn; pt <= King; pt++ {
			i := tablePST + (pt-1)*64
			pstMG[White<<3|pt][sq], pstEG[White<<3|pt][sq] = int32(tunedTables[0][i+sq]), int32(tunedTables[1][i+sq])
			pstMG[Black<<3|pt][sq^56], pstEG[Black<<3|pt][sq^56] = int32(tunedTables[0][i+sq]), int32(tunedTables[1][i+sq])
		}
		for to := 0; to < 64; to++ {
			distance[sq][to] = int32(max(abs(f-to&7), abs(r-to>>3)))
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
	for pt := Pawn; pt <= King; pt++ {
		for sq := 0; sq < 64; sq++ {
			pstIndex[White<<3|pt][sq] = int16(tablePST + (pt-1)*64 + sq)
			pstIndex[Black<<3|pt][sq^56] = int16(tablePST + (pt-1)*64 + sq)
		}
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

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// Features writes the feature vector (see FeatureDocs) from the side to move's point of view into dst.
// Endgame features are scaled by the position's endgame scale as well as by 1-phase (see endgameScale).
func (p *Position) Features(dst []float64) {
	var raw [2][numRaw]int32
	phase, egScale := p.st.features(&raw, nil)
	mine, theirs := &raw[p.st.side&1], &raw[(p.st.side^1)&1]
	mg, eg := phase, (1-phase)*egScale
	dst = dst[:len(featureSpecs)]
	// The raw terms in order, each writing its features (featureSpecs' order).
	j := 0
	for i := range numRaw {
		d := float64(mine[i] - theirs[i])
		switch rawSpecs[i].taper {
		case taperBoth:
			dst[j], dst[j+1] = d*mg, d*eg
			j += 2
		case taperMG:
			dst[j] = d * mg
			j++
		case taperEG:
			dst[j] = d * eg
			j++
		default:
			dst[j] = d
			j++
		}
	}
}

// Material in pawns for the endgame scale.
const (
	scaleMinor = 3
	scaleRook  = 5
	scaleQueen = 9
)

// endgameScale returns the factor of the endgame features: drawish endgames count less. A side with the
// pieces of a lone bishop each, the bishops on squares of opposite colours, scales by one half; a side
// ahead in material without pawns, whose pieces outweigh the other's by a minor piece or less (a lone
// minor, rook against minor, rook and minor against rook), by one eighth with a lone minor and one quarter
// otherwise.
func (s *state) endgameScale(npm [2]int, pawnCount [2]int) float64 {
	bishops := s.pieces[Bishop]
	if npm[0] == scaleMinor && npm[1] == scaleMinor && popcount(bishops) == 2 &&
		popcount(bishops&s.colors[White]) == 1 && bishops&lightSquares != 0 && bishops&darkSquares != 0 {
		return 0.5
	}
	strong := White
	if npm[Black]+pawnCount[Black] > npm[White]+pawnCount[White] {
		strong = Black
	} else if npm[Black]+pawnCount[Black] == npm[White]+pawnCount[White] {
		return 1
	}
	if pawnCount[strong] == 0 && npm[strong]-npm[strong^1] <= scaleMinor {
		if npm[strong] <= scaleMinor {
			return 0.125
		}
		return 0.25
	}
	return 1
}

// features fills the raw terms of both sides and returns the phase and the endgame scale. With counts,
// it also counts the table entries each side's pieces meet (TableFeatures).
func (s *state) features(raw *[2][numRaw]int32, counts *[2][TableSize]int8) (float64, float64) {
	occ := s.occupied()
	var pawns, pawnAtt, zone, attacked [2]uint64
	var pieceAtt [2][7]uint64 // by piece type: the squares a side's pieces of that type attack
	for c := 0; c < 2; c++ {
		pawns[c] = s.pieces[Pawn] & s.colors[c]
		pawnAtt[c] = captureWest(pawns[c], c) | captureEast(pawns[c], c)
		k := int(s.king[c])
		zone[c] = kingAttacks[k] | bit(k)
		attacked[c] = pawnAtt[c] | kingAttacks[k]
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
			if counts != nil {
				counts[c][pstIndex[code][sq]]++
			}
		}
		pstSum[c] = [2]int32{mg, eg}
	}

	var npm, pawnCount [2]int
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
		npm[c] = int(scaleMinor*(t[rawKnights]+t[rawBishops]) + scaleRook*t[rawRooks] + scaleQueen*t[rawQueens])
		pawnCount[c] = int(t[rawPawns])
		if t[rawBishops] >= 2 {
			t[rawBishopPair] = 1
		}
		t[rawPSTMG], t[rawPSTEG] = pstSum[c][0], pstSum[c][1]

		// Pieces: mobility, attacks on the enemy king's zone, threats.
		area := ^own &^ pawnAtt[them]
		enemyZone := zone[them]
		var attackWeight, attackers int32
		for b := s.pieces[Knight] & own; b != 0; b &= b - 1 {
			a := knightAttacks[lsb(b)]
			n := popcount(a & area)
			t[rawMobilityKnightMG] += int32(tunedTables[0][tableMobilityKnight+n])
			t[rawMobilityKnightEG] += int32(tunedTables[1][tableMobilityKnight+n])
			if counts != nil {
				counts[c][tableMobilityKnight+n]++
			}
			pieceAtt[c][Knight] |= a
			if z := a & enemyZone; z != 0 {
				attackers++
				attackWeight += 2 * int32(popcount(z))
			}
		}
		for b := s.pieces[Bishop] & own; b != 0; b &= b - 1 {
			a := bishopAttacks(lsb(b), occ)
			n := popcount(a & area)
			t[rawMobilityBishopMG] += int32(tunedTables[0][tableMobilityBishop+n])
			t[rawMobilityBishopEG] += int32(tunedTables[1][tableMobilityBishop+n])
			if counts != nil {
				counts[c][tableMobilityBishop+n]++
			}
			pieceAtt[c][Bishop] |= a
			if z := a & enemyZone; z != 0 {
				attackers++
				attackWeight += 2 * int32(popcount(z))
			}
		}
		for b := s.pieces[Rook] & own; b != 0; b &= b - 1 {
			sq := lsb(b)
			a := rookAttacks(sq, occ)
			n := popcount(a & area)
			t[rawMobilityRookMG] += int32(tunedTables[0][tableMobilityRook+n])
			t[rawMobilityRookEG] += int32(tunedTables[1][tableMobilityRook+n])
			if counts != nil {
				counts[c][tableMobilityRook+n]++
			}
			pieceAtt[c][Rook] |= a
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
			n := popcount(a & area)
			t[rawMobilityQueenMG] += int32(tunedTables[0][tableMobilityQueen+n])
			t[rawMobilityQueenEG] += int32(tunedTables[1][tableMobilityQueen+n])
			if counts != nil {
				counts[c][tableMobilityQueen+n]++
			}
			pieceAtt[c][Queen] |= a
			if z := a & enemyZone; z != 0 {
				attackers++
				attackWeight += 5 * int32(popcount(z))
			}
		}
		attacked[c] |= pieceAtt[c][Knight] | pieceAtt[c][Bishop] | pieceAtt[c][Rook] | pieceAtt[c][Queen]
		t[rawKingAttack] = attackWeight
		t[rawKingAttackers] = attackers
		t[rawKingDanger] = attackers * attackWeight
		t[rawPawnThreats] = int32(popcount(pawnAtt[c] & theirs &^ pawns[them]))
		minorAttacks := pieceAtt[c][Knight] | pieceAtt[c][Bishop]
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
		passedStops := pushUp(passed, c)
		t[rawPassedFree] = int32(popcount(passedStops &^ occ))
		t[rawPassedBlocked] = int32(popcount(passedStops & theirs))
		for r := 3; r <= 6; r++ {
			for b := passed & relativeRank[c][r]; b != 0; b &= b - 1 {
				stop := lsb(pushUp(b&-b, c))
				t[rawPassedKingOwn] += int32(r-2) * min(distance[s.king[c]][stop], 5)
				t[rawPassedKingEnemy] += int32(r-2) * min(distance[s.king[them]][stop], 5)
			}
		}

		// Space and outposts.
		const centreFiles = fileA<<2 | fileA<<3 | fileA<<4 | fileA<<5
		spaceZone := centreFiles & (relativeRank[c][1] | relativeRank[c][2] | relativeRank[c][3])
		t[rawSpace] = int32(popcount(spaceZone & behindOwn &^ pawns[c] &^ pawnAtt[them]))
		enemyReach := pawnAtt[them] | frontSpan(pawnAtt[them], them)
		outpostZone := relativeRank[c][3] | relativeRank[c][4] | relativeRank[c][5]
		t[rawOutposts] = int32(popcount((s.pieces[Knight] | s.pieces[Bishop]) & own & outpostZone & pawnAtt[c] &^ enemyReach))
	}

	// Safe checks: squares from which a piece would check the enemy king, that a piece of that type
	// attacks, holding no own piece and attacked by nothing of the enemy's.
	for c := 0; c < 2; c++ {
		them := c ^ 1
		if pieceAtt[c][Knight]|pieceAtt[c][Bishop]|pieceAtt[c][Rook]|pieceAtt[c][Queen] == 0 {
			continue
		}
		ek := int(s.king[them])
		safe := ^s.colors[c] &^ attacked[them]
		diagonal, straight := bishopAttacks(ek, occ)&safe, rookAttacks(ek, occ)&safe
		t := &raw[c]
		t[rawSafeCheckKnight] = int32(popcount(knightAttacks[ek] & safe & pieceAtt[c][Knight]))
		t[rawSafeCheckBishop] = int32(popcount(diagonal & pieceAtt[c][Bishop]))
		t[rawSafeCheckRook] = int32(popcount(straight & pieceAtt[c][Rook]))
		t[rawSafeCheckQueen] = int32(popcount((diagonal | straight) & pieceAtt[c][Queen]))
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
	return float64(min(phaseOf(raw), 24)) / 24, s.endgameScale(npm, pawnCount)
}

// phaseOf returns the game phase's units: knight and bishop 1, rook 2, queen 4 for both sides.
func phaseOf(raw *[2][numRaw]int32) int {
	n := 0
	for c := 0; c < 2; c++ {
		n += int(raw[c][rawKnights] + raw[c][rawBishops] + 2*raw[c][rawRooks] + 4*raw[c][rawQueens])
	}
	return n
}
