// Chess presets: the strongest player (weights fitted to Stockfish), a materialist, an attacker, a defender
// and a positional player derived from it.

package presets

// chessStrongestWeights is the "strongest" evaluation in centipawns: the weights that internal/tools/tune
// fit --tables fitted by Adam, with the piece-square and mobility tables of games/chess/tables_tuned.go, to
// 100,000 quiet positions scored by Stockfish 15.1 at 10 plies (10,000 of the committed sample, and 90,000 from
// games made here in session 16, gen seeds 21 and 23-30; docs/log/strength.md "Tuning the evaluation" has the
// commands). The features that sum a table weigh 1. Losses of the fit (logistic, sigmoid(score) targets):
func chessStrongestWeights() map[string]float64 {
	// 90000 training and 10000 held-out positions; held-out logistic loss: committed 0.01695, fit 0.01565
	// 10000 positions of other games (seed 22's chunk): logistic loss committed 0.01570, fit 0.01477
	return map[string]float64{
		"pawn_mg": 65.3, "pawn_eg": 113.7, "knight_mg": 272.1, "knight_eg": 374.5, "bishop_mg": 301.4,
		"bishop_eg": 388.3, "rook_mg": 366.8, "rook_eg": 678.4, "queen_mg": 993.0, "queen_eg": 1120.3,
		"bishop_pair_mg": 22.0, "bishop_pair_eg": 80.6, "pst_mg": 1.0, "pst_eg": 1.0, "mobility_knight_mg": 1.0,
		"mobility_knight_eg": 1.0, "mobility_bishop_mg": 1.0, "mobility_bishop_eg": 1.0, "mobility_rook_mg": 1.0,
		"mobility_rook_eg": 1.0, "mobility_queen_mg": 1.0, "mobility_queen_eg": 1.0, "king_attack_mg": -1.0,
		"king_attackers_mg": -10.0, "king_danger_mg": 3.5, "pawn_shield_mg": 6.3, "king_open_files_mg": -21.6,
		"safe_checks_knight_mg": 45.3, "safe_checks_bishop_mg": 10.4, "safe_checks_rook_mg": 52.2,
		"safe_checks_queen_mg": 28.3, "doubled_pawns_mg": -15.9, "doubled_pawns_eg": -5.8,
		"isolated_pawns_mg": -6.8, "isolated_pawns_eg": -14.4, "backward_pawns_mg": -0.9,
		"backward_pawns_eg": -5.1, "connected_pawns_mg": 8.4, "connected_pawns_eg": 6.4, "passed_rank2_mg": -10.8,
		"passed_rank2_eg": 7.6, "passed_rank3_mg": -17.9, "passed_rank3_eg": 15.3, "passed_rank4_mg": -14.6,
		"passed_rank4_eg": 31.0, "passed_rank5_mg": 8.5, "passed_rank5_eg": 81.0, "passed_rank6_mg": 27.5,
		"passed_rank6_eg": 132.6, "passed_rank7_mg": 36.4, "passed_rank7_eg": 229.6, "passed_free_eg": 17.6,
		"passed_blocked_mg": -3.4, "passed_blocked_eg": -29.8, "passed_king_own_eg": -12.1,
		"passed_king_enemy_eg": 13.5, "rook_open_file_mg": 28.8, "rook_semiopen_file_mg": 13.8,
		"rook_seventh_mg": 16.4, "rook_seventh_eg": 8.4, "pawn_threats": 54.6, "minor_threats": 44.5,
		"space_mg": 1.6, "outposts_mg": 37.8, "tempo": 20.3,
		// Not fitted (the data holds no bare kings): one centipawn a unit drives a bare king to the edge.
		"mop_up": 1,
	}
}

