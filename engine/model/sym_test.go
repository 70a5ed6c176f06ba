// Tests of symmetric opponent modelling: pruning with the bound finds the same equilibrium as plain
// backward induction, every equilibrium lies in the range, B = 0 is minimax, on random BCI trees and real
// positions.
package model

import (
	"dossier/engine"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"dossier/games"
	"dossier/games/catalog"
	"dossier/games/gametree"
)

// symTreeModel is a BCI model over a tree's two functions: f0 competitive, f1 common interest.
func symTreeModel(tree *gametree.Tree, bound float64) SymmetricModel {
	return SymmetricModel{Competitive: omUnit(tree, 0), Common: omUnit(tree, 1), Bound: bound}
}

// symLeaf is the pay-offs (side to move, other side) of a tree node as the model sees them.
func symLeaf(p games.Position, model SymmetricModel) (float64, float64) {
	f := make([]float64, len(model.Competitive.Weights))
	p.Features(f)
	return model.Payoffs(f)
}

// symReference is backward induction without pruning (Figure 3), ties to the first best child: the
// pay-offs of the side to move and of the other side.
func symReference(p games.Position, model SymmetricModel, depth int) (x, y float64) {
	moves := p.AppendMoves(nil)
	if depth == 0 || len(moves) == 0 {
		return symLeaf(p, model)
	}
	x, y = math.Inf(-1), 0
	for _, m := range moves {
		p.Play(m)
		cx, cy := symReference(p, model, depth-1)
		p.Undo()
		if cy > x {
			x, y = cy, cx
		}
	}
	return x, y
}

// symPair is an equilibrium's pay-offs: the side to move's and the other side's.
type symPair struct{ mover, other float64 }

// symEquilibria returns the pay-offs of every subgame-perfect equilibrium below p, whatever the ties: an
// outcome of child c is an equilibrium outcome at p when some equilibrium of every other child pays the
// side to move no more than it does.
func symEquilibria(p games.Position, model SymmetricModel, depth int) []symPair {
	moves := p.AppendMoves(nil)
	if depth == 0 || len(moves) == 0 {
		x, y := symLeaf(p, model)
		return []symPair{{x, y}}
	}
	children := make([][]symPair, len(moves))
	worst := make([]float64, len(moves)) // the least an equilibrium of child c can pay the side to move
	for c, m := range moves {
		p.Play(m)
		children[c] = symEquilibria(p, model, depth-1)
		p.Undo()
		worst[c] = math.Inf(1)
		for _, e := range children[c] {
			worst[c] = min(worst[c], e.other)
		}
	}
	seen := map[symPair]bool{}
	var out []symPair
	for c := range children {
		for _, e := range children[c] {
			ok := true
			for c2 := range children {
				if c2 != c && worst[c2] > e.other {
					ok = false
					break
				}
			}
			pair := symPair{e.other, e.mover}
			if ok && !seen[pair] {
				seen[pair] = true
				out = append(out, pair)
			}
		}
	}
	return out
}

// symRootMinimax is the reference v*: the minimax value of the root player's pay-off.
func symRootMinimax(p games.Position, model SymmetricModel, depth int, root games.Side) float64 {
	moves := p.AppendMoves(nil)
	if depth == 0 || len(moves) == 0 {
		x, y := symLeaf(p, model)
		if p.ToMove() == root {
			return x
		}
		return y
	}
	best := math.Inf(-1)
	if p.ToMove() != root {
		best = math.Inf(1)
	}
	for _, m := range moves {
		p.Play(m)
		v := symRootMinimax(p, model, depth-1, root)
		p.Undo()
		if p.ToMove() == root {
			best = max(best, v)
		} else {
			best = min(best, v)
		}
	}
	return best
}

// symBounds are the bounds on common interest the random-tree test draws from (values lie in [-5, 5]).
var symBounds = []float64{0, 0.5, 1, 2, 4, 10, 100}

