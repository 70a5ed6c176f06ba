// Tests of PrOM search: Donkers' worked example, P(w_0) = 1 is minimax, beta-pruning changes nothing, and
// the definition on random trees and real positions of every game.
package model

import (
	"dossier/engine"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"dossier/games"
	"dossier/games/catalog"
	"dossier/games/gametree"
)

// promReference is PrOM search by its definition on a tree: our maximum at our moves, at the opponent's
// moves the expectation of our value over the moves the types choose (each type a minimax player with its
// own function, choosing the first best move), our value at the leaves; values for the root player.
func promReference(p games.Position, own engine.Evaluation, model PromModel, depth int, root games.Side) float64 {
	moves := p.AppendMoves(nil)
	if depth == 0 || len(moves) == 0 {
		v := omStatic(p, own)
		if p.ToMove() != root {
			v = -v
		}
		return v
	}
	if p.ToMove() == root {
		best := math.Inf(-1)
		for _, m := range moves {
			p.Play(m)
			best = max(best, promReference(p, own, model, depth-1, root))
			p.Undo()
		}
		return best
	}
	expected := 0.0
	for i, typ := range model.Types {
		if model.TypeProbabilities[i] == 0 {
			continue
		}
		m := omChoice(p, typ.Eval, depth)
		p.Play(m)
		expected += model.TypeProbabilities[i] * promReference(p, own, model, depth-1, root)
		p.Undo()
	}
	return expected
}

// promClose reports whether two expected values agree up to the rounding of their sums.
func promClose(a, b float64) bool { return math.Abs(a-b) <= 1e-9*max(1, math.Abs(a), math.Abs(b)) }

// promPatterns are the type probabilities of the random-tree tests (types w_0 = f_0, w_1 = f_1, w_2 = f_2):
// a few fixed distributions, so that the tests can keep one search per distribution.
var promPatterns = [][]float64{{1, 0, 0}, {0.5, 0.3, 0.2}, {0.3, 0.7, 0}, {0.2, 0, 0.8}, {0.25, 0.25, 0.5}, {0, 0.4, 0.6}}

// promRandomModel draws a model over a tree's three functions with one of promPatterns.
func promRandomModel(tree *gametree.Tree, rng *rand.Rand) PromModel {
	m := PromModel{TypeProbabilities: promPatterns[rng.IntN(len(promPatterns))]}
	for i := range 3 {
		m.Types = append(m.Types, OpponentType{Name: fmt.Sprintf("w%d", i), Eval: omUnit(tree, i)})
	}
	return m
}

// promSearchers caches PrOM searches by configuration, as omSearchers does for OM.
type promSearchers map[string]*PromSearch

func (c promSearchers) get(t *testing.T, g games.Game, key string, own engine.Evaluation, model PromModel, opts OMOptions) *PromSearch {
	t.Helper()
	s, ok := c[key]
	if !ok {
		var err error
		if s, err = NewPromSearch(g, own, model, opts); err != nil {
			t.Fatal(err)
		}
		c[key] = s
	}
	s.NewGame()
	return s
}

