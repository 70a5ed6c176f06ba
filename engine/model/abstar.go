// alpha-beta* (Carmel & Markovitch 1996, Figure 7): M* 1-pass with pruning under bounds on f_i + f_{i-1}.

package model

import (
	"dossier/engine"
	"math"
	"slices"

	"dossier/games"
)

// LeafBounds writes, for a position p that alpha-beta* reaches (the root, and every node below it: the
// search reads its bounds at every node), how far each model level's function is from the zero-sum
// opposite of the level below it at any leaf of the search below p: dst[k] >= |f_k(leaf) + f_{k+1}(leaf)|
// for k = 0 .. len(dst)-1, with f_0 the player's function, f_1 its model of the opponent's and so on, each
// valued from its owner's point of view (the paper's b_n, b_{n-1}, ...; b_i bounds |f_i + f_{i-1}|).
// A value that is not a finite non-negative number means "no bound": that level never allows pruning.
// Carmel & Markovitch's checkers bound, |f_1 + f_0| <= (2/25) Tot, holds at every leaf below p because
// Tot never grows, so it is a LeafBounds that reads Tot at p, tightening as pieces come off. LeafRanges
// is the one-sided, depth-aware form.
type LeafBounds func(p games.Position, dst []float64)

// ConstantBounds returns the LeafBounds that writes b (missing entries: no bound).
func ConstantBounds(b ...float64) LeafBounds {
	b = slices.Clone(b)
	return func(_ games.Position, dst []float64) {
		for k := range dst {
			if k < len(b) {
				dst[k] = b[k]
			} else {
				dst[k] = math.Inf(1)
			}
		}
	}
}

// ComputeBounds returns the paper's bound table for a search of depth plies from a position where the
// player is to move: table[r][k] bounds |V_k + V_{k+1}| at every node with r plies left, given
// leaf[k] >= |f_k + f_{k+1}| at the leaves (len(leaf) = number of levels - 1). At a node where level k's
// owner is to move, table[r][k] = table[r-1][k] + 2*table[r-1][k+1] (k's choice and k+1's value come from
// different children); the other entries are the children's (Lemma 1 and Figure 7 of the paper).
// AlphaBetaStar itself widens ranges instead, which keeps the lower ends and is never looser (see
// LeafRanges).
func ComputeBounds(depth int, leaf []float64) [][]float64 {
	depth = max(depth, 0)
	table := make([][]float64, depth+1)
	table[0] = slices.Clone(leaf)
	for r := 1; r <= depth; r++ {
		prev := table[r-1]
		cur := slices.Clone(prev)
		ply := depth - r
		for k := range cur {
			if levelOwnerToMove(k, ply) {
				next := 0.0
				if k+1 < len(prev) {
					next = prev[k+1]
				}
				cur[k] = prev[k] + 2*next
			}
		}
		table[r] = cur
	}
	return table
}

