// OM, PrOM and MEU value every evaluation for its owner under a Mirror, as the M* family does: checked on
// checkers positions with functions that are not antisymmetric (Tot reads the same from both sides).
package model

import (
	"dossier/engine"
	"math"
	"math/rand/v2"
	"testing"

	"dossier/games"
	"dossier/games/checkers"
)

// omMirrorEval draws a checkers evaluation in the spirit of Mat - Tot/25: material, a negative weight on
// Tot (so the function is not antisymmetric) and small random real weights on every other feature, so
// that no two replies tie by accident.
func omMirrorEval(rng *rand.Rand, name string) engine.Evaluation {
	w := make([]float64, checkers.NumFeatures)
	for i := range w {
		w[i] = math.Round((rng.Float64()*2-1)*1e6) / 1e6
	}
	w[checkers.FeatMen], w[checkers.FeatKings] = 100+rng.Float64(), 150+rng.Float64()
	w[checkers.FeatTotal] = -4 - rng.Float64()
	return engine.Evaluation{Name: name, Weights: w}
}

// omMirrorCase is one checkers position of the mirror tests with its search depth.
type omMirrorCase struct {
	p     games.Position
	depth int
}

// omMirrorCases returns random checkers positions, either side to move, with depths 2 to 4 (2 to 3 when
// short).
func omMirrorCases(rng *rand.Rand) []omMirrorCase {
	n, maxDepth := 40, 4
	if testing.Short() {
		n, maxDepth = 10, 3
	}
	var out []omMirrorCase
	for i, p := range omPositions(checkers.Game{}, rng, n) {
		out = append(out, omMirrorCase{p, 2 + i%(maxDepth-1)})
	}
	return out
}

func TestOMWithZeroSumModelIsMinimaxOfThePlayersView(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 7))
	g := checkers.Game{}
	mirror := msCheckersMirror()
	for i, tc := range omMirrorCases(rng) {
		f := msMatTot25
		if i%2 == 1 {
			f = omMirrorEval(rng, "f")
		}
		zeroSum := ZeroSumOpponent(f, mirror)
		want := msMinimax(tc.p, f, mirror, tc.p.ToMove(), tc.depth, 0)
		searches := map[string]func() (ModelResult, error){
			"OM": func() (ModelResult, error) {
				s, err := NewOMSearch(g, f, OMModel{Opponent: zeroSum}, OMOptions{Mirror: mirror, BetaPruning: true})
				if err != nil {
					return ModelResult{}, err
				}
				if s.typeAB[0] != s.own {
					t.Errorf("OM with minimax's model probes the opponent apart from us")
				}
				return s.SearchDepth(tc.p, tc.depth), nil
			},
			"PrOM, P(w_0) = 1": func() (ModelResult, error) {
				model := PromModel{Types: []OpponentType{{"minimax", zeroSum}, {"f", f}}, TypeProbabilities: []float64{1, 0}}
				s, err := NewPromSearch(g, f, model, OMOptions{Mirror: mirror, BetaPruning: true})
				if err != nil {
					return ModelResult{}, err
				}
				return s.SearchDepth(tc.p, tc.depth), nil
			},
			"MEU, Ps = 1": func() (ModelResult, error) {
				s, err := NewMEU(g, f, RankModel{Ps: 1}, MEUOptions{Mirror: mirror, ExpectedLevels: 1})
				if err != nil {
					return ModelResult{}, err
				}
				return s.SearchDepth(tc.p, tc.depth), nil
			},
		}
		for name, search := range searches {
			r, err := search()
			if err != nil {
				t.Fatal(err)
			}
			// MEU's value is a sum of probabilities times values, exact up to its rounding.
			if !promClose(r.Value, want) || (name != "MEU, Ps = 1" && r.Value != want) || !omLegal(tc.p, r.Move) {
				t.Errorf("%s depth %d, %s: %v (%s), minimax of the player's view %v", tc.p.FEN(), tc.depth, name, r.Value,
					tc.p.FormatMove(r.Move), want)
			}
		}
	}
}

