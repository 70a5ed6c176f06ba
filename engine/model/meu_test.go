// Tests of MEU: Sen & Arora's prudent and risky situations, minimax as the certain model's special case,
// the recursive definition on random trees, real positions, and the two reply models.
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

// meuTable is a reply model given as a table: the probability of each reply by the name of the tree node
// it leads to, as Sen & Arora's Figure 1 writes them next to the leaves.
type meuTable map[string]float64

func (m meuTable) Probabilities(p games.Position, replies []games.Move, _ []float64, probs []float64) {
	for j, r := range replies {
		probs[j] = m[p.FormatMove(r)]
	}
}

// Sen & Arora's Figure 1 is not in our copy; the text gives the probabilities of situation (a) (0.95, 0.03
// and 0.02 after A2, 0.40, 0.35 and 0.25 after A3) and the shape of both situations. The values and the
// probabilities of (b) are ours, chosen as the text describes them.
//
// (a) prudent move: A2 and A3 have the same security level 2 and A2 dominates A3 reply by reply, but the
// opponent's mistakes after A2 are so bad that it hardly makes them, while after A3 they are mild and
// frequent: MEU plays A3, minimax A2 (the first of its two equal moves).
const meuPrudent = `R(A1(A11[1] A12[4] A13[5]) A2(A21[2] A22[9] A23[8]) A3(A31[2] A32[6] A33[5]))`

// (b) risky move: A2 is the minimax move (security 3 against A1's 1), but this opponent often picks moves
// it should not consider, and A1's replies are mostly very good for us: MEU plays A1.
const meuRisky = `R(A1(A11[1] A12[8] A13[9]) A2(A21[3] A22[5] A23[4]))`

func TestMEUSenAroraSituations(t *testing.T) {
	figure := meuTable{
		"A11": 0.8, "A12": 0.1, "A13": 0.1, "A21": 0.95, "A22": 0.03, "A23": 0.02, "A31": 0.40, "A32": 0.35, "A33": 0.25,
	}
	riskyFigure := meuTable{"A11": 0.3, "A12": 0.4, "A13": 0.3, "A21": 0.9, "A22": 0.05, "A23": 0.05}
	// Counts by discrepancy range (0, (0, 4], above 4) that give the same choices: an opponent that rarely
	// blunders badly (a), and one that blunders badly more often than it errs mildly (b).
	rare, _ := NewDiscrepancyModel([]float64{4}, 0)
	if err := rare.SetCounts(0, []float64{40, 60, 5}); err != nil {
		t.Fatal(err)
	}
	blunderer, _ := NewDiscrepancyModel([]float64{4}, 0)
	if err := blunderer.SetCounts(0, []float64{30, 10, 60}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name     string
		tree     string
		model    MoveProbabilities
		move     string
		value    float64
		reply    string
		minimax  string
		security float64
	}{
		{"prudent, figure's probabilities", meuPrudent, figure, "A3", 4.15, "A31", "A2", 2},
		{"prudent, discrepancy counts", meuPrudent, rare, "A3", 0.4*2 + 0.3*6 + 0.3*5, "A31", "A2", 2},
		{"risky, figure's probabilities", meuRisky, riskyFigure, "A1", 6.2, "A12", "A2", 3},
		{"risky, discrepancy counts", meuRisky, blunderer, "A1", 6, "A11", "A2", 3},
		{"risky, rank model Ps = 0.3", meuRisky, RankModel{Ps: 0.3}, "A1", (0.3*1 + 0.21*8 + 0.147*9) / 0.657, "A11", "A2", 3},
		{"risky, rank model Ps = 0.9", meuRisky, RankModel{Ps: 0.9}, "A2", (0.9*3 + 0.009*5 + 0.09*4) / 0.999, "A21", "A2", 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tree := gametree.MustParse(tc.tree)
			own := omUnit(tree, 0)
			for levels := range 2 {
				s, err := NewMEU(tree, own, tc.model, MEUOptions{ExpectedLevels: levels})
				if err != nil {
					t.Fatal(err)
				}
				p := tree.StartPosition()
				r := s.SearchDepth(p, 2)
				if p.FormatMove(r.Move) != tc.move || !promClose(r.Value, tc.value) || omReply(p, r) != tc.reply {
					t.Errorf("levels %d: MEU plays %s worth %v (likeliest reply %s), want %s worth %v (reply %s)",
						levels, p.FormatMove(r.Move), r.Value, omReply(p, r), tc.move, tc.value, tc.reply)
				}
				mm := engine.NewAlphaBeta(tree, own, engine.AlphaBetaOptions{}).Search(p, engine.NewControl(engine.Limits{Depth: 2}, p.ToMove()), nil)
				if p.FormatMove(mm.Move) != tc.minimax || mm.Score != tc.security {
					t.Errorf("minimax plays %s worth %v, want %s worth %v", p.FormatMove(mm.Move), mm.Score, tc.minimax, tc.security)
				}
			}
		})
	}
}

