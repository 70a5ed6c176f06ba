// Property tests of M*, M* 1-pass and alpha-beta* on thousands of random hand-built trees: Theorems 1, 3
// and 4 and Lemma 1 of Carmel & Markovitch (1996), and alpha-beta* with a zero-sum model being alpha-beta.
package model

import (
	"dossier/engine"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"dossier/games"
	"dossier/games/gametree"
)

// msTreeCase is one random tree and the model searched on it.
type msTreeCase struct {
	tree  *gametree.Tree
	depth int   // search depth (at most the tree's height + 1, so some searches stop above the leaves)
	gap   []int // the bounds the tree was drawn with (nil: independent levels)
	chain []engine.Evaluation
}

// String names the case in failure messages.
func (c msTreeCase) String() string {
	return fmt.Sprintf("tree of height %d, %d levels, gaps %v, depth %d", c.tree.Height(), len(c.chain), c.gap, c.depth)
}

// msTreeCases draws n cases: tree heights 1-6 with branching up to 5 (fewer for tall trees, so that a case
// stays small), modelling levels 0-4, value ranges from tie-heavy to almost tie-free, and levels either
// independent or within drawn bounds of zero-sum (bound 0 included).
func msTreeCases(rng *rand.Rand, n int) []msTreeCase {
	cases := make([]msTreeCase, n)
	for i := range cases {
		height := 1 + i%6
		maxB := []int{5, 5, 5, 4, 3, 3}[height-1]
		minB := rng.IntN(2) // 0 lets some nodes end the game early: a frontier above the depth
		if i%3 == 0 {
			minB = 1 + rng.IntN(maxB)
		}
		levels := 1 + rng.IntN(5)
		valueRange := []int{2, 10, 1000}[rng.IntN(3)]
		var gap []int
		if rng.IntN(3) > 0 {
			gap = make([]int, levels)
			for k := range gap {
				gap[k] = []int{0, 0, 1, 3, 20}[rng.IntN(5)]
			}
		}
		tree := msRandomTree(rng, height, minB, maxB, levels, valueRange, gap)
		depth := 1 + rng.IntN(height+1)
		cases[i] = msTreeCase{tree: tree, depth: depth, gap: gap, chain: msUnitChain(levels)}
	}
	return cases
}

func TestMStarTheoremsOnRandomTrees(t *testing.T) {
	n := 3000
	if testing.Short() {
		n = 300
	}
	cases := msTreeCases(rand.New(rand.NewPCG(41, 42)), n)
	for _, tc := range cases {
		player := NewPlayerModel(tc.chain...)
		p := tc.tree.StartPosition()
		rec := msMust(t)(SearchMStar(p, tc.depth, player, ModelOptions{}))
		one := msMust(t)(SearchMStarOnePass(p, tc.depth, player, ModelOptions{}))
		// Theorem 1: M* and M* 1-pass return the same value (and, breaking ties alike, the same move and
		// predicted reply).
		if rec.Value != one.Value || rec.Move != one.Move || rec.Predicted != one.Predicted {
			t.Fatalf("%v: M* %v (move %v, reply %v), M* 1-pass %v (move %v, reply %v)", tc,
				rec.Value, rec.Move, rec.Predicted, one.Value, one.Move, one.Predicted)
		}
		// Theorem 3: M* is never below minimax with the player's own function.
		mm := msMinimax(p, tc.chain[0], Mirror{}, games.First, tc.depth, 0)
		if rec.Value < mm {
			t.Fatalf("%v: M* %v below minimax %v", tc, rec.Value, mm)
		}
		// Lemma 1: modelling the opponent as -f is minimax.
		zeroSum := NewPlayerModel(tc.chain[0], ZeroSumOpponent(tc.chain[0], Mirror{}))
		for name, model := range map[string]*PlayerModel{"(f, NIL)": NewPlayerModel(tc.chain[0]), "(f, -f)": zeroSum} {
			if v := msMust(t)(SearchMStar(p, tc.depth, model, ModelOptions{})).Value; v != mm {
				t.Fatalf("%v: M* with %s = %v, minimax %v", tc, name, v, mm)
			}
		}
	}
}

