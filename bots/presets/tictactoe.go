// Tic-tac-toe presets: Carmel & Markovitch's open-lines-advantage player and the strongest player.

package presets

// tictactoeBook holds the tic-tac-toe presets. Every feature is a plain difference or a mine/theirs pair
// weighed antisymmetrically, so no preset needs the player's view.
func tictactoeBook() book {
	return book{
		mirror: map[string]mirrorOf{
			"twos_mine":   {partner: "twos_theirs", sign: +1},
			"twos_theirs": {partner: "twos_mine", sign: +1},
		},
		specs: []presetSpec{
			{
				name:        Default,
				description: "open lines, threats (two in an open line), centre and corners; searches the game to its end",
				weights:     map[string]float64{"open_lines": 10, "twos_mine": 30, "twos_theirs": -30, "centre": 5, "corners": 2},
			},
			{
				name:        "open-lines",
				description: "Carmel & Markovitch's open lines advantage (lines open to me minus lines open to the opponent); 2 plies",
				depth:       2,
				weights:     map[string]float64{"open_lines": 100},
			},
		},
	}
}
