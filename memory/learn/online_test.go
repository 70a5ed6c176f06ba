// Online type learning against a known mixture: an opponent playing type A with probability 0.7 and type B
// with 0.3, chosen afresh at every move.

package learn_test

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"dossier/games"
	"dossier/memory/learn"
)

// mixtureStream plays games between a mixed opponent (types[i] with probability truth[i] at every move) and
// a foil, from random openings, and returns the opponent's moves in order.
func mixtureStream(t testing.TB, g games.Game, types []learn.MinimaxPlayer, truth []float64, foil learn.MinimaxPlayer, moves int, seed uint64) []learn.Observation {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 7))
	var players []*opponent
	for _, ty := range types {
		players = append(players, newOpponent(g, ty, false))
	}
	other := newOpponent(g, foil, false)
	var out []learn.Observation
	for len(out) < moves {
		p := randomPosition(g, rng, 2, 6)
		if p == nil {
			continue
		}
		mixed := p.ToMove()
		for ply := 0; ply < 80 && !over(p) && len(out) < moves; ply++ {
			if p.ToMove() != mixed {
				p.Play(other.move(p))
				continue
			}
			i, u := 0, rng.Float64()
			for i < len(truth)-1 && u >= truth[i] {
				u -= truth[i]
				i++
			}
			m := players[i].move(p)
			out = append(out, learn.Observation{Position: p.Clone(), Move: m})
			p.Play(m)
		}
	}
	return out
}

// learningCurve feeds the stream to a learner and returns the error after each move (the largest difference
// to the truth).
func learningCurve(t testing.TB, l *learn.TypeLearner, stream []learn.Observation, truth []float64) []float64 {
	t.Helper()
	curve := make([]float64, len(stream))
	for i, o := range stream {
		if _, err := l.Observe(o.Position, o.Move); err != nil {
			t.Fatalf("move %d: %v", i+1, err)
		}
		curve[i] = learn.MaxError(l.Probabilities(), truth)
	}
	return curve
}

// reach returns the number of moves after which the error first is at most tol and the number after which
// it stays so (0 when it never gets or stays there).
func reach(curve []float64, tol float64) (first, stays int) {
	for i, e := range curve {
		if e <= tol {
			if first == 0 {
				first = i + 1
			}
			if stays == 0 {
				stays = i + 1
			}
		} else {
			stays = 0
		}
	}
	return first, stays
}

// mean returns the mean of xs.
func mean(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// TestOnlineTypeLearning: chess, type A = attacker, type B = positional, both 2 plies; the opponent plays A
// with probability 0.7 and B with 0.3 at each move, against strongest at 2 plies.
// go test ./memory/learn -run TestOnlineTypeLearning -v
func TestOnlineTypeLearning(t *testing.T) {
	g := game(t, "chess")
	depth := 2
	types := []learn.MinimaxPlayer{preset(t, g, "attacker", depth), preset(t, g, "positional", depth)}
	truth := []float64{0.7, 0.3}
	n := 600
	if testing.Short() {
		n = 300
	}
	stream := mixtureStream(t, g, types, truth, preset(t, g, "strongest", depth), n, 1)
	cases := []struct {
		mode       string
		rate, ps   float64
		firstBound int
	}{
		{learn.FastLearning, 0.05, 0.9, 150},
		{learn.SlowLearning, 0.05, 0.9, 150},
		{learn.FastLearning, 0.02, 0.9, 250},
		{learn.SlowLearning, 0.02, 0.9, 250},
	}
	var report strings.Builder
	var learned *learn.TypeLearner
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s/rate=%v", c.mode, c.rate), func(t *testing.T) {
			l, err := learn.NewTypeLearner(g, learn.TypeLearnerState{Types: types, Mode: c.mode, Rate: c.rate, PS: c.ps})
			if err != nil {
				t.Fatal(err)
			}
			curve := learningCurve(t, l, stream, truth)
			if c.mode == learn.SlowLearning && c.rate == 0.02 {
				learned = l
			}
			first, stays := reach(curve, 0.1)
			tail := curve[len(curve)/2:]
			st := l.State()
			fmt.Fprintf(&report, "%s (rate %.2f, PS %.2f): within 0.1 of (0.7, 0.3) after %d moves, for good after %d; "+
				"mean error over the last %d moves %.3f; final P = (%.3f, %.3f); %d of %d moves updated\n",
				c.mode, c.rate, c.ps, first, stays, len(tail), mean(tail), st.Probabilities[0], st.Probabilities[1], st.Updates, st.Moves)
			if first == 0 || first > c.firstBound {
				t.Errorf("first within 0.1 after %d moves, want at most %d", first, c.firstBound)
			}
			if m := mean(tail); m > 0.1 {
				t.Errorf("mean error %.3f over the second half, want at most 0.1", m)
			}
		})
	}
	// The yardstick on the second half of the stream: the learned mixture against each type alone (the
	// same rank model, PS 0.9) and against minimax's implicit model (our strongest at 2 plies).
	if learned == nil {
		t.Fatal("no slow learner with rate 0.02 ran")
	}
	tail := stream[len(stream)/2:]
	mixture, err := learn.Measure(learned, tail)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(&report, "learned mixture: %v\n", mixture)
	for _, ty := range append(types, preset(t, g, "strongest", depth)) {
		ps := 0.9
		if ty.Eval.Name == "strongest" {
			ps = 1 // minimax's implicit model
		}
		m, err := learn.NewFalliblePlayer(g, ty, ps)
		if err != nil {
			t.Fatal(err)
		}
		score, err := learn.Measure(m, tail)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&report, "%s alone (PS %.1f): %v\n", ty.Eval.Name, ps, score)
		if ps < 1 && score.LogLikelihood >= mixture.LogLikelihood {
			t.Errorf("%s alone explains the moves as well as the learned mixture: %.3f >= %.3f", ty.Eval.Name, score.LogLikelihood, mixture.LogLikelihood)
		}
	}
	t.Log("\n" + report.String())
}

