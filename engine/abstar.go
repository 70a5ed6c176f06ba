// alpha-beta* (Carmel & Markovitch 1996, Figure 7): M* 1-pass with pruning under bounds on f_i + f_{i-1}.
package engine

import (
	"fmt"
	"math"
	"slices"

	"dossier/games"
)

// LeafBounds writes, for the root p of a search, how far each model level's function is from the
// zero-sum opposite of the level below it at any leaf of the search: dst[k] >= |f_k(leaf) + f_{k+1}(leaf)|
// for k = 0 .. len(dst)-1, with f_0 the player's function, f_1 its model of the opponent's and so on, each
// valued from its owner's point of view (the paper's b_n, b_{n-1}, ...; b_i bounds |f_i + f_{i-1}|).
// A value that is not a finite non-negative number means "no bound": that level never allows pruning.
// Carmel & Markovitch's checkers bound, |f_1 + f_0| <= (2/25) Tot, holds at every leaf below p because
// Tot never grows, so it is a LeafBounds that reads Tot at p.
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
func ComputeBounds(depth int, leaf []float64) [][]float64 {
	depth = max(depth, 0)
	table := make([][]float64, depth+1)
	table[0] = slices.Clone(leaf)
	for r := 1; r <= depth; r++ {
		prev := table[r-1]
		cur := slices.Clone(prev)
		ply := depth - r
		for k := range cur {
			if ownerToMove(k, ply) {
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

// AlphaBetaStar is Carmel & Markovitch's alpha-beta*: M* 1-pass that prunes a subtree when every level
// that does not move there agrees it cannot matter. Level k keeps a cutoff value alpha_k, the best value
// its owner already has at an ancestor where it moves; where level k+1's owner moves, k's value of the
// node is at most B_k - V_{k+1} (B_k bounding |V_k + V_{k+1}| below, from ComputeBounds), and once
// alpha_k reaches that for every such k the node is left. It returns the M* value whenever the leaf
// bounds hold (Theorem 4); with a zero-sum model and zero bounds it is alpha-beta. It is a Searcher.
type AlphaBetaStar struct {
	core   *modelCore
	bounds LeafBounds
	vec    [maxPly + 1][]float64
	alpha  [maxPly + 1][]float64
	flat   []float64
	aflat  []float64

	table  [][]float64 // ComputeBounds of the current search
	strict []bool      // per level: whether a tie at its choice changes the level above (prune only on >)
	leafB  []float64

	rep            []int // per level: the lowest level it equals everywhere (an exactly zero-sum chain between)
	relevantChecks bool  // only the levels that matter at a node's ply vote on its cutoff
	relevantAlpha  bool  // alpha_k only from ancestors at ply >= k
	paperAlpha     bool  // alpha_k = V_k at the ancestor, compared with the bound at the cut node's children
	noAlias        bool
	trace          func(ply int, msg string)

	best, bestReply, reply games.Move
}

var _ Searcher = (*AlphaBetaStar)(nil)

// NewAlphaBetaStar returns an alpha-beta* searcher for game with the given player model and leaf bounds
// (nil: no bounds, so only the zero-sum completion below the model prunes); game may be nil.
func NewAlphaBetaStar(game games.Game, model *PlayerModel, bounds LeafBounds, opts ModelOptions) (*AlphaBetaStar, error) {
	chain, err := chainOf(model)
	if err != nil {
		return nil, err
	}
	core, err := newModelCore(game, chain, opts)
	if err != nil {
		return nil, err
	}
	return &AlphaBetaStar{core: core, bounds: bounds, relevantChecks: true, relevantAlpha: true, paperAlpha: true}, nil
}

// SearchAlphaBetaStar runs alpha-beta* on p to a fixed depth in the game's move order (see
// ModelOptions.Order).
func SearchAlphaBetaStar(p games.Position, depth int, model *PlayerModel, bounds LeafBounds, opts ModelOptions) (ModelResult, error) {
	s, err := NewAlphaBetaStar(nil, model, bounds, opts)
	if err != nil {
		return ModelResult{}, err
	}
	return s.SearchDepth(p, depth), nil
}

// SearchDepth runs alpha-beta* on p to depth plies; p is left as it was.
func (s *AlphaBetaStar) SearchDepth(p games.Position, depth int) ModelResult {
	s.core.prepareRoot(p, nil, games.NoMove)
	return s.run(p, nil, depth)
}

// Search runs iterative-deepening alpha-beta* until ctl (not nil) stops it; the previous iteration's
// best move is searched first, and Info.Predicted is the model's predicted reply.
func (s *AlphaBetaStar) Search(p games.Position, ctl *Control, report func(Info)) Result {
	return s.core.iterate(p, ctl, report, s.run)
}

// NewGame does nothing: alpha-beta* keeps nothing from one search to the next.
func (s *AlphaBetaStar) NewGame() {}

// Leaves returns the static evaluations of the latest search (or of its latest iteration).
func (s *AlphaBetaStar) Leaves() uint64 { return s.core.leaves }

// Bounds returns the bound table of the latest search (see ComputeBounds).
func (s *AlphaBetaStar) Bounds() [][]float64 { return s.table }

// run searches the prepared root to depth.
func (s *AlphaBetaStar) run(p games.Position, ctl *Control, depth int) ModelResult {
	depth = max(depth, 0)
	c := s.core
	c.begin(p, ctl, depth)
	s.flat = sizeVectors(&s.vec, s.flat, c.levels)
	s.aflat = sizeVectors(&s.alpha, s.aflat, c.levels)
	s.prepareBounds(p, depth)
	s.best, s.bestReply = games.NoMove, games.NoMove
	v := s.node(depth, 0)
	return ModelResult{Move: s.best, Predicted: s.bestReply, Value: v[0], Vector: slices.Clone(v),
		Nodes: c.nodes, Leaves: c.leaves, Aborted: c.aborted}
}

// prepareBounds reads the leaf bounds at the root and builds the table of the search: pairs of levels
// that both have an evaluation get the caller's bounds, pairs that reach into the zero-sum completion
// below the deepest model are exact (0).
func (s *AlphaBetaStar) prepareBounds(p games.Position, depth int) {
	c := s.core
	pairs := c.levels - 1
	s.leafB = slices.Grow(s.leafB[:0], pairs)[:pairs]
	given := min(c.real-1, pairs)
	for k := range s.leafB {
		s.leafB[k] = math.Inf(1)
		if k >= given {
			s.leafB[k] = 0
		}
	}
	if s.bounds != nil && given > 0 {
		s.bounds(p, s.leafB[:given])
	}
	for k := range given {
		if b := s.leafB[k]; math.IsNaN(b) || b < 0 {
			s.leafB[k] = math.Inf(1)
		}
	}
	s.table = ComputeBounds(depth, s.leafB)
	s.strict = slices.Grow(s.strict[:0], c.levels)[:c.levels]
	s.rep = slices.Grow(s.rep[:0], c.levels)[:c.levels]
	for k := range s.rep {
		s.rep[k] = k
		if k >= 2 && !s.noAlias && depth >= 1 && s.table[depth-1][k-2] == 0 && s.table[depth-1][k-1] == 0 {
			s.rep[k] = s.rep[k-2]
		}
	}
	for k := range s.strict {
		// A tie in level k's choice matters when level k-1 takes the minimal value among the tied
		// children, which it does unless k-1 and k are exactly zero-sum everywhere in the tree.
		s.strict[k] = k >= 1 && depth >= 1 && s.table[depth-1][k-1] > 0
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
	initVector(v, ply)
	a := s.alpha[ply]
	if ply == 0 {
		for j := range a {
			a[j] = math.Inf(-1)
		}
	} else {
		copy(a, s.alpha[ply-1])
	}
	bound := s.table[depth-1] // the children's bounds
	mover := ply & 1
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
		if mergeChild(v, u, ply) {
			s.chose(ply, m)
		}
		for j := mover; j < len(v); j += 2 {
			if s.relevantAlpha && j > ply {
				break
			}
			if s.rep[j] != j {
				continue
			}
			if s.paperAlpha {
				a[j] = max(a[j], v[j])
			} else if j < len(bound) {
				a[j] = max(a[j], v[j]-bound[j])
			}
		}
		if s.trace != nil {
			s.trace(ply, fmt.Sprintf("after child %v: u=%v v=%v a=%v", m, u, v, a))
		}
		if s.cutoff(v, a, bound, ply) {
			if s.trace != nil {
				s.trace(ply, "CUT")
			}
			return v
		}
	}
	return v
}

// cutoff reports whether every level k whose owner is not to move at ply (with a model level k+1 in the
// vector) already has alpha_k >= B_k - V_{k+1}: its value here cannot exceed what it has elsewhere.
func (s *AlphaBetaStar) cutoff(v, a, bound []float64, ply int) bool {
	last := len(v) - 1
	if s.relevantChecks {
		last = min(last, ply)
	}
	voted := false
	for k := 1 - ply&1; k+1 <= last; k += 2 {
		if s.rep[k] != k {
			continue
		}
		limit := -v[k+1]
		if s.paperAlpha {
			limit += bound[k]
		}
		if s.strict[k] {
			if !(a[k] > limit) {
				return false
			}
		} else if !(a[k] >= limit) {
			return false
		}
		voted = true
	}
	return voted
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
