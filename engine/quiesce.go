// Quiescence search: the tactical moves below the main search's depth-0 leaves, until the position is quiet.

package engine

import (
	"math"

	"dossier/games"
)

// quiesce resolves the tactics of a depth-0 leaf: stand pat on the static evaluation (unless a tactical
// move is compulsory or the side to move is in check), then try the tactical moves (all evasions in check).
func (t *thread) quiesce(ply int, alpha, beta float64) float64 {
	// Without tactical moves (or with quiescence off) the leaf is its static evaluation.
	if score, done := t.enterNode(ply, t.tactical == nil || !t.opts.Quiescence); done {
		return score
	}
	pos := t.pos

	// The table: a stored result that settles this window ends the node, and a stored static evaluation
	// saves computing it again.
	useTable := t.opts.QuiescenceTable && t.tt != nil
	var key uint64
	standPat := math.NaN()
	if useTable {
		key = pos.Hash()
		if e, ok := t.tt.Probe(key, ply); ok {
			if e.Bound == BoundExact || (e.Bound == BoundLower && e.Score >= beta) ||
				(e.Bound == BoundUpper && e.Score <= alpha) {
				if e.Draft < SolvedDraft {
					t.horizonEvents++
				}
				return e.Score
			}
			standPat = e.Eval
		}
	}
	alphaOrig := alpha

	inCheck := t.checker != nil && t.checker.InCheck()
	best := math.Inf(-1)
	var moves []games.Move
	if inCheck {
		moves = pos.AppendMoves(t.moves[ply][:0])
		if len(moves) == 0 {
			return t.noMovesScore(ply)
		}
	} else {
		forced := t.forced != nil && t.forced.TacticsForced()
		if !forced {
			t.horizonEvents++
			if math.IsNaN(standPat) {
				standPat = t.evaluate()
			}
			best = standPat
			if best >= beta {
				if useTable {
					t.tt.Store(key, ply, games.NoMove, best, standPat, 0, BoundLower)
				}
				return best
			}
			alpha = max(alpha, best)
		}
		moves = t.tactical.AppendTactical(t.moves[ply][:0])
		if len(moves) == 0 {
			if !forced {
				return best
			}
			// A compulsory tactical move that AppendTactical does not list: fall back on all moves.
			moves = pos.AppendMoves(t.moves[ply][:0])
			if len(moves) == 0 {
				return t.noMovesScore(ply)
			}
		}
	}
	// Out of check, a capture the static exchange says loses material is not searched: the side to move
	// stands pat instead, or has a better capture.
	prune := t.exchange != nil && !inCheck && best > math.Inf(-1)
	keys := t.keys[ply][:len(moves)]
	t.scoreMoves(moves, keys, games.NoMove, ply, false)
	bestMove := games.NoMove
	for i := range moves {
		pickMove(moves, keys, i)
		m := moves[i]
		if prune && !t.exchange.SEEGE(m, 0) {
			continue
		}
		pos.Play(m)
		if useTable {
			t.tt.Prefetch(pos.Hash())
		}
		score := -t.quiesce(ply+1, -beta, -alpha)
		pos.Undo()
		if t.aborted {
			return 0
		}
		if score > best {
			best = score
			if score > alpha {
				bestMove = m
				t.updatePV(ply, m)
				if score >= beta {
					break
				}
				alpha = score
			}
		}
	}
	if useTable && best > math.Inf(-1) {
		bound := boundOf(best, alphaOrig, beta)
		t.tt.Store(key, ply, bestMove, best, standPat, 0, bound)
	}
	return best
}
