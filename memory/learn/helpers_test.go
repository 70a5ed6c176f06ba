// Test helpers shared by the external tests: presets as players, random openings, fixed-depth opponents.

package learn_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"dossier/bots/presets"
	"dossier/engine"
	"dossier/games"
	"dossier/games/catalog"
	"dossier/memory/learn"
)

// game returns the named game.
func game(t testing.TB, name string) games.Game {
	t.Helper()
	g, err := catalog.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// preset returns the named preset of g as a player searching depth plies.
func preset(t testing.TB, g games.Game, name string, depth int) learn.MinimaxPlayer {
	t.Helper()
	p, err := presets.Lookup(g, name)
	if err != nil {
		t.Fatal(err)
	}
	return learn.MinimaxPlayer{Eval: p.Eval, Depth: depth}
}

// opponent is a fixed-depth player as the learners assume: engine.AlphaBeta without quiescence or
// extensions, playing the first best move of its order.
type opponent struct {
	learn.MinimaxPlayer
	ab *engine.AlphaBeta
}

// newOpponent returns the player's searcher; plain leaves out killers and history, so that its choice
// among equal moves depends on the position alone.
func newOpponent(g games.Game, pl learn.MinimaxPlayer, plain bool) *opponent {
	opts := learn.SearchOptions()
	if plain {
		opts = engine.AlphaBetaOptions{}
	}
	return &opponent{MinimaxPlayer: pl, ab: engine.NewAlphaBeta(g, pl.Eval, opts)}
}

// move returns the player's move in p, which must have one.
func (o *opponent) move(p games.Position) games.Move {
	_, m := o.ab.ProbeMove(p, o.Depth, math.Inf(-1), math.Inf(1))
	if m == games.NoMove {
		var buf [games.MaxMoves]games.Move
		m = p.AppendMoves(buf[:0])[0]
	}
	return m
}

// over reports whether the game has ended in p.
func over(p games.Position) bool { return games.OutcomeOf(p).Result != games.Ongoing }

// randomPosition plays between lo and hi random plies from the start and returns a position that is not over
// and has at least two legal moves, or nil when the random game ended first.
func randomPosition(g games.Game, rng *rand.Rand, lo, hi int) games.Position {
	p := g.Start()
	var buf [games.MaxMoves]games.Move
	for range lo + rng.IntN(hi-lo+1) {
		if over(p) {
			return nil
		}
		moves := p.AppendMoves(buf[:0])
		p.Play(moves[rng.IntN(len(moves))])
	}
	if over(p) || len(p.AppendMoves(buf[:0])) < 2 {
		return nil
	}
	return p
}