// meuReference is MEU by its definition on a tree: minimax and expected values for the root player, the
// expectation at the first levels opponent levels (all when negative) under model.
func meuReference(p games.Position, own engine.Evaluation, model MoveProbabilities, depth, levels int, root games.Side) (mm, eu float64) {
	moves := p.AppendMoves(nil)
	if depth == 0 || len(moves) == 0 || levels == 0 {
		v := omNegamax(p, own, depth)
		if p.ToMove() != root {
			v = -v
		}
		return v, v
	}
	if p.ToMove() == root {
		mm, eu = math.Inf(-1), math.Inf(-1)
		for _, m := range moves {
			p.Play(m)
			a, b := meuReference(p, own, model, depth-1, levels, root)
			p.Undo()
			mm, eu = max(mm, a), max(eu, b)
		}
		return mm, eu
	}
	values, utils, probs := make([]float64, len(moves)), make([]float64, len(moves)), make([]float64, len(moves))
	for j, m := range moves {
		p.Play(m)
		values[j], utils[j] = meuReference(p, own, model, depth-1, levels-1, root)
		p.Undo()
	}
	model.Probabilities(p, moves, values, probs)
	for j := range moves {
		eu += probs[j] * utils[j]
	}
	return slices.Min(values), eu
}

func TestMEUOnRandomTrees(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 1))
	models := map[string]MoveProbabilities{"rank 0.6": RankModel{Ps: 0.6}, "rank 0.2": RankModel{Ps: 0.2}}
	cache := map[string]*MEU{}
	for i := range omTreeCount() {
		tree, depth := omRandomTree(rng, 1, i%2 == 0)
		own := omUnit(tree, 0)
		p := tree.StartPosition()
		minimax := omNegamax(p, own, depth)
		for modelName, model := range models {
			for _, levels := range []int{1, 2, 0} {
				want := levels
				if want == 0 {
					want = -1
				}
				_, eu := meuReference(p, own, model, depth, want, p.ToMove())
				key := fmt.Sprint(modelName, levels)
				s := cache[key]
				if s == nil {
					var err error
					if s, err = NewMEU(tree, own, model, MEUOptions{Probe: engine.AlphaBetaOptions{HashMB: 1}, ExpectedLevels: levels}); err != nil {
						t.Fatal(err)
					}
					cache[key] = s
				}
				s.NewGame()
				r := s.SearchDepth(p, depth)
				if !promClose(r.Value, eu) || (len(p.AppendMoves(nil)) > 0 && !omLegal(p, r.Move)) {
					t.Fatalf("tree %d (%s, %d levels, depth %d): MEU %v (%s), reference %v\n%s", i, modelName, levels, depth,
						r.Value, p.FormatMove(r.Move), eu, tree)
				}
				if r.Value < minimax-1e-9 {
					t.Fatalf("tree %d (%s, %d levels): MEU value %v below minimax %v", i, modelName, levels, r.Value, minimax)
				}
			}
		}
	}
}

// TestMEUWithCertainModelIsMinimax checks Sen & Arora's remark that maximin is the special case of MEU
// whose model puts all probability on the optimal replies: the rank model with Ps = 1 and a discrepancy
// model without counts (the prior) both give minimax's value and, without ties, its move.
func TestMEUWithCertainModelIsMinimax(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 2))
	prior, _ := NewDiscrepancyModel([]float64{1, 10}, 4)
	models := map[string]MoveProbabilities{"Ps = 1": RankModel{Ps: 1}, "no counts": prior}
	cache := map[string]*MEU{}
	for i := range omTreeCount() {
		tree, depth := omRandomTree(rng, 1, true)
		own := omUnit(tree, 0)
		p := tree.StartPosition()
		want := engine.NewAlphaBeta(tree, own, engine.AlphaBetaOptions{}).Search(p, engine.NewControl(engine.Limits{Depth: depth}, p.ToMove()), nil)
		for modelName, model := range models {
			for _, levels := range []int{1, 0} {
				key := fmt.Sprint(modelName, levels)
				s := cache[key]
				if s == nil {
					var err error
					if s, err = NewMEU(tree, own, model, MEUOptions{ExpectedLevels: levels}); err != nil {
						t.Fatal(err)
					}
					cache[key] = s
				}
				s.NewGame() // tree nodes are hashed by name, and names repeat from tree to tree
				if r := s.SearchDepth(p, depth); r.Value != want.Score || r.Move != want.Move {
					t.Fatalf("tree %d (%s, %d levels, depth %d): MEU %v by %s, minimax %v by %s\n%s", i, modelName, levels, depth,
						r.Value, p.FormatMove(r.Move), want.Score, p.FormatMove(want.Move), tree)
				}
			}
		}
	}
}

