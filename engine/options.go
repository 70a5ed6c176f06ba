// Options of the alpha-beta searcher: table size, threads, draw score and one switch per technique.

package engine

import "dossier/games"

// AlphaBetaOptions configure an AlphaBeta searcher. The zero value is plain iterative-deepening alpha-beta
// without a transposition table or any enhancement; DefaultAlphaBetaOptions turns on what pays for a game.
type AlphaBetaOptions struct {
	// HashMB is the transposition table size in MiB (UCI's Hash); 0 means no table.
	HashMB int
	// Threads is the number of search threads (Lazy SMP sharing the table); 0 or 1 means one.
	Threads int
	// Contempt is what the root side gives up by drawing: a draw scores -Contempt for the side to move at
	// the root and +Contempt for its opponent.
	Contempt float64
	// AspirationWindow is the initial half-width of the root window around the previous iteration's score;
	// 0 derives it from the evaluation's weights. Used only when Aspiration is on.
	AspirationWindow float64

	// PVS searches every move after the first with a null window first (principal-variation search).
	PVS bool
	// Aspiration starts each iteration from depth 4 on with a window around the previous score.
	Aspiration bool
	// Quiescence extends depth-0 leaves of games.Tactical positions with tactical moves (and in-check
	// evasions) until the position is quiet.
	Quiescence bool
	// Killers orders the two latest quiet cutoff moves of each ply early.
	Killers bool
	// History orders quiet moves by how often they caused cutoffs (history heuristic).
	History bool
	// NullMove prunes with a reduced search after passing the move (games.NullMover positions only).
	NullMove bool
	// LMR searches late quiet moves with reduced depth first (late-move reductions).
	LMR bool
	// CheckExtension searches one ply deeper when the side to move is in check (games.Checker only).
	CheckExtension bool
	// ReverseFutilityMargin, when positive, returns the static evaluation at a non-PV node of depth at most
	// reverseFutilityDepth out of check whose static evaluation beats beta by this margin a ply (the
	// evaluation's units): the search below would not bring it back under beta. The margin is counted beyond
	// the most material the opponent could win by a capture if it were to move (games.Exchanger positions):
	// without that, it cost six WinAtChess positions at 250,000 nodes. 0 turns it off; chess plays 80.
	ReverseFutilityMargin float64
	// LateMovePruning stops searching quiet moves that give no check at non-PV nodes of depth at most
	// lateMoveDepth out of check once lateMoveCount of them were searched: with good ordering the late quiet
	// moves of a shallow node almost never raise alpha. It applies only where the static evaluation is within
	// LateMoveBalance of 0 (the evaluation's units): in a lopsided position the winning side needs its precise
	// quiet moves (with it everywhere, KQK was drawn at depth 8 by the 50-move rule before the evaluation had
	// its mop-up term and quiescence probed the table; TestPruningStillMatesBareKings).
	LateMovePruning bool
	LateMoveBalance float64
	// FutilityMargin, when positive, skips at non-PV nodes of depth at most futilityDepth out of check the
	// quiet moves that give no check while the static evaluation plus this margin a ply stays at or below
	// alpha (the evaluation's units). 0 turns it off.
	FutilityMargin float64
	// InternalIterativeReduction searches a node of depth at least 4 that the table gives no move for one
	// ply shallower: without a move to try first its search is expensive and rarely decisive.
	InternalIterativeReduction bool
	// QuiescenceTable probes and fills the transposition table in quiescence (depth 0 entries), and takes
	// the stored static evaluation instead of evaluating again.
	QuiescenceTable bool
	// HistoryReductions adjusts late-move reductions by the move's history (up to two plies less for a move
	// that often caused cutoffs, more for one that never did) and reduces one ply more at nodes that are
	// not improving.
	HistoryReductions bool
	// BadCaptureReductions reduces, like late quiet moves, the tactical moves that BadCapturesLast ordered
	// last because the static exchange says they lose material (needs BadCapturesLast).
	BadCaptureReductions bool
	// SEEPruning skips, in quiescence out of check, the tactical moves that the static exchange says lose
	// material (games.Exchanger positions only).
	SEEPruning bool
	// BadCapturesLast orders, in the main search, the tactical moves that the static exchange says lose
	// material after the quiet moves instead of before the killers (needs SEEPruning's exchange).
	BadCapturesLast bool
	// MainSEEPruning skips, at nodes of depth at most seePruneDepth out of check, the moves after the first
	// that give no check and lose more by the static exchange than the depth allows (seePruneThreshold):
	// a piece put where it is lost is rarely the move that saves a shallow node (needs SEEPruning's exchange).
	MainSEEPruning bool
	// SingularMargin, when positive, extends by a ply the table's move at a node of depth at least
	// singularDepth whose entry is a lower bound or exact to within singularDraftLag plies, when every other
	// move, searched to half the depth, stays below the entry's value less this margin a ply (the
	// evaluation's units): the move is singular, the only one that holds the node (singular extension). Where
	// the others reach that bar and it beats beta, a non-PV node fails high at once (multi-cut). 0 turns it
	// off.
	SingularMargin float64
}

