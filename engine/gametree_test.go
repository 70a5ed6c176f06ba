// Property test on random hand-built trees: alpha-beta's value is minimax's, with every option set.
package engine

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"dossier/games"
	"dossier/games/gametree"
)

// treeOptionSets are the configurations checked on random trees. On a tree without transpositions, a
// table only carries entries from one iteration to the next, which keeps fixed-depth values exact, and the
// reductions only change values while a reduced search stops above the leaves.
func treeOptionSets() map[string]AlphaBetaOptions {
	sets := exactOptionSets()
	sets["table"] = AlphaBetaOptions{HashMB: 1}
	sets["table+all"] = AlphaBetaOptions{HashMB: 1, PVS: true, Aspiration: true, Killers: true, History: true}
	sets["default"] = AlphaBetaOptions{HashMB: 1, PVS: true, Aspiration: true, Killers: true, History: true, Quiescence: true}
	return sets
}

func TestRandomTreesMatchMinimax(t *testing.T) {
	trees := 3000
	if testing.Short() {
		trees = 300
	}
	rng := rand.New(rand.NewPCG(31, 32))
	sets := treeOptionSets()
	lmr := AlphaBetaOptions{HashMB: 1, PVS: true, Killers: true, History: true, LMR: true}
	// Searchers are reused (a table is costly to allocate): keyed by option set and number of features.
	searchers := map[string]*AlphaBeta{}
	searcher := func(name string, opts AlphaBetaOptions, tree *gametree.Tree, eval Evaluation) *AlphaBeta {
		key := fmt.Sprint(name, tree.NumFunctions())
		s, ok := searchers[key]
		if !ok {
			s = NewAlphaBeta(tree, eval, opts)
			searchers[key] = s
		}
		rebind(s, eval)
		return s
	}
	for i := 0; i < trees; i++ {
		height := 1 + rng.IntN(6)
		tree := gametree.Random(rng, height, rng.IntN(2), 2+rng.IntN(4), 1+rng.IntN(3), 1+rng.IntN(20))
		eval := randomEvaluation(tree, rng)
		p := tree.Start()
		// Full depth: the search runs until the tree is solved, whatever the options.
		full := minimax(p, eval, height, 0)
		for name, opts := range sets {
			res := searcher(name, opts, tree, eval).Search(p, NewControl(Limits{}, p.ToMove()), nil)
			checkTreeResult(t, tree, p, eval, name+" full depth", height, res, full)
		}
		res := searcher("lmr", lmr, tree, eval).Search(p, NewControl(Limits{}, p.ToMove()), nil)
		checkTreeResult(t, tree, p, eval, "late-move reductions, full depth", height, res, full)
		// A depth limit above the leaves: interior values are the evaluation there.
		if height > 1 {
			depth := 1 + rng.IntN(height-1)
			want := minimax(p, eval, depth, 0)
			for name, opts := range sets {
				res := searchDepth(searcher(name, opts, tree, eval), p, depth)
				checkTreeResult(t, tree, p, eval, name, depth, res, want)
			}
		}
		if t.Failed() {
			return
		}
	}
}

// rebind gives a searcher a new evaluation and forgets what it learnt with the old one.
func rebind(s *AlphaBeta, eval Evaluation) {
	s.eval = eval
	s.window = s.opts.AspirationWindow
	if s.window <= 0 {
		s.window = AutoWindow(eval)
	}
	for _, t := range s.threads {
		t.eval = eval
		t.aspWindow = s.window
	}
	s.NewGame()
}

func checkTreeResult(t *testing.T, tree *gametree.Tree, p games.Position, eval Evaluation, name string, depth int, res Result, want float64) {
	t.Helper()
	if res.Score != want {
		t.Errorf("%s, depth %d: score %v, minimax %v, weights %v, tree %s", name, depth, res.Score, want, eval.Weights, tree)
		return
	}
	moves := p.AppendMoves(nil)
	if len(moves) == 0 {
		if res.Move != games.NoMove {
			t.Errorf("%s: a move from a lone root", name)
		}
		return
	}
	if got := childValue(p, eval, res.Move, depth); got != want {
		t.Errorf("%s, depth %d: move %s has value %v, not the best %v, tree %s", name, depth, p.FormatMove(res.Move), got, want, tree)
	}
}

func TestTreeSearchEvaluatesOnlyNeededLeaves(t *testing.T) {
	// Knuth and Moore's perfectly ordered tree: with the best move first everywhere, alpha-beta evaluates
	// b^ceil(d/2) + b^floor(d/2) - 1 leaves (here b = 2). Plain alpha-beta, one probe to the leaves.
	tests := []struct {
		tree   string
		depth  int
		leaves int
	}{
		// Values from the first player's view; the best move comes first at every node.
		{"r(a(a1[3] a2[5]) b(b1[1] b2[9]))", 2, 3},
		{"r(a(a1(x[5] y[4]) a2(z[6] w[7])) b(b2(q[2] s[1]) b1(u[3] v[9])))", 3, 5},
	}
	for _, tc := range tests {
		t.Run(tc.tree, func(t *testing.T) {
			tree, err := gametree.Parse(tc.tree)
			if err != nil {
				t.Fatal(err)
			}
			pos := tree.Start().(*gametree.Position)
			eval := Evaluation{Name: "f0", Weights: []float64{1}}
			pos.EnableLog()
			res := NewAlphaBeta(tree, eval, AlphaBetaOptions{}).Probe(pos, tc.depth, -MateScore, MateScore)
			if got := pos.Evaluated(); len(got) != tc.leaves {
				t.Errorf("evaluated %v, want %d leaves", got, tc.leaves)
			}
			if want := minimax(pos, eval, tc.depth, 0); res != want {
				t.Errorf("probe value %v, minimax %v", res, want)
			}
		})
	}
}
