// The per-game tuning each book sets: strength rules, MemoryRisk, the learners' depths, and the defaults of a
// game without a book.

package presets

import (
	"slices"
	"testing"

	"dossier/games"
	"dossier/games/checkers"
	"dossier/games/chess"
	"dossier/games/connect4"
	"dossier/games/tictactoe"
)

func TestTuningOfEachGame(t *testing.T) {
	cases := []struct {
		game        games.Game
		unit        float64
		lines       int
		memoryRisk  int
		depth       int
		typeDepths  []int
		endgameRule bool
	}{
		{chess.Game{}, 100, 3, 150, 2, []int{1}, true},
		{chess.Game{Chess960: true}, 100, 3, 150, 2, []int{1}, true},
		{checkers.Game{}, 100, 6, 0, 4, []int{2, 4}, true},
		{connect4.Game{}, 25, 7, 0, 4, []int{2, 4}, false},
		{tictactoe.Game{}, 1, 9, 0, 4, []int{2, 4}, false},
		{noBookGame{}, 1, 9, 0, 4, []int{2, 4}, false},
	}
	for _, c := range cases {
		t.Run(c.game.Name(), func(t *testing.T) {
			r := Strength(c.game)
			if r.Unit != c.unit || r.Lines != c.lines || (r.EndgamePieces > 0) != c.endgameRule {
				t.Errorf("strength rules %+v: want unit %v, %d lines, endgame rule %v", r, c.unit, c.lines, c.endgameRule)
			}
			if r.Mistake <= 0 || r.Won <= 0 || r.Lost <= 0 || len(r.Levels) < 2 {
				t.Errorf("strength rules %+v: a mistake, a won and a lost value, a level table", r)
			}
			if got := MemoryRisk(c.game); got != c.memoryRisk {
				t.Errorf("MemoryRisk %d, want %d", got, c.memoryRisk)
			}
			if l := Learning(c.game); l.Depth != c.depth || !slices.Equal(l.TypeDepths, c.typeDepths) {
				t.Errorf("learning depths %+v, want %d and %v", l, c.depth, c.typeDepths)
			}
		})
	}
}
