// Carmel & Markovitch's worked example (1996, Figures 2 and 4) replayed through M*, M* 1-pass and alpha-beta*.
package model

import (
	"dossier/engine"
	"slices"
	"testing"

	"dossier/games"
	"dossier/games/gametree"
)

// msFigure2 builds the tree of Figures 2 and 4: a (the player to move) has children b and c; b has d and e,
// c has f and g (the player to move again); d has leaves h and i, e has j and k, f has l and m, g has n and o.
// Each leaf carries (f2, f1, f0), each from its owner's point of view (f2 and f0 the player's, f1 the
// opponent's). The figure's numbers are not in the text we have, so the leaves are read from the text:
//
//   - "At node d the model of the player (f0) selects h ... f1 ... concludes that node h ... worth -6":
//     f0(h) > f0(i), f1(h) = -6.
//   - "The opponent then applies the player's model (f0) to node e, concludes that the player selects j
//     ... decides that node j ... worth -8", and Figure 4: "selects board j with a value of 10 ...
//     (f1(j) = -8) ... the player actually prefers node k ... (f2(k) = 7) ... the vector <7, -8, 10>":
//     f0(j) = 10 > f0(k), f1(j) = -8, f2(k) = 7 > f2(j).
//   - "M* to node d ... worth 8": max(f2(h), f2(i)) = 8.
//   - "Simulation of the opponent from node c yields the selection of node g ... worth 10 (the value of
//     node n) ... it wrongly assumes that the player selects node o": f0(o) > f0(n), f2(n) = 10 > f2(o),
//     and the opponent prefers g to f by f1.
//   - "minimax with f2 would have resulted in selecting the move that leads to node b with a value of 7":
//     min(8, max(f2(j), 7)) = 7 and c's minimax value below 7, so f2(l), f2(m) < 7.
//
// The other numbers are free; the ones below are one choice that satisfies every statement.
func msFigure2(t *testing.T) *gametree.Tree {
	t.Helper()
	leaf := func(name string, f2, f1, f0 float64) *gametree.Node {
		return &gametree.Node{Name: name, Values: msStored(f2, f1, f0)}
	}
	inner := func(name string, children ...*gametree.Node) *gametree.Node {
		return &gametree.Node{Name: name, Children: children}
	}
	root := inner("a",
		inner("b",
			inner("d", leaf("h", 8, -6, 5), leaf("i", 2, -3, 1)),
			inner("e", leaf("j", 5, -8, 10), leaf("k", 7, -2, 4))),
		inner("c",
			inner("f", leaf("l", 6, -4, 3), leaf("m", 1, 2, 0)),
			inner("g", leaf("n", 10, -9, 2), leaf("o", 0, -1, 6))))
	tree, err := gametree.NewTree(root, 3)
	if err != nil {
		t.Fatal(err)
	}
	return tree
}

func TestMStarFigure2(t *testing.T) {
	tree := msFigure2(t)
	chain := msUnitChain(3) // e_0 = f2 (the player), e_1 = f1 (its opponent model), e_2 = f0
	player := NewPlayerModel(chain...)
	exact := msLeafGaps(t, tree.Start(), 3, chain, ModelOptions{})
	searches := map[string]func(p games.Position) (ModelResult, error){
		"M*": func(p games.Position) (ModelResult, error) { return SearchMStar(p, 3, player, ModelOptions{}) },
		"M* 1-pass": func(p games.Position) (ModelResult, error) {
			return SearchMStarOnePass(p, 3, player, ModelOptions{})
		},
		"alpha-beta*": func(p games.Position) (ModelResult, error) {
			return SearchAlphaBetaStar(p, 3, player, ConstantBounds(exact...), ModelOptions{})
		},
	}
	for name, search := range searches {
		t.Run(name, func(t *testing.T) {
			p := tree.Start()
			r := msMust(t)(search(p))
			if r.Value != 10 || p.FormatMove(r.Move) != "c" {
				t.Errorf("M*(a, 3, (f2, (f1, f0))) = %v with move %s, want 10 with c", r.Value, p.FormatMove(r.Move))
			}
			p.Play(r.Move)
			if got := p.FormatMove(r.Predicted); got != "g" {
				t.Errorf("predicted reply %s, want g (the opponent model's choice at c)", got)
			}
		})
	}
	t.Run("minimax with f2", func(t *testing.T) {
		p := tree.Start()
		v, m := msAlphaBeta(p, chain[0], Mirror{}, games.First, 3, 0, -engine.MateScore, engine.MateScore, false)
		r := msMust(t)(SearchMStar(p, 3, NewPlayerModel(chain[0]), ModelOptions{}))
		if v != 7 || p.FormatMove(m) != "b" || r.Value != 7 || r.Move != m {
			t.Errorf("minimax %v with %s, M* of (f2, NIL) %v with %s; want 7 with b for both",
				v, p.FormatMove(m), r.Value, p.FormatMove(r.Move))
		}
	})
}

func TestMStarOnePassFigure4Vectors(t *testing.T) {
	tree := msFigure2(t)
	player := NewPlayerModel(msUnitChain(3)...)
	tests := []struct {
		node string
		want []float64 // (V2, V1, V0): the player's, the opponent model's, the opponent's model of the player
	}{
		{"e", []float64{7, -8, 10}}, // Figure 4's worked vector
		{"d", []float64{8, -6, 5}},
		{"g", []float64{10, -1, 6}},
		{"f", []float64{6, -4, 3}},
	}
	for _, tc := range tests {
		t.Run(tc.node, func(t *testing.T) {
			p, err := tree.PositionAt(tc.node)
			if err != nil {
				t.Fatal(err)
			}
			r := msMust(t)(SearchMStarOnePass(p, 1, player, ModelOptions{}))
			if !slices.Equal(r.Vector[:3], tc.want) {
				t.Errorf("vector at %s = %v, want %v", tc.node, r.Vector[:3], tc.want)
			}
		})
	}
}

func TestMStarFigure2Effort(t *testing.T) {
	// Theorem 2 on this uniform tree (b = 2, d = 3): M* expands at most (b+1)^(d-1) = 9 nodes and calls
	// evaluation functions at most (b+1)^d = 27 times; M* 1-pass expands (b^d - 1)/(b - 1) = 7 nodes and
	// extracts the features of each of the b^d = 8 leaves once.
	tree := msFigure2(t)
	player := NewPlayerModel(msUnitChain(3)...)
	p := tree.StartPosition()
	m := msMust(t)(SearchMStar(p, 3, player, ModelOptions{}))
	if m.Nodes > 9 || m.Leaves > 27 {
		t.Errorf("M*: %d expansions, %d evaluations; Theorem 2 bounds them by 9 and 27", m.Nodes, m.Leaves)
	}
	p.ResetLog()
	p.EnableLog()
	one := msMust(t)(SearchMStarOnePass(p, 3, player, ModelOptions{}))
	if one.Nodes != 7 || one.Leaves != 8 || p.FeatureCalls() != 8 {
		t.Errorf("M* 1-pass: %d expansions, %d leaves, %d feature calls; want 7, 8, 8", one.Nodes, one.Leaves, p.FeatureCalls())
	}
	if got, want := p.Evaluated(), tree.Leaves(); !slices.Equal(got, want) {
		t.Errorf("M* 1-pass evaluated %v, want every leaf once in order %v", got, want)
	}
}