func TestSymmetricOnRandomTrees(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 1))
	trees := omTreeCount()
	var leavesPruned, leavesPlain uint64
	var equilibria, multiple int
	for i := range trees {
		depth := 1 + rng.IntN(6)
		maxBranch := 1 + rng.IntN(4)
		if depth >= 5 {
			maxBranch = min(maxBranch, 3)
		}
		tree := gametree.Random(rng, depth, rng.IntN(2), maxBranch, 2, 5)
		bound := symBounds[rng.IntN(len(symBounds))]
		model := symTreeModel(tree, bound)
		p := tree.StartPosition()
		wantX, wantY := symReference(p, model, depth)
		vStar := symRootMinimax(p, model, depth, p.ToMove())
		var results [2]SymmetricResult
		for k, pruning := range []bool{false, true} {
			s, err := NewSymmetricSearch(tree, model, SymmetricOptions{Pruning: pruning})
			if err != nil {
				t.Fatal(err)
			}
			results[k] = s.SearchDepth(p, depth)
		}
		plain, pruned := results[0], results[1]
		leavesPlain += plain.Leaves
		leavesPruned += pruned.Leaves
		if plain.RootPayoff != wantX || plain.OtherPayoff != wantY || plain.VStar != vStar ||
			pruned.RootPayoff != plain.RootPayoff || pruned.OtherPayoff != plain.OtherPayoff ||
			pruned.Move != plain.Move || pruned.Predicted != plain.Predicted || pruned.VStar != vStar {
			t.Fatalf("tree %d (B %v, depth %d): plain (%v, %v) by %s, pruned (%v, %v) by %s; reference (%v, %v), v* %v (got %v, %v)\n%s",
				i, bound, depth, plain.RootPayoff, plain.OtherPayoff, p.FormatMove(plain.Move), pruned.RootPayoff,
				pruned.OtherPayoff, p.FormatMove(pruned.Move), wantX, wantY, vStar, plain.VStar, pruned.VStar, tree)
		}
		if !plain.InRange || !pruned.InRange {
			t.Fatalf("tree %d: the equilibrium found is out of range\n%s", i, tree)
		}
		all := symEquilibria(p, model, depth)
		equilibria += len(all)
		if len(all) > 1 {
			multiple++
		}
		lo, hi, otherLo, otherHi := BCIRange(vStar, bound, depth)
		tight := vStar + 2*bound*float64(depth/2)
		for _, e := range all {
			if e.mover < lo || e.mover > hi || e.other < otherLo || e.other > otherHi || e.mover < vStar || e.mover > tight {
				t.Fatalf("tree %d (B %v, depth %d, v* %v): equilibrium (%v, %v) outside [%v, %v] x [%v, %v] or [v*, %v]\n%s",
					i, bound, depth, vStar, e.mover, e.other, lo, hi, otherLo, otherHi, tight, tree)
			}
		}
		if bound == 0 && (len(all) != 1 || plain.RootPayoff != vStar) {
			t.Fatalf("tree %d: with B = 0 the equilibria %v, want the one minimax value %v", i, all, vStar)
		}
	}
	t.Logf("%d trees, %d equilibria (%d trees with several); leaves %d without pruning, %d with (%.1f%%)", trees,
		equilibria, multiple, leavesPlain, leavesPruned, 100*float64(leavesPruned)/float64(leavesPlain))
}

// TestSymmetricRangeCountsLevels shows how the survey's v* +- B(d-1) reads: at two plies an equilibrium
// can pay the first player nearly v* + 2B, outside v* +- B(2-1) but inside v* +- 2B, so d counts the
// levels of nodes (three here), not the plies.
func TestSymmetricRangeCountsLevels(t *testing.T) {
	// Leaves [S, C] at ply 2 (the first player to move, so the values are as stored): x pays (V1, V2) =
	// (0, -2), y pays (3.9, -1.9); B = 2. The second player at b takes y (-1.9 > -2).
	tree := gametree.MustParse(`a(b(x[1,-1] y[2.9,1]))`)
	s, err := NewSymmetricSearch(tree, symTreeModel(tree, 2), SymmetricOptions{Pruning: true})
	if err != nil {
		t.Fatal(err)
	}
	r := s.SearchDepth(tree.StartPosition(), 2)
	if !promClose(r.RootPayoff, 3.9) || !promClose(r.OtherPayoff, -1.9) || r.VStar != 0 || !r.InRange {
		t.Fatalf("equilibrium (%v, %v), v* %v, in range %v; want (3.9, -1.9), 0, true", r.RootPayoff, r.OtherPayoff, r.VStar, r.InRange)
	}
	if r.RootPayoff-r.VStar <= 2*(2-1) {
		t.Errorf("the example should exceed v* + B(d-1) with d = 2 plies")
	}
}

