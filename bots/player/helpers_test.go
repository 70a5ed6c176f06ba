// Test helpers of the Player's tests: the games with books, positions, presets, fixed-depth searches and self-play.
package player

import (
	"math/rand/v2"
	"testing"

	"dossier/bots/presets"
	"dossier/bots/searchers"
	"dossier/engine"
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
	p, err := g.ParsePosition(s)
	if err != nil {
		t.Fatalf("%s position %q: %v", g.Name(), s, err)
	}
	return p
}

// mustSearcher builds a searcher or fails the test.
func mustSearcher(t testing.TB, g games.Game, cfg searchers.Config) engine.Searcher {
	t.Helper()
	s, err := searchers.New(g, cfg)
	if err != nil {
		t.Fatalf("searchers.New(%s, %+v): %v", g.Name(), cfg, err)
	}
	return s
}

// searchLimited runs one search of p under lim.
func searchLimited(s engine.Searcher, p games.Position, lim engine.Limits) engine.Result {
	return s.Search(p, engine.NewControl(lim, p.ToMove()), nil)
}

// formatLine writes a line of moves from p in the game's notation.
func formatLine(p games.Position, line []games.Move) []string {
	q := p.Clone()
	out := make([]string, len(line))
	for i, m := range line {
		out[i] = q.FormatMove(m)
		q.Play(m)
	}
	return out
}

// playGame plays a game from start between two searchers (first moves first) under lim per move, checking
// every move's legality, and returns the outcome and the number of plies; it fails the test after maxPlies.
func playGame(t *testing.T, start games.Position, first, second engine.Searcher, lim engine.Limits, maxPlies int) (games.Outcome, int) {
	t.Helper()
	p := start.Clone()
	players := [2]engine.Searcher{first, second}
	for ply := 0; ; ply++ {
		if o := games.OutcomeOf(p); o.Result != games.Ongoing {
			return o, ply
		}
		if ply >= maxPlies {
			t.Fatalf("no result after %d plies: %s", maxPlies, p.FEN())
		}
		res := searchLimited(players[p.ToMove()], p.Clone(), lim)
		if !games.IsLegal(p, res.Move) {
			t.Fatalf("%s: illegal move %d returned", p.FEN(), res.Move)
		}
		p.Play(res.Move)
	}
}

// randomPosition plays up to plies random moves from the start, stopping before the game ends.
func randomPosition(g games.Game, rng *rand.Rand, plies int) games.Position {
	p := g.Start()
	var buf [games.MaxMoves]games.Move
	for range plies {
		moves := p.AppendMoves(buf[:0])
		if len(moves) == 0 {
			break
		}
		p.Play(moves[rng.IntN(len(moves))])
		if games.OutcomeOf(p).Result != games.Ongoing {
			p.Undo()
			break
		}
	}
	return p
}

// mustPreset looks a preset up or fails the test.
func mustPreset(t testing.TB, g games.Game, name string) presets.Preset {
	t.Helper()
	p, err := presets.Lookup(g, name)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// trapModel is a model that expects the opponent to miss every reply deeper than one ply.
const trapModel = "strongest@1"
