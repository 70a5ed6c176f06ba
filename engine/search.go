// The main search of a thread: negamax alpha-beta with PVS, the transposition table, null move, reductions,
// extensions and the pruning of late moves; its depth-0 leaves go to quiescence (quiesce.go).

package engine

import (
	"math"

	"dossier/games"
)

// lmrTable[d][i] is the late-move reduction of the i-th move (from 0) at remaining depth d.
var lmrTable [64][64]int

func init() {
	for d := 1; d < 64; d++ {
		for i := 1; i < 64; i++ {
			lmrTable[d][i] = int(lmrBase + math.Log(float64(d))*math.Log(float64(i))/lmrDivisor)
		}
	}
}

// search returns the negamax value of the current position to depth, within (alpha, beta) fail-soft.
// pvNode says the window is open (not a null window), which disables the cuts that only pay off in a
// null-window search and keeps the PV intact.
func (t *thread) search(depth, ply int, alpha, beta float64, pvNode bool) float64 {
	// Step 1. Quiescence at the horizon: a depth-0 leaf is resolved by its tactical moves, not evaluated
	// where a capture is pending.
	if depth <= 0 {
		return t.quiesce(ply, alpha, beta)
	}

	// Step 2. The node prologue (enterNode): count and poll, and end the node without a search where the
	// game is over, a position repeats or the ply limit is reached.
	if score, done := t.enterNode(ply, false); done {
		return score
	}
	pos := t.pos

	// Step 3. The transposition table: an entry searched at least this deep whose bound settles the window
	// ends a non-PV node (PV nodes search on, to keep their PV whole); any entry gives the move to try first
	// and the static evaluation. excluded is the move a singular-extension search leaves out: the node is
	// the same position searched without it, so the table's entry of the full node neither settles it nor
	// is overwritten by it.
	key := pos.Hash()
	hashMove := games.NoMove
	rawEval := math.NaN() // the evaluation as the table keeps it: uncorrected (see corrected)
	excluded := t.excluded[ply]
	stored, hit := t.tt.Probe(key, ply)
	if hit {
		e := stored
		hashMove, rawEval = e.Move, e.Eval
		if excluded == games.NoMove && !pvNode && ply > 0 && e.Draft >= depth &&
			(e.Bound == BoundExact || (e.Bound == BoundLower && e.Score >= beta) || (e.Bound == BoundUpper && e.Score <= alpha)) {
			if e.Draft < SolvedDraft {
				t.horizonEvents++
			}
			return e.Score
		}
	}

	// Step 4. Experience: what a deeper analysis found here settles the node as a table entry of its depth
	// would, at PV nodes too: that is how a line analysed as lost is left, and a won one kept, from the
	// root's first move on.
	if t.experience != nil && ply > 0 && excluded == games.NoMove {
		score, cut, move := experienceCut(t.experience, key, depth, ply, alpha, beta)
		if cut {
			t.horizonEvents++
			t.experienceHits++
			return score
		}
		if hashMove == games.NoMove {
			hashMove = move
		}
	}

	// Step 5. Check extension: a side in check has few moves and a threat to answer, so the node is searched
	// a ply deeper (near the root only, so that checks cannot extend without end).
	inCheck := t.checker != nil && t.checker.InCheck()
	if inCheck && t.opts.CheckExtension && ply < extensionPlies*t.rootDepth {
		depth++
	}

	// Step 6. The static evaluation, where a pruning below needs it (never in check), and whether the node
	// is improving: its evaluation rose since its side's previous turn, so its late moves are pruned later.
	if !inCheck && math.IsNaN(rawEval) && t.needsStaticEval(pvNode) {
		rawEval = t.evaluate()
	}
	staticEval := t.corrected(rawEval)
	t.evals[ply] = staticEval
	if inCheck {
		t.evals[ply] = math.NaN()
	}
	improving := ply >= 2 && !inCheck && staticEval > t.evals[ply-2] // false when either is NaN

	// Step 7. Reverse futility pruning: at a shallow non-PV node whose static evaluation beats beta by the
	// margin a ply, beyond what the opponent could win by a capture, the search below would not bring it
	// back under beta.
	if t.opts.ReverseFutilityMargin > 0 && !pvNode && !inCheck && ply > 0 && depth <= reverseFutilityDepth &&
		math.Abs(beta) < MateBound {
		if surplus := staticEval - t.opts.ReverseFutilityMargin*float64(depth) - beta; surplus >= 0 && staticEval < MateBound &&
			!t.threatens(ply, surplus) {
			t.horizonEvents++
			return staticEval
		}
	}

	// Step 8. Null move pruning: where the side to move, even after passing, still beats beta in a reduced
	// search, a real move would too (zugzwang aside).
	if t.opts.NullMove && t.nuller != nil && !pvNode && !inCheck && depth >= nullMoveDepth && ply > 0 && !t.nullPly[ply] &&
		excluded == games.NoMove &&
		math.Abs(beta) < MateBound {
		if math.IsNaN(staticEval) {
			rawEval = t.evaluate()
			staticEval = t.corrected(rawEval)
		}
		if staticEval >= beta {
			r := nullMoveReduction + depth/nullMoveDepthDivisor
			t.nuller.PlayNull()
			t.nullPly[ply+1] = true
			score := -t.search(depth-1-r, ply+1, -beta, -math.Nextafter(beta, math.Inf(-1)), false)
			t.nullPly[ply+1] = false
			t.nuller.UndoNull()
			if t.aborted {
				return 0
			}
			if score >= beta {
				t.horizonEvents++
				if score >= MateBound {
					score = beta // a mate found after passing is no proof of a mate
				}
				return score
			}
		}
	}

	// Step 9. Internal iterative reduction: without a table move to try first, a deep node's search is
	// expensive and rarely decisive, so it is searched a ply shallower.
	if t.opts.InternalIterativeReduction && depth >= iirDepth && hashMove == games.NoMove && !inCheck {
		depth--
	}

	// Step 10. Singular extension: where the table's move stood at least at its value to nearly this depth,
	// and every other move fails below that value less a margin in a search of half the depth, the table's
	// move is the only one that holds the node, and it is searched a ply deeper. Where the others reach the
	// lowered bar and it is still above beta, several moves beat beta: the node fails high at once
	// (multi-cut).
	singular := games.NoMove
	if t.opts.SingularMargin > 0 && excluded == games.NoMove && ply > 0 && depth >= singularDepth && hit &&
		stored.Move != games.NoMove && stored.Bound != BoundUpper &&
		stored.Draft >= depth-singularDraftLag && math.Abs(stored.Score) < MateBound && ply < extensionPlies*t.rootDepth {
		bar := stored.Score - t.opts.SingularMargin*float64(depth)
		t.excluded[ply] = stored.Move
		score := t.search((depth-1)/2, ply, math.Nextafter(bar, math.Inf(-1)), bar, false)
		t.excluded[ply] = games.NoMove
		if t.aborted {
			return 0
		}
		t.pvLen[ply] = ply
		switch {
		case score < bar:
			singular = stored.Move
		case !pvNode && bar >= beta:
			t.horizonEvents++
			return bar
		}
	}

	// Step 11. The moves, ordered (order.go); a side without one has lost, drawn, or met the game's own rule.
	moves := pos.AppendMoves(t.moves[ply][:0])
	if len(moves) == 0 {
		return t.noMovesScore(ply)
	}
	keys := t.keys[ply][:len(moves)]
	t.scoreMoves(moves, keys, hashMove, ply, true)

	// Step 12. What prunes the late moves of this node: at a shallow non-PV node, quiet moves by count
	// (late-move pruning) and by the margin the static evaluation lacks to reach alpha (futility pruning),
	// and any move after the first that loses too much by the static exchange (SEE pruning).
	selective := !pvNode && !inCheck && ply > 0
	lateMoves := math.MaxInt
	if selective && t.opts.LateMovePruning && depth <= lateMoveDepth && math.Abs(staticEval) < t.opts.LateMoveBalance {
		lateMoves = lateMoveCount(depth, improving)
	}
	futile := selective && t.opts.FutilityMargin > 0 && depth <= futilityDepth && !math.IsNaN(staticEval) &&
		staticEval+t.opts.FutilityMargin*float64(depth) <= alpha && math.Abs(alpha) < MateBound
	futilityValue := staticEval + t.opts.FutilityMargin*float64(depth)
	seePrune := t.opts.MainSEEPruning && t.exchange != nil && !inCheck && ply > 0 && depth <= seePruneDepth
	quietsSearched := 0
	mover := pos.ToMove()

	// Step 13. The move loop: the first move with the full window, the others with a null window first
	// (PVS), late quiet moves (and bad captures) reduced first (LMR) and searched again at full depth and
	// with the full window only when they beat alpha.
	eventsBefore := t.horizonEvents
	alphaOrig := alpha
	best := math.Inf(-1)
	bestMove := games.NoMove
	for i := range moves {
		pickMove(moves, keys, i)
		m := moves[i]
		if m == excluded {
			continue
		}
		quiet := t.tactical == nil || !t.tactical.IsTactical(m)
		prunable := quiet && i > 0 && keys[i] < orderKiller && best > -MateBound
		// The static exchange is asked only of a move that late-move or futility pruning keeps.
		skip := prunable && (quietsSearched >= lateMoves || futile) ||
			seePrune && i > 0 && best > -MateBound && !t.exchange.SEEGE(m, seePruneThreshold(!quiet, depth))
		pos.Play(m)
		if skip && (t.checker == nil || !t.checker.InCheck()) {
			// A move that gives check is searched: quiet checks are how most mates begin.
			pos.Undo()
			t.horizonEvents++
			if futile && prunable {
				best = max(best, futilityValue)
			}
			continue
		}
		t.tt.Prefetch(pos.Hash()) // only for a move that is searched
		if quiet {
			quietsSearched++
		}
		newDepth := depth - 1
		if m == singular {
			newDepth++
		}
		var score float64
		if i == 0 {
			score = -t.search(newDepth, ply+1, -beta, -alpha, pvNode)
		} else {
			reduction := 0
			badCapture := t.opts.BadCaptureReductions && !quiet && isBadCaptureKey(keys[i])
			if t.opts.LMR && depth >= lmrDepth && i >= lmrMoves && (quiet || badCapture) && !inCheck && keys[i] < orderKiller &&
				(t.checker == nil || !t.checker.InCheck()) {
				reduction = lmrTable[min(depth, 63)][min(i, 63)]
				if pvNode {
					reduction--
				}
				if t.opts.HistoryReductions && quiet {
					if !improving {
						reduction++
					}
					reduction -= int(historyReductionMax * t.history[mover][historySlot(m)] / historyMax)
				}
				reduction = min(max(reduction, 0), newDepth-1)
			}
			if t.opts.PVS {
				up := nextUp(alpha)
				score = -t.search(newDepth-reduction, ply+1, -up, -alpha, false)
				if score > alpha && reduction > 0 {
					score = -t.search(newDepth, ply+1, -up, -alpha, false)
				}
				if score > alpha && score < beta {
					score = -t.search(newDepth, ply+1, -beta, -alpha, pvNode)
				}
			} else {
				// Without PVS the later moves get the open window too, but they are expected to fail low
				// like null-window searches, so they are not PV nodes: table cutoffs apply there.
				score = -t.search(newDepth-reduction, ply+1, -beta, -alpha, false)
				if score > alpha && reduction > 0 {
					score = -t.search(newDepth, ply+1, -beta, -alpha, false)
				}
			}
		}
		pos.Undo()
		if t.aborted {
			return 0
		}
		// Step 14. The best move so far: it raises alpha and takes the PV; a cutoff rewards a quiet move in
		// the ordering tables (killers, history) and ends the loop.
		if score > best {
			best = score
			if score > alpha {
				bestMove = m
				t.updatePV(ply, m)
				if ply == 0 {
					t.rootBest = m
				}
				if score >= beta {
					if quiet {
						t.rewardQuiet(m, moves[:i], ply, depth)
					}
					break
				}
				alpha = score
			}
		}
	}

	// Step 15. The result: a singular-extension search (excluded set) returns without touching the table;
	// any other node teaches the correction history what its search found beyond its static evaluation (out
	// of check, a quiet best move or none, a bound that says so) and stores its value, with the solved draft
	// when no leaf below it depended on the depth.
	if excluded != games.NoMove {
		if math.IsInf(best, -1) { // the excluded move was the only one searched
			return alphaOrig
		}
		return best
	}
	bound := boundOf(best, alphaOrig, beta)
	draft := depth
	if t.horizonEvents == eventsBefore {
		draft = SolvedDraft
	}
	if t.structure != nil && !inCheck && // the option first: no move's tactics asked at every node without it
		(bestMove == games.NoMove || t.tactical == nil || !t.tactical.IsTactical(bestMove)) &&
		!(bound == BoundLower && best <= staticEval) && !(bound == BoundUpper && best >= staticEval) {
		t.learnCorrection(rawEval, best, depth)
	}
	t.tt.Store(key, ply, bestMove, best, rawEval, draft, bound)
	return best
}