// AlphaBetaStar is Carmel & Markovitch's alpha-beta*: M* 1-pass that leaves a node once every level
// that does not move there agrees that the rest of the node cannot matter to it. Level k keeps a cutoff
// value alpha_k, the best value it already has at an ancestor where it moves; where its model (level k+1)
// moves, k's value of the node is at most B_k - V_{k+1} (B_k the upper end of V_k + V_{k+1} at the
// node's children), so once alpha_k reaches that for every such k the node is left. It returns the M*
// value whenever the leaf bounds hold (Theorem 4); with a zero-sum model and zero bounds it visits the
// leaves alpha-beta visits. It is a Searcher.
//
// The bounds are read at every node, not only at the root (a leaf below a node is below its parent too,
// so both readings hold and the search keeps the tighter), as ranges lo_k <= V_k + V_{k+1} <= hi_k
// (LeafRanges; a LeafBounds b is the range [-b, b]), widened going up as Lemma 1 allows but keeping the
// lower ends, which never move (see abStarRanges). In Carmel & Markovitch's checkers benchmark the
// player's level votes at the opponent's nodes only when its bound is tight there: with the paper's
// |f1 + f0| <= (2/25) Tot it almost never is, and the leaves per move are 3.3 times alpha-beta's; with
// the range the two functions give exactly (f1 + f0 = -(2/25) Tot at a static leaf, known one ply ahead)
// 2.3 times (TestSearchEffort).
//
// Three details make the cutoff exact where a literal reading of Figure 7 is not (random trees find
// counterexamples to Theorem 4 for it):
//   - Level k only searches from ply k on (the player at the root, its model from ply 1, the model's
//     model from ply 2...): its values above ply k are never used, so alpha_k is only raised at nodes at
//     ply >= k, and at a node at ply p only the levels k <= p-1 vote. A cutoff value taken from a node
//     where level k does not search let a level "agree" on a node it would in fact choose.
//   - Levels that are exactly zero-sum with the level two above them through the level between (B = 0 at
//     every depth, as in the minimax completion below the deepest model) have the same values at every
//     node: they are one player, and share that player's cutoff value and vote. Without this the
//     completion would keep alpha-beta's deep cutoffs from happening.
//   - Where the level that models k takes the minimal value among k's tied choices, a node whose value
//     for k may equal alpha_k can still change that minimum; it is left on equality only when alpha_k is
//     the parent's own current value and the node already guarantees the modelling level at least what
//     the parent holds for it.
type AlphaBetaStar struct {
	core   *modelCore
	bounds LeafBounds
	vec    [maxPly + 1][]float64
	alpha  [maxPly + 1][]float64
	flat   []float64
	aflat  []float64

	source LeafRanges   // the leaf bounds as ranges, read at every node
	ranges abStarRanges // the range of V_k + V_{k+1} below every node of the current line
	table  [][]float64  // the paper's ComputeBounds table at the root of the current search
	strict []bool       // per level: whether a tie at its choice can change the level above it
	rep    []int        // per level: the lowest level it equals at every node

	// firstMoves remembers, while Search deepens, the move each position's deepest searching mover chose
	// in the previous iteration, to search it first (nil in fixed-depth searches, which keep the game's
	// order).
	firstMoves *modelMoveTable
	remembered *modelMoveTable // the table Search uses, kept from one search to the next

	best, bestReply, reply games.Move
}

var _ engine.Searcher = (*AlphaBetaStar)(nil)

// NewAlphaBetaStar returns an alpha-beta* searcher for game with the given player model and leaf bounds
// (nil: no bounds, so only the zero-sum completion below the model prunes); game may be nil.
func NewAlphaBetaStar(game games.Game, model *PlayerModel, bounds LeafBounds, opts ModelOptions) (*AlphaBetaStar, error) {
	core, err := newPlayerModelCore(game, model, opts)
	if err != nil {
		return nil, err
	}
	return &AlphaBetaStar{core: core, bounds: bounds}, nil
}

// SearchAlphaBetaStar runs alpha-beta* on p to a fixed depth in the game's move order (see
// ModelOptions.Order).
func SearchAlphaBetaStar(p games.Position, depth int, model *PlayerModel, bounds LeafBounds, opts ModelOptions) (ModelResult, error) {
	s, err := NewAlphaBetaStar(nil, model, bounds, opts)
	return searchFixedDepth(s, err, p, depth)
}

// SearchDepth runs alpha-beta* on p to depth plies; p is left as it was.
func (s *AlphaBetaStar) SearchDepth(p games.Position, depth int) ModelResult {
	return s.core.searchDepth(p, depth, s.run)
}

// Search runs iterative-deepening alpha-beta* until ctl (not nil) stops it; at every node the move the
// previous iteration chose there is searched first, and Info.Predicted is the model's predicted reply.
func (s *AlphaBetaStar) Search(p games.Position, ctl *engine.Control, report func(engine.Info)) engine.Result {
	if s.remembered == nil {
		s.remembered = newModelMoveTable()
	}
	s.firstMoves = s.remembered
	defer func() { s.firstMoves = nil }()
	return s.core.search(p, ctl, report, s.run)
}

