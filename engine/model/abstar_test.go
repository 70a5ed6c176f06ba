// Unit tests of alpha-beta*: the bound table of Lemma 1 / Figure 7 and the cutoff of Figure 6.
package model

import (
	"math"
	"slices"
	"testing"

	"dossier/games/gametree"
)

func TestComputeBounds(t *testing.T) {
	tests := []struct {
		name  string
		depth int
		leaf  []float64
		want  [][]float64
	}{
		// Levels 0-2, b = (1, 2): one ply up (the opponent, level 1, moves) B_1 = 2 + 2*0; two plies up
		// (the player and level 2 move) B_0 = 1 + 2*2 = 5.
		{"two pairs, depth 2", 2, []float64{1, 2}, [][]float64{{1, 2}, {1, 2}, {5, 2}}},
		{"two pairs, depth 3", 3, []float64{1, 2}, [][]float64{{1, 2}, {5, 2}, {5, 2}, {9, 2}}},
		// b = (1, 2, 3): B_1 = 2 + 2*3 = 8 one ply up, then B_0 = 1 + 2*8 = 17 and B_2 = 3 at the root.
		{"three pairs, depth 2", 2, []float64{1, 2, 3}, [][]float64{{1, 2, 3}, {1, 8, 3}, {17, 8, 3}}},
		// A zero-sum model: nothing grows, alpha-beta's zero window everywhere.
		{"zero-sum", 3, []float64{0, 0, 0}, [][]float64{{0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}}},
		// Carmel & Markovitch's checkers model: only the player's pair is inexact, and the completion
		// below the opponent model is exact, so B stays b at every depth.
		{"one inexact pair", 4, []float64{192, 0, 0, 0}, [][]float64{{192, 0, 0, 0}, {192, 0, 0, 0}, {192, 0, 0, 0}, {192, 0, 0, 0}, {192, 0, 0, 0}}},
		{"no bound", 1, []float64{math.Inf(1)}, [][]float64{{math.Inf(1)}, {math.Inf(1)}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := ComputeBounds(tc.depth, tc.leaf)
			if !slices.EqualFunc(got, tc.want, slices.Equal) {
				t.Errorf("ComputeBounds(%d, %v) = %v, want %v", tc.depth, tc.leaf, got, tc.want)
			}
		})
	}
}

// TestAlphaBetaStarFigure6 replays the situation of Figure 6: every leaf has |f1 + f0| <= 2; the player
// already has 7 at b; at c the opponent's first reply f is worth -5 to it, so whatever the opponent picks
// at c is worth at least -5 to it and at most 2 - (-5) = 7 to the player, and g is cut off. The figure's
// numbers are not in our text: b's leaves d (7, -6) and e (9, -8) give b the value 7 (the opponent prefers
// d), f is (6, -5) and g (3, -4) (each (f1, f0) from its owner's point of view).
func TestAlphaBetaStarFigure6(t *testing.T) {
	leaf := func(name string, f1, f0 float64) *gametree.Node {
		return &gametree.Node{Name: name, Values: msStored(f1, f0)}
	}
	root := &gametree.Node{Name: "a", Children: []*gametree.Node{
		{Name: "b", Children: []*gametree.Node{leaf("d", 7, -6), leaf("e", 9, -8)}},
		{Name: "c", Children: []*gametree.Node{leaf("f", 6, -5), leaf("g", 3, -4)}},
	}}
	tree, err := gametree.NewTree(root, 2)
	if err != nil {
		t.Fatal(err)
	}
	player := NewPlayerModel(msUnitChain(2)...)
	tests := []struct {
		name   string
		bounds LeafBounds
		leaves []string
	}{
		{"bound 2", ConstantBounds(2), []string{"d", "e", "f"}},
		{"bound 3", ConstantBounds(3), []string{"d", "e", "f", "g"}},
		{"no bound", nil, []string{"d", "e", "f", "g"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := tree.StartPosition()
			p.EnableLog()
			r := msMust(t)(SearchAlphaBetaStar(p, 2, player, tc.bounds, ModelOptions{}))
			if r.Value != 7 || p.FormatMove(r.Move) != "b" || !slices.Equal(p.Evaluated(), tc.leaves) {
				t.Errorf("value %v, move %s, evaluated %v; want 7, b, %v", r.Value, p.FormatMove(r.Move), p.Evaluated(), tc.leaves)
			}
		})
	}
}
