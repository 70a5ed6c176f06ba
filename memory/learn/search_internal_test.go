// The fixed-depth probes on a hand-built tree: move values, null-window comparisons and dominant boards.

package learn

import (
	"testing"

	"dossier/engine"
	"dossier/games/gametree"
)

func TestFixedSearchOnTree(t *testing.T) {
	// Values are the first player's: at two plies a is worth 3 to it (the reply a1), b 4 (b1).
	tree := gametree.MustParse(`r(a(a1[3] a2[5]) b(b1[4] b2[6]))`)
	s := newFixedSearch(tree, engine.Evaluation{Name: "f0", Weights: []float64{1}}, true)
	p := tree.Start()
	moves := p.AppendMoves(nil)
	values := make([]float64, len(moves))
	s.moveValues(p, moves, 2, values)
	if values[0] != 3 || values[1] != 4 {
		t.Errorf("move values %v at two plies, want [3 4]", values)
	}
	if !s.beats(p, moves[1], 2, values[0]) || s.beats(p, moves[0], 2, values[1]) || s.beats(p, moves[0], 2, values[0]) {
		t.Error("null-window comparisons disagree with the values")
	}
	if m := s.bestMove(p, 2); m != moves[1] {
		t.Errorf("best move %s, want b", p.FormatMove(m))
	}
	// The dominant board of the root at two plies is b1, seen by the first player: 4. Of a at one ply it is
	// a1, seen by the second player (to move at a): -3.
	if l := s.principalLeaf(tree, p, 2); l.ended || len(l.features) != 1 || l.features[0] != 4 {
		t.Errorf("dominant board of the root %+v, want features [4]", l)
	}
	p.Play(moves[0])
	if l := s.principalLeaf(tree, p, 1); l.ended || l.features[0] != -3 {
		t.Errorf("dominant board of a %+v, want features [-3]", l)
	}
	if v := fromParent(-(engine.MateScore - 3)); v != engine.MateScore-4 {
		t.Errorf("a mate in 3 plies for the child's opponent is %v from the parent, want %v", v, engine.MateScore-4)
	}
}