func TestPromDonkersExample(t *testing.T) {
	// Donkers et al., Figure 1, as we read it from the text (the figure itself is not in our copy): MAX
	// at the root a chooses between two MIN nodes; values are MAX's, [omega_0, omega_1], and omega_0's are
	// the minimax values (omega_0 is our own function). At the left MIN node b both types take the right
	// child b2 (worth 7); at the right MIN node c omega_0 takes c2 (its value 6) and omega_1 takes c1 (its
	// value 8), so with P = 0.3/0.7 c is worth 0.3*6 + 0.7*8 = 7.4, more than b's 7: PrOM plays c where
	// minimax, valuing c at 6, plays b. The leaves' values not given in the text (b1, and omega_1 at b2
	// and c2) are ours, chosen to give those choices.
	tree := gametree.MustParse(`a(b(b1[9,10] b2[7,5]) c(c1[8,8] c2[6,9]))`)
	own := omUnit(tree, 0)
	model := PromModel{
		Types:             []OpponentType{{"omega0", own}, {"omega1", omUnit(tree, 1)}},
		TypeProbabilities: []float64{0.3, 0.7},
	}
	for name, probe := range omTreeOptions() {
		for _, beta := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s beta-pruning %v", name, beta), func(t *testing.T) {
				s, err := NewPromSearch(tree, own, model, OMOptions{Probe: probe, BetaPruning: beta})
				if err != nil {
					t.Fatal(err)
				}
				p := tree.StartPosition()
				r := s.SearchDepth(p, 2)
				if !promClose(r.Value, 7.4) || p.FormatMove(r.Move) != "c" || omReply(p, r) != "c1" {
					t.Errorf("PrOM: %v by %s (likeliest reply %s), want 7.4 by c (reply c1, P = 0.7)", r.Value, p.FormatMove(r.Move), omReply(p, r))
				}
				mm := engine.NewAlphaBeta(tree, own, probe).Search(p, engine.NewControl(engine.Limits{Depth: 2}, p.ToMove()), nil)
				if mm.Score != 7 || p.FormatMove(mm.Move) != "b" {
					t.Errorf("minimax: %v by %s, want 7 by b", mm.Score, p.FormatMove(mm.Move))
				}
				// The MIN node's own PrOM value, searched from c itself (our opponent to move there).
				c, _ := tree.PositionAt("c")
				if got := promReference(c, own, model, 1, games.First); !promClose(got, 7.4) {
					t.Errorf("reference value of c: %v, want 7.4", got)
				}
			})
		}
	}
}

func TestPromOnRandomTrees(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 1))
	cache := promSearchers{}
	var pruned, unpruned int
	for i := range omTreeCount() {
		distinct := i%2 == 0
		tree, depth := omRandomTree(rng, 3, distinct)
		own := omUnit(tree, 0)
		model := promRandomModel(tree, rng)
		p := tree.StartPosition()
		want := promReference(p, own, model, depth, p.ToMove())
		minimax := omNegamax(p, own, depth)
		for name, probe := range omTreeOptions() {
			if !distinct && name != "plain" {
				continue
			}
			var results [2]ModelResult
			for k, beta := range []bool{false, true} {
				// The cache key carries the probabilities: a search keeps its model.
				s := cache.get(t, tree, fmt.Sprint(name, beta, model.TypeProbabilities), own, model, OMOptions{Probe: probe, BetaPruning: beta})
				p.ResetLog()
				results[k] = s.SearchDepth(p, depth)
				if name == "plain" {
					if beta {
						pruned += p.FeatureCalls()
					} else {
						unpruned += p.FeatureCalls()
					}
					if s.reprobes != 0 {
						t.Errorf("tree %d: %d beta-pruned probes had to be repeated", i, s.reprobes)
					}
				}
			}
			off, on := results[0], results[1]
			if !promClose(off.Value, want) || on.Value != off.Value || on.Move != off.Move || on.Predicted != off.Predicted {
				t.Fatalf("tree %d (%s, depth %d, P %v): PrOM without beta-pruning %v (%s), with %v (%s); reference %v\n%s",
					i, name, depth, model.TypeProbabilities, off.Value, p.FormatMove(off.Move), on.Value, p.FormatMove(on.Move), want, tree)
			}
			if off.Value < minimax-1e-9 {
				t.Fatalf("tree %d (%s): PrOM value %v below the minimax value %v", i, name, off.Value, minimax)
			}
		}
	}
	t.Logf("feature extractions on the trees, plain probes: %d without beta-pruning, %d with (%.1f%%)",
		unpruned, pruned, 100*float64(pruned)/float64(unpruned))
}

