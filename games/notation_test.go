// Moves numbered as records write them, in chess's SAN and in the protocol's notation of the other games.

package games_test

import (
	"testing"

	"dossier/games"
	"dossier/games/chess"
	"dossier/games/tictactoe"
)

func TestNumberedMove(t *testing.T) {
	cases := []struct {
		name string
		game games.Game
		fen  string // "" for the start
		move string // protocol notation
		want string
	}{
		{"chess, White's first move", chess.Game{}, "", "e2e4", "1.e4"},
		{"chess, Black's 23rd move", chess.Game{},
			"r4rk1/pp3ppp/2nqbn2/3p4/3P4/2NBBN2/PPQ2PPP/R4RK1 b - - 4 23", "d6b4", "23...Qb4"},
		{"chess, a check", chess.Game{}, "4k3/8/8/8/8/8/8/R3K3 w - - 0 40", "a1a8", "40.Ra8+"},
		{"tic-tac-toe, the protocol's notation", tictactoe.Game{}, "", "P@b2", "1.P@b2"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := c.game.Start()
			if c.fen != "" {
				var err error
				if p, err = c.game.ParsePosition(c.fen); err != nil {
					t.Fatal(err)
				}
			}
			m, err := p.ParseMove(c.move)
			if err != nil {
				t.Fatal(err)
			}
			if got := games.NumberedMove(p, m); got != c.want {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}
