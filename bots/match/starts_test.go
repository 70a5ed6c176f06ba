// Distinct random starting configurations: repeatable from a seed, each new, and errors when too few exist.

package match

import (
	"strings"
	"testing"

	"dossier/games"
	"dossier/games/connect4"
	"dossier/games/tictactoe"
)

func TestDistinctRandomStarts(t *testing.T) {
	g := connect4.Game{}
	plies := []int{2, 4, 16}
	starts, err := DistinctRandomStarts(g, plies, 12, 3)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := DistinctRandomStarts(g, plies, 12, 3)
	seen := map[string]bool{}
	for i, p := range starts {
		if p.Ply() != plies[i%len(plies)] || games.OutcomeOf(p).Result.Over() || seen[p.FEN()] {
			t.Errorf("start %d: %s at ply %d (repeated %v)", i, p.FEN(), p.Ply(), seen[p.FEN()])
		}
		seen[p.FEN()] = true
		if again[i].FEN() != p.FEN() {
			t.Errorf("start %d differs with the same seed", i)
		}
	}
	if _, err := DistinctRandomStarts(tictactoe.Game{}, []int{1}, 10, 1); err == nil || !strings.Contains(err.Error(), "starting configuration 10") {
		t.Errorf("ten distinct one-ply tic-tac-toe starts: %v", err)
	}
	if _, err := DistinctRandomStarts(g, nil, 1, 1); err == nil {
		t.Error("no plies: no error")
	}
}
