// memory show's mistakes: written in the game's notation and units, numbered by game; an unreadable one said so.

package report

import (
	"strings"
	"testing"
	"time"

	"dossier/memory"
)

func TestMistakeLines(t *testing.T) {
	at := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	black23 := "r4rk1/pp3ppp/2nqbn2/3p4/3P4/2NBBN2/PPQ2PPP/R4RK1 b - - 4 23"
	cases := []struct {
		name    string
		mistake memory.Mistake
		want    string
	}{
		{"chess, in SAN and pawns", memory.Mistake{GameID: "g7", Game: "chess", Ply: 45, FEN: black23, Move: "d6b4",
			Value: -180, Best: "a8c8", BestValue: 10, Depth: 18, At: at}, "game 7: 23...Qb4? -1.8 at depth 18, 23...Rac8 +0.1"},
		{"checkers, in its notation and men", memory.Mistake{GameID: "g2", Game: "checkers", Ply: 0,
			FEN: "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12", Move: "9-13", Value: -150,
			Best: "11-15", BestValue: 20, Depth: 8, At: at}, "game 2: 1.9-13? -1.5 at depth 8, 1.11-15 +0.2"},
		{"a position that does not read", memory.Mistake{GameID: "g1", Game: "chess", Ply: 4, FEN: "nonsense",
			Move: "h5f7", Value: -815, Best: "b1c3", BestValue: 35, Depth: 8, At: at}, "game 1: ply 4: h5f7? -815 at depth 8, better b1c3 +35 (its position does not read"},
		{"a game dossier does not play", memory.Mistake{GameID: "g1", Game: "go", Ply: 4, FEN: "x", Move: "a", Value: -1,
			Best: "b", BestValue: 1, Depth: 8, At: at}, "game 1: ply 4: a? -1 at depth 8, better b +1 (unknown game"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			prof := &memory.Profile{Mistakes: []memory.Mistake{c.mistake}}
			for i := 1; i <= 7; i++ {
				prof.Games = append(prof.Games, memory.GameSummary{ID: "g" + string(rune('0'+i))})
			}
			lines := mistakeLines(prof)
			if len(lines) != 1 {
				t.Fatalf("%d lines", len(lines))
			}
			var out strings.Builder
			Show{Profile: prof, Mistakes: lines}.WriteText(&out, "")
			if !strings.Contains(out.String(), "    "+c.want) {
				t.Errorf("memory show says:\n%s\nwant a line %q", out.String(), c.want)
			}
		})
	}
}
