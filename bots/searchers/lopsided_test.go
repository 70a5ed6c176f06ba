// Late-move pruning in a lopsided position: the strongest chess player at depth 8 still mates KQK, which it
// drew by the 50-move rule when the pruning applied everywhere.
package searchers

import (
	"testing"

	"dossier/bots/presets"
	"dossier/engine"
	"dossier/engine/enginetest"
	"dossier/games"
	"dossier/games/chess"
)

func TestLateMovePruningStillMatesKQK(t *testing.T) {
	g := chess.Game{}
	strongest, err := presets.Lookup(g, presets.Default)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		balance float64
		mates   bool
	}{{"within the default balance", engine.DefaultAlphaBetaOptions(g).LateMoveBalance, true}, {"everywhere", 1e9, false}} {
		t.Run(tc.name, func(t *testing.T) {
			opts := engine.DefaultAlphaBetaOptions(g)
			opts.LateMoveBalance = tc.balance
			start := mustPosition(t, g, "8/8/8/4k3/8/8/8/3QK3 w - - 0 1")
			white := engine.NewAlphaBeta(g, strongest.Eval, opts)
			black := engine.NewAlphaBeta(g, strongest.Eval, opts)
			o, plies := playUpTo(start, white, black, 8, 100)
			w, won := o.Result.Winner()
			if mated := won && w == games.First; mated != tc.mates {
				t.Errorf("%s after %d plies; mate %v, want %v", o.Result, plies, mated, tc.mates)
			}
		})
	}
}

// playUpTo plays from start at depth until the game ends or maxPlies were played (the result is then
// Ongoing, or a draw the position already allows).
func playUpTo(start games.Position, first, second engine.Searcher, depth, maxPlies int) (games.Outcome, int) {
	p := start.Clone()
	players := [2]engine.Searcher{first, second}
	for ply := 0; ply < maxPlies; ply++ {
		if o := games.OutcomeOf(p); o.Result != games.Ongoing {
			return o, ply
		}
		res := enginetest.SearchLimited(players[p.ToMove()], p.Clone(), engine.Limits{Depth: depth})
		p.Play(res.Move)
	}
	return games.OutcomeOf(p), maxPlies
}
