// M*, M* 1-pass and alpha-beta* on real positions of every game: the theorems hold there as on trees.
package model

import (
	"dossier/engine"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"dossier/games"
	"dossier/games/checkers"
	"dossier/games/chess"
	"dossier/games/connect4"
	"dossier/games/tictactoe"
)

// msCheckersMirror is the checkers feature mirror: Tot reads the same from both sides, every other
// feature is a difference.
func msCheckersMirror() Mirror {
	n := int(checkers.NumFeatures)
	m := Mirror{Partner: make([]int, n), Sign: make([]float64, n)}
	for i := range n {
		m.Partner[i], m.Sign[i] = i, -1
	}
	m.Sign[checkers.FeatTotal] = 1
	return m
}

// msRandomEvaluation draws weights for g's features: small integers when ties should be common, normal
// numbers otherwise.
func msRandomEvaluation(g games.Game, rng *rand.Rand, integer bool) engine.Evaluation {
	w := make([]float64, len(g.FeatureNames()))
	for i := range w {
		if integer {
			w[i] = float64(rng.IntN(7) - 3)
		} else {
			w[i] = rng.NormFloat64()
		}
	}
	return engine.Evaluation{Name: "random", Weights: w}
}

// msRandomPosition plays up to plies random moves from the start, stopping before the game ends.
func msRandomPosition(g games.Game, rng *rand.Rand, plies int) games.Position {
	p := g.Start()
	for range plies {
		moves := p.AppendMoves(nil)
		if len(moves) == 0 {
			break
		}
		p.Play(moves[rng.IntN(len(moves))])
		if p.Status().Result != games.Ongoing || len(p.AppendMoves(nil)) == 0 {
			p.Undo()
			break
		}
	}
	return p
}

// msLogged is a position that records the hash of every position whose features are extracted.
type msLogged struct {
	games.Position
	log *[]uint64
}

// Features logs the position and extracts its features.
func (p msLogged) Features(dst []float64) {
	*p.log = append(*p.log, p.Hash())
	p.Position.Features(dst)
}

func TestMStarTheoremsOnGames(t *testing.T) {
	type gameCase struct {
		game      games.Game
		positions int
		maxDepth  int
		maxPlies  int
		integer   bool
		mirror    Mirror
	}
	cases := map[string]gameCase{
		"checkers":  {checkers.Game{}, 80, 4, 60, false, msCheckersMirror()},
		"tictactoe": {tictactoe.Game{}, 80, 4, 6, true, Mirror{}},
		"connect4":  {connect4.Game{}, 80, 4, 30, true, Mirror{}},
		"chess":     {chess.Game{}, 30, 3, 40, false, Mirror{}},
	}
	for name, gc := range cases {
		t.Run(name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(61, uint64(len(name))))
			n := gc.positions
			if testing.Short() {
				n /= 4
			}
			opts := ModelOptions{Mirror: gc.mirror}
			for i := range n {
				p := msRandomPosition(gc.game, rng, rng.IntN(gc.maxPlies+1))
				depth := 1 + i%gc.maxDepth
				chain := make([]engine.Evaluation, 2+i%2)
				for j := range chain {
					chain[j] = msRandomEvaluation(gc.game, rng, gc.integer)
				}
				player := NewPlayerModel(chain...)
				fen := p.FEN()
				rec := msMust(t)(SearchMStar(p, depth, player, opts))
				one := msMust(t)(SearchMStarOnePass(p, depth, player, opts))
				if rec.Value != one.Value || rec.Move != one.Move || rec.Predicted != one.Predicted {
					t.Fatalf("%s depth %d: M* %v (%v, %v), M* 1-pass %v (%v, %v)", fen, depth, rec.Value, rec.Move,
						rec.Predicted, one.Value, one.Move, one.Predicted)
				}
				gaps := msLeafGaps(t, p, depth, chain, opts)
				loose := make([]float64, len(gaps))
				for k, g := range gaps {
					loose[k] = 2*g + 1
				}
				for _, b := range [][]float64{gaps, loose} {
					ab := msMust(t)(SearchAlphaBetaStar(p, depth, player, ConstantBounds(b...), opts))
					if ab.Value != one.Value || ab.Move != one.Move || ab.Predicted != one.Predicted {
						t.Fatalf("%s depth %d bounds %v: alpha-beta* %v (%v), M* 1-pass %v (%v)", fen, depth, b, ab.Value, ab.Move, one.Value, one.Move)
					}
				}
				ordered := opts
				ordered.Order = true
				if ab := msMust(t)(SearchAlphaBetaStar(p, depth, player, ConstantBounds(gaps...), ordered)); ab.Value != one.Value {
					t.Fatalf("%s depth %d: alpha-beta* with tactical moves first %v, M* 1-pass %v", fen, depth, ab.Value, one.Value)
				}
				mm := msMinimax(p, chain[0], gc.mirror, p.ToMove(), depth, 0)
				if rec.Value < mm {
					t.Fatalf("%s depth %d: M* %v below minimax %v", fen, depth, rec.Value, mm)
				}
				zeroSum := NewPlayerModel(chain[0], ZeroSumOpponent(chain[0], gc.mirror))
				if v := msMust(t)(SearchMStar(p, depth, zeroSum, opts)).Value; v != mm {
					t.Fatalf("%s depth %d: M* with (f, -f) %v, minimax %v", fen, depth, v, mm)
				}
				var abLog, starLog []uint64
				want, _ := msAlphaBeta(msLogged{p, &abLog}, chain[0], gc.mirror, p.ToMove(), depth, 0, math.Inf(-1), math.Inf(1), true)
				got := msMust(t)(SearchAlphaBetaStar(msLogged{p, &starLog}, depth, zeroSum, ConstantBounds(0), opts))
				if got.Value != want || !slices.Equal(abLog, starLog) {
					t.Fatalf("%s depth %d: zero-sum alpha-beta* %v after %d leaves, alpha-beta %v after %d", fen, depth,
						got.Value, len(starLog), want, len(abLog))
				}
				if p.FEN() != fen {
					t.Fatalf("a search left %s as %s", fen, p.FEN())
				}
			}
		})
	}
}