// NewGame forgets the moves remembered for ordering.
func (s *AlphaBetaStar) NewGame() {
	if s.remembered != nil {
		s.remembered.clear()
	}
}

// Leaves returns the static evaluations of the latest SearchDepth, or of every iteration of the latest
// Search.
func (s *AlphaBetaStar) Leaves() uint64 { return s.core.leaves }

// Bounds returns the paper's bound table for the root of the latest search (see ComputeBounds); the
// search itself uses the tighter ranges read at every node.
func (s *AlphaBetaStar) Bounds() [][]float64 { return s.table }

// run searches the prepared root to depth.
func (s *AlphaBetaStar) run(p games.Position, ctl *engine.Control, depth int) ModelResult {
	c := s.core
	c.begin(p, ctl, depth)
	s.flat = sizeModelVectors(&s.vec, s.flat, c.levels)
	s.aflat = sizeModelVectors(&s.alpha, s.aflat, c.levels)
	s.prepareBounds(p, depth)
	s.best, s.bestReply = games.NoMove, games.NoMove
	v := s.node(depth, 0)
	return c.result(s.best, s.bestReply, v[0], slices.Clone(v))
}

// prepareBounds sets up the ranges of the search (pairs of levels that both have an evaluation get the
// caller's bounds, pairs that reach into the zero-sum completion below the deepest model are exact),
// reads them at the root, and finds which levels are one player and which ties can matter.
func (s *AlphaBetaStar) prepareBounds(p games.Position, depth int) {
	c := s.core
	pairs := c.levels - 1
	given := max(min(c.real-1, pairs), 0)
	r := &s.ranges
	if s.source == nil && s.bounds != nil {
		s.source = s.bounds.Ranges()
	}
	r.size(pairs, given, s.source)
	r.enter(p, max(depth, 1), 0)
	lo, hi := r.leafLo[0], r.childHi[0]
	s.table = ComputeBounds(depth, r.leafHi[0])
	s.rep = slices.Grow(s.rep[:0], c.levels)[:c.levels]
	s.strict = slices.Grow(s.strict[:0], c.levels)[:c.levels]
	for k := range s.rep {
		s.rep[k] = k
		if k >= 2 && depth >= 1 && lo[k-2] == 0 && hi[k-2] == 0 && lo[k-1] == 0 && hi[k-1] == 0 {
			s.rep[k] = s.rep[k-2]
		}
		// A tie in level k's choice matters when level k-1 takes the minimal value among the tied
		// children, which it does unless V_{k-1} + V_k is the same at every child.
		s.strict[k] = k >= 1 && depth >= 1 && hi[k-1] > lo[k-1]
	}
}

// node returns the value vector of the current position at ply, searched depth plies deeper, or the
// vector so far when every level that does not move here agrees that the rest cannot matter.
func (s *AlphaBetaStar) node(depth, ply int) []float64 {
	c := s.core
	v := s.vec[ply]
	leaf, moves := c.vectorLeaf(depth, ply, v)
	if leaf || c.expand() {
		return v
	}
	initModelVector(v, ply)
	a := s.alpha[ply]
	if ply == 0 {
		for j := range a {
			a[j] = math.Inf(-1)
		}
	} else {
		copy(a, s.alpha[ply-1])
	}
	bound := s.ranges.enter(c.pos, depth, ply) // the upper ends of V_k + V_{k+1} at the children
	mover := ply & 1
	var key uint64
	if s.firstMoves != nil && ply > 0 {
		key = c.pos.Hash()
		s.firstMoves.promote(key, moves)
	}
	track := ply // the deepest level searching here, which moves here: its choice is remembered
	choice := games.NoMove
	for _, m := range moves {
		if ply == 0 {
			s.reply = games.NoMove
		}
		c.pos.Play(m)
		u := s.node(depth-1, ply+1)
		c.pos.Undo()
		if c.aborted {
			return v
		}
		if u[track] > v[track] || (track > 0 && u[track] == v[track] && u[track-1] < v[track-1]) {
			choice = m
		}
		if mergeModelChild(v, u, ply) {
			s.chose(ply, m)
		}
		for j := mover; j <= ply && j < len(v); j += 2 {
			if s.rep[j] == j {
				a[j] = max(a[j], v[j])
			}
		}
		if s.cutoff(v, a, bound, ply) {
			break
		}
	}
	if key != 0 {
		s.firstMoves.store(key, choice)
	}
	return v
}