// promCertainModels are the models under which PrOM search is minimax: P(w_0) = 1 beside types that
// have no probability, and every type our own function under any probabilities.
func promCertainModels(own engine.Evaluation, others ...engine.Evaluation) map[string]PromModel {
	certain := PromModel{Types: []OpponentType{{"w0", own}}, TypeProbabilities: []float64{1}}
	for i, e := range others {
		certain.Types = append(certain.Types, OpponentType{fmt.Sprintf("w%d", i+1), e})
		certain.TypeProbabilities = append(certain.TypeProbabilities, 0)
	}
	copies := PromModel{
		Types:             []OpponentType{{"w0", own}, {"w0'", own}, {"w0''", own}},
		TypeProbabilities: []float64{0.2, 0.5, 0.3},
	}
	return map[string]PromModel{"P(w0) = 1": certain, "copies of w0": copies}
}

func TestPromWithCertainOwnTypeIsMinimax(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 2))
	cache := promSearchers{}
	for i := range omTreeCount() {
		tree, depth := omRandomTree(rng, 3, false)
		own := omUnit(tree, 0)
		p := tree.StartPosition()
		want := omNegamax(p, own, depth)
		for modelName, model := range promCertainModels(own, omUnit(tree, 1), omUnit(tree, 2)) {
			for name, probe := range omTreeOptions() {
				// Similarity pruning with any bound: every type that has probability has our weights.
				opts := OMOptions{Probe: probe, BetaPruning: true, SimilarityPruning: i%2 == 0, SimilarityBound: 7}
				s := cache.get(t, tree, fmt.Sprint(modelName, name, opts.SimilarityPruning), own, model, opts)
				r := s.SearchDepth(p, depth)
				if !promClose(r.Value, want) || (modelName == "P(w0) = 1" && r.Value != want) {
					t.Fatalf("tree %d (%s, %s, depth %d): PrOM %v, minimax %v\n%s", i, modelName, name, depth, r.Value, want, tree)
				}
			}
		}
	}
}

func TestPromOnRealPositions(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 3))
	positions := 4
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
			if testing.Short() || g.Name() == "chess" {
				depth-- // three types' probes without a table make chess at depth 3 slow
			}
			for _, p := range omPositions(g, rng, positions) {
				own := omRandomEval(g, rng, "own")
				a, b := omRandomEval(g, rng, "a"), omRandomEval(g, rng, "b")
				minimax := omAlphaBetaValue(g, p, own, omExactProbe(), depth)
				for name, model := range promCertainModels(own, a, b) {
					s, err := NewPromSearch(g, own, model, OMOptions{Probe: omExactProbe(), BetaPruning: true})
					if err != nil {
						t.Fatal(err)
					}
					r := s.SearchDepth(p, depth)
					if !promClose(r.Value, minimax) || (name == "P(w0) = 1" && r.Value != minimax) || !omLegal(p, r.Move) {
						t.Errorf("%s (%s): PrOM %v (%s), alpha-beta %v", p.FEN(), name, r.Value, p.FormatMove(r.Move), minimax)
					}
				}
				model := PromModel{
					Types:             []OpponentType{{"own", own}, {"a", a}, {"b", b}},
					TypeProbabilities: []float64{0.5, 0.3, 0.2},
				}
				var results [2]ModelResult
				for k, beta := range []bool{false, true} {
					s, err := NewPromSearch(g, own, model, OMOptions{Probe: omExactProbe(), BetaPruning: beta})
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
					t.Errorf("%s: without beta-pruning %v (%s), with %v (%s)", p.FEN(), off.Value, p.FormatMove(off.Move),
						on.Value, p.FormatMove(on.Move))
				}
				if off.Value < minimax-1e-9*max(1, math.Abs(minimax)) {
					t.Errorf("%s: PrOM value %v below minimax %v", p.FEN(), off.Value, minimax)
				}
				t.Logf("%s: minimax %.2f, PrOM %.2f (%s), nodes %d without beta-pruning, %d with", p.FEN(), minimax,
					off.Value, p.FormatMove(off.Move), off.Nodes, on.Nodes)
			}
		})
	}
}

