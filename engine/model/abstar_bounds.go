// alpha-beta*'s bounds: the range of V_k + V_{k+1} below every node, read at the node and widened up from the leaves.

package model

import (
	"math"
	"slices"

	"dossier/games"
)

// LeafRanges is the one-sided, depth-aware form of LeafBounds: for a position p that alpha-beta* reaches
// with depth plies still to search, it writes lo[k] <= f_k(leaf) + f_{k+1}(leaf) <= hi[k] for every leaf
// of the search below p (k indexes pairs of levels as in LeafBounds). lo and hi come filled with the range
// known at p's parent (infinite at the root), and the search keeps the intersection of what it writes
// with that range (a NaN says nothing). A finished game's leaf values are zero-sum (f_k + f_{k+1} = 0),
// so wherever such a leaf may lie below p the range must contain 0. Knowing the sign of the sum, or what
// the next plies can change, prunes far more than a bound on its absolute value. It may play moves on p
// if it takes them back.
type LeafRanges func(p games.Position, depth int, lo, hi []float64)

// Ranges returns the LeafRanges of b (nil for nil): |f_k + f_{k+1}| <= b_k is the range [-b_k, b_k]; a
// value that is not a finite non-negative number says nothing.
func (b LeafBounds) Ranges() LeafRanges {
	if b == nil {
		return nil
	}
	return func(p games.Position, _ int, lo, hi []float64) {
		for k := range lo {
			lo[k] = math.NaN() // lo as the buffer: an entry b leaves alone says nothing
		}
		b(p, lo)
		for k, x := range lo {
			lo[k] = math.Inf(-1)
			if !math.IsNaN(x) && x >= 0 && !math.IsInf(x, 0) {
				lo[k], hi[k] = -x, x
			}
		}
	}
}

// SetLeafRanges makes the search read r at every node instead of its LeafBounds; nil goes back to the
// LeafBounds.
func (s *AlphaBetaStar) SetLeafRanges(r LeafRanges) {
	s.source = r
	if r == nil {
		s.source = s.bounds.Ranges()
	}
}

// abStarRanges holds, for every ply of the current line, the range of V_k + V_{k+1} at every leaf below
// the node at that ply (the caller's range read at the node, intersected with its parent's: a leaf below
// the node is below the parent too), and the upper ends of the range at the node's children, which the
// cutoff uses.
//
// The range widens going up only at a node where level k moves, and only at its top: V_k is the
// maximum over the children and V_{k+1} the value of the child level k+2 chooses, so the sum is at
// least that child's sum (lower end kept) and at most the chosen child's sum plus how much more V_{k+1}
// can be at k+2's choice than at k's, which the width of pair k+1 bounds. Where level k+1 moves both
// values come from one child. The paper's table (ComputeBounds) widens both ends by twice the next
// pair's bound; this keeps the lower ends and is never wider.
type abStarRanges struct {
	pairs   int // pairs of adjacent levels of the search
	given   int // pairs whose range the caller gives; the rest are exactly zero-sum (the minimax completion)
	source  LeafRanges
	readLo  []float64 // what source writes, before it is intersected with the parent's range
	readHi  []float64
	leafLo  [maxPly + 1][]float64
	leafHi  [maxPly + 1][]float64
	childHi [maxPly + 1][]float64
	flat    []float64
}

// size prepares the ranges for a search with the given number of pairs, of which given have a caller's
// range.
func (r *abStarRanges) size(pairs, given int, source LeafRanges) {
	r.pairs, r.given, r.source = pairs, given, source
	r.readLo = slices.Grow(r.readLo[:0], pairs)[:pairs]
	r.readHi = slices.Grow(r.readHi[:0], pairs)[:pairs]
	if len(r.flat) < 3*pairs*(maxPly+1) {
		r.flat = make([]float64, 3*pairs*(maxPly+1))
	}
	for i := range maxPly + 1 {
		at := 3 * pairs * i
		r.leafLo[i] = r.flat[at : at+pairs : at+pairs]
		r.leafHi[i] = r.flat[at+pairs : at+2*pairs : at+2*pairs]
		r.childHi[i] = r.flat[at+2*pairs : at+3*pairs : at+3*pairs]
	}
}

// enter computes the ranges of the node at ply, with depth plies left, in position p, and returns the
// upper ends at its children.
func (r *abStarRanges) enter(p games.Position, depth, ply int) []float64 {
	lo, hi := r.leafLo[ply], r.leafHi[ply]
	if ply == 0 {
		for k := range lo {
			lo[k], hi[k] = 0, 0
			if k < r.given {
				lo[k], hi[k] = math.Inf(-1), math.Inf(1)
			}
		}
	} else {
		copy(lo, r.leafLo[ply-1])
		copy(hi, r.leafHi[ply-1])
	}
	if r.source != nil && r.given > 0 && depth >= 1 {
		readLo, readHi := r.readLo[:r.given], r.readHi[:r.given]
		copy(readLo, lo)
		copy(readHi, hi)
		r.source(p, depth, readLo, readHi)
		for k := range readLo {
			// A leaf below this node is below its parent too: both ranges hold, so their intersection
			// does.
			if !math.IsNaN(readLo[k]) {
				lo[k] = max(lo[k], readLo[k])
			}
			if !math.IsNaN(readHi[k]) {
				hi[k] = min(hi[k], readHi[k])
			}
		}
	}
	out := r.childHi[ply]
	widenRange(lo, hi, out, ply, depth)
	return out
}

// widenRange writes to dst the upper ends of the ranges of V_k + V_{k+1} at the children of a node at
// ply with depth plies left, given the range [lo, hi] at every leaf below it.
func widenRange(lo, hi, dst []float64, ply, depth int) {
	copy(dst, hi)
	for left := 1; left < depth; left++ {
		at := ply + depth - left // the ply of the nodes with left plies to go
		for k := range dst {
			if levelOwnerToMove(k, at) && k+1 < len(dst) {
				dst[k] += dst[k+1] - lo[k+1]
			}
		}
	}
}
