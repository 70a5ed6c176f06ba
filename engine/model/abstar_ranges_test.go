// Tests of alpha-beta*'s ranges: how V_k + V_{k+1} widens up the tree, Theorem 4 with ranges read at
// every node, and the checkers ranges of the search-effort benchmark.
package model

import (
	"dossier/engine"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"dossier/games"
	"dossier/games/checkers"
)

// abLeafSums returns the smallest and largest f_k + f_{k+1} (each f valued for its owner, level 0 owned
// by root) over the leaves of the search of p to depth with the given chain, for the pairs of levels
// that both have an evaluation; p is left as it was.
func abLeafSums(t testing.TB, p games.Position, depth int, root games.Side, chain []engine.Evaluation, opts ModelOptions) (lo, hi []float64) {
	t.Helper()
	c, err := newModelCore(nil, chain, opts)
	if err != nil {
		t.Fatal(err)
	}
	c.begin(p, nil, depth)
	pairs := len(chain) - 1
	lo, hi = make([]float64, pairs), make([]float64, pairs)
	for k := range lo {
		lo[k], hi[k] = math.Inf(1), math.Inf(-1)
	}
	vec := make([]float64, c.levels)
	var walk func(depth, ply int)
	walk = func(depth, ply int) {
		leaf, moves := c.vectorLeaf(depth, ply, vec)
		if leaf {
			for k := range lo {
				lo[k], hi[k] = min(lo[k], vec[k]+vec[k+1]), max(hi[k], vec[k]+vec[k+1])
			}
			return
		}
		for _, m := range slices.Clone(moves) {
			p.Play(m)
			walk(depth-1, ply+1)
			p.Undo()
		}
	}
	start := 0
	if p.ToMove() != root {
		start = 1 // the levels keep their owners: the opponent is to move here
	}
	walk(depth, start)
	return lo, hi
}

// abExactRanges returns the LeafRanges that read, at every node, the exact range of the sums below it.
func abExactRanges(t testing.TB, root games.Side, chain []engine.Evaluation, opts ModelOptions) LeafRanges {
	return func(p games.Position, depth int, lo, hi []float64) {
		l, h := abLeafSums(t, p, depth, root, chain, opts)
		copy(lo, l)
		copy(hi, h)
	}
}

// abConstantRanges returns the LeafRanges that writes the same range at every node.
func abConstantRanges(lo, hi []float64) LeafRanges {
	return func(_ games.Position, _ int, l, h []float64) {
		copy(l, lo)
		copy(h, hi)
	}
}

func TestWidenRange(t *testing.T) {
	tests := []struct {
		name       string
		lo, hi     []float64
		ply, depth int
		want       []float64
		paper      []float64 // ComputeBounds for the symmetric bound max(-lo, hi), the same row
	}{
		// b = (1, 2, 3) as in TestComputeBounds: one ply above the leaves pair 1 (its owner moving)
		// widens by pair 2's width, 2 + 6 = 8, as in the paper.
		{"one ply up", []float64{-1, -2, -3}, []float64{1, 2, 3}, 0, 2, []float64{1, 8, 3}, []float64{1, 8, 3}},
		// Three plies up pair 0 widens by pair 1's width at that point: 1 + (8 + 2) = 11; the paper
		// counts the lower end of pair 1 as widened too: 1 + 2*8 = 17.
		{"three plies up", []float64{-1, -2, -3}, []float64{1, 2, 3}, 0, 4, []float64{11, 14, 3}, []float64{17, 14, 3}},
		// The benchmark's checkers pair: only pair 0 is inexact and nothing widens it.
		{"one inexact pair", []float64{-192, 0, 0}, []float64{0, 0, 0}, 0, 4, []float64{0, 0, 0}, []float64{192, 0, 0}},
		// A node at an odd ply: the opponent's levels move first above the leaves.
		{"odd ply", []float64{-1, -1}, []float64{1, 1}, 1, 3, []float64{3, 1}, []float64{3, 1}},
		{"leaf children", []float64{-5}, []float64{7}, 3, 1, []float64{7}, []float64{7}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := make([]float64, len(tc.hi))
			widenRange(tc.lo, tc.hi, got, tc.ply, tc.depth)
			if !slices.Equal(got, tc.want) {
				t.Errorf("widenRange(%v, %v, ply %d, depth %d) = %v, want %v", tc.lo, tc.hi, tc.ply, tc.depth, got, tc.want)
			}
			b := make([]float64, len(tc.hi))
			for k := range b {
				b[k] = max(-tc.lo[k], tc.hi[k])
			}
			// ComputeBounds numbers plies from a root of its depth; the children are at ply+1, with
			// depth-1 plies to go.
			paper := ComputeBounds(tc.ply+tc.depth, b)[tc.depth-1]
			if !slices.Equal(paper, tc.paper) {
				t.Errorf("ComputeBounds row = %v, want %v", paper, tc.paper)
			}
		})
	}
}