func TestPromModelCheck(t *testing.T) {
	tree := gametree.MustParse(`a(b[1,2] c[3,4])`)
	e0, e1 := omUnit(tree, 0), omUnit(tree, 1)
	for _, tc := range []struct {
		name  string
		model PromModel
		want  string
	}{
		{"no types", PromModel{}, "no opponent types"},
		{"count mismatch", PromModel{Types: []OpponentType{{"a", e0}}, TypeProbabilities: []float64{0.5, 0.5}}, "1 opponent types but 2 probabilities"},
		{"negative", PromModel{Types: []OpponentType{{"a", e0}, {"b", e1}}, TypeProbabilities: []float64{1.5, -0.5}}, "probability of type 0 (a) is 1.5"},
		{"sum", PromModel{Types: []OpponentType{{"a", e0}, {"b", e1}}, TypeProbabilities: []float64{0.5, 0.4}}, "sum to 0.9"},
		{"weights", PromModel{Types: []OpponentType{{"a", engine.Evaluation{Name: "short", Weights: []float64{1}}}}, TypeProbabilities: []float64{1}}, "has 1 weights"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := NewPromSearch(tree, e0, tc.model, OMOptions{})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one mentioning %q", err, tc.want)
			}
		})
	}
}

// promSimilarTree is a random tree whose functions f_1, f_2 differ from f_0 by a constant (per function)
// plus at most delta at every node: opponent types within the similarity bound delta of our own.
func promSimilarTree(rng *rand.Rand, depth, maxBranch int, delta float64) *gametree.Tree {
	offsets := []float64{0, rng.Float64()*40 - 20, rng.Float64()*40 - 20}
	var grow func(name string, depth int) *gametree.Node
	grow = func(name string, depth int) *gametree.Node {
		base := math.Round((rng.Float64()*200-100)*1e6) / 1e6
		n := &gametree.Node{Name: name, Values: []float64{base, 0, 0}}
		for i := 1; i < 3; i++ {
			n.Values[i] = base + offsets[i] + math.Round((rng.Float64()*2-1)*delta*1e6)/1e6
		}
		if depth > 0 {
			n.Children = make([]*gametree.Node, 1+rng.IntN(maxBranch))
			for i := range n.Children {
				n.Children[i] = grow(fmt.Sprintf("%s.%d", name, i), depth-1)
			}
		}
		return n
	}
	tree, err := gametree.NewTree(grow("r", depth), 3)
	if err != nil {
		panic(err)
	}
	return tree
}

