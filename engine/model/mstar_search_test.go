// The model searches as Searchers: iterative deepening under a Control, predicted replies in Info, limits,
// root restrictions, finished games, and no allocation per node.
package model

import (
	"dossier/engine"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"dossier/games"
	"dossier/games/checkers"
	"dossier/games/tictactoe"
)

// msDepthSearcher is a model Searcher that can also search to a fixed depth.
type msDepthSearcher interface {
	engine.Searcher
	SearchDepth(p games.Position, depth int) ModelResult
}

// msSearchers builds one searcher of each kind for checkers, modelling the exchange-loving opponent.
func msSearchers(t testing.TB) map[string]msDepthSearcher {
	t.Helper()
	g := checkers.Game{}
	opts := ModelOptions{Mirror: msCheckersMirror()}
	player := NewPlayerModel(msMatTot25, msMatTot25)
	out := map[string]msDepthSearcher{}
	var err error
	if out["M*"], err = NewMStar(g, player, opts); err != nil {
		t.Fatal(err)
	}
	if out["M* 1-pass"], err = NewMStarOnePass(g, player, opts); err != nil {
		t.Fatal(err)
	}
	if out["alpha-beta*"], err = NewAlphaBetaStar(g, player, msTotBound, opts); err != nil {
		t.Fatal(err)
	}
	if out["M* strategy"], err = NewMStarStrategy(g, msMatTot25, Strategy{msMatTot25, 3}, false, opts); err != nil {
		t.Fatal(err)
	}
	if out["risk-reduced M*"], err = NewMStarStrategy(g, msMatTot25, Strategy{msMatTot25, 3}, true, opts); err != nil {
		t.Fatal(err)
	}
	return out
}

// msLegal reports whether m is a legal move in p.
func msLegal(p games.Position, m games.Move) bool {
	return m != games.NoMove && slices.Contains(p.AppendMoves(nil), m)
}

func TestMStarSearchersIterativeDeepening(t *testing.T) {
	rng := rand.New(rand.NewPCG(71, 72))
	for name, s := range msSearchers(t) {
		t.Run(name, func(t *testing.T) {
			for range 5 {
				p := msRandomPosition(checkers.Game{}, rng, rng.IntN(30))
				fen := p.FEN()
				var infos []engine.Info
				res := s.Search(p, engine.NewControl(engine.Limits{Depth: 3}, p.ToMove()), func(i engine.Info) { infos = append(infos, i) })
				want := s.SearchDepth(p, 3)
				if p.FEN() != fen {
					t.Fatalf("search left %s as %s", fen, p.FEN())
				}
				if res.Depth != 3 || res.Score != want.Value || !msLegal(p, res.Move) {
					t.Fatalf("%s: depth %d, score %v, move %v; want depth 3, score %v, a legal move", fen, res.Depth, res.Score, res.Move, want.Value)
				}
				if len(infos) != 3 || infos[2].Depth != 3 || infos[2].Score != res.Score {
					t.Fatalf("%s: reports %+v, want one per depth 1-3 ending with the result", fen, infos)
				}
				p.Play(res.Move)
				replyOK := res.Ponder == games.NoMove || msLegal(p, res.Ponder)
				p.Undo()
				if !replyOK || infos[2].Predicted != res.Ponder {
					t.Fatalf("%s: predicted reply %v (info %v) is not a legal reply to %v", fen, res.Ponder, infos[2].Predicted, res.Move)
				}
				if res.Ponder != games.NoMove && !slices.Equal(res.PV, []games.Move{res.Move, res.Ponder}) {
					t.Fatalf("%s: PV %v, want the move and the predicted reply", fen, res.PV)
				}
			}
		})
	}
}

func TestMStarSearchersLimits(t *testing.T) {
	p := checkers.Game{}.Start()
	legal := p.AppendMoves(nil)
	tests := []struct {
		name   string
		limits engine.Limits
		want   games.Move // NoMove: any legal move
	}{
		{"node limit", engine.Limits{Nodes: 30}, games.NoMove},
		{"move time", engine.Limits{MoveTime: 30 * time.Millisecond}, games.NoMove},
		{"search moves", engine.Limits{Depth: 2, SearchMoves: []games.Move{legal[3]}}, legal[3]},
	}
	for name, s := range msSearchers(t) {
		for _, tc := range tests {
			t.Run(name+"/"+tc.name, func(t *testing.T) {
				res := s.Search(p, engine.NewControl(tc.limits, p.ToMove()), nil)
				if !msLegal(p, res.Move) || (tc.want != games.NoMove && res.Move != tc.want) {
					t.Errorf("move %v, want %v (a legal move)", res.Move, tc.want)
				}
			})
		}
		t.Run(name+"/stop", func(t *testing.T) {
			ctl := engine.NewControl(engine.Limits{Infinite: true}, p.ToMove())
			go func() {
				time.Sleep(20 * time.Millisecond)
				ctl.Stop()
			}()
			if res := s.Search(p, ctl, nil); !msLegal(p, res.Move) {
				t.Errorf("stopped search returned %v, not a legal move", res.Move)
			}
		})
	}
}