// TestRangesHoldAtEveryNode checks the range form of Lemma 1 on random trees: at every node of M* 1-pass
// the sums V_k + V_{k+1} lie between the leaves' lower ends and the widened upper ends, which are never
// above the paper's table.
func TestRangesHoldAtEveryNode(t *testing.T) {
	n := 2000
	if testing.Short() {
		n = 200
	}
	for _, tc := range msTreeCases(rand.New(rand.NewPCG(47, 48)), n) {
		if len(tc.chain) < 2 {
			continue
		}
		p := tc.tree.StartPosition()
		lo, hi := abLeafSums(t, p, tc.depth, games.First, tc.chain, ModelOptions{})
		c := abMust(newModelCore(nil, tc.chain, ModelOptions{}))(t)
		c.begin(p, nil, tc.depth)
		pairs := len(tc.chain) - 1
		paperLeaf := make([]float64, pairs)
		for k := range paperLeaf {
			paperLeaf[k] = max(-lo[k], hi[k])
		}
		paper := ComputeBounds(tc.depth, paperLeaf)
		// Pairs reaching into the minimax completion are exactly zero-sum; the search's vectors have
		// c.levels entries.
		fullLo, fullHi := make([]float64, c.levels-1), make([]float64, c.levels-1)
		copy(fullLo, lo)
		copy(fullHi, hi)
		upper := make([]float64, len(fullHi))
		var walk func(depth, ply int) []float64
		walk = func(depth, ply int) []float64 {
			v := make([]float64, c.levels)
			leaf, moves := c.vectorLeaf(depth, ply, v)
			if !leaf {
				initModelVector(v, ply)
				for _, m := range slices.Clone(moves) {
					p.Play(m)
					u := walk(depth-1, ply+1)
					p.Undo()
					mergeModelChild(v, u, ply)
				}
			}
			widenRange(fullLo, fullHi, upper, ply-1, depth+1)
			for k := range pairs {
				if s := v[k] + v[k+1]; s < lo[k] || s > upper[k] {
					t.Fatalf("%v: node at ply %d has V_%d + V_%d = %v outside [%v, %v]", tc, ply, k, k+1, s, lo[k], upper[k])
				}
				if upper[k] > paper[depth][k] {
					t.Fatalf("%v: ply %d: widened upper end %v of pair %d above the paper's bound %v", tc, ply, upper[k], k, paper[depth][k])
				}
			}
			return v
		}
		walk(tc.depth, 0)
	}
}

// abMust returns a function that fails the test on an error and otherwise returns the value.
func abMust[T any](v T, err error) func(testing.TB) T {
	return func(t testing.TB) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}