// DefaultAlphaBetaOptions returns the options dossier plays a game with: a 16 MiB table, one thread, the
// move-ordering and window techniques for every game, and the selective techniques (null move, late-move
// reductions, check extension) for the games whose positions can pass the move (games.NullMover: chess
// only), where they were measured (material and piece-square evaluation, equal nodes per move;
// BenchmarkWinAtChess, BenchmarkTechniques): late-move reductions +45±40 Elo over 300 games and +13
// WinAtChess positions at 100k nodes, the check extension +19 WinAtChess positions, null move +19±35 Elo
// over 400 games (no WinAtChess change). For checkers, Connect-Four and tic-tac-toe no gain was measured
// (Connect-Four and tic-tac-toe are solved exactly without them).
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
		// SPRT 0,10 at 30,000 nodes a move, UHO openings, against SEE pruning alone: H1 after 151 pairs,
		// +126.1 Elo [+90.1, +164.8]; WinAtChess at 250,000 nodes 278 of 300 with and without.
		o.LateMovePruning = true
		o.LateMoveBalance = 400
		o.FutilityMargin = 100
		// SPRT 0,10 at 30,000 nodes a move, UHO openings, against the above: H1 after 444 pairs, 890 games
		// +369 =238 -283, +33.7 Elo [+14.4, +53.2] (docs/strength.md).
		o.QuiescenceTable = true
		// SPRT 0,10 at 30,000 nodes a move, UHO openings, against the above: H1 after 279 pairs, 558 games
		// +237 =159 -162, +47.0 Elo [+23.6, +70.8] (docs/strength.md).
		o.InternalIterativeReduction = true
		// SPRT 0,10 at 30,000 nodes on the above with the tuned evaluation: H1 after 372 pairs, 744 games
		// +332 =166 -246, +40.3 Elo [+19.2, +61.8]; WinAtChess at 250,000 nodes 278 of 300 (276 without).
		o.ReverseFutilityMargin = 80
		// With bad-capture reductions, both against both off (signature 16278689), SPRT 0,10 at 30,000 nodes
		// over four runs of distinct openings (sessions 17-18): H1, LLR 3.20 after 2,185 pairs, +10.9 Elo
		// [+2.5, +19.3]. Session 14's pooled acceptance alone did not hold: its runs replayed the same games
		// (docs/strength.md, "A correction").
		o.HistoryReductions = true
		// SPRT 0,10 at 30,000 nodes on the above with bad-capture reductions (signature 16263042, openings from
		// the 601st): H1 after 806 pairs, LLR 2.97, 1612 games +619 =462 -531, +19.0 Elo [+5.6, +32.4] (session
		// 18); WinAtChess at 1,700,000 nodes 290 of 300 (288 without).
		o.SingularMargin = 2
	}
	if _, exchanges := start.(games.Exchanger); exchanges {
		o.SEEPruning = true
		// SPRT 0,10 at 30,000 nodes on the above: H1 after 253 pairs, 506 games +225 =134 -147, +54.0 Elo
		// [+29.3, +79.2] (docs/strength.md).
		o.MainSEEPruning = true
		// SPRT 0,10 at 30,000 nodes on the above: H1 after 671 pairs, 1342 games +517 =394 -431, +22.3 Elo
		// [+7.2, +37.5] (session 13; session 12's run of the same pair stopped at 535 pairs, +17.5).
		o.BadCapturesLast = true
		// With history reductions, both against both off: H1, LLR 3.20 after 2,185 distinct pairs, +10.9 Elo
		// [+2.5, +19.3] (sessions 17-18; above). Session 15's pooled runs replayed the same games: 519
		// distinct pairs, +17.1 [-0.4, +34.7], LLR 1.50.
		o.BadCaptureReductions = true
	}
	return o
}
