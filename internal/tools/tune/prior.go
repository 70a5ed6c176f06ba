// The prior of the fit: hand-set chess weights in centipawns, what the fit starts from and shrinks towards.

package main

// priorWeights returns textbook values: material, a light piece-square and mobility term, king safety,
// pawn structure by rank, rooks on files, threats and a tempo bonus.
func priorWeights() map[string]float64 {
	return map[string]float64{
		"pawn_mg": 85, "pawn_eg": 110, "knight_mg": 320, "knight_eg": 300, "bishop_mg": 330, "bishop_eg": 320,
		"rook_mg": 480, "rook_eg": 530, "queen_mg": 950, "queen_eg": 950, "bishop_pair_mg": 30, "bishop_pair_eg": 50,
		"pst_mg": 1, "pst_eg": 1,
		"mobility_knight_mg": 1, "mobility_knight_eg": 1, "mobility_bishop_mg": 1, "mobility_bishop_eg": 1,
		"mobility_rook_mg": 1, "mobility_rook_eg": 1, "mobility_queen_mg": 1, "mobility_queen_eg": 1,
		"king_attack_mg": 1, "king_attackers_mg": 5, "king_danger_mg": 0.5, "pawn_shield_mg": 10,
		"king_open_files_mg": -15,
		"doubled_pawns_mg":   -10, "doubled_pawns_eg": -20, "isolated_pawns_mg": -10, "isolated_pawns_eg": -15,
		"backward_pawns_mg": -8, "backward_pawns_eg": -10, "connected_pawns_mg": 5, "connected_pawns_eg": 8,
		"passed_rank2_mg": 0, "passed_rank2_eg": 10, "passed_rank3_mg": 5, "passed_rank3_eg": 15,
		"passed_rank4_mg": 10, "passed_rank4_eg": 30, "passed_rank5_mg": 20, "passed_rank5_eg": 55,
		"passed_rank6_mg": 35, "passed_rank6_eg": 90, "passed_rank7_mg": 60, "passed_rank7_eg": 130,
		"passed_free_eg": 15, "rook_open_file_mg": 20, "rook_semiopen_file_mg": 10,
		"rook_seventh_mg": 15, "rook_seventh_eg": 20, "pawn_threats": 40, "minor_threats": 30,
		"space_mg": 2, "outposts_mg": 15, "tempo": 15,
		"mop_up": 1, // not fitted (untunedFeatures)
	}
}
