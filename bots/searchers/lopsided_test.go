// Pruning in a lopsided position: the strongest chess player at depth 8 mates KQK and KRK. It drew KQK by
// the 50-move rule when late-move pruning applied everywhere, before the evaluation had its mop-up term and
// the table was probed in quiescence; it still mates without the mop-up term.

package searchers

import (
	"slices"
	"testing"

	"dossier/bots/presets"
	"dossier/engine"
	"dossier/engine/enginetest"
	"dossier/games"
	"dossier/games/chess"
)

func TestPruningStillMatesBareKings(t *testing.T) {
	g := chess.Game{}
	strongest, err := presets.Lookup(g, presets.Default)
	if err != nil {
		t.Fatal(err)
	}
	noMopUp := strongest.Eval
	noMopUp.Weights = slices.Clone(noMopUp.Weights)
	noMopUp.Weights[slices.Index(g.FeatureNames(), "mop_up")] = 0
	balance := engine.DefaultAlphaBetaOptions(g).LateMoveBalance
	for _, tc := range []struct {
		name    string
		fen     string
		eval    engine.Evaluation
		balance float64
	}{
		{"KQK", "8/8/8/4k3/8/8/8/3QK3 w - - 0 1", strongest.Eval, balance},
		{"KRK", "8/8/8/4k3/8/8/8/R3K3 w - - 0 1", strongest.Eval, balance},
		{"KQK, late-move pruning everywhere", "8/8/8/4k3/8/8/8/3QK3 w - - 0 1", strongest.Eval, 1e9},
		{"KQK without the mop-up term", "8/8/8/4k3/8/8/8/3QK3 w - - 0 1", noMopUp, balance},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opts := engine.DefaultAlphaBetaOptions(g)
			opts.LateMoveBalance = tc.balance
			start := mustPosition(t, g, tc.fen)
			white := engine.NewAlphaBeta(g, tc.eval, opts)
			black := engine.NewAlphaBeta(g, tc.eval, opts)
			o, plies := playUpTo(start, white, black, 8, 100)
			w, won := o.Result.Winner()
			if !won || w != games.First {
				t.Errorf("%s after %d plies, want White to mate", o.Result, plies)
			}
			t.Logf("mated in %d plies", plies)
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
