// Package enginetest holds what the tests of the packages above the engine share: positions read or played at
// random, one search under limits, the moves of a line written out, and whole games between two searchers.
package enginetest

import (
	"math/rand/v2"
	"testing"

	"dossier/engine"
	"dossier/games"
)

// MustPosition reads a position string or fails the test.
func MustPosition(t testing.TB, g games.Game, s string) games.Position {
	t.Helper()
	p, err := g.ParsePosition(s)
	if err != nil {
		t.Fatalf("%s position %q: %v", g.Name(), s, err)
	}
	return p
}

// SearchLimited runs one search of p under lim.
func SearchLimited(s engine.Searcher, p games.Position, lim engine.Limits) engine.Result {
	return s.Search(p, engine.NewControl(lim, p.ToMove()), nil)
}

// FormatLine writes a line of moves from p in the game's notation.
func FormatLine(p games.Position, line []games.Move) []string {
	q := p.Clone()
	out := make([]string, len(line))
	for i, m := range line {
		out[i] = q.FormatMove(m)
		q.Play(m)
	}
	return out
}

// PlayGame plays a game from start between two searchers (first moves first) under lim per move, checking
// every move's legality, and returns the outcome and the number of plies; it fails the test after maxPlies.
func PlayGame(t testing.TB, start games.Position, first, second engine.Searcher, lim engine.Limits, maxPlies int) (games.Outcome, int) {
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
		res := SearchLimited(players[p.ToMove()], p.Clone(), lim)
		if !games.IsLegal(p, res.Move) {
			t.Fatalf("%s: illegal move %d returned", p.FEN(), res.Move)
		}
		p.Play(res.Move)
	}
}

// RandomPosition plays up to plies random moves from the start, stopping before the game ends.
func RandomPosition(g games.Game, rng *rand.Rand, plies int) games.Position {
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