// TestSimilarityPruningOnRandomTrees checks that the bounded-gain pruning at MAX nodes changes no PrOM or
// OM result when the opponent's functions lie within the bound of ours, and counts what it saves.
func TestSimilarityPruningOnRandomTrees(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 4))
	deltas := []float64{0, 1, 5, 20}
	cache := promSearchers{}
	omCache := omSearchers{}
	var nodesOff, nodesOn, pruned uint64
	for i := range omTreeCount() / 3 {
		depth := 2 + rng.IntN(5)
		maxBranch := 2 + rng.IntN(4)
		if depth >= 5 {
			maxBranch = min(maxBranch, 3)
		}
		delta := deltas[rng.IntN(len(deltas))]
		tree := promSimilarTree(rng, depth, maxBranch, delta)
		own := omUnit(tree, 0)
		model := promRandomModel(tree, rng)
		p := tree.StartPosition()
		for name, probe := range omTreeOptions() {
			if name == "table" {
				continue // "default" has a table too
			}
			var results [2]ModelResult
			for k, similar := range []bool{false, true} {
				opts := OMOptions{Probe: probe, BetaPruning: true, SimilarityPruning: similar, SimilarityBound: delta}
				s := cache.get(t, tree, fmt.Sprint(name, similar, delta, model.TypeProbabilities), own, model, opts)
				results[k] = s.SearchDepth(p, depth)
				if name == "plain" {
					if similar {
						nodesOn += results[k].Nodes
						pruned += s.pruned
					} else {
						nodesOff += results[k].Nodes
					}
				}
			}
			off, on := results[0], results[1]
			if on.Value != off.Value || on.Move != off.Move || on.Predicted != off.Predicted {
				t.Fatalf("tree %d (%s, delta %v, P %v, depth %d): PrOM %v (%s), with similarity pruning %v (%s)\n%s", i, name,
					delta, model.TypeProbabilities, depth, off.Value, p.FormatMove(off.Move), on.Value, p.FormatMove(on.Move), tree)
			}
			var om [2]ModelResult
			for k, similar := range []bool{false, true} {
				opts := OMOptions{Probe: probe, BetaPruning: true, SimilarityPruning: similar, SimilarityBound: delta}
				s := omCache.get(t, tree, fmt.Sprint(name, similar, delta), own, OMModel{Opponent: omUnit(tree, 1)}, opts)
				om[k] = s.SearchDepth(p, depth)
			}
			if om[0].Value != om[1].Value || om[0].Move != om[1].Move || om[0].Predicted != om[1].Predicted {
				t.Fatalf("tree %d (%s, delta %v, depth %d): OM %v (%s), with similarity pruning %v (%s)\n%s", i, name, delta,
					depth, om[0].Value, p.FormatMove(om[0].Move), om[1].Value, p.FormatMove(om[1].Move), tree)
			}
		}
	}
	t.Logf("PrOM with plain probes: %d nodes without similarity pruning, %d with (%.1f%%), %d moves pruned",
		nodesOff, nodesOn, 100*float64(nodesOn)/float64(nodesOff), pruned)
}

// TestPromSetTypeProbabilities changes the model of a running PrOM search as a learner would: Donkers'
// tree is minimax's choice with P(w_0) = 1 and PrOM's with 0.3/0.7.
func TestPromSetTypeProbabilities(t *testing.T) {
	tree := gametree.MustParse(`a(b(b1[9,10] b2[7,5]) c(c1[8,8] c2[6,9]))`)
	own := omUnit(tree, 0)
	model := PromModel{Types: []OpponentType{{"omega0", own}, {"omega1", omUnit(tree, 1)}}, TypeProbabilities: []float64{1, 0}}
	s, err := NewPromSearch(tree, own, model, DefaultOMOptions(tree))
	if err != nil {
		t.Fatal(err)
	}
	p := tree.StartPosition()
	for _, tc := range []struct {
		probabilities []float64
		value         float64
		move          string
	}{{[]float64{1, 0}, 7, "b"}, {[]float64{0.3, 0.7}, 7.4, "c"}, {[]float64{0, 1}, 8, "c"}} {
		if err := s.SetTypeProbabilities(tc.probabilities); err != nil {
			t.Fatal(err)
		}
		r := s.SearchDepth(p, 2)
		if !promClose(r.Value, tc.value) || p.FormatMove(r.Move) != tc.move || !slices.Equal(s.Model().TypeProbabilities, tc.probabilities) {
			t.Errorf("P %v: %v by %s, want %v by %s", tc.probabilities, r.Value, p.FormatMove(r.Move), tc.value, tc.move)
		}
	}
	if err := s.SetTypeProbabilities([]float64{0.5, 0.6}); err == nil || !strings.Contains(err.Error(), "sum to 1.1") {
		t.Errorf("probabilities summing to 1.1: error %v", err)
	}
	if err := s.SetTypeProbabilities([]float64{1}); err == nil || !strings.Contains(err.Error(), "2 opponent types but 1 probabilities") {
		t.Errorf("one probability for two types: error %v", err)
	}
}