// Feature groups that the derived presets emphasise.
var (
	chessAttackFeatures = []string{"king_attack_mg", "king_attackers_mg", "king_danger_mg", "pawn_threats",
		"minor_threats"}
	// chessMobilityFeatures sum the mobility tables: the attacker weights them 1.5 times (2.5 times, with
	// the tuned tables, it would rather keep a knight's mobility than take the knight).
	chessMobilityFeatures = []string{"mobility_knight_mg", "mobility_knight_eg", "mobility_bishop_mg", "mobility_bishop_eg",
		"mobility_rook_mg", "mobility_rook_eg", "mobility_queen_mg", "mobility_queen_eg"}
	chessShelterFeatures    = []string{"pawn_shield_mg", "king_open_files_mg"}
	chessStructuralFeatures = []string{"pst_mg", "pst_eg", "doubled_pawns_mg", "doubled_pawns_eg",
		"isolated_pawns_mg", "isolated_pawns_eg", "backward_pawns_mg", "backward_pawns_eg", "connected_pawns_mg",
		"connected_pawns_eg", "passed_rank2_mg", "passed_rank2_eg", "passed_rank3_mg", "passed_rank3_eg",
		"passed_rank4_mg", "passed_rank4_eg", "passed_rank5_mg", "passed_rank5_eg", "passed_rank6_mg",
		"passed_rank6_eg", "passed_rank7_mg", "passed_rank7_eg", "passed_free_eg", "rook_open_file_mg",
		"rook_semiopen_file_mg", "space_mg", "outposts_mg", "bishop_pair_mg", "bishop_pair_eg"}
)

// scaledWeights returns a copy of w with the named features multiplied by factor.
func scaledWeights(w map[string]float64, factor float64, names ...[]string) map[string]float64 {
	out := make(map[string]float64, len(w))
	for k, v := range w {
		out[k] = v
	}
	for _, group := range names {
		for _, n := range group {
			out[n] *= factor
		}
	}
	return out
}

// chessMaterialWeights counts material only, at the textbook 1, 3, 3, 5, 9.
func chessMaterialWeights() map[string]float64 {
	w := map[string]float64{}
	for piece, value := range map[string]float64{"pawn": 100, "knight": 300, "bishop": 300, "rook": 500, "queen": 900} {
		w[piece+"_mg"], w[piece+"_eg"] = value, value
	}
	return w
}

// chessBook holds the chess presets. Every chess feature is a difference "mine minus theirs" (tempo is the
// side to move's bonus by design), so no preset needs the player's view. The derived presets keep
// strongest's weights and multiply one group: attacker the attacks on the king zone and threats
// (x2.5) and mobility (x1.5); defender the pawn shelter and the open files by the king (x4) with half the
// attack and mobility terms;
// positional the piece-square, pawn-structure, rook-file, space and outpost terms (x2).
func chessBook() book {
	strongest := chessStrongestWeights()
	defender := scaledWeights(scaledWeights(strongest, 4, chessShelterFeatures), 0.5, chessAttackFeatures, chessMobilityFeatures)
	return book{
		strength: StrengthRules{Unit: 100, Mistake: 120, Won: 300, Lost: 200, EndgamePieces: 6, Lines: 3,
			Levels: scaledLevels(100, chessLevels)},
		// Chess values swing by more than half a pawn from one depth to the next: replaying the games a
		// 2+0.05 search had won against Glaurung, the same search at 50 refused 33 of 308 won moves, valued
		// 52-143 below its best at the depth compared, but for four of 190 or more. Set by experiment (session
		// 14, docs/log/experiments.md): against Toga II at 8 plies 50 scored 67.5% of 40, 150 86.9% of 80, 400 82.5%.
		memoryRisk: 150,
		// Chess is the costliest game to search: the learners learn at 2 plies, and the presets are types at
		// 1 ply only (five presets at 2 plies cost 10 ms a move).
		learning: LearningDepths{Depth: 2, TypeDepths: []int{1}},
		specs: []presetSpec{
			{
				name:        Default,
				description: "weights fitted to Stockfish's scores of quiet positions; time-limited search",
				weights:     strongest,
			},
			{
				name:        "materialist",
				description: "material only, pawn 100, knight and bishop 300, rook 500, queen 900",
				weights:     chessMaterialWeights(),
			},
			{
				name:        "attacker",
				description: "strongest with king-zone attacks and threats weighted 2.5 times, mobility 1.5 times",
				weights:     scaledWeights(scaledWeights(strongest, 2.5, chessAttackFeatures), 1.5, chessMobilityFeatures),
			},
			{
				name:        "defender",
				description: "strongest with the king's pawn shelter and open files weighted 4 times, attacks half",
				weights:     defender,
			},
			{
				name:        "positional",
				description: "strongest with piece placement, pawn structure, rook files, space and outposts doubled",
				weights:     scaledWeights(strongest, 2, chessStructuralFeatures),
			},
		},
	}
}