func TestSymmetricOnRealPositions(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 2))
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
			if testing.Short() {
				depth--
			}
			for _, p := range omPositions(g, rng, positions) {
				comp, common := omRandomEval(g, rng, "S"), omRandomEval(g, rng, "C")
				for _, bound := range []float64{0, 2, 20} {
					model := SymmetricModel{Competitive: comp, Common: common, Bound: bound}
					var results [2]SymmetricResult
					for k, pruning := range []bool{false, true} {
						s, err := NewSymmetricSearch(g, model, SymmetricOptions{Pruning: pruning})
						if err != nil {
							t.Fatal(err)
						}
						results[k] = s.SearchDepth(p, depth)
					}
					plain, pruned := results[0], results[1]
					if plain.RootPayoff != pruned.RootPayoff || plain.OtherPayoff != pruned.OtherPayoff || plain.Move != pruned.Move ||
						plain.Predicted != pruned.Predicted || !plain.InRange || !pruned.InRange || !omLegal(p, plain.Move) {
						t.Errorf("%s (B %v): plain (%v, %v) by %s, pruned (%v, %v) by %s, in range %v %v", p.FEN(), bound,
							plain.RootPayoff, plain.OtherPayoff, p.FormatMove(plain.Move), pruned.RootPayoff, pruned.OtherPayoff,
							p.FormatMove(pruned.Move), plain.InRange, pruned.InRange)
					}
					if bound == 0 {
						if want := omAlphaBetaValue(g, p, comp, engine.AlphaBetaOptions{}, depth); plain.RootPayoff != want {
							t.Errorf("%s: with B = 0 the equilibrium pays %v, alpha-beta on S gives %v", p.FEN(), plain.RootPayoff, want)
						}
					}
					t.Logf("%s, B %v: v* %.2f, equilibrium (%.2f, %.2f) by %s; leaves %d without pruning, %d with", p.FEN(), bound,
						plain.VStar, plain.RootPayoff, plain.OtherPayoff, p.FormatMove(plain.Move), plain.Leaves, pruned.Leaves)
				}
			}
		})
	}
}

func TestSymmetricModelCheck(t *testing.T) {
	tree := gametree.MustParse(`a(b[1,2] c[3,4])`)
	short := engine.Evaluation{Name: "short", Weights: []float64{1}}
	for _, tc := range []struct {
		model SymmetricModel
		want  string
	}{
		{SymmetricModel{Competitive: short, Common: omUnit(tree, 1), Bound: 1}, "competitive evaluation"},
		{SymmetricModel{Competitive: omUnit(tree, 0), Common: short, Bound: 1}, "common-interest evaluation"},
		{SymmetricModel{Competitive: omUnit(tree, 0), Common: omUnit(tree, 1), Bound: -1}, "bound on common interest is -1"},
		{SymmetricModel{Competitive: omUnit(tree, 0), Common: omUnit(tree, 1), Bound: math.Inf(1)}, "is +Inf"},
	} {
		_, err := NewSymmetricSearch(tree, tc.model, SymmetricOptions{})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("error %v, want one mentioning %q", err, tc.want)
		}
	}
	if lo, hi, olo, ohi := BCIRange(3, 2, 4); lo != -5 || hi != 11 || olo != -13 || ohi != 7 {
		t.Errorf("BCIRange(3, 2, 4 plies) = %v %v %v %v, want -5 11 -13 7", lo, hi, olo, ohi)
	}
	if x, y := (SymmetricModel{Competitive: omUnit(tree, 0), Common: omUnit(tree, 1), Bound: 3}).Payoffs([]float64{5, 4}); x != 6.5 || y != -3.5 {
		t.Errorf("pay-offs of S = 5, C = 4 clipped to 1.5: %v, %v; want 6.5, -3.5", x, y)
	}
}