func TestMEUOnRealPositions(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 3))
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
				own := omRandomEval(g, rng, "own")
				minimax := omAlphaBetaValue(g, p, own, omExactProbe(), depth)
				certain, err := NewMEU(g, own, RankModel{Ps: 1}, MEUOptions{Probe: omExactProbe(), ExpectedLevels: 1})
				if err != nil {
					t.Fatal(err)
				}
				if r := certain.SearchDepth(p, depth); !promClose(r.Value, minimax) || !omLegal(p, r.Move) {
					t.Errorf("%s: MEU with Ps = 1 %v (%s), alpha-beta %v", p.FEN(), r.Value, p.FormatMove(r.Move), minimax)
				}
				// The same probe as the minimax value: MEU is at least minimax only against the same leaf values
				// (a selective probe's values differ from the full search's by a little either way).
				fallible, err := NewMEU(g, own, RankModel{Ps: 0.5}, MEUOptions{Probe: omExactProbe(), ExpectedLevels: 1})
				if err != nil {
					t.Fatal(err)
				}
				r := fallible.SearchDepth(p, depth)
				if r.Value < minimax-1e-9*max(1, math.Abs(minimax)) || !omLegal(p, r.Move) {
					t.Errorf("%s: MEU with Ps = 0.5 %v (%s), below alpha-beta's %v", p.FEN(), r.Value, p.FormatMove(r.Move), minimax)
				}
				p.Play(r.Move)
				over := games.OutcomeOf(p).Result != games.Ongoing
				p.Undo()
				if (r.Predicted == games.NoMove) != over {
					t.Errorf("%s: MEU plays %s (game over after it: %v) and predicts reply %d", p.FEN(), p.FormatMove(r.Move), over, r.Predicted)
				}
				t.Logf("%s: minimax %.2f; MEU with Ps = 0.5: %.2f by %s, likeliest reply %s, %d nodes", p.FEN(), minimax,
					r.Value, p.FormatMove(r.Move), omReply(p, r), r.Nodes)
			}
		})
	}
}

func TestReplyRanks(t *testing.T) {
	for _, tc := range []struct {
		values []float64
		ranks  []int
	}{
		{[]float64{3}, []int{1}},
		{[]float64{5, 1, 3}, []int{3, 1, 2}},
		{[]float64{2, 2, 7, 1}, []int{2, 2, 4, 1}},
		{[]float64{4, 4, 4}, []int{1, 1, 1}},
	} {
		got := make([]int, len(tc.values))
		ReplyRanks(tc.values, got)
		if !slices.Equal(got, tc.ranks) {
			t.Errorf("ranks of %v: %v, want %v", tc.values, got, tc.ranks)
		}
	}
}

func TestRankModelProbabilities(t *testing.T) {
	p := gametree.MustParse(`a`).Start()
	for _, tc := range []struct {
		ps     float64
		values []float64
		want   []float64
	}{
		{1, []float64{2, 1, 3}, []float64{0, 1, 0}},
		{1, []float64{1, 1, 3}, []float64{0.5, 0.5, 0}},
		{0.5, []float64{1, 2, 3}, []float64{4.0 / 7, 2.0 / 7, 1.0 / 7}},
		{0.5, []float64{3, 1, 1}, []float64{0.25 / 2.25, 1 / 2.25, 1 / 2.25}},
	} {
		got := make([]float64, len(tc.values))
		RankModel{Ps: tc.ps}.Probabilities(p, make([]games.Move, len(tc.values)), tc.values, got)
		for j := range got {
			if !promClose(got[j], tc.want[j]) {
				t.Errorf("Ps %v, values %v: probabilities %v, want %v", tc.ps, tc.values, got, tc.want)
				break
			}
		}
	}
	for _, bad := range []float64{0, -0.1, 1.5, math.NaN()} {
		if _, err := NewRankModel(bad); err == nil || !strings.Contains(err.Error(), "Ps") {
			t.Errorf("NewRankModel(%v): error %v, want one naming Ps", bad, err)
		}
	}
}

