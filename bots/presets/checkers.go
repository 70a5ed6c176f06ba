// Checkers presets: a Samuel-style strongest player and Carmel & Markovitch's exchange-seeking OP with
// its mirror image.

package presets

// Checkers values are in hundredths of a man, so that UCI's "score cp" reads as men.
const (
	CheckersMan  = 100.0
	CheckersKing = 150.0 // Mat counts a king as one and a half men
)

// checkersBook holds the checkers presets.
//
// mat-tot25 is Carmel & Markovitch's OP, f = Mat - Tot/25 with Mat the material advantage in men (a king
// counting 1.5) and Tot all pieces on the board: when ahead it trades pieces, since each exchange lowers Tot
// and keeps Mat. mat+tot25, f = Mat + Tot/25, avoids exchanges; it is the function minimax implicitly
// attributes to OP (-f from OP's opponent's side). Both search 4 plies, as in the paper's tournaments.
//
// The paper does not say in what unit Mat counts. In men, Tot/25 only breaks ties between lines of equal
// material (an exchange is worth 0.08 men), and its tournament result does not reproduce (docs/papers.md).
// mat12-tot25 and mat12+tot25 read Mat as a fraction of a side's twelve pieces, as a function whose two
// terms are both of order one would: Mat/12 - Tot/25, here times 1200 to keep hundredths of a man. Then
// an exchange is worth 0.96 men, OP gives up a man to trade three pieces, and the paper's result
// reproduces.
// Tot is the same number for both sides, so these functions are meant from the searching player's point of
// view at every leaf, whoever is to move there (the mirror below; see playerView).
func checkersBook() book {
	const totPerMan = CheckersMan / 25
	const totPerSide = 12 * CheckersMan / 25 // Tot/25 against Mat/12
	return book{
		// A man ahead usually wins in checkers; the kings endgame must be played out exactly.
		strength: StrengthRules{Unit: 100, Mistake: 120, Won: 100, Lost: 150, EndgamePieces: 6, Lines: 6,
			Levels: scaledLevels(100, defaultLevels)},
		mirror: map[string]mirrorOf{"tot": {partner: "tot", sign: +1}},
		specs: []presetSpec{
			{
				name:        Default,
				description: "Samuel-style evaluation: material, king-row guard, centre, mobility, runaways; time-limited search",
				weights: map[string]float64{
					"men":          CheckersMan,
					"kings":        135,
					"advance":      1.5,
					"backRank":     6,
					"bridge":       8,
					"oreo":         6,
					"centreMen":    5,
					"centreKings":  8,
					"mobility":     3,
					"threats":      8,
					"runaway":      35,
					"dogHole":      -12,
					"mainDiagonal": 2,
					"doubleCorner": 1,
					"edge":         -2,
					"backed":       3,
					"isolated":     -4,
					"nearCrown":    12,
				},
			},
			exchangeSpec("mat-tot25", "Carmel & Markovitch's OP: Mat - Tot/25, trades pieces when ahead", -totPerMan),
			exchangeSpec("mat+tot25", "Mat + Tot/25, avoids exchanges: what minimax assumes OP to be", totPerMan),
			exchangeSpec("mat12-tot25", "Mat/12 - Tot/25, Mat as a fraction of a side's 12 pieces: an exchange is worth about a man", -totPerSide),
			exchangeSpec("mat12+tot25", "Mat/12 + Tot/25, the exchange-avoiding mirror of mat12-tot25", totPerSide),
		},
	}
}

// exchangeSpec is one of Carmel & Markovitch's material functions: Mat (men, a king 1.5) plus tot per piece
// on the board, searching 4 plies as in the paper's tournaments.
func exchangeSpec(name, description string, tot float64) presetSpec {
	return presetSpec{
		name:        name,
		description: description + "; 4 plies",
		depth:       4,
		weights:     map[string]float64{"men": CheckersMan, "kings": CheckersKing, "tot": tot},
	}
}
