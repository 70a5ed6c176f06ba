// Options of the alpha-beta searcher, in sections: what a caller sizes and sets, the techniques on by default
// (each with the measurement that turned it on), and the experimental settings.

package engine

import "dossier/games"

// AlphaBetaOptions configure an AlphaBeta searcher. The zero value is plain iterative-deepening alpha-beta
// without a transposition table or any enhancement; DefaultAlphaBetaOptions turns on what pays for a game.
// The measurements cited below are rows of docs/log/strength.md's table "The defaults, option by option", which
// points to the runs themselves.
type AlphaBetaOptions struct {
	// Size, threads and the caller's settings.

	// HashMB is the transposition table size in MiB (UCI's Hash); 0 means no table.
	HashMB int
	// Threads is the number of search threads (Lazy SMP sharing the table); 0 or 1 means one.
	Threads int
	// Contempt is what the root side gives up by drawing: a draw scores -Contempt for the side to move at
	// the root and +Contempt for its opponent.
	Contempt float64

	// Techniques on by default for every game: the classical alpha-beta, not measured one by one (row PVS).

	// PVS searches every move after the first with a null window first (principal-variation search).
	PVS bool
	// Aspiration starts each iteration from depth aspirationDepth on with a window around the previous score.
	Aspiration bool
	// Quiescence extends depth-0 leaves of games.Tactical positions with tactical moves (and in-check
	// evasions) until the position is quiet.
	Quiescence bool
	// Killers orders the two latest quiet cutoff moves of each ply early.
	Killers bool
	// History orders quiet moves by how often they caused cutoffs (history heuristic).
	History bool

	// Techniques on by default for chess (games.NullMover, games.Exchanger positions).

	// NullMove prunes with a reduced search after passing the move (games.NullMover positions only).
	// Measured: +19±35 Elo over 400 games (row NullMove).
	NullMove bool
	// LMR searches late quiet moves with reduced depth first (late-move reductions).
	// Measured: +45±40 Elo over 300 games, +13 WinAtChess positions (row LMR).
	LMR bool
	// CheckExtension searches one ply deeper when the side to move is in check (games.Checker only).
	// Measured: +19 WinAtChess positions (row CheckExtension).
	CheckExtension bool
	// LateMovePruning stops searching quiet moves that give no check at non-PV nodes of depth at most
	// lateMoveDepth out of check once lateMoveCount of them were searched: with good ordering the late quiet
	// moves of a shallow node almost never raise alpha. It applies only where the static evaluation is within
	// LateMoveBalance of 0 (the evaluation's units): in a lopsided position the winning side needs its precise
	// quiet moves (with it everywhere, KQK was drawn at depth 8 by the 50-move rule before the evaluation had
	// its mop-up term and quiescence probed the table; TestPruningStillMatesBareKings).
	// Measured with FutilityMargin: H1, +126.1 [+90.1, +164.8] (row LateMovePruning).
	LateMovePruning bool
	LateMoveBalance float64
	// FutilityMargin, when positive, skips at non-PV nodes of depth at most futilityDepth out of check the
	// quiet moves that give no check while the static evaluation plus this margin a ply stays at or below
	// alpha (the evaluation's units). 0 turns it off; chess plays 100.
	// Measured with LateMovePruning (row LateMovePruning).
	FutilityMargin float64
	// QuiescenceTable probes and fills the transposition table in quiescence (depth 0 entries), and takes
	// the stored static evaluation instead of evaluating again.
	// Measured: H1, +33.7 [+14.4, +53.2] (row QuiescenceTable).
	QuiescenceTable bool
	// InternalIterativeReduction searches a node of depth at least iirDepth that the table gives no move for
	// one ply shallower: without a move to try first its search is expensive and rarely decisive.
	// Measured: H1, +47.0 [+23.6, +70.8] (row InternalIterativeReduction).
	InternalIterativeReduction bool
	// ReverseFutilityMargin, when positive, returns the static evaluation at a non-PV node of depth at most
	// reverseFutilityDepth out of check whose static evaluation beats beta by this margin a ply (the
	// evaluation's units): the search below would not bring it back under beta. The margin is counted beyond
	// the most material the opponent could win by a capture if it were to move (games.Exchanger positions):
	// without that, it cost six WinAtChess positions at 250,000 nodes. 0 turns it off; chess plays 80.
	// Measured: H1, +40.3 [+19.2, +61.8] (row ReverseFutilityMargin).
	ReverseFutilityMargin float64
	// HistoryReductions adjusts late-move reductions by the move's history (up to historyReductionMax plies
	// less for a move that often caused cutoffs, more for one that never did) and reduces one ply more at
	// nodes that are not improving.
	// Measured with BadCaptureReductions: H1, +10.9 [+2.5, +19.3] (row HistoryReductions).
	HistoryReductions bool
	// SingularMargin, when positive, extends by a ply the table's move at a node of depth at least
	// singularDepth whose entry is a lower bound or exact to within singularDraftLag plies, when every other
	// move, searched to half the depth, stays below the entry's value less this margin a ply (the
	// evaluation's units): the move is singular, the only one that holds the node (singular extension). Where
	// the others reach that bar and it beats beta, a non-PV node fails high at once (multi-cut). 0 turns it
	// off; chess plays 2.
	// Measured: H1, +19.0 [+5.6, +32.4] (row SingularMargin).
	SingularMargin float64
	// SEEPruning skips, in quiescence out of check, the tactical moves that the static exchange says lose
	// material (games.Exchanger positions only).
	// Measured: H1, +84.1 [+54.7, +114.7] at 2+0.02 (row SEEPruning).
	SEEPruning bool
	// MainSEEPruning skips, at nodes of depth at most seePruneDepth out of check, the moves after the first
	// that give no check and lose more by the static exchange than the depth allows (seePruneThreshold):
	// a piece put where it is lost is rarely the move that saves a shallow node (needs SEEPruning's exchange).
	// Measured: H1, +54.0 [+29.3, +79.2] (row MainSEEPruning).
	MainSEEPruning bool
	// BadCapturesLast orders, in the main search, the tactical moves that the static exchange says lose
	// material after the quiet moves instead of before the killers (needs SEEPruning's exchange).
	// Measured: H1, +22.3 [+7.2, +37.5] (row BadCapturesLast).
	BadCapturesLast bool
	// BadCaptureReductions reduces, like late quiet moves, the tactical moves that BadCapturesLast ordered
	// last because the static exchange says they lose material (needs BadCapturesLast).
	// Measured with HistoryReductions (row HistoryReductions).
	BadCaptureReductions bool

	// Experimental: settings whose non-default values measured no gain.

	// AspirationWindow is the initial half-width of the root window around the previous iteration's score;
	// 0 (the default) derives it from the evaluation's weights (AutoWindow). Used only when Aspiration is on.
	// A fixed window of 15 centipawns measured -40.6 [-84.9, +2.5] (docs/log/strength.md, session 12); kept
	// because the model searches' probes set it, to the window of the evaluation they stand for.
	AspirationWindow float64
	// CorrectionLimit, when positive, corrects the static evaluation by what the searches below nodes of the
	// same structure (games.Structured: chess's pawns) found it to miss, learned as the search goes and bounded
	// by this many of the evaluation's units, so that the prunings that read it (reverse futility, futility,
	// the null move, late-move pruning) misjudge less (correction history). 0 (the default) turns it off.
	// Measured at 400: undecided, +5.7 [-11.7, +23.0] over 520 pairs (docs/log/strength.md, session 30).
	CorrectionLimit float64
}

