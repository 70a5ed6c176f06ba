// Test helpers: the games with books, positions, fixed-depth searches and self-play.

package searchers

import (
	"math/rand/v2"
	"testing"

	"dossier/engine"
	"dossier/engine/enginetest"
	"dossier/games"
	"dossier/games/checkers"
	"dossier/games/chess"
	"dossier/games/connect4"
	"dossier/games/tictactoe"
)

// bookedGames returns every game that has a preset book.
func bookedGames() []games.Game {
	return []games.Game{chess.Game{}, checkers.Game{}, connect4.Game{}, tictactoe.Game{}}
}

// mustPosition reads a position string or fails the test.
func mustPosition(t testing.TB, g games.Game, s string) games.Position {
	t.Helper()
	return enginetest.MustPosition(t, g, s)
}

// mustSearcher builds a searcher or fails the test.
func mustSearcher(t testing.TB, g games.Game, cfg Config) engine.Searcher {
	t.Helper()
	s, err := New(g, cfg)
	if err != nil {
		t.Fatalf("NewSearcher(%s, %+v): %v", g.Name(), cfg, err)
	}
	return s
}

// searchLimited runs one search of p under lim.
func searchLimited(s engine.Searcher, p games.Position, lim engine.Limits) engine.Result {
	return enginetest.SearchLimited(s, p, lim)
}

// formatLine writes a line of moves from p in the game's notation.
func formatLine(p games.Position, line []games.Move) []string { return enginetest.FormatLine(p, line) }

// playGame plays a game between two searchers (see enginetest.PlayGame).
func playGame(t *testing.T, start games.Position, first, second engine.Searcher, lim engine.Limits, maxPlies int) (games.Outcome, int) {
	t.Helper()
	return enginetest.PlayGame(t, start, first, second, lim, maxPlies)
}

// randomPosition plays up to plies random moves from the start (see enginetest.RandomPosition).
func randomPosition(g games.Game, rng *rand.Rand, plies int) games.Position {
	return enginetest.RandomPosition(g, rng, plies)
}

// presetSearcherOf returns the alpha-beta part of a searcher New built.
func presetSearcherOf(s engine.Searcher) *presetSearcher {
	if solving, ok := s.(*solverSearcher); ok {
		s = solving.fallback
	}
	return s.(*presetSearcher)
}