func TestAlphaBetaStarEqualsOnePassOnRandomTrees(t *testing.T) {
	n := 3000
	if testing.Short() {
		n = 300
	}
	cases := msTreeCases(rand.New(rand.NewPCG(43, 44)), n)
	var leavesOne, leavesExact, leavesDrawn uint64
	for _, tc := range cases {
		player := NewPlayerModel(tc.chain...)
		p := tc.tree.StartPosition()
		one := msMust(t)(SearchMStarOnePass(p, tc.depth, player, ModelOptions{}))
		bounds := map[string][]float64{"exact": msLeafGaps(t, p, tc.depth, tc.chain, ModelOptions{})}
		if tc.gap != nil {
			drawn := make([]float64, len(tc.gap))
			for k, g := range tc.gap {
				drawn[k] = float64(g)
			}
			bounds["drawn"] = drawn
		}
		for name, b := range bounds {
			ab := msMust(t)(SearchAlphaBetaStar(p, tc.depth, player, ConstantBounds(b...), ModelOptions{}))
			// Theorem 4: with bounds that hold at every leaf, alpha-beta* returns the M* value.
			if ab.Value != one.Value || ab.Move != one.Move || ab.Predicted != one.Predicted {
				t.Fatalf("%v, %s bounds %v: alpha-beta* %v (move %v, reply %v), M* 1-pass %v (move %v, reply %v)", tc, name, b,
					ab.Value, ab.Move, ab.Predicted, one.Value, one.Move, one.Predicted)
			}
			if ab.Leaves > one.Leaves {
				t.Fatalf("%v: alpha-beta* evaluated %d leaves, more than M* 1-pass's %d", tc, ab.Leaves, one.Leaves)
			}
			switch name {
			case "exact":
				leavesExact += ab.Leaves
				leavesOne += one.Leaves
			case "drawn":
				leavesDrawn += ab.Leaves
			}
		}
	}
	t.Logf("leaves over %d trees: M* 1-pass %d, alpha-beta* with exact bounds %d (drawn bounds, on a subset: %d)",
		n, leavesOne, leavesExact, leavesDrawn)
}

func TestAlphaBetaStarZeroSumIsAlphaBeta(t *testing.T) {
	n := 3000
	if testing.Short() {
		n = 300
	}
	cases := msTreeCases(rand.New(rand.NewPCG(45, 46)), n)
	for _, tc := range cases {
		f := tc.chain[0]
		models := map[string]*PlayerModel{
			"(f, NIL)":          NewPlayerModel(f),
			"(f, -f), B = 0":    NewPlayerModel(f, ZeroSumOpponent(f, Mirror{})),
			"(f, (-f, f)), B=0": NewPlayerModel(f, ZeroSumOpponent(f, Mirror{}), f),
		}
		p := tc.tree.StartPosition()
		p.EnableLog()
		p.ResetLog()
		want, wantMove := msAlphaBeta(p, f, Mirror{}, games.First, tc.depth, 0, math.Inf(-1), math.Inf(1), true)
		wantLeaves := p.Evaluated()
		for name, model := range models {
			p.ResetLog()
			r := msMust(t)(SearchAlphaBetaStar(p, tc.depth, model, ConstantBounds(0, 0, 0), ModelOptions{}))
			if got := p.Evaluated(); r.Value != want || r.Move != wantMove || !slices.Equal(got, wantLeaves) {
				t.Fatalf("%v, model %s: alpha-beta* %v (move %v) evaluated %v; alpha-beta %v (move %v) evaluated %v",
					tc, name, r.Value, r.Move, got, want, wantMove, wantLeaves)
			}
		}
	}
}
