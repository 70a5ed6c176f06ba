// The probes of the model searches (OM, PrOM, MEU) and what they search through: one cache of every
// evaluation's leaf values and the position view that reads them.

package model

import (
	"dossier/engine"
	"dossier/games"
)

// omProbe is one evaluation's alpha-beta probe: the engine's AlphaBeta as a subroutine, with its own
// transposition table kept across the probes of one search (cleared only by NewGame). It reads its
// evaluation's values from the search's value cache (see omValueCache).
type omProbe struct {
	ab   *engine.AlphaBeta
	eval engine.Evaluation // the real evaluation, whose values the probe sees as its one weighted feature
}

// omValueCacheEntries is the size of a model search's value cache (entries of one key and one value per
// evaluation: about 3 MiB with four evaluations).
const omValueCacheEntries = 1 << 16

// The probes are the engine's negamax alpha-beta, which wants every position's value for its side to
// move. A function f owned by one side is searched by negamax as f where its owner is to move and -f
// where the owner waits; an opponent's function f_opp is, for negamax, the root player's function
// -f_opp = ZeroSumOpponent(f_opp, mirror). So setup turns every evaluation into root-owned weights g
// (ours as they are, each opponent type's zero-sum counterpart), and a probe's leaf value for the side to
// move is g . x where the root player is to move and -(g mirrored) . x where it waits. Over difference
// features both are g . x: the negamax convention, with one value per position whoever is to move.

// omValueCache holds the values of a search's evaluations for recently seen positions: a position's
// features are extracted once and every evaluation (ours and each opponent's) computed from them, which is
// what makes several models affordable. The probes see a position's values as its features, each probe
// weighting its own with 1 (see omView), so a probe's value is bit for bit the value its evaluation gives.
// An entry holds each evaluation's value for the side to move when the root player is to move and, for
// an asymmetric mirror, when it waits. It is a direct-mapped table keyed by the position's hash, not safe
// for concurrent use.
type omValueCache struct {
	toMove   [][]float64 // per evaluation: root-owned weights, for positions where the root player moves
	waiting  [][]float64 // per evaluation: the negamax weights where the root player waits (nil: toMove's)
	stride   int         // values per entry: one per evaluation, two with waiting weights
	root     games.Side  // the root player of the current search
	keys     []uint64
	gens     []uint32 // the generation that wrote each entry; entries of older generations are empty
	gen      uint32
	values   []float64 // stride per entry
	features []float64
	// extractions counts the feature extractions (the cache's misses).
	extractions uint64
}

// newOMValueCache returns the cache for evaluations given as root-owned weights; waiting is nil when
// every evaluation is antisymmetric under the mirror (one value serves both sides).
func newOMValueCache(g games.Game, toMove, waiting [][]float64) *omValueCache {
	stride := len(toMove)
	if waiting != nil {
		stride *= 2
	}
	return &omValueCache{toMove: toMove, waiting: waiting, stride: stride, keys: make([]uint64, omValueCacheEntries),
		gens: make([]uint32, omValueCacheEntries), gen: 1, values: make([]float64, omValueCacheEntries*stride),
		features: make([]float64, len(g.FeatureNames()))}
}

// fill writes the values of every evaluation for p, for its side to move, into dst.
func (c *omValueCache) fill(p games.Position, dst []float64) {
	key := p.Hash()
	i := int(key & (omValueCacheEntries - 1))
	entry := c.values[i*c.stride : i*c.stride+c.stride]
	if c.gens[i] != c.gen || c.keys[i] != key {
		p.Features(c.features)
		c.extractions++
		n := len(c.toMove)
		for k, w := range c.toMove {
			entry[k] = weightsDot(w, c.features)
		}
		for k, w := range c.waiting {
			entry[n+k] = weightsDot(w, c.features)
		}
		c.keys[i], c.gens[i] = key, c.gen
	}
	if c.waiting != nil && p.ToMove() != c.root {
		entry = entry[len(c.toMove):]
	}
	copy(dst, entry)
}

// clear empties the cache by starting a new generation (clearing the table only when the count wraps).
func (c *omValueCache) clear() {
	c.gen++
	if c.gen == 0 {
		clear(c.gens)
		c.gen = 1
	}
}

// omValueGame is a game whose features are the values of a model search's evaluations: the game the
// probes are built for.
type omValueGame struct {
	games.Game
	names []string
}

// FeatureNames names one feature per evaluation.
func (g omValueGame) FeatureNames() []string { return g.names }

// omRootSalt separates the probe table entries of searches for the two root players when some function
// is not antisymmetric: a position's negamax value then depends on who the root player is.
const omRootSalt = 0x9e3779b97f4a7c15

// omView is a position whose features are its evaluation values from the cache; it passes the optional
// interfaces a search uses through (a wrapped position without one behaves as a game without it: no
// tactical moves, never in check, no forced tactics).
type omView struct {
	games.Position
	cache    *omValueCache
	salt     uint64
	tactical games.Tactical
	checker  games.Checker
	forced   games.ForcedTactics
}

// omNullView is an omView of a position that can pass the move.
type omNullView struct {
	*omView
	nuller games.NullMover
}

func newOMView(p games.Position, cache *omValueCache) games.Position {
	v := &omView{Position: p, cache: cache}
	if cache.waiting != nil && cache.root == games.Second {
		v.salt = omRootSalt
	}
	v.tactical, _ = p.(games.Tactical)
	v.checker, _ = p.(games.Checker)
	v.forced, _ = p.(games.ForcedTactics)
	if n, ok := p.(games.NullMover); ok {
		return omNullView{omView: v, nuller: n}
	}
	return v
}

// Features writes the position's evaluation values.
func (v *omView) Features(dst []float64) { v.cache.fill(v.Position, dst) }

// Hash returns the wrapped position's hash, salted by the root player where values depend on it.
func (v *omView) Hash() uint64 { return v.Position.Hash() ^ v.salt }

// Clone returns a view of a clone sharing the cache (which must then be used by one goroutine at a time).
func (v *omView) Clone() games.Position { return newOMView(v.Position.Clone(), v.cache) }

// AppendTactical appends the wrapped position's tactical moves, if it has any.
func (v *omView) AppendTactical(dst []games.Move) []games.Move {
	if v.tactical == nil {
		return dst
	}
	return v.tactical.AppendTactical(dst)
}

// IsTactical reports whether m is a tactical move of the wrapped position.
func (v *omView) IsTactical(m games.Move) bool { return v.tactical != nil && v.tactical.IsTactical(m) }

// TacticalGain scores m as the wrapped position does, 0 without tactical moves.
func (v *omView) TacticalGain(m games.Move) int {
	if v.tactical == nil {
		return 0
	}
	return v.tactical.TacticalGain(m)
}

// InCheck reports whether the side to move of the wrapped position is in check.
func (v *omView) InCheck() bool { return v.checker != nil && v.checker.InCheck() }

// TacticsForced reports whether the wrapped position forces a tactical move.
func (v *omView) TacticsForced() bool { return v.forced != nil && v.forced.TacticsForced() }

// PlayNull passes the move in the wrapped position.
func (v omNullView) PlayNull() { v.nuller.PlayNull() }

// UndoNull takes back PlayNull.
func (v omNullView) UndoNull() { v.nuller.UndoNull() }
