// Tests of OM search: beta-pruning changes nothing, minimax's model gives minimax, and the reference
// definition on random trees and real positions; plus helpers the PrOM, MEU and symmetric tests share.
package model

import (
	"dossier/engine"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"dossier/games"
	"dossier/games/catalog"
	"dossier/games/gametree"
)

// omUnit is evaluation function f_i of a hand-built tree: the unit weight vector e_i.
func omUnit(tree *gametree.Tree, i int) engine.Evaluation {
	w := make([]float64, tree.NumFunctions())
	w[i] = 1
	return engine.Evaluation{Name: fmt.Sprintf("f%d", i), Weights: w}
}

// omTreeOptions are the probe configurations checked on trees: exact fixed-depth probes, probes with a
// table (on a tree, without transpositions, a table changes the order of moves but no value), and the
// engine's defaults.
func omTreeOptions() map[string]engine.AlphaBetaOptions {
	return map[string]engine.AlphaBetaOptions{
		"plain":   {},
		"table":   {HashMB: 1},
		"default": {HashMB: 1, PVS: true, Aspiration: true, Killers: true, History: true, Quiescence: true},
	}
}

// omDistinctTree is a random tree whose values are distinct at every node and for every function (random
// reals), so that no search meets a tie and every search order gives the same choices.
func omDistinctTree(rng *rand.Rand, depth, minBranch, maxBranch, functions int) *gametree.Tree {
	var grow func(name string, depth int) *gametree.Node
	grow = func(name string, depth int) *gametree.Node {
		n := &gametree.Node{Name: name, Values: make([]float64, functions)}
		for i := range n.Values {
			n.Values[i] = math.Round((rng.Float64()*200-100)*1e6) / 1e6
		}
		if depth > 0 {
			n.Children = make([]*gametree.Node, minBranch+rng.IntN(maxBranch-minBranch+1))
			for i := range n.Children {
				n.Children[i] = grow(fmt.Sprintf("%s.%d", name, i), depth-1)
			}
		}
		return n
	}
	tree, err := gametree.NewTree(grow("r", depth), functions)
	if err != nil {
		panic(err)
	}
	return tree
}

// omStatic is eval's value of p for its side to move.
func omStatic(p games.Position, eval engine.Evaluation) float64 {
	f := make([]float64, len(eval.Weights))
	p.Features(f)
	return eval.Value(f)
}

// omNegamax is the reference minimax value of a tree position for its side to move under eval: no
// pruning, the horizon and the tree's leaves evaluated statically.
func omNegamax(p games.Position, eval engine.Evaluation, depth int) float64 {
	moves := p.AppendMoves(nil)
	if depth == 0 || len(moves) == 0 {
		return omStatic(p, eval)
	}
	best := math.Inf(-1)
	for _, m := range moves {
		p.Play(m)
		best = max(best, -omNegamax(p, eval, depth-1))
		p.Undo()
	}
	return best
}

// omChoice is the reference choice of a minimax player with eval at p: the first move (in generation
// order) of highest value for the side to move, searching depth plies.
func omChoice(p games.Position, eval engine.Evaluation, depth int) games.Move {
	best, choice := math.Inf(-1), games.NoMove
	for _, m := range p.AppendMoves(nil) {
		p.Play(m)
		v := -omNegamax(p, eval, depth-1)
		p.Undo()
		if v > best {
			best, choice = v, m
		}
	}
	return choice
}

// omReference is OM search by its definition on a tree: our maximum at our moves, the opponent's minimax
// choice at its moves, our value at the leaves; values for the root player.
func omReference(p games.Position, own, opp engine.Evaluation, depth int, root games.Side) float64 {
	moves := p.AppendMoves(nil)
	if depth == 0 || len(moves) == 0 {
		v := omStatic(p, own)
		if p.ToMove() != root {
			v = -v
		}
		return v
	}
	if p.ToMove() != root {
		m := omChoice(p, opp, depth)
		p.Play(m)
		defer p.Undo()
		return omReference(p, own, opp, depth-1, root)
	}
	best := math.Inf(-1)
	for _, m := range moves {
		p.Play(m)
		best = max(best, omReference(p, own, opp, depth-1, root))
		p.Undo()
	}
	return best
}

// omRandomTree draws one of the random trees of the property tests: depths 1-6, branching 1-5.
func omRandomTree(rng *rand.Rand, functions int, distinct bool) (*gametree.Tree, int) {
	depth := 1 + rng.IntN(6)
	maxBranch := 1 + rng.IntN(5)
	if depth >= 5 {
		maxBranch = min(maxBranch, 3) // keeps the deep trees small enough for the unpruned references
	}
	if distinct {
		return omDistinctTree(rng, depth, 1, maxBranch, functions), depth
	}
	return gametree.Random(rng, depth, rng.IntN(2), maxBranch, functions, 1+rng.IntN(10)), depth
}

// omTreeCount is the number of random trees a property test draws.
func omTreeCount() int {
	if testing.Short() {
		return 300
	}
	return 3000
}

