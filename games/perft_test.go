// Tests of the generic perft and divide: the parallel forms agree with the serial ones on known counts.

package games_test

import (
	"testing"

	"dossier/games"
	"dossier/games/chess"
	"dossier/games/connect4"
	"dossier/games/tictactoe"
)

func TestParallelDivide(t *testing.T) {
	cases := []struct {
		name  string
		game  games.Game
		depth int
		nodes uint64
		moves int
	}{
		{"chess start d3", chess.Game{}, 3, 8902, 20},
		{"connect4 start d4", connect4.Game{}, 4, 2401, 7},
		{"tictactoe start d1", tictactoe.Game{}, 1, 9, 9},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := c.game.Start()
			serial := games.Divide(p, c.depth)
			for _, workers := range []int{1, 2, 3, 64} {
				got := games.ParallelDivide(p, c.depth, workers)
				if len(got) != c.moves {
					t.Fatalf("%d workers: %d root moves, want %d", workers, len(got), c.moves)
				}
				var sum uint64
				for i, e := range got {
					if e != serial[i] {
						t.Errorf("%d workers: entry %d is %+v, serial divide says %+v", workers, i, e, serial[i])
					}
					sum += e.Nodes
				}
				if sum != c.nodes {
					t.Errorf("%d workers: divide sums to %d, want %d", workers, sum, c.nodes)
				}
				if n := games.ParallelPerft(p, c.depth, workers); n != c.nodes {
					t.Errorf("%d workers: ParallelPerft %d, want %d", workers, n, c.nodes)
				}
			}
			if p.FEN() != c.game.Start().FEN() {
				t.Errorf("the position changed to %s", p.FEN())
			}
		})
	}
}
