// The selective techniques of chess's search, each on its own: reverse futility, late-move and futility
// pruning, internal iterative reduction, the table in quiescence, history-adjusted reductions, SEE pruning in
// the main search, bad captures last, the singular extension, and reductions of bad captures. Each pruning
// saves nodes, the extension changes the search, and none loses a forced mate.
package engine

import (
	"testing"

	"dossier/games"
	"dossier/games/checkers"
	"dossier/games/chess"
	"dossier/games/connect4"
	"dossier/games/tictactoe"
)

// selectiveTechniques turns one technique on in a set of options, with the margins in centipawns.
var selectiveTechniques = []struct {
	name string
	on   func(*AlphaBetaOptions)
	// ordering is set for a technique that only orders moves: it need not save nodes and is judged by its
	// SPRT alone.
	ordering bool
	// extends is set for a technique that searches some moves deeper: it costs nodes, and must change the
	// search on TestSelectiveTechniquesPrune's positions (else it never fired).
	extends bool
	// mateDepth is the depth the mates in two must be found by (0: 5). Reverse futility pruning needs one ply
	// more for WAC.001 with the material evaluation: at 5 it cuts the node after 1.Qg6, whose threat is a mate,
	// not material (the tuned evaluation sees the king's danger; WinAtChess is solved as often as without it).
	mateDepth int
}{
	{"reverse futility pruning", func(o *AlphaBetaOptions) { o.ReverseFutilityMargin = 80 }, false, false, 6},
	{"late-move pruning", func(o *AlphaBetaOptions) { o.LateMovePruning, o.LateMoveBalance = true, 400 }, false, false, 0},
	{"futility pruning", func(o *AlphaBetaOptions) { o.FutilityMargin = 100 }, false, false, 0},
	{"internal iterative reduction", func(o *AlphaBetaOptions) { o.InternalIterativeReduction = true }, false, false, 0},
	{"quiescence table", func(o *AlphaBetaOptions) { o.QuiescenceTable = true }, false, false, 0},
	{"history reductions", func(o *AlphaBetaOptions) { o.HistoryReductions = true }, false, false, 0},
	{"SEE pruning in the main search", func(o *AlphaBetaOptions) { o.MainSEEPruning = true }, false, false, 0},
	{"bad captures last", func(o *AlphaBetaOptions) { o.BadCapturesLast = true }, true, false, 0},
	{"singular extension", func(o *AlphaBetaOptions) { o.SingularMargin = 2 }, false, true, 0},
	// Reductions of bad captures need them ordered last (their keys mark them): on top of bad captures last
	// they must save nodes too (TestBadCaptureReductionsPruneBeyondOrdering).
	{"bad capture reductions", func(o *AlphaBetaOptions) { o.BadCapturesLast, o.BadCaptureReductions = true, true }, false, false, 0},
	// The correction history changes the evaluation that the null move reads here (the other prunings off):
	// it must change the search, and keep the mates.
	{"correction history", func(o *AlphaBetaOptions) { o.CorrectionLimit = 400 }, false, true, 0},
}

// chessMaterialCentipawns is chessMaterial in centipawns, the unit the margins are given in.
func chessMaterialCentipawns() Evaluation {
	e := chessMaterial()
	for i := range e.Weights {
		e.Weights[i] *= 100
	}
	return e
}

// withoutSelective returns the chess options with every technique of selectiveTechniques off.
func withoutSelective() AlphaBetaOptions {
	o := testOptions(chessGame())
	o.LateMovePruning, o.FutilityMargin, o.ReverseFutilityMargin = false, 0, 0
	o.InternalIterativeReduction, o.QuiescenceTable, o.HistoryReductions = false, false, false
	o.MainSEEPruning, o.BadCapturesLast, o.SingularMargin, o.BadCaptureReductions = false, false, 0, false
	o.CorrectionLimit = 0
	return o
}

func TestSelectiveTechniquesPrune(t *testing.T) {
	g := chessGame()
	// Open middlegames with many quiet moves: every pruning technique must leave nodes unsearched at depth 8
	// over the six (on the first two alone the table in quiescence searched 9% more with the tuned tables).
	fens := []string{
		"r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
		"r2q1rk1/pp2bppp/2n1pn2/3p4/3P4/2NBPN2/PP3PPP/R2Q1RK1 w - - 0 10",
		"r1bq1rk1/2p1bppp/p1np1n2/1p2p3/4P3/1BP2N1P/PP1P1PP1/RNBQR1K1 b - - 0 9",
		"rnbq1rk1/ppp1ppbp/3p1np1/8/2PPP3/2N2N2/PP2BPPP/R1BQK2R b KQ - 3 6",
		"r1bqk2r/pp2bppp/2n1pn2/2pp4/3P4/2PBPN2/PP1N1PPP/R1BQK2R w KQkq - 2 7",
		"2rq1rk1/pb1nbppp/1p2pn2/2pp4/3P4/1PNBPN2/PB3PPP/2RQ1RK1 w - - 2 12",
	}
	for _, tc := range selectiveTechniques {
		if tc.ordering {
			continue
		}
		t.Run(tc.name, func(t *testing.T) {
			var with, without uint64
			for _, fen := range fens {
				off := withoutSelective()
				on := off
				tc.on(&on)
				without += searchDepth(NewAlphaBeta(g, chessMaterialCentipawns(), off), mustChess(t, fen), 8).Nodes
				with += searchDepth(NewAlphaBeta(g, chessMaterialCentipawns(), on), mustChess(t, fen), 8).Nodes
			}
			t.Logf("%d nodes with it, %d without", with, without)
			if tc.extends {
				if with == without {
					t.Errorf("%d nodes with it and without: it never fired", with)
				}
				return
			}
			if with >= without {
				t.Errorf("%d nodes with it, %d without: nothing pruned", with, without)
			}
		})
	}
}