// omSearchers caches the OM searches of a property test by configuration: a search works on any tree
// with the same number of evaluation functions once NewGame has cleared what it kept from the last tree
// (tree nodes are hashed by name, and names repeat from tree to tree), and building a search allocates
// its probes' tables and buffers.
type omSearchers map[string]*OMSearch

func (c omSearchers) get(t *testing.T, tree *gametree.Tree, key string, own engine.Evaluation, model OMModel, opts OMOptions) *OMSearch {
	t.Helper()
	s, ok := c[key]
	if !ok {
		var err error
		if s, err = NewOMSearch(tree, own, model, opts); err != nil {
			t.Fatal(err)
		}
		c[key] = s
	}
	s.NewGame()
	return s
}

func TestOMOnRandomTrees(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 1))
	cache := omSearchers{}
	var pruned, unpruned int
	for i := range omTreeCount() {
		// Ties would let a probe with a table order the moves differently from the reference; the
		// plain probes keep the generation order, so they are also checked on trees full of ties.
		distinct := i%2 == 0
		tree, depth := omRandomTree(rng, 2, distinct)
		own, opp := omUnit(tree, 0), omUnit(tree, 1)
		p := tree.StartPosition()
		want := omReference(p, own, opp, depth, p.ToMove())
		minimax := omNegamax(p, own, depth)
		for name, probe := range omTreeOptions() {
			if !distinct && name != "plain" {
				continue
			}
			var results [2]ModelResult
			for k, beta := range []bool{false, true} {
				s := cache.get(t, tree, fmt.Sprint(name, beta), own, OMModel{Opponent: opp}, OMOptions{Probe: probe, BetaPruning: beta})
				p.ResetLog()
				results[k] = s.SearchDepth(p, depth)
				if name == "plain" {
					if beta {
						pruned += p.FeatureCalls()
					} else {
						unpruned += p.FeatureCalls()
					}
				}
				if s.reprobes != 0 && name == "plain" {
					t.Errorf("tree %d (%s): %d beta-pruned probes had to be repeated", i, name, s.reprobes)
				}
			}
			off, on := results[0], results[1]
			if off.Value != want || on.Value != off.Value || on.Move != off.Move || on.Predicted != off.Predicted {
				t.Fatalf("tree %d (%s, depth %d): OM without beta-pruning %v (%s, reply %s), with %v (%s, reply %s); reference %v\n%s",
					i, name, depth, off.Value, p.FormatMove(off.Move), omReply(p, off), on.Value, p.FormatMove(on.Move), omReply(p, on), want, tree)
			}
			if off.Value < minimax {
				t.Fatalf("tree %d (%s): OM value %v below the minimax value %v", i, name, off.Value, minimax)
			}
		}
	}
	t.Logf("feature extractions on the trees, plain probes: %d without beta-pruning, %d with (%.1f%%)",
		unpruned, pruned, 100*float64(pruned)/float64(unpruned))
}

// omReply names the predicted reply of a result at the root p.
func omReply(p games.Position, r ModelResult) string {
	if r.Move == games.NoMove || r.Predicted == games.NoMove {
		return "none"
	}
	p.Play(r.Move)
	defer p.Undo()
	return p.FormatMove(r.Predicted)
}

func TestOMWithMinimaxModelIsMinimax(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 2))
	cache := omSearchers{}
	for i := range omTreeCount() {
		tree, depth := omRandomTree(rng, 1, false)
		own := omUnit(tree, 0)
		p := tree.StartPosition()
		want := omNegamax(p, own, depth)
		for name, probe := range omTreeOptions() {
			s := cache.get(t, tree, name, own, OMModel{Opponent: own}, OMOptions{Probe: probe, BetaPruning: true})
			if got := s.SearchDepth(p, depth); got.Value != want {
				t.Fatalf("tree %d (%s, depth %d): OM with the opponent as minimax sees it: %v, minimax %v\n%s",
					i, name, depth, got.Value, want, tree)
			}
		}
	}
}

// TestOMProbeDepth checks the shallower opponent: a model that searches one ply predicts the reply that
// is best for it one ply ahead, not the one its deeper search would choose.
func TestOMProbeDepth(t *testing.T) {
	// At b the opponent (second player, lower f1 is better for it) sees d and e. One ply ahead it takes d
	// (f1 -5 against e's 3); searching to the leaves it expects us to answer d with d2 (f1 9) and e with e2
	// (f1 8), and takes e. We then answer by our own f0: d2 (6) after d, e2 (5) after e.
	tree := gametree.MustParse(`a(b(d[0,-5](d1[1,0] d2[6,9]) e[0,3](e1[4,-1] e2[5,8])) c(f[0,0](f1[2,2])))`)
	own, opp := omUnit(tree, 0), omUnit(tree, 1)
	for _, tc := range []struct {
		probeDepth int
		value      float64
		reply      string
	}{
		{0, 5, "e"},
		{1, 6, "d"},
	} {
		t.Run(fmt.Sprintf("probe depth %d", tc.probeDepth), func(t *testing.T) {
			s, err := NewOMSearch(tree, own, OMModel{Opponent: opp, ProbeDepth: tc.probeDepth}, OMOptions{BetaPruning: true})
			if err != nil {
				t.Fatal(err)
			}
			p := tree.StartPosition()
			r := s.SearchDepth(p, 3)
			if r.Value != tc.value || p.FormatMove(r.Move) != "b" || omReply(p, r) != tc.reply {
				t.Errorf("got %v by %s, reply %s; want %v by b, reply %s", r.Value, p.FormatMove(r.Move), omReply(p, r), tc.value, tc.reply)
			}
		})
	}
}