// boundOf says what a fail-soft result best of a window (alpha, beta) is: an upper bound at or below alpha, a
// lower bound at or above beta, else exact.
func boundOf(best, alpha, beta float64) Bound {
	switch {
	case best <= alpha:
		return BoundUpper
	case best >= beta:
		return BoundLower
	}
	return BoundExact
}

// threatens reports whether the opponent, were it to move, could win more than surplus by a capture, by the
// static exchange: the static evaluation overstates the position by that much, and reverse futility pruning
// keeps only the surplus beyond it (without this, the pruning cost six WinAtChess positions at 250,000 nodes).
// It stops at the first such capture. Games without a null move, tactical moves or static exchange are never
// threatened.
func (t *thread) threatens(ply int, surplus float64) bool {
	if t.nuller == nil || t.tactical == nil || t.exchange == nil || ply+1 >= maxPly {
		return false
	}
	t.nuller.PlayNull()
	defer t.nuller.UndoNull()
	more := int(math.Floor(surplus)) + 1 // SEE is whole units: more than surplus is at least this
	for _, m := range t.tactical.AppendTactical(t.moves[ply+1][:0]) {
		if t.exchange.SEEGE(m, more) {
			return true
		}
	}
	return false
}

// seePruneThreshold is the least static exchange (the game's material units: centipawns in chess) a move
// keeps at a node of depth under MainSEEPruning: a tactical move may lose seeTacticalLoss a ply of depth, a
// quiet move seeQuietLoss times the depth squared (little at a shallow node, more at a deeper one, where the
// search has room to show what a sacrifice buys).
func seePruneThreshold(tactical bool, depth int) int {
	if tactical {
		return -seeTacticalLoss * depth
	}
	return -seeQuietLoss * depth * depth
}

// lateMoveCount is how many quiet moves a node of depth searches before late-move pruning: lateMoveBase +
// depth², half that when the node is not improving.
func lateMoveCount(depth int, improving bool) int {
	n := lateMoveBase + depth*depth
	if !improving {
		n /= 2
	}
	return n
}

// needsStaticEval reports whether a pruning of this node uses the static evaluation.
// Late-move pruning needs it at PV nodes too: their evaluation tells whether the nodes two plies below improve.
func (t *thread) needsStaticEval(pvNode bool) bool {
	return t.opts.LateMovePruning || (!pvNode && (t.opts.ReverseFutilityMargin > 0 || t.opts.FutilityMargin > 0))
}
