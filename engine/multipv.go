// MultiPV: iterative deepening that values the k best root moves exactly, for analysis and for the players
// that choose among good moves (the even-game mode).

package engine

import (
	"cmp"
	"math"
	"slices"

	"dossier/games"
)

// iterateLines is iterate for k > 1 lines: each iteration searches the root k times, every pass without
// the moves the earlier passes chose, so that pass i finds the i-th best move with its exact value (as
// Stockfish's MultiPV does). Each pass keeps its own aspiration window around its previous value. The lines
// of the deepest completed iteration are returned, sorted by value, with the best as the Result's move; an
// iteration interrupted before its end is dropped, unless it is the first one, whose finished passes are
// kept so that a move is always found.
func (t *thread) iterateLines(rootMoves []games.Move, report func(Info), k int) Result {
	_, maxDepth := t.startIterations(rootMoves)
	prev := make([]float64, k)
	var lines []RootLine
	depth := 0
	for d := 1; d <= maxDepth; d++ {
		if !t.ctl.NextIteration(d) {
			break
		}
		t.rootDepth = d
		eventsBefore, repetitionsBefore := t.horizonEvents, t.repetitions
		current := make([]RootLine, 0, k)
		for i := range k {
			t.rootFrom = i
			t.rootBest = games.NoMove
			score := t.aspirate(d, prev[i])
			if t.aborted {
				break
			}
			// searchRoot moved the pass's best move to the front of the moves it searched.
			pv := slices.Clone(t.pv[0][:t.pvLen[0]])
			if len(pv) == 0 || pv[0] != t.root[i] {
				pv = []games.Move{t.root[i]}
			}
			current = append(current, RootLine{Move: t.root[i], Score: score, PV: pv})
		}
		t.rootFrom = 0
		if t.aborted {
			if len(lines) == 0 && len(current) > 0 {
				lines = current
				slices.SortStableFunc(lines, func(a, b RootLine) int { return cmp.Compare(b.Score, a.Score) })
			}
			break
		}
		// A later pass can find a higher value than an earlier one when the search's pruning (or the table)
		// is not exact: sort, and give the next iteration the lines in this order.
		slices.SortStableFunc(current, func(a, b RootLine) int { return cmp.Compare(b.Score, a.Score) })
		for i, l := range current { // the same moves as t.root[:k], which the passes put there
			t.root[i] = l.Move
			prev[i] = l.Score
		}
		lines, depth = current, d
		if report != nil {
			for i, l := range lines {
				report(Info{Depth: d, SelDepth: t.seldepth, Score: l.Score, Nodes: t.totalNodes(),
					TimeMS: t.ctl.Elapsed().Milliseconds(), HashFull: t.tt.HashFull(), PV: l.PV, MultiPV: i + 1})
			}
		}
		solved := t.horizonEvents-eventsBefore == t.repetitions-repetitionsBefore
		if solved || allProvenMates(lines, d) {
			break
		}
	}
	t.published.Store(t.nodes)
	if len(lines) == 0 {
		return Result{Move: t.root[0], PV: []games.Move{t.root[0]}}
	}
	return Result{Move: lines[0].Move, Score: lines[0].Score, Depth: depth, PV: lines[0].PV, Lines: lines}
}

// allProvenMates reports whether every line's value is a mate proven within depth plies, which deeper
// iterations would only find again.
func allProvenMates(lines []RootLine, depth int) bool {
	for _, l := range lines {
		if !provenMate(l.Score, depth) {
			return false
		}
	}
	return len(lines) > 0 && !math.IsNaN(lines[0].Score)
}
