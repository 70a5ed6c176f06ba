// Tests that iterative deepening stops at a proven result: a mate within the depth searched, an iteration
// whose every line repeats a position, and that an infinite search then waits for stop without using CPU.
package engine_test

import (
	"testing"
	"time"

	"dossier/engine"
	"dossier/engine/enginetest"
	"dossier/games"
	"dossier/games/chess"
	"dossier/games/gametest"
)

// zeroEvaluation values every position 0: only the rules (mates, draws) score.
func zeroEvaluation(g games.Game) engine.Evaluation {
	return engine.Evaluation{Name: "zero", Weights: make([]float64, len(g.FeatureNames()))}
}

// chessPosition plays moves from fen.
func chessPosition(t *testing.T, fen string, moves ...string) games.Position {
	t.Helper()
	p, err := chess.Game{}.ParsePosition(fen)
	if err != nil {
		t.Fatal(err)
	}
	return gametest.Play(t, p, moves...)
}

func TestIterativeDeepeningStopsAtAProvenResult(t *testing.T) {
	const depthLimit = 20
	tests := []struct {
		name      string
		fen       string
		moves     []string
		wantDepth int
		wantMove  string
		wantMate  int // IsMate's count; 0 for a draw (score 0)
	}{
		{"mate in one", "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", nil, 1, "a1a8", 1},
		// Black's only move Kb8 allows Rh8 mate: the loss is proven at depth 2.
		{"mated in one", "k7/8/1K6/8/8/8/8/7R b - - 0 1", nil, 2, "a8b8", -1},
		// White's only move, Kh2, repeats the position after 1. Kh2: every line is a draw at ply 1.
		{"every line repeats", "8/8/8/8/8/p7/P4k2/7K w - - 0 1", []string{"h1h2", "f2f1", "h2h1", "f1f2"}, 1, "h1h2", 0},
	}
	g := chess.Game{}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := chessPosition(t, tc.fen, tc.moves...)
			s := engine.NewAlphaBeta(g, zeroEvaluation(g), engine.DefaultAlphaBetaOptions(g))
			var reports []engine.Info
			res := s.Search(p, engine.NewControl(engine.Limits{Depth: depthLimit}, p.ToMove()),
				func(i engine.Info) { reports = append(reports, i) })
			if res.Depth != tc.wantDepth || len(reports) != tc.wantDepth {
				t.Errorf("stopped at depth %d after %d reports, want depth %d", res.Depth, len(reports), tc.wantDepth)
			}
			if got := p.FormatMove(res.Move); got != tc.wantMove {
				t.Errorf("move %s, want %s", got, tc.wantMove)
			}
			mate, isMate := engine.IsMate(res.Score)
			if tc.wantMate != 0 && (!isMate || mate != tc.wantMate) {
				t.Errorf("score %v (mate %d %v), want mate %d", res.Score, mate, isMate, tc.wantMate)
			}
			if tc.wantMate == 0 && res.Score != 0 {
				t.Errorf("score %v, want the draw's 0", res.Score)
			}
		})
	}
}

// TestInfiniteSearchWaitsIdleAfterAProof: go infinite must not answer before stop, even with the mate
// proven at once, and the wait must not cost CPU time (the search blocks on its Control).
func TestInfiniteSearchWaitsIdleAfterAProof(t *testing.T) {
	g := chess.Game{}
	p := chessPosition(t, "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1")
	s := engine.NewAlphaBeta(g, zeroEvaluation(g), engine.DefaultAlphaBetaOptions(g))
	ctl := engine.NewControl(engine.Limits{Infinite: true}, p.ToMove())
	done := make(chan engine.Result, 1)
	go func() { done <- s.Search(p, ctl, nil) }()
	time.Sleep(100 * time.Millisecond) // the mate in one is proven well within this
	const wait = 400 * time.Millisecond
	cpuBefore := enginetest.CPUTime()
	select {
	case <-done:
		t.Fatal("an infinite search returned before stop")
	case <-time.After(wait):
	}
	// An idle process uses a few milliseconds of CPU in this time; a search still deepening uses it all.
	if used := enginetest.CPUTime() - cpuBefore; used > wait/2 {
		t.Errorf("the search used %v of CPU in %v while waiting for stop", used, wait)
	}
	ctl.Stop()
	select {
	case res := <-done:
		if got := p.FormatMove(res.Move); got != "a1a8" || res.Depth != 1 {
			t.Errorf("bestmove %s at depth %d, want a1a8 at depth 1", got, res.Depth)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("stop did not end the search")
	}
}