func TestOMWithExchangeLovingModelIsMStar(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 8))
	g := checkers.Game{}
	mirror := msCheckersMirror()
	var differs int
	for _, tc := range omMirrorCases(rng) {
		// The exchange-loving opponent OP values the board with the player's own function from its side.
		f := omMirrorEval(rng, "f")
		op := f
		star := msMust(t)(SearchMStarStrategy(tc.p, tc.depth, f, Strategy{op, tc.depth - 1}, false, ModelOptions{Mirror: mirror}))
		recursive := msMust(t)(SearchMStar(tc.p, tc.depth, NewPlayerModel(f, op), ModelOptions{Mirror: mirror}))
		if recursive.Value != star.Value {
			t.Fatalf("%s depth %d: M* with (f, (OP, NIL)) %v, strategy form %v", tc.p.FEN(), tc.depth, recursive.Value, star.Value)
		}
		for _, beta := range []bool{false, true} {
			s, err := NewOMSearch(g, f, OMModel{Opponent: op}, OMOptions{Mirror: mirror, BetaPruning: beta})
			if err != nil {
				t.Fatal(err)
			}
			r := s.SearchDepth(tc.p, tc.depth)
			if r.Value != star.Value || r.Move != star.Move || r.Predicted != star.Predicted {
				t.Errorf("%s depth %d (beta-pruning %v): OM %v (%s, reply %s), M* strategy %v (%s, reply %s)", tc.p.FEN(),
					tc.depth, beta, r.Value, tc.p.FormatMove(r.Move), omReply(tc.p, r), star.Value,
					tc.p.FormatMove(star.Move), omReply(tc.p, ModelResult{Move: star.Move, Predicted: star.Predicted}))
			}
			prom, err := NewPromSearch(g, f, PromModel{Types: []OpponentType{{"op", op}}, TypeProbabilities: []float64{1}},
				OMOptions{Mirror: mirror, BetaPruning: beta})
			if err != nil {
				t.Fatal(err)
			}
			if pr := prom.SearchDepth(tc.p, tc.depth); pr.Value != r.Value || pr.Move != r.Move {
				t.Errorf("%s depth %d: PrOM with OP certain %v (%s), OM %v (%s)", tc.p.FEN(), tc.depth, pr.Value,
					tc.p.FormatMove(pr.Move), r.Value, tc.p.FormatMove(r.Move))
			}
		}
		minimax := msMinimax(tc.p, f, mirror, tc.p.ToMove(), tc.depth, 0)
		if star.Value < minimax {
			t.Errorf("%s depth %d: M* %v below minimax %v", tc.p.FEN(), tc.depth, star.Value, minimax)
		}
		if star.Value != minimax {
			differs++
		}
	}
	t.Logf("the exchange-loving model changed the value from minimax's in %d positions", differs)
}

func TestOMMirrorChecked(t *testing.T) {
	g := checkers.Game{}
	bad := OMOptions{Mirror: Mirror{Partner: make([]int, checkers.NumFeatures), Sign: make([]float64, checkers.NumFeatures)}}
	if _, err := NewOMSearch(g, msMatTot25, OMModel{Opponent: msMatTot25}, bad); err == nil {
		t.Error("OM accepted a mirror that is not an involution")
	}
	model := PromModel{Types: []OpponentType{{"op", msMatTot25}}, TypeProbabilities: []float64{1}}
	if _, err := NewPromSearch(g, msMatTot25, model, bad); err == nil {
		t.Error("PrOM accepted a mirror that is not an involution")
	}
	if _, err := NewMEU(g, msMatTot25, RankModel{Ps: 1}, MEUOptions{Mirror: bad.Mirror}); err == nil {
		t.Error("MEU accepted a mirror that is not an involution")
	}
}
