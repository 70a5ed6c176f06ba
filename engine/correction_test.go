package engine

import (
	"math"
	"testing"

	"dossier/games"
)

// The correction history learns, by side to move and pawn structure, what searches found beyond the static
// evaluation, a deeper search weighing more, within its limit; mates teach nothing, and a game without a
// structure (or the option off) is never corrected.
func TestCorrectionHistoryLearnsByStructure(t *testing.T) {
	g := chessGame()
	opts := withoutSelective()
	opts.CorrectionLimit = 400
	th := newThread(g, chessMaterialCentipawns(), opts, nil)
	p := mustChess(t, "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4")
	th.bind(p)
	if got := th.corrected(10); got != 10 {
		t.Fatalf("corrected before any learning: %v, want 10", got)
	}
	th.learnCorrection(0, 64, 16) // a quarter of the way at depth 16
	if got := th.corrected(10); math.Abs(got-26) > 1e-9 {
		t.Fatalf("after one lesson at depth 16: %v, want 26", got)
	}
	shallow := newThread(g, chessMaterialCentipawns(), opts, nil)
	shallow.bind(p.Clone())
	shallow.learnCorrection(0, 64, 4)
	if got := shallow.corrected(0); math.Abs(got-4) > 1e-9 {
		t.Fatalf("after one lesson at depth 4: %v, want 4", got)
	}
	for range 200 {
		th.learnCorrection(0, 5000, 20) // beyond the limit
		th.learnCorrection(0, MateScore-3, 20)
	}
	if got := th.corrected(0); got > 400 || got < 399 {
		t.Fatalf("after many lessons beyond the limit: %v, want 400 at most and near it", got)
	}
	// A knight's move keeps the pawns: the same correction. A pawn's move changes the structure.
	p.Play(mustMove(t, p, "f3g5"))
	p.Play(mustMove(t, p, "d8e7"))
	if got := th.corrected(0); got < 399 {
		t.Fatalf("same pawns, same side: %v, want the learned correction", got)
	}
	p.Play(mustMove(t, p, "d2d3"))
	if got := th.corrected(0); got != 0 {
		t.Fatalf("the other side to move: %v, want no correction", got)
	}
	p.Play(mustMove(t, p, "e7d8"))
	if got := th.corrected(0); got != 0 {
		t.Fatalf("the same side to move after a pawn move: %v, want no correction", got)
	}
	off := newThread(g, chessMaterialCentipawns(), withoutSelective(), nil)
	off.bind(p)
	off.learnCorrection(0, 100, 20)
	if got := off.corrected(7); got != 7 {
		t.Fatalf("with the option off: %v, want 7", got)
	}
	other := newThread(nonChessGames()[0], chessMaterialCentipawns(), opts, nil)
	if other.bind(nonChessGames()[0].Start()); other.structure != nil {
		t.Fatal("checkers has no structure to correct by")
	}
}

// mustMove parses a move of p in its notation.
func mustMove(t *testing.T, p interface {
	ParseMove(string) (games.Move, error)
}, s string) games.Move {
	t.Helper()
	m, err := p.ParseMove(s)
	if err != nil {
		t.Fatal(err)
	}
	return m
}
