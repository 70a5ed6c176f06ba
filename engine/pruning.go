// The constants of the search's selective techniques, named in one place as Ethereal's search header names its
// own. The margins measured in the evaluation's units are options (AlphaBetaOptions), since each game's
// evaluation has its own scale; these are the depths, move counts and shapes of the reductions, the same for
// every game.

package engine

const (
	// Aspiration windows start at iteration aspirationDepth, and the search gives up the window for the full
	// one once it has widened (doubling on each fail) beyond aspirationMaxWidening times its start.
	aspirationDepth       = 4
	aspirationMaxWidening = 64

	// Extensions (check, singular) apply at nodes closer to the root than extensionPlies times the
	// iteration's depth, so that a line of checks cannot extend the search without end.
	extensionPlies = 2

	// Reverse futility pruning returns the static evaluation at nodes of depth at most reverseFutilityDepth.
	reverseFutilityDepth = 6

	// The null move is tried at nodes of depth at least nullMoveDepth, its search reduced by
	// nullMoveReduction + depth/nullMoveDepthDivisor plies (besides the move itself).
	nullMoveDepth        = 3
	nullMoveReduction    = 2
	nullMoveDepthDivisor = 4

	// Internal iterative reduction searches a node of depth at least iirDepth without a table move one ply
	// shallower.
	iirDepth = 4

	// The singular extension is tried at nodes of depth at least singularDepth whose table entry was searched
	// at most singularDraftLag plies shallower than the node.
	singularDepth    = 6
	singularDraftLag = 3

	// Late-move pruning searches lateMoveBase + depth² quiet moves (half when not improving) at nodes of depth
	// at most lateMoveDepth; futility pruning skips quiet moves at nodes of depth at most futilityDepth.
	lateMoveDepth = 3
	lateMoveBase  = 3
	futilityDepth = 3

	// SEE pruning in the main search skips, at nodes of depth at most seePruneDepth, a tactical move that
	// loses more than seeTacticalLoss a ply of depth and a quiet move that loses more than seeQuietLoss times
	// the depth squared (the game's material units: centipawns in chess).
	seePruneDepth   = 6
	seeTacticalLoss = 100
	seeQuietLoss    = 30

	// Late-move reductions apply from depth lmrDepth and from the lmrMoves-th move (counting from 0), by
	// lmrBase + ln(depth)·ln(move)/lmrDivisor plies (lmrTable); HistoryReductions takes up to
	// historyReductionMax plies off a move with a high history.
	lmrDepth            = 3
	lmrMoves            = 3
	lmrBase             = 0.75
	lmrDivisor          = 2.25
	historyReductionMax = 2

	// The correction history keeps 1<<correctionBits corrections a side, each moved toward what a node's
	// search found beyond its static evaluation by min(depth, correctionWeightMax)/correctionWeightDivisor.
	correctionBits          = 14
	correctionWeightMax     = 16
	correctionWeightDivisor = 64
)
