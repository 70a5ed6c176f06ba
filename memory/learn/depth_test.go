// Carmel and Markovitch's Figure 6: the opponent's depth learned from 100 of its moves, its evaluation known.

package learn_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"dossier/games"
	"dossier/memory/learn"
)

// depthTrial learns the depth of the player from `examples` of its moves in random positions (random plies
// from the start) and returns the depth learned after each example.
func depthTrial(t testing.TB, g games.Game, pl learn.MinimaxPlayer, maxDepth, examples int, rng *rand.Rand) []int {
	t.Helper()
	l, err := learn.NewDepthLearner(g, learn.DepthLearnerState{Eval: pl.Eval, MaxDepth: maxDepth})
	if err != nil {
		t.Fatal(err)
	}
	op := newOpponent(g, pl, false)
	lo, hi := 4, 24
	if g.Name() == "tictactoe" {
		lo, hi = 0, 4
	}
	var learned []int
	for len(learned) < examples {
		p := randomPosition(g, rng, lo, hi)
		if p == nil {
			continue
		}
		if err := l.Observe(p, op.move(p)); err != nil {
			t.Fatal(err)
		}
		learned = append(learned, l.Depth())
	}
	return learned
}

// depthFigure runs `trials` trials of `examples` examples for each depth 1..maxDepth and returns, per depth,
// the fraction of trials that learned the true depth after all the examples and the mean fraction of the
// examples after which the learned depth was wrong (Carmel and Markovitch's accumulative error rate).
func depthFigure(t testing.TB, g games.Game, evalName string, maxDepth, trials, examples int, seed uint64) (correct, errRate []float64) {
	rng := rand.New(rand.NewPCG(seed, 6))
	for d := 1; d <= maxDepth; d++ {
		pl := preset(t, g, evalName, d)
		ok, wrong := 0, 0
		for range trials {
			learned := depthTrial(t, g, pl, maxDepth, examples, rng)
			if learned[len(learned)-1] == d {
				ok++
			}
			for _, x := range learned {
				if x != d {
					wrong++
				}
			}
		}
		correct = append(correct, float64(ok)/float64(trials))
		errRate = append(errRate, float64(wrong)/float64(trials*examples))
	}
	return correct, errRate
}

// depthTable runs depthFigure and writes its table; it returns the mean fraction of trials that learned the
// true depth.
func depthTable(t testing.TB, name string, maxDepth, trials int) (string, float64) {
	g := game(t, name)
	correct, errRate := depthFigure(t, g, "strongest", maxDepth, trials, 100, 1)
	var b strings.Builder
	fmt.Fprintf(&b, "%s, strongest, 100 examples, %d trials per depth\n", name, trials)
	total := 0.0
	for d := range correct {
		fmt.Fprintf(&b, "  depth %d: %3.0f%% learned correctly, accumulative error rate %.3f\n", d+1, 100*correct[d], errRate[d])
		total += correct[d]
	}
	return b.String(), total / float64(len(correct))
}

// TestDepthLearning: opponents searching 1 to 6 plies in checkers and 1 to 4 in chess (-short: 3) with the
// strongest evaluation, learned from 100 of their moves each; BenchmarkDepthFigure runs chess to 6 plies.
// go test ./memory/learn -run TestDepthLearning -v
func TestDepthLearning(t *testing.T) {
	cases := []struct {
		game             string
		maxDepth, trials int
	}{
		{"checkers", 6, 10},
		{"chess", 4, 3},
	}
	for _, c := range cases {
		t.Run(c.game, func(t *testing.T) {
			maxDepth, trials := c.maxDepth, c.trials
			if testing.Short() {
				trials = 2
				if c.game == "chess" {
					maxDepth = 3
				}
			}
			table, mean := depthTable(t, c.game, maxDepth, trials)
			t.Log("\n" + table)
			if mean < 0.95 {
				t.Errorf("%.1f%% of trials learned the depth, want at least 95%%", 100*mean)
			}
		})
	}
}

// BenchmarkDepthFigure is the full Figure 6 experiment, chess and checkers to 6 plies, 3 trials of 100
// examples per depth (chess at 6 plies takes most of a quarter of an hour on one core):
// go test ./memory/learn -run '^$' -bench BenchmarkDepthFigure -benchtime 1x -timeout 60m
func BenchmarkDepthFigure(b *testing.B) {
	for _, name := range []string{"checkers", "chess"} {
		b.Run(name, func(b *testing.B) {
			for range b.N {
				table, _ := depthTable(b, name, 6, 3)
				b.Log("\n" + table)
			}
		})
	}
}

func TestDepthLearnerState(t *testing.T) {
	g := game(t, "tictactoe")
	pl := preset(t, g, "strongest", 2)
	l, err := learn.NewDepthLearner(g, learn.DepthLearnerState{Eval: pl.Eval, MaxDepth: 3})
	if err != nil {
		t.Fatal(err)
	}
	p := g.Start()
	var buf [games.MaxMoves]games.Move
	first := p.AppendMoves(buf[:0])[0]
	p.Play(first)
	if err := l.Observe(p, first); err == nil {
		t.Error("an occupied square was learned from")
	}
	if err := l.Observe(p, newOpponent(g, pl, true).move(p)); err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(l.State())
	if err != nil {
		t.Fatal(err)
	}
	var back learn.DepthLearnerState
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	again, err := learn.NewDepthLearner(g, back)
	if err != nil {
		t.Fatal(err)
	}
	if again.Depth() != l.Depth() || again.State().Examples != 1 || fmt.Sprint(again.State().Counts) != fmt.Sprint(l.State().Counts) {
		t.Errorf("round trip through %s changed the state", data)
	}
	for _, bad := range []string{`{"maxDepth":0}`, `{"maxDepth":2,"counts":[1]}`, `{"maxDepth":1,"counts":[0.5],"examples":1}`,
		`{"maxDepth":1,"counts":[1000],"examples":1}`, `{"maxDepth":99}`} {
		if err := json.Unmarshal([]byte(bad), &back); err == nil {
			t.Errorf("bad state %s was accepted", bad)
		}
	}
	if _, err := learn.NewDepthLearner(g, learn.DepthLearnerState{Eval: preset(t, game(t, "chess"), "strongest", 1).Eval, MaxDepth: 2}); err == nil {
		t.Error("a chess evaluation was accepted for tic-tac-toe")
	}
}

func FuzzDepthLearnerStateUnmarshal(f *testing.F) {
	f.Add([]byte(`{"eval":{"Name":"x","Weights":[1,2,3,4,5]},"maxDepth":2,"counts":[3,-1],"examples":1}`))
	f.Add([]byte(`{"maxDepth":1}`))
	g := game(f, "tictactoe")
	f.Fuzz(func(t *testing.T, data []byte) {
		var s learn.DepthLearnerState
		if err := json.Unmarshal(data, &s); err != nil {
			return
		}
		l, err := learn.NewDepthLearner(g, s)
		if err != nil {
			return
		}
		p := g.Start()
		var buf [games.MaxMoves]games.Move
		if err := l.Observe(p, p.AppendMoves(buf[:0])[0]); err != nil {
			t.Fatalf("a checked state failed on a legal move: %v", err)
		}
		if d := l.Depth(); d < 1 || d > s.MaxDepth {
			t.Fatalf("learned depth %d outside 1..%d", d, s.MaxDepth)
		}
	})
}
