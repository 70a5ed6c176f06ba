// The yardstick on hand-checked trees: top-1 and top-3 accuracy with shared places, the mean
// log-likelihood, Reibman and Ballard's rank model and minimax's implicit model.

package learn_test

import (
	"math"
	"testing"

	"dossier/engine"
	"dossier/games"
	"dossier/games/gametree"
	"dossier/memory/learn"
)

// treeObservations returns the observations "at node, the move to child" of a tree.
func treeObservations(t *testing.T, tree *gametree.Tree, pairs ...[2]string) []learn.Observation {
	t.Helper()
	var out []learn.Observation
	for _, pair := range pairs {
		p, err := tree.ParsePosition(pair[0])
		if err != nil {
			t.Fatal(err)
		}
		m, err := p.ParseMove(pair[1])
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, learn.Observation{Position: p, Move: m})
	}
	return out
}

func TestMeasure(t *testing.T) {
	// The first player's moves are worth 3, 1, 2 and 2 to it; one ply below each, the second player's
	// replies are worth (to the first player) 3 and 5, 4 and 6.
	tree := gametree.MustParse(`r(a[3](a1[3] a2[5]) b[1](b1[4] b2[6]) c[2] d[2])`)
	eval := engine.Evaluation{Name: "f0", Weights: []float64{1}}
	cases := []struct {
		name  string
		depth int
		ps    float64
		moves [][2]string
		want  learn.Score
	}{
		// Minimax's model at one ply: all on a. Playing a scores fully; c shares places 2-4 with b and d
		// (all probability 0): top-1 0, top-3 2/3, and it was ruled out.
		{"minimax, best move", 1, 1, [][2]string{{"r", "a"}}, learn.Score{Moves: 1, Top1: 1, Top3: 1, LogLikelihood: 0}},
		{"minimax, ruled out", 1, 1, [][2]string{{"r", "c"}},
			learn.Score{Moves: 1, Top1: 0, Top3: 2.0 / 3, LogLikelihood: math.Log(learn.MinProbability), Impossible: 1}},
		// Ranks a 1, c and d 2, b 4 with PS = 1/2: weights 1/2, 1/4, 1/4, 1/16, i.e. 8/17, 4/17, 4/17,
		// 1/17. c shares places 2-3 with d: top-1 0, top-3 1.
		{"rank model", 1, 0.5, [][2]string{{"r", "a"}, {"r", "c"}},
			learn.Score{Moves: 2, Top1: 0.5, Top3: 1, LogLikelihood: (math.Log(8.0/17) + math.Log(4.0/17)) / 2}},
		// Two plies: a is worth 3 (the reply a1), b 4 (b1), c and d 2: b is best.
		{"minimax, two plies", 2, 1, [][2]string{{"r", "b"}, {"a", "a1"}}, learn.Score{Moves: 2, Top1: 1, Top3: 1, LogLikelihood: 0}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			model, err := learn.NewFalliblePlayer(tree, learn.MinimaxPlayer{Eval: eval, Depth: c.depth}, c.ps)
			if err != nil {
				t.Fatal(err)
			}
			got, err := learn.Measure(model, treeObservations(t, tree, c.moves...))
			if err != nil {
				t.Fatal(err)
			}
			if got.Moves != c.want.Moves || got.Impossible != c.want.Impossible || math.Abs(got.Top1-c.want.Top1) > 1e-12 ||
				math.Abs(got.Top3-c.want.Top3) > 1e-12 || math.Abs(got.LogLikelihood-c.want.LogLikelihood) > 1e-12 {
				t.Errorf("score %+v, want %+v", got, c.want)
			}
		})
	}
}

// fixedModel gives the moves of every position fixed probabilities, in move order.
type fixedModel []float64

func (m fixedModel) MoveProbabilities(p games.Position, moves []games.Move, probs []float64) error {
	copy(probs, m)
	return nil
}

func TestMeasureErrors(t *testing.T) {
	tree := gametree.MustParse(`r(a b(c))`)
	good := fixedModel{0.5, 0.5}
	obs := treeObservations(t, tree, [2]string{"r", "a"})
	leaf, err := tree.ParsePosition("a")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		model learn.MoveModel
		obs   []learn.Observation
	}{
		{"probabilities not summing to 1", fixedModel{0.5, 0.4}, obs},
		{"a negative probability", fixedModel{1.5, -0.5}, obs},
		{"an illegal move", good, []learn.Observation{{Position: obs[0].Position, Move: 9}}},
		{"no position", good, []learn.Observation{{Move: 1}}},
		{"a position without moves", good, []learn.Observation{{Position: leaf, Move: 1}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if _, err := learn.Measure(c.model, c.obs); err == nil {
				t.Error("accepted")
			}
		})
	}
	if _, err := learn.NewFalliblePlayer(tree, learn.MinimaxPlayer{Eval: engine.Evaluation{Weights: []float64{1}}, Depth: 1}, 0); err == nil {
		t.Error("PS 0 was accepted")
	}
}

// TestScorePool: pooled scores weigh each side by its moves; an empty side changes nothing.
func TestScorePool(t *testing.T) {
	a := learn.Score{Moves: 10, Top1: 0.5, Top3: 0.8, LogLikelihood: -1, Impossible: 1}
	b := learn.Score{Moves: 30, Top1: 0.1, Top3: 0.4, LogLikelihood: -3, Impossible: 2}
	got := a.Pool(b)
	want := learn.Score{Moves: 40, Top1: 0.2, Top3: 0.5, LogLikelihood: -2.5, Impossible: 3}
	near := func(x, y float64) bool { return math.Abs(x-y) < 1e-12 }
	if got.Moves != want.Moves || got.Impossible != want.Impossible || !near(got.Top1, want.Top1) ||
		!near(got.Top3, want.Top3) || !near(got.LogLikelihood, want.LogLikelihood) {
		t.Errorf("pooled %+v, want %+v", got, want)
	}
	if got := (learn.Score{}).Pool(a); got != a {
		t.Errorf("empty pooled with %+v gives %+v", a, got)
	}
	if got := (learn.Score{}).Pool(learn.Score{}); got != (learn.Score{}) {
		t.Errorf("two empty scores pool to %+v", got)
	}
}