// TestAlphaBetaStarRangesOnRandomTrees is Theorem 4 with ranges: given ranges of f_k + f_{k+1} that hold
// at the leaves (the same at every node, or read at every node for the leaves below it), alpha-beta*
// returns M* 1-pass's value, move and predicted reply, evaluating no more leaves.
func TestAlphaBetaStarRangesOnRandomTrees(t *testing.T) {
	n := 2000
	if testing.Short() {
		n = 300
	}
	leaves := map[string]uint64{}
	for _, tc := range msTreeCases(rand.New(rand.NewPCG(49, 50)), n) {
		if len(tc.chain) < 2 {
			continue
		}
		player := NewPlayerModel(tc.chain...)
		p := tc.tree.StartPosition()
		one := msMust(t)(SearchMStarOnePass(p, tc.depth, player, ModelOptions{}))
		lo, hi := abLeafSums(t, p, tc.depth, games.First, tc.chain, ModelOptions{})
		gaps := make([]float64, len(lo))
		for k := range gaps {
			gaps[k] = max(-lo[k], hi[k])
		}
		loose := slices.Clone(hi)
		for k := range loose {
			loose[k] += 2
		}
		ranges := []struct {
			name string
			r    LeafRanges
		}{
			{"|sum| bounds", ConstantBounds(gaps...).Ranges()},
			{"root range", abConstantRanges(lo, hi)},
			{"loose root range", abConstantRanges(lo, loose)},
			{"range at every node", abExactRanges(t, games.First, tc.chain, ModelOptions{})},
		}
		leaves["M* 1-pass"] += one.Leaves
		for _, rc := range ranges {
			s := abMust(NewAlphaBetaStar(nil, player, nil, ModelOptions{}))(t)
			s.SetLeafRanges(rc.r)
			ab := s.SearchDepth(p, tc.depth)
			if ab.Value != one.Value || ab.Move != one.Move || ab.Predicted != one.Predicted {
				t.Fatalf("%v, %s [%v, %v]: alpha-beta* %v (move %v, reply %v), M* 1-pass %v (move %v, reply %v)", tc, rc.name,
					lo, hi, ab.Value, ab.Move, ab.Predicted, one.Value, one.Move, one.Predicted)
			}
			if ab.Leaves > one.Leaves {
				t.Fatalf("%v, %s: alpha-beta* evaluated %d leaves, more than M* 1-pass's %d", tc, rc.name, ab.Leaves, one.Leaves)
			}
			leaves[rc.name] += ab.Leaves
		}
	}
	t.Logf("leaves over %d trees: %v", n, leaves)
}

// TestExchangeRangesHold checks the benchmark's checkers ranges against every leaf: at every node of a
// depth-4 search, from positions of real games and random positions with kings, the sum f0 + f1 of
// every leaf below lies in the pair's range, for both readings of Mat; and the one-ply ranges often are a
// single point.
func TestExchangeRangesHold(t *testing.T) {
	positions := msACFPositions(t, 300, 5)
	rng := rand.New(rand.NewPCG(51, 52))
	extra := 500
	if testing.Short() {
		positions, extra = positions[:len(positions)/8], 50
	}
	for range extra {
		positions = append(positions, msRandomPosition(checkers.Game{}, rng, 40+rng.IntN(80)))
	}
	for _, pair := range msExchangePairs {
		t.Run(pair.eval.Name, func(t *testing.T) { msCheckExchangeRanges(t, pair, positions) })
	}
}

// msCheckExchangeRanges checks the pair's ranges at every node of a depth-4 search from each position.
func msCheckExchangeRanges(t *testing.T, pair msExchangePair, positions []games.Position) {
	c := abMust(newModelCore(nil, []engine.Evaluation{pair.eval, pair.eval}, ModelOptions{Mirror: msCheckersMirror()}))(t)
	lo, hi := make([]float64, 1), make([]float64, 1)
	nodes, points := 0, 0
	for _, root := range positions {
		c.begin(root, nil, 4)
		vec := make([]float64, c.levels)
		// walk returns the smallest and largest f0 + f1 over the leaves below the current position,
		// checking the range read at every node on the way.
		var walk func(depth, ply int) (float64, float64)
		walk = func(depth, ply int) (float64, float64) {
			leaf, moves := c.vectorLeaf(depth, ply, vec)
			if leaf {
				return vec[0] + vec[1], vec[0] + vec[1]
			}
			l, h := math.Inf(1), math.Inf(-1)
			for _, m := range slices.Clone(moves) {
				root.Play(m)
				cl, ch := walk(depth-1, ply+1)
				root.Undo()
				l, h = min(l, cl), max(h, ch)
			}
			lo[0], hi[0] = math.Inf(-1), math.Inf(1)
			pair.ranges(root, depth, lo, hi)
			if l < lo[0] || h > hi[0] {
				t.Fatalf("%s, %d plies: leaves' f0 + f1 in [%v, %v], outside the range [%v, %v]", root.FEN(), depth, l, h, lo[0], hi[0])
			}
			nodes++
			if lo[0] == hi[0] {
				points++
			}
			return l, h
		}
		walk(4, 0)
	}
	if points == 0 || points == nodes {
		t.Errorf("%d of %d nodes had a one-point range: want some, not all", points, nodes)
	}
	t.Logf("%d positions, %d nodes, %d with a one-point range", len(positions), nodes, points)
}