func TestDiscrepancyModel(t *testing.T) {
	d, err := NewDiscrepancyModel([]float64{1, 5}, 10)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		discrepancy float64
		rng         int
	}{{0, 0}, {-1, 0}, {0.5, 1}, {1, 1}, {3, 2}, {5, 2}, {5.5, 3}, {1e9, 3}} {
		if got := d.Range(tc.discrepancy); got != tc.rng {
			t.Errorf("Range(%v) = %d, want %d", tc.discrepancy, got, tc.rng)
		}
	}
	if d.Ranges() != 4 || d.Band(9) != 0 || d.Band(10) != 1 || d.Band(25) != 2 {
		t.Errorf("ranges %d, bands of plies 9, 10, 25: %d %d %d; want 4, 0 1 2", d.Ranges(), d.Band(9), d.Band(10), d.Band(25))
	}
	tree := gametree.MustParse(`r(a b(c(d(e(f(g(h(i(j(k(l)))))))))))`)
	early := tree.StartPosition()         // ply 0: band 0
	late, _ := tree.PositionAt("l")       // ply 11: band 1
	values := []float64{2, 2.5, 6, 9, 40} // discrepancies 0, 0.5, 4, 7, 38: ranges 0, 1, 2, 3, 3
	probs := func(p games.Position) []float64 {
		out := make([]float64, len(values))
		d.Probabilities(p, make([]games.Move, len(values)), values, out)
		return out
	}
	if got := probs(early); !slices.Equal(got, []float64{1, 0, 0, 0, 0}) {
		t.Errorf("without counts: %v, want all on the optimal reply", got)
	}
	for _, obs := range []struct {
		ply         int
		discrepancy float64
		weight      float64
	}{{0, 0, 6}, {2, 0.3, 2}, {4, 30, 2}, {12, 0, 1}, {14, 3, 3}} {
		if err := d.Add(obs.ply, obs.discrepancy, obs.weight); err != nil {
			t.Fatal(err)
		}
	}
	// Band 0 counts 6, 2, 0, 2: ranges 0, 1 and 3 are available (3 has two replies).
	want := []float64{0.6, 0.2, 0, 0.1, 0.1}
	if got := probs(early); !meuAllClose(got, want) {
		t.Errorf("band 0: %v, want %v", got, want)
	}
	// Band 1 counts 1, 0, 3, 0: ranges 0 and 2.
	want = []float64{0.25, 0, 0.75, 0, 0}
	if got := probs(late); !meuAllClose(got, want) {
		t.Errorf("band 1: %v, want %v", got, want)
	}
	if got := d.Counts(1); !slices.Equal(got, []float64{1, 0, 3, 0}) {
		t.Errorf("counts of band 1: %v", got)
	}
	// A band without data falls back on all bands together: 6, 2, 0, 2 once band 1 is emptied.
	if err := d.SetCounts(1, []float64{0, 0, 0, 0}); err != nil {
		t.Fatal(err)
	}
	want = []float64{6.0 / 10, 2.0 / 10, 0, 1.0 / 10, 1.0 / 10}
	if got := probs(late); !meuAllClose(got, want) {
		t.Errorf("empty band 1 (pooled counts 6, 2, 0, 2): %v, want %v", got, want)
	}
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"edges", meuErr(NewDiscrepancyModel([]float64{2, 1}, 0)), "edge 1 is 1"},
		{"zero edge", meuErr(NewDiscrepancyModel([]float64{0}, 0)), "edge 0 is 0"},
		{"band width", meuErr(NewDiscrepancyModel(nil, -2)), "band of -2 plies"},
		{"weight", d.Add(0, 1, -1), "weight -1"},
		{"NaN", d.Add(0, math.NaN(), 1), "NaN"},
		{"count length", d.SetCounts(0, []float64{1}), "1 counts for band 0"},
		{"negative band", d.SetCounts(-1, []float64{1, 1, 1, 1}), "band -1"},
		{"bad count", d.SetCounts(0, []float64{1, math.Inf(1), 1, 1}), "count 1 of band 0 is +Inf"},
	} {
		if tc.err == nil || !strings.Contains(tc.err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one mentioning %q", tc.name, tc.err, tc.want)
		}
	}
}

func meuErr(_ *DiscrepancyModel, err error) error { return err }

func meuAllClose(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !promClose(a[i], b[i]) {
			return false
		}
	}
	return true
}