// DefaultAlphaBetaOptions returns the options dossier plays a game with: a 16 MiB table, one thread, the
// move-ordering and window techniques for every game, and the selective techniques for chess, where each was
// measured (its row in docs/log/strength.md's "The defaults, option by option"): those of a game whose positions
// can pass the move (games.NullMover) and those of one that values exchanges (games.Exchanger). For checkers,
// Connect-Four and tic-tac-toe no gain of them was measured.
func DefaultAlphaBetaOptions(g games.Game) AlphaBetaOptions {
	o := AlphaBetaOptions{
		HashMB:     16,
		Threads:    1,
		PVS:        true,
		Aspiration: true,
		Quiescence: true,
		Killers:    true,
		History:    true,
	}
	if g == nil {
		return o
	}
	start := g.Start()
	if _, passes := start.(games.NullMover); passes {
		o.NullMove = true
		o.LMR = true
		o.CheckExtension = true
		o.LateMovePruning = true
		o.LateMoveBalance = 400
		o.FutilityMargin = 100
		o.QuiescenceTable = true
		o.InternalIterativeReduction = true
		o.ReverseFutilityMargin = 80
		o.HistoryReductions = true
		o.SingularMargin = 2
	}
	if _, exchanges := start.(games.Exchanger); exchanges {
		o.SEEPruning = true
		o.MainSEEPruning = true
		o.BadCapturesLast = true
		o.BadCaptureReductions = true
	}
	return o
}