func TestTypeLearnerRejectsBadInput(t *testing.T) {
	g := game(t, "tictactoe")
	types := []learn.MinimaxPlayer{preset(t, g, "open-lines", 2), preset(t, g, "strongest", 1)}
	l, err := learn.NewTypeLearner(g, learn.TypeLearnerState{Types: types, Mode: learn.SlowLearning, Rate: 0.1, PS: 0.8})
	if err != nil {
		t.Fatal(err)
	}
	p := g.Start()
	var buf [games.MaxMoves]games.Move
	moves := p.AppendMoves(buf[:0])
	p.Play(moves[0])
	if _, err := l.Observe(p, moves[0]); err == nil {
		t.Error("an occupied square was learned from")
	}
	if st := l.State(); st.Moves != 0 || st.Probabilities[0] != 0.5 {
		t.Errorf("a refused move changed the state: %+v", st)
	}
	bad := []learn.TypeLearnerState{
		{Types: types, Mode: "medium", Rate: 0.1, PS: 0.8},
		{Types: types, Mode: learn.FastLearning, Rate: 0, PS: 0.8},
		{Types: types, Mode: learn.FastLearning, Rate: 0.1, PS: 1},
		{Types: types, Mode: learn.FastLearning, Rate: 0.1, PS: 0.5, Probabilities: []float64{0.5, 0.6}},
		{Types: []learn.MinimaxPlayer{{Eval: types[0].Eval, Depth: 0}}, Mode: learn.FastLearning, Rate: 0.1, PS: 0.5},
		{Types: []learn.MinimaxPlayer{preset(t, game(t, "checkers"), "strongest", 2)}, Mode: learn.FastLearning, Rate: 0.1, PS: 0.5},
	}
	for i, s := range bad {
		if _, err := learn.NewTypeLearner(g, s); err == nil {
			t.Errorf("bad state %d was accepted", i+1)
		}
	}
}

func TestTypeLearnerStateRoundTrip(t *testing.T) {
	g := game(t, "tictactoe")
	types := []learn.MinimaxPlayer{preset(t, g, "open-lines", 2), preset(t, g, "strongest", 1)}
	l, err := learn.NewTypeLearner(g, learn.TypeLearnerState{Types: types, Mode: learn.SlowLearning, Rate: 0.2, PS: 0.7})
	if err != nil {
		t.Fatal(err)
	}
	p := g.Start()
	for range 3 {
		m := newOpponent(g, types[0], true).move(p)
		if _, err := l.Observe(p, m); err != nil {
			t.Fatal(err)
		}
		p.Play(m)
	}
	data, err := json.Marshal(l.State())
	if err != nil {
		t.Fatal(err)
	}
	var back learn.TypeLearnerState
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	again, err := learn.NewTypeLearner(g, back)
	if err != nil {
		t.Fatal(err)
	}
	if learn.MaxError(again.Probabilities(), l.Probabilities()) != 0 || again.State().Moves != 3 {
		t.Errorf("round trip through %s changed the state", data)
	}
}

func FuzzTypeLearnerStateUnmarshal(f *testing.F) {
	f.Add([]byte(`{"types":[{"eval":{"Name":"a","Weights":[1,0,0,0,0]},"depth":2}],"probabilities":[1],"mode":"slow","rate":0.1,"ps":0.8,"moves":3,"updates":2}`))
	f.Add([]byte(`{"types":[],"mode":"fast"}`))
	g := game(f, "tictactoe")
	f.Fuzz(func(t *testing.T, data []byte) {
		var s learn.TypeLearnerState
		if err := json.Unmarshal(data, &s); err != nil {
			return
		}
		l, err := learn.NewTypeLearner(g, s)
		if err != nil {
			return // a state that does not fit tic-tac-toe
		}
		p := g.Start()
		var buf [games.MaxMoves]games.Move
		if _, err := l.Observe(p, p.AppendMoves(buf[:0])[4]); err != nil {
			t.Fatalf("a checked state failed on a legal move: %v", err)
		}
		sum := 0.0
		for _, x := range l.Probabilities() {
			sum += x
		}
		if math.Abs(sum-1) > 1e-9 {
			t.Fatalf("probabilities sum to %v", sum)
		}
	})
}
