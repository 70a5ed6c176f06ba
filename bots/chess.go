// Chess presets: the strongest player (weights fitted to Stockfish), a materialist, an attacker, a defender
// and a positional player derived from it.
package bots

// chessStrongestWeights is the "strongest" evaluation in centipawns: the weights that bots/internal/tune
// fitted to Stockfish 15.1's 10-ply scores of quiet positions from Stockfish self-play (see its doc comment
// for the data and the loss, and for how to reproduce this table).
func chessStrongestWeights() map[string]float64 {
	return map[string]float64{
		"pawn_mg": 85, "pawn_eg": 110, "knight_mg": 320, "knight_eg": 300, "bishop_mg": 330, "bishop_eg": 320,
		"rook_mg": 480, "rook_eg": 530, "queen_mg": 950, "queen_eg": 950, "bishop_pair_mg": 30, "bishop_pair_eg": 50,
		"pst_mg": 1, "pst_eg": 1,
		"mobility_knight_mg": 4, "mobility_knight_eg": 4, "mobility_bishop_mg": 5, "mobility_bishop_eg": 5,
		"mobility_rook_mg": 2, "mobility_rook_eg": 4, "mobility_queen_mg": 1, "mobility_queen_eg": 2,
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
	}
}

// Feature groups that the derived presets emphasise.
var (
	chessAttackFeatures = []string{"king_attack_mg", "king_attackers_mg", "king_danger_mg", "pawn_threats",
		"minor_threats", "mobility_knight_mg", "mobility_knight_eg", "mobility_bishop_mg", "mobility_bishop_eg",
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
// strongest's weights and multiply one group: attacker the attacks on the king zone, threats and mobility
// (x2.5); defender the pawn shelter and the open files by the king (x4) with half the attack terms;
// positional the piece-square, pawn-structure, rook-file, space and outpost terms (x2).
func chessBook() book {
	strongest := chessStrongestWeights()
	defender := scaledWeights(scaledWeights(strongest, 4, chessShelterFeatures), 0.5, chessAttackFeatures)
	return book{
		specs: []presetSpec{
			{
				name:        DefaultPreset,
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
				description: "strongest with king-zone attacks, threats and mobility weighted 2.5 times",
				weights:     scaledWeights(strongest, 2.5, chessAttackFeatures),
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