func TestMStarSearchersFinishedAndTreeEnd(t *testing.T) {
	player := NewPlayerModel(msUnitChain(3)...)
	tree := msRandomTree(rand.New(rand.NewPCG(3, 4)), 3, 2, 2, 3, 9, nil)
	one, err := NewMStarOnePass(tree, player, ModelOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// Without limits the iterations stop once one meets no horizon: depth 4 on a tree of height 3 (a leaf
	// at the depth limit is not expanded, so depth 3 cannot tell it from a frontier).
	res := one.Search(tree.Start(), engine.NewControl(engine.Limits{}, games.First), nil)
	if want := one.SearchDepth(tree.Start(), 3); res.Depth != 4 || res.Score != want.Value {
		t.Errorf("unlimited search of a tree of height 3 ended at depth %d with %v, want depth 4 with %v", res.Depth, res.Score, want.Value)
	}

	g := tictactoe.Game{}
	won := g.Start()
	for _, sq := range []string{"a1", "a2", "b1", "b2", "c1"} { // X completes the first rank
		m, err := won.ParseMove(sq)
		if err != nil {
			t.Fatal(err)
		}
		won.Play(m)
	}
	ttt := msUnitChain(len(g.FeatureNames()))
	star, err := NewAlphaBetaStar(g, NewPlayerModel(ttt[0], ttt[1]), nil, ModelOptions{})
	if err != nil {
		t.Fatal(err)
	}
	res = star.Search(won, engine.NewControl(engine.Limits{Depth: 3}, won.ToMove()), nil)
	if res.Move != games.NoMove || res.Score != -engine.MateScore {
		t.Errorf("lost position: move %v, score %v; want no move and %v", res.Move, res.Score, -engine.MateScore)
	}
}

func TestMStarConstructorsRejectBadModels(t *testing.T) {
	g := checkers.Game{}
	short := engine.Evaluation{Name: "short", Weights: []float64{1}}
	nan := engine.Evaluation{Name: "nan", Weights: msCheckersWeights(0, 0, 0)}
	nan.Weights[0] = nanValue()
	badMirror := ModelOptions{Mirror: Mirror{Partner: make([]int, checkers.NumFeatures), Sign: make([]float64, checkers.NumFeatures)}}
	tests := []struct {
		name  string
		model *PlayerModel
		opts  ModelOptions
	}{
		{"nil model", nil, ModelOptions{}},
		{"wrong length", NewPlayerModel(msMatTot25, short), ModelOptions{}},
		{"not a number", NewPlayerModel(nan), ModelOptions{}},
		{"mirror not an involution", NewPlayerModel(msMatTot25), badMirror},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := NewMStar(g, tc.model, tc.opts); err == nil {
				t.Error("NewMStar accepted it")
			}
			if _, err := NewMStarOnePass(g, tc.model, tc.opts); err == nil {
				t.Error("NewMStarOnePass accepted it")
			}
			if _, err := NewAlphaBetaStar(g, tc.model, nil, tc.opts); err == nil {
				t.Error("NewAlphaBetaStar accepted it")
			}
		})
	}
}

// nanValue returns a NaN without a constant expression the compiler rejects.
func nanValue() float64 {
	zero := 0.0
	return zero / zero
}

func TestMStarSearchesAllocateNothingPerNode(t *testing.T) {
	p := checkers.Game{}.Start()
	for name, s := range msSearchers(t) {
		t.Run(name, func(t *testing.T) {
			s.SearchDepth(p, 4) // size the buffers
			shallow := testing.AllocsPerRun(3, func() { s.SearchDepth(p, 2) })
			deep := testing.AllocsPerRun(3, func() { s.SearchDepth(p, 4) })
			if deep > shallow+2 || deep > 12 {
				t.Errorf("%v allocations at depth 4, %v at depth 2: want a constant few per search", deep, shallow)
			}
		})
	}
}