// TestBadCaptureReductionsPruneBeyondOrdering: with bad captures already ordered last, reducing them saves
// nodes of its own.
func TestBadCaptureReductionsPruneBeyondOrdering(t *testing.T) {
	g := chessGame()
	var with, without uint64
	for _, fen := range []string{
		"r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
		"r2q1rk1/pp2bppp/2n1pn2/3p4/3P4/2NBPN2/PP3PPP/R2Q1RK1 w - - 0 10",
		"2rq1rk1/pb1nbppp/1p2pn2/2pp4/3P4/1PNBPN2/PB3PPP/2RQ1RK1 w - - 2 12",
	} {
		off := withoutSelective()
		off.BadCapturesLast = true
		on := off
		on.BadCaptureReductions = true
		without += searchDepth(NewAlphaBeta(g, chessMaterialCentipawns(), off), mustChess(t, fen), 8).Nodes
		with += searchDepth(NewAlphaBeta(g, chessMaterialCentipawns(), on), mustChess(t, fen), 8).Nodes
	}
	t.Logf("%d nodes with it, %d with bad captures last alone", with, without)
	if with >= without {
		t.Errorf("%d nodes with it, %d without: nothing reduced", with, without)
	}
}

func TestSelectiveTechniquesKeepMatesInTwo(t *testing.T) {
	g := chessGame()
	for _, tc := range selectiveTechniques {
		t.Run(tc.name, func(t *testing.T) {
			for _, mc := range readMates(t) {
				if mc.moves != 2 {
					continue
				}
				opts := withoutSelective()
				tc.on(&opts)
				p := mustChess(t, mc.fen)
				depth := 5
				if tc.mateDepth > 0 {
					depth = tc.mateDepth
				}
				res := searchDepth(NewAlphaBeta(g, chessMaterialCentipawns(), opts), p, depth)
				if n, ok := IsMate(res.Score); !ok || n != 2 {
					t.Errorf("%s: score %v, want mate in 2", mc.id, res.Score)
				}
				if !matesInTwo(p, res.Move) {
					t.Errorf("%s: %s does not force mate in two", mc.id, p.FormatMove(res.Move))
				}
			}
		})
	}
}

func TestSelectiveTechniquesStayOffOutsideChess(t *testing.T) {
	for _, g := range nonChessGames() {
		o := DefaultAlphaBetaOptions(g)
		if o.LateMovePruning || o.FutilityMargin != 0 || o.InternalIterativeReduction || o.QuiescenceTable ||
			o.HistoryReductions {
			t.Errorf("%s: %+v, want no chess technique", g.Name(), o)
		}
	}
}

// chessGame is standard chess.
func chessGame() games.Game { return chess.Game{} }

// nonChessGames are the games the chess techniques must leave alone.
func nonChessGames() []games.Game {
	return []games.Game{checkers.Game{}, connect4.Game{}, tictactoe.Game{}}
}

func TestChessPrunesLateQuietMovesByDefault(t *testing.T) {
	for _, g := range []games.Game{chess.Game{}, chess.Game{Chess960: true}} {
		if o := DefaultAlphaBetaOptions(g); !o.LateMovePruning || o.LateMoveBalance != 400 || o.FutilityMargin != 100 {
			t.Errorf("%s: late-move pruning %v within %v, futility margin %v; want on within 400, and 100", g.Name(),
				o.LateMovePruning, o.LateMoveBalance, o.FutilityMargin)
		}
	}
}

// TestNewGameForgetsTheOrderingTables: after NewGame a search plays as a new searcher's does, node for node,
// with every move-ordering table on (history, killers), so that nothing learned in one game orders the next
// one's moves.
func TestNewGameForgetsTheOrderingTables(t *testing.T) {
	g := chessGame()
	opts := testOptions(g)
	opts.CorrectionLimit = 400 // and the corrections of the evaluation
	p := mustChess(t, "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4")
	other := mustChess(t, "r2q1rk1/pp2bppp/2n1pn2/3p4/3P4/2NBPN2/PP3PPP/R2Q1RK1 w - - 0 10")
	fresh := searchDepth(NewAlphaBeta(g, chessMaterialCentipawns(), opts), p.Clone(), 7)
	used := NewAlphaBeta(g, chessMaterialCentipawns(), opts)
	searchDepth(used, other, 7)
	used.NewGame()
	again := searchDepth(used, p.Clone(), 7)
	if again.Nodes != fresh.Nodes || again.Move != fresh.Move {
		t.Errorf("after NewGame %d nodes, %s; a new searcher %d nodes, %s", again.Nodes, p.FormatMove(again.Move),
			fresh.Nodes, p.FormatMove(fresh.Move))
	}
}
