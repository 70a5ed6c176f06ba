// The experience reaches the alpha-beta inside every searcher that plays one (the preset's, the weak one, the
// Connect-Four solver's fallback, a guarded model search's guard), and no model search alone.

package searchers

import (
	"testing"

	"dossier/engine"
	"dossier/games"
	"dossier/games/chess"
	"dossier/games/connect4"
)

// oneEntry is an experience of one position.
type oneEntry struct {
	hash  uint64
	entry engine.ExperienceEntry
}

func (x oneEntry) Lookup(h uint64) (engine.ExperienceEntry, bool) { return x.entry, h == x.hash }

func TestSetExperienceReachesTheAlphaBeta(t *testing.T) {
	cases := []struct {
		name  string
		game  games.Game
		build func(g games.Game) (engine.Searcher, error)
		takes bool
	}{
		{"alpha-beta", chess.Game{}, func(g games.Game) (engine.Searcher, error) { return New(g, Config{HashMB: 1}) }, true},
		{"even mode", chess.Game{}, func(g games.Game) (engine.Searcher, error) {
			return New(g, Config{HashMB: 1, Mode: EvenMode})
		}, true},
		{"the Connect-Four solver", connect4.Game{}, func(g games.Game) (engine.Searcher, error) {
			return New(g, Config{HashMB: 1, Preset: "strongest"})
		}, true},
		{"a guarded model search", chess.Game{}, func(g games.Game) (engine.Searcher, error) {
			return NewGuarded(g, Config{HashMB: 2, Search: MStarSearch, Model: "strongest@1"}, func() int { return 100 })
		}, true},
		{"a model search alone", chess.Game{}, func(g games.Game) (engine.Searcher, error) {
			return New(g, Config{HashMB: 1, Search: MStarSearch, Model: "strongest@1"})
		}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, err := c.build(c.game)
			if err != nil {
				t.Fatal(err)
			}
			if got := SetExperience(s, oneEntry{}); got != c.takes {
				t.Errorf("SetExperience took it: %v, want %v", got, c.takes)
			}
			if ab := alphaBetaOf(s); (ab != nil) != c.takes {
				t.Errorf("alpha-beta found: %v, want %v", ab != nil, c.takes)
			}
			if !c.takes {
				return
			}
			// A deep entry of the position after the start's first move settles a node of the next search.
			start := c.game.Start()
			moves := start.AppendMoves(nil)
			after := start.Clone()
			after.Play(moves[0])
			SetExperience(s, oneEntry{hash: after.Hash(), entry: engine.ExperienceEntry{Move: games.NoMove,
				Score: 0, Depth: 30, Bound: engine.BoundExact}})
			s.Search(start.Clone(), engine.NewControl(engine.Limits{Depth: 3, SearchMoves: moves[:1]}, start.ToMove()), nil)
			if ExperienceHits(s) == 0 {
				t.Errorf("the experience settled no node")
			}
		})
	}
}
