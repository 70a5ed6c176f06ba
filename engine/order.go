// Move ordering: hash move, tactical moves by gain, killers and the history heuristic.

package engine

import "dossier/games"

// Ordering keys: the hash move first, then tactical moves by their gain, then killers, then quiet moves by
// history (which stays well inside ±historyMax).
const (
	orderHash     = 1 << 30
	orderTactical = 1 << 28
	orderKiller   = 1 << 27
	historyMax    = 1 << 20
	historyBits   = 14
	historySize   = 1 << historyBits
)

// historySlot folds a game-specific move code into a table index: games pack their moves differently, so
// every bit of the code contributes.
func historySlot(m games.Move) int {
	x := uint64(m)
	x ^= x >> 32
	x ^= x >> historyBits
	x ^= x >> (2 * historyBits)
	return int(x & (historySize - 1))
}

// orderBadCapture is the key base of a tactical move that loses material by the static exchange when
// BadCapturesLast is on: below every quiet move's history.
const orderBadCapture = -orderKiller

// isBadCaptureKey reports whether an ordering key is a losing capture's (orderBadCapture plus its gain, which
// stays within half of orderKiller), below every quiet move's history.
func isBadCaptureKey(key int32) bool { return key < orderBadCapture+orderKiller/2 }

// scoreMoves fills keys with the ordering key of each move. mainSearch says the moves are a main-search
// node's, whose losing captures BadCapturesLast orders last (quiescence skips them anyway).
func (t *thread) scoreMoves(moves []games.Move, keys []int32, hashMove games.Move, ply int, mainSearch bool) {
	badLast := mainSearch && t.opts.BadCapturesLast && t.exchange != nil
	side := t.pos.ToMove()
	var k0, k1 games.Move
	if t.opts.Killers {
		k0, k1 = t.killers[ply][0], t.killers[ply][1]
	}
	for i, m := range moves {
		var key int32
		switch {
		case m == hashMove:
			key = orderHash
		case t.tactical != nil && t.tactical.IsTactical(m):
			key = orderTactical
			if badLast && !t.exchange.SEEGE(m, 0) {
				key = orderBadCapture
			}
			key += int32(min(max(t.tactical.TacticalGain(m), -orderKiller/2), orderKiller/2))
		case m == k0:
			key = orderKiller + 1
		case m == k1:
			key = orderKiller
		case t.opts.History:
			key = t.history[side][historySlot(m)]
		}
		keys[i] = key
	}
}

// pickMove swaps the best-keyed of moves[i:] into place i: a selection sort done lazily, since a cutoff
// often comes before the late moves are needed. Ties keep the game's generation order.
func pickMove(moves []games.Move, keys []int32, i int) {
	best := i
	for j := i + 1; j < len(moves); j++ {
		if keys[j] > keys[best] {
			best = j
		}
	}
	if best != i {
		moves[i], moves[best] = moves[best], moves[i]
		keys[i], keys[best] = keys[best], keys[i]
	}
}

// rewardQuiet records a quiet move that caused a cutoff at ply with remaining depth, and penalises the
// quiet moves tried before it.
func (t *thread) rewardQuiet(m games.Move, tried []games.Move, ply, depth int) {
	if t.opts.Killers && t.killers[ply][0] != m {
		t.killers[ply][1] = t.killers[ply][0]
		t.killers[ply][0] = m
	}
	if !t.opts.History {
		return
	}
	side := t.pos.ToMove()
	bonus := int32(min(depth*depth, 400))
	t.updateHistory(side, m, bonus)
	for _, q := range tried {
		if q != m && (t.tactical == nil || !t.tactical.IsTactical(q)) {
			t.updateHistory(side, q, -bonus)
		}
	}
}

// updateHistory moves the side's history entry of m by bonus (towardBound).
func (t *thread) updateHistory(side games.Side, m games.Move, bonus int32) {
	towardBound(&t.history[side][historySlot(m)], bonus)
}

// towardBound moves a history entry toward ±historyMax by an amount that shrinks as it nears the bound.
func towardBound(h *int32, bonus int32) {
	abs := bonus
	if abs < 0 {
		abs = -abs
	}
	*h += bonus*64 - int32(int64(*h)*int64(abs)*64/historyMax)
}

// ageHistory halves the history and clears the killers between searches.
func (t *thread) ageHistory() {
	for s := range t.history {
		for i := range t.history[s] {
			t.history[s][i] /= 2
		}
	}
	clear(t.killers[:])
}