// cutoff reports whether every level k that searches here (k < ply) and does not move (its model k+1
// does) already has alpha_k >= B_k - V_{k+1}: its value here cannot exceed what it has elsewhere.
func (s *AlphaBetaStar) cutoff(v, a, bound []float64, ply int) bool {
	voted := false
	for k := 1 - ply&1; k+1 <= ply && k+1 < len(v); k += 2 {
		if s.rep[k] != k {
			continue
		}
		limit := bound[k] - v[k+1] // level k's value here is at most this
		switch {
		case a[k] > limit:
		case a[k] < limit:
			return false
		case s.strict[k] && !s.tieHarmless(v, a, ply, k):
			return false
		}
		voted = true
	}
	return voted
}

// tieHarmless reports whether the node at ply may be left although its value for level k may tie with
// alpha_k: alpha_k must be the parent's own current value for k (not also an older ancestor's, where the
// tie could change what the path passes up), and the node's value for level k-1, which k-1's owner
// moves to raise here, must already be at least the parent's, so that the minimum over k's tied choices
// cannot fall.
func (s *AlphaBetaStar) tieHarmless(v, a []float64, ply, k int) bool {
	parent := s.vec[ply-1]
	inherited := math.Inf(-1)
	if ply >= 2 {
		inherited = s.alpha[ply-2][k]
	}
	return parent[k] == a[k] && inherited < a[k] && v[k-1] >= parent[k-1]
}

// chose records the player's move at the root (with the reply its child predicted) and the predicted
// reply one ply down.
func (s *AlphaBetaStar) chose(ply int, m games.Move) {
	switch ply {
	case 0:
		s.best, s.bestReply = m, s.reply
	case 1:
		s.reply = m
	}
}

// modelMoveTable maps position hashes to a move, always replacing: a small table for move ordering.
type modelMoveTable struct {
	keys  []uint64
	moves []games.Move
}

// modelMoveTableBits sets the table's size: 2^16 entries (1 MiB).
const modelMoveTableBits = 16

// newModelMoveTable returns an empty table.
func newModelMoveTable() *modelMoveTable {
	return &modelMoveTable{keys: make([]uint64, 1<<modelMoveTableBits), moves: make([]games.Move, 1<<modelMoveTableBits)}
}

// clear empties the table.
func (t *modelMoveTable) clear() {
	clear(t.keys)
	clear(t.moves)
}

// store remembers m for the position with hash key.
func (t *modelMoveTable) store(key uint64, m games.Move) {
	i := key & (1<<modelMoveTableBits - 1)
	t.keys[i], t.moves[i] = key, m
}

// promote moves the remembered move of the position with hash key, when it is among moves, to the front.
func (t *modelMoveTable) promote(key uint64, moves []games.Move) {
	i := key & (1<<modelMoveTableBits - 1)
	if t.keys[i] != key || t.moves[i] == games.NoMove {
		return
	}
	if j := slices.Index(moves, t.moves[i]); j > 0 {
		m := moves[j]
		copy(moves[1:j+1], moves[:j])
		moves[0] = m
	}
}
