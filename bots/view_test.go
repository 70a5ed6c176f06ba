// Tests of playerView: negamax through the view computes minimax of one player's evaluation function.
package bots

import (
	"math"
	"math/rand/v2"
	"testing"

	"dossier/engine"
	"dossier/games"
)

// fixedPlayerMinimax is minimax of the root player's function f(board, root) = w . x_root, where x_root is
// the feature vector from the root player's side (the mirror of the side to move's when the opponent is to
// move): the root maximises f, the opponent minimises it. Game ends score as the engine scores them.
func fixedPlayerMinimax(p games.Position, w []float64, spec viewSpec, root games.Side, depth, ply int) float64 {
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
			b, _ := bookOf(g.Name())
			partner, sign, err := b.mirrorTable(g)
			if err != nil {
				t.Fatal(err)
			}
			spec := viewSpec{partner: partner, sign: sign}
			for i := range positions {
				w := make([]float64, len(g.FeatureNames()))
				for j := range w {
					w[j] = math.Round(rng.NormFloat64() * 10)
				}
				eval := engine.Evaluation{Name: "random", Weights: w}
				if !spec.needsView(eval) {
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
			b, _ := bookOf(g.Name())
			partner, sign, _ := b.mirrorTable(g)
			p := randomPosition(g, rand.New(rand.NewPCG(3, 4)), 9)
			v := newPlayerView(p, viewSpec{partner: partner, sign: sign})
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
