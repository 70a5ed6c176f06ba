// The pruning of chess's search: SEE pruning in quiescence (on for the games whose positions value
// exchanges; a losing capture left unsearched without changing what the search finds) and reverse futility
// pruning (off by default; it prunes when asked).
package engine

import (
	"testing"

	"dossier/games"
	"dossier/games/checkers"
	"dossier/games/chess"
	"dossier/games/connect4"
)

func TestSEEPruningIsOnWhereExchangesAreValued(t *testing.T) {
	for _, tc := range []struct {
		game games.Game
		want bool
	}{{chess.Game{}, true}, {chess.Game{Chess960: true}, true}, {checkers.Game{}, false}, {connect4.Game{}, false}} {
		if got := DefaultAlphaBetaOptions(tc.game).SEEPruning; got != tc.want {
			t.Errorf("%s: SEEPruning %v, want %v", tc.game.Name(), got, tc.want)
		}
	}
}

func TestReverseFutilityIsOnForChessOnly(t *testing.T) {
	for _, tc := range []struct {
		g    games.Game
		want float64
	}{{chess.Game{}, 80}, {checkers.Game{}, 0}, {connect4.Game{}, 0}} {
		if m := DefaultAlphaBetaOptions(tc.g).ReverseFutilityMargin; m != tc.want {
			t.Errorf("%s: reverse futility margin %v, want %v", tc.g.Name(), m, tc.want)
		}
	}
}

func TestReverseFutilityPrunesAWonPositionAndKeepsItsMove(t *testing.T) {
	g := chess.Game{}
	// White is a rook up with nothing hanging: deep in the tree most nodes beat beta by far, and the
	// pruning cuts them; the best move and the verdict (a won position) stay.
	const fen = "4k3/pp3ppp/8/8/8/8/PP3PPP/R3K3 w - - 0 1"
	eval := chessMaterial() // in pawns; the margin is in centipawns
	for i := range eval.Weights {
		eval.Weights[i] *= 100
	}
	opts := DefaultAlphaBetaOptions(g)
	opts.ReverseFutilityMargin = 80
	pruned := searchDepth(NewAlphaBeta(g, eval, opts), mustChess(t, fen), 6)
	opts.ReverseFutilityMargin = 0
	full := searchDepth(NewAlphaBeta(g, eval, opts), mustChess(t, fen), 6)
	if pruned.Nodes >= full.Nodes {
		t.Errorf("%d nodes with the pruning, %d without: nothing pruned", pruned.Nodes, full.Nodes)
	}
	if pruned.Move != full.Move {
		t.Errorf("best move %d with the pruning, %d without", pruned.Move, full.Move)
	}
	if pruned.Score < 400 || full.Score < 400 {
		t.Errorf("scores %v with the pruning, %v without: want a rook up", pruned.Score, full.Score)
	}
}

func TestSEEPruningSkipsLosingCaptures(t *testing.T) {
	g := chess.Game{}
	// White's queen can take the pawn on d5, defended twice: Qxd5 loses the queen for a pawn. The best
	// move keeps the queen; with the pruning the quiescence search never tries the losing captures.
	const fen = "4k3/8/2p1p3/3p1p2/8/8/3Q4/4K3 w - - 0 1"
	for _, depth := range []int{2, 3, 4} {
		opts := DefaultAlphaBetaOptions(g)
		pruned := searchDepth(NewAlphaBeta(g, chessMaterial(), opts), mustChess(t, fen), depth)
		opts.SEEPruning = false
		full := searchDepth(NewAlphaBeta(g, chessMaterial(), opts), mustChess(t, fen), depth)
		if pruned.Score != full.Score {
			t.Errorf("depth %d: score %v with the pruning, %v without", depth, pruned.Score, full.Score)
		}
		if pruned.Nodes >= full.Nodes {
			t.Errorf("depth %d: %d nodes with the pruning, %d without: nothing pruned", depth, pruned.Nodes, full.Nodes)
		}
		p := mustChess(t, fen)
		if mv := p.FormatMove(pruned.Move); mv == "d2d5" {
			t.Errorf("depth %d: plays the losing capture %s", depth, mv)
		}
	}
}

// mustChess reads a chess position or fails the test.
func mustChess(t *testing.T, fen string) games.Position {
	t.Helper()
	p, err := chess.Game{}.ParsePosition(fen)
	if err != nil {
		t.Fatal(err)
	}
	return p
}
