// Experience: what deep analyses learned of positions, read by the alpha-beta search at its nodes as it
// reads its transposition table, so that a line analysed as lost is left where the analysis found it bad, at
// the value it deserves.

package engine

import "dossier/games"

// Experience answers, for a position's hash, what an earlier, deeper search found there. Implementations
// are read by every search thread at once, so Lookup must be safe for concurrent use (a map filled before
// the search and never written during it is).
type Experience interface {
	// Lookup returns the entry of the position with this hash (games.Position.Hash), if there is one.
	Lookup(hash uint64) (ExperienceEntry, bool)
}

// ExperienceEntry is one analysed position: the move found best, and its value to the depth searched, for
// the side to move, as an exact value or a bound (as the analysing search returned it). A mate score counts
// the plies from this position, as the transposition table stores it.
type ExperienceEntry struct {
	Move  games.Move
	Score float64
	Depth int
	Bound Bound
}

// experienceCut returns the entry's value when it settles a node searched to depth within (alpha, beta),
// as a table entry of that depth would, and the entry's move for the move order either way (games.NoMove:
// none). ply turns a stored mate distance into one counted from the root.
func experienceCut(x Experience, hash uint64, depth, ply int, alpha, beta float64) (score float64, cut bool,
	move games.Move) {
	e, ok := x.Lookup(hash)
	if !ok {
		return 0, false, games.NoMove
	}
	score = scoreFromTT(e.Score, ply)
	cut = e.Depth >= depth && (e.Bound == BoundExact || (e.Bound == BoundLower && score >= beta) ||
		(e.Bound == BoundUpper && score <= alpha))
	return score, cut, e.Move
}
