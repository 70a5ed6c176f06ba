// How much the opponent repeats itself: what a won game's move played again is worth.

package player

// repeats counts, over the opponent's stored games, its moves in positions it met more than once: pairs is,
// per such position, its moves there less one; same the moves among them that were its most frequent move
// there, less one. A deterministic engine repeats every move out of its book (same == pairs); an engine that
// varies its moves does not.
type repeats struct{ same, pairs int }

// add adds the opponent's moves in one position (move -> times played).
func (r *repeats) add(moves map[string]int) {
	n, most := 0, 0
	for _, k := range moves {
		n += k
		most = max(most, k)
	}
	if n >= 2 {
		r.pairs += n - 1
		r.same += most - 1
	}
}

// Thresholds of the repeat rate, measured out of the opponents' books in session 26's runs (positions met twice
// or more, the opponent's move there against its most frequent one): Toga II 0.84 and Glaurung 0.88 at 2+0.05,
// Stockfish at UCI_Elo 2050 (which varies its moves by design) 0.56 at 8+0.08.
const (
	// repeatPrior is the rate an opponent without positions met twice is taken to repeat at, counted as
	// repeatPriorPairs pairs: a won game's move is played again with the whole MemoryRisk until the opponent
	// shows that it varies, as the game memory did before it measured anything.
	repeatPrior      = 0.85
	repeatPriorPairs = 20
	// repeatVaries is the rate at which a won game's move is worth no risk at all (an opponent that plays its
	// move of before half the time is unlikely to walk into the rest of the won game), repeatRepeats the rate
	// from which it is worth the whole MemoryRisk; in between the risk grows in proportion.
	repeatVaries  = 0.5
	repeatRepeats = 0.8
)

// rate returns how often the opponent repeats its move in a position it met before, with the prior.
func (r repeats) rate() float64 {
	return (float64(r.same) + repeatPrior*repeatPriorPairs) / float64(r.pairs+repeatPriorPairs)
}

// riskShare returns the part of MemoryRisk a won game's move may cost against this opponent: none against one
// that varies its moves (rate repeatVaries or below), all of it against one that repeats them (repeatRepeats or
// above).
func (r repeats) riskShare() float64 {
	return min(max((r.rate()-repeatVaries)/(repeatRepeats-repeatVaries), 0), 1)
}