// omGames are the games whose real positions the property tests search, with the depths they use.
var omGames = []struct {
	name  string
	depth int
}{
	{"chess", 3},
	{"checkers", 4},
	{"connect4", 4},
	{"tictactoe", 5},
}

// omPositions returns random positions of a game reached by random playouts, none of them finished.
func omPositions(g games.Game, rng *rand.Rand, n int) []games.Position {
	var out []games.Position
	for len(out) < n {
		p := g.Start()
		plies := rng.IntN(30)
		if g.Name() == "tictactoe" {
			plies = rng.IntN(5)
		}
		ok := true
		for range plies {
			moves := p.AppendMoves(nil)
			if p.Status().Result != games.Ongoing || len(moves) == 0 {
				ok = false
				break
			}
			p.Play(moves[rng.IntN(len(moves))])
		}
		if ok && games.OutcomeOf(p).Result == games.Ongoing {
			out = append(out, p)
		}
	}
	return out
}

// omRandomEval draws an evaluation with random weights of about unit size.
func omRandomEval(g games.Game, rng *rand.Rand, name string) engine.Evaluation {
	w := make([]float64, len(g.FeatureNames()))
	for i := range w {
		w[i] = math.Round((rng.Float64()*2-1)*1000) / 100
	}
	return engine.Evaluation{Name: name, Weights: w}
}

// omExactProbe is the probe configuration under which every search here is exact fixed-depth minimax
// with quiescence: no table, no selective technique, no move-order state carried between probes.
func omExactProbe() engine.AlphaBetaOptions { return engine.AlphaBetaOptions{Quiescence: true} }

// omAlphaBetaValue is the engine's alpha-beta value of p to depth with the given options.
func omAlphaBetaValue(g games.Game, p games.Position, eval engine.Evaluation, opts engine.AlphaBetaOptions, depth int) float64 {
	res := engine.NewAlphaBeta(g, eval, opts).Search(p, engine.NewControl(engine.Limits{Depth: depth}, p.ToMove()), nil)
	return res.Score
}

func TestOMOnRealPositions(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 3))
	positions := 6
	if testing.Short() {
		positions = 2
	}
	for _, gc := range omGames {
		t.Run(gc.name, func(t *testing.T) {
			g, err := catalog.Lookup(gc.name)
			if err != nil {
				t.Fatal(err)
			}
			depth := gc.depth
			if testing.Short() {
				depth--
			}
			for i, p := range omPositions(g, rng, positions) {
				own, opp := omRandomEval(g, rng, "own"), omRandomEval(g, rng, "opp")
				minimax := omAlphaBetaValue(g, p, own, omExactProbe(), depth)
				self, err := NewOMSearch(g, own, OMModel{Opponent: own}, OMOptions{Probe: omExactProbe(), BetaPruning: true})
				if err != nil {
					t.Fatal(err)
				}
				if r := self.SearchDepth(p, depth); r.Value != minimax || !omLegal(p, r.Move) {
					t.Errorf("%s: OM with the minimax model %v (%s), alpha-beta %v", p.FEN(), r.Value, p.FormatMove(r.Move), minimax)
				}
				var results [2]ModelResult
				for k, beta := range []bool{false, true} {
					s, err := NewOMSearch(g, own, OMModel{Opponent: opp}, OMOptions{Probe: omExactProbe(), BetaPruning: beta})
					if err != nil {
						t.Fatal(err)
					}
					results[k] = s.SearchDepth(p, depth)
					if beta && s.reprobes != 0 {
						t.Errorf("%s: %d beta-pruned probes had to be repeated", p.FEN(), s.reprobes)
					}
				}
				off, on := results[0], results[1]
				if on.Value != off.Value || on.Move != off.Move || on.Predicted != off.Predicted || !omLegal(p, off.Move) {
					t.Errorf("position %d %s: without beta-pruning %v (%s), with %v (%s)", i, p.FEN(), off.Value,
						p.FormatMove(off.Move), on.Value, p.FormatMove(on.Move))
				}
				if off.Value < minimax {
					t.Errorf("%s: OM value %v below minimax %v", p.FEN(), off.Value, minimax)
				}
				t.Logf("%s: minimax %.2f, OM %.2f (%s), nodes %d without beta-pruning, %d with", p.FEN(), minimax, off.Value,
					p.FormatMove(off.Move), off.Nodes, on.Nodes)
			}
		})
	}
}

// omLegal reports whether m is a legal move in p.
func omLegal(p games.Position, m games.Move) bool {
	for _, x := range p.AppendMoves(nil) {
		if x == m {
			return true
		}
	}
	return false
}
