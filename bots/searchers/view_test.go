// Tests of playerView: negamax through the view computes minimax of one player's evaluation function.

package searchers

import (
	"math"
	"math/rand/v2"
	"testing"

	"dossier/bots/presets"
	"dossier/engine"
	"dossier/games"
	"dossier/games/checkers"
)

// fixedPlayerMinimax is minimax of the root player's function f(board, root) = w . x_root, where x_root is
// the feature vector from the root player's side (the mirror of the side to move's when the opponent is to
// move): the root maximises f, the opponent minimises it. Game ends score as the engine scores them.
func fixedPlayerMinimax(p games.Position, w []float64, spec ViewSpec, root games.Side, depth, ply int) float64 {
	rootToMove := p.ToMove() == root
	signed := func(v float64) float64 { // v is for the side to move; return it for the root player
		if rootToMove {
			return v
		}
		return -v
	}
	if o := p.Status(); o.Result != games.Ongoing {
		return terminalForRoot(o.Result, root, ply)
	}
	if ply > 0 && p.Repetitions() > 0 {
		return 0
	}
	moves := p.AppendMoves(nil)
	if len(moves) == 0 {
		if o := p.NoMovesOutcome(); o.Result != games.Ongoing {
			return terminalForRoot(o.Result, root, ply)
		}
	}
	if depth == 0 || len(moves) == 0 {
		x := make([]float64, len(w))
		p.Features(x)
		if !rootToMove {
			mirrored := make([]float64, len(x))
			for i := range x {
				mirrored[i] = spec.sign[i] * x[spec.partner[i]]
			}
			x = mirrored
		}
		var v float64
		for i := range w {
			v += w[i] * x[i]
		}
		return v
	}
	best := math.Inf(-1)
	for _, m := range moves {
		p.Play(m)
		v := signed(fixedPlayerMinimax(p, w, spec, root, depth-1, ply+1))
		p.Undo()
		best = max(best, v)
	}
	return signed(best)
}

// terminalForRoot scores a finished game for the root player, a win at ply p as MateScore - p.
func terminalForRoot(r games.Result, root games.Side, ply int) float64 {
	winner, ok := r.Winner()
	switch {
	case !ok:
		return 0
	case winner == root:
		return engine.MateScore - float64(ply)
	}
	return -(engine.MateScore - float64(ply))
}

func TestPlayerViewSearchesTheRootPlayersFunction(t *testing.T) {
	positions, maxDepth := 30, 3
	if testing.Short() {
		positions, maxDepth = 8, 2
	}
	for _, g := range bookedGames() {
		t.Run(g.Name(), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(7, uint64(len(g.Name()))))
			partner, sign, err := presets.MirrorTable(g)
			if err != nil {
				t.Fatal(err)
			}
			spec := ViewSpec{partner: partner, sign: sign}
			for i := range positions {
				w := make([]float64, len(g.FeatureNames()))
				for j := range w {
					w[j] = math.Round(rng.NormFloat64() * 10)
				}
				eval := engine.Evaluation{Name: "random", Weights: w}
				if !spec.NeedsView(eval) {
					continue
				}
				p := randomPosition(g, rng, rng.IntN(30))
				depth := 1 + i%maxDepth
				// Plain alpha-beta (no table, no quiescence) returns minimax values exactly.
				s := &presetSearcher{inner: engine.NewAlphaBeta(g, eval, engine.AlphaBetaOptions{}), view: &spec}
				res := searchLimited(s, p, engine.Limits{Depth: depth})
				// The search's score is for the side to move, which is the root player.
				want := fixedPlayerMinimax(p, w, spec, p.ToMove(), depth, 0)
				if math.Abs(res.Score-want) > 1e-9 {
					t.Fatalf("%s depth %d: search %v, root player's minimax %v", p.FEN(), depth, res.Score, want)
				}
			}
		})
	}
}

func TestPlayerViewPassesThrough(t *testing.T) {
	for _, g := range bookedGames() {
		t.Run(g.Name(), func(t *testing.T) {
			partner, sign, _ := presets.MirrorTable(g)
			p := randomPosition(g, rand.New(rand.NewPCG(3, 4)), 9)
			v := NewPlayerView(p, ViewSpec{partner: partner, sign: sign})
			if v.FEN() != p.FEN() || v.ToMove() != p.ToMove() {
				t.Fatal("the view shows another position")
			}
			if _, nulls := p.(games.NullMover); nulls != isNullView(v) {
				t.Errorf("the view passes the move: %v, the wrapped position: %v", isNullView(v), nulls)
			}
			if v.Hash() == p.Hash() && p.ToMove() == games.Second {
				t.Error("a view for the second player shares the plain position's table entries")
			}
			_, tactical := p.(games.Tactical)
			var buf [games.MaxMoves]games.Move
			for _, m := range v.AppendMoves(buf[:0]) {
				if v.(games.Tactical).IsTactical(m) != (tactical && p.(games.Tactical).IsTactical(m)) {
					t.Errorf("IsTactical(%s) differs from the wrapped position's", p.FormatMove(m))
				}
			}
			c := v.Clone()
			var m [games.MaxMoves]games.Move
			c.Play(c.AppendMoves(m[:0])[0])
			if c.FEN() == v.FEN() || c.Hash() == v.Hash() {
				t.Error("a clone of the view is not independent")
			}
			x, y := make([]float64, len(partner)), make([]float64, len(partner))
			c.Features(x) // the opponent to move: mirrored and negated
			inner := c
			if nv, ok := c.(nullView); ok {
				inner = nv.playerView
			}
			inner.(*playerView).Position.Features(y)
			for i := range x {
				if x[i] != -sign[i]*y[partner[i]] {
					t.Fatalf("feature %d seen as %v, want %v", i, x[i], -sign[i]*y[partner[i]])
				}
			}
		})
	}
}

// isNullView reports whether a view passes the move (null-move pruning).
func isNullView(p games.Position) bool {
	_, ok := p.(games.NullMover)
	return ok
}

// fakeGame is a game dossier has no book for.
type fakeGame struct{ checkers.Game }

func (fakeGame) Name() string { return "go" }

func TestWhichPresetsNeedAPlayerView(t *testing.T) {
	// The antisymmetric evaluations search as they are; the player's functions (Tot, unequal mine/theirs
	// weights) are searched through a playerView.
	tests := []struct {
		game   string
		preset string
		view   bool
	}{
		{"checkers", "strongest", false},
		{"checkers", "mat-tot25", true},
		{"checkers", "mat+tot25", true},
		{"connect4", "strongest", false},
		{"connect4", "sophisticated", false},
		{"connect4", "sp", true},
		{"tictactoe", "strongest", false},
		{"tictactoe", "open-lines", false},
	}
	for _, tc := range tests {
		t.Run(tc.game+"/"+tc.preset, func(t *testing.T) {
			for _, g := range bookedGames() {
				if g.Name() != tc.game {
					continue
				}
				s := presetSearcherOf(mustSearcher(t, g, Config{Preset: tc.preset}))
				if (s.view != nil) != tc.view {
					t.Errorf("view %v, want %v", s.view != nil, tc.view)
				}
			}
		})
	}
}
