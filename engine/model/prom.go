// PrOM search (probabilistic opponent-model search with alpha-beta probing and beta-pruning).

package model

import (
	"dossier/engine"
	"fmt"
	"math"
	"slices"

	"dossier/games"
)

// PrOM search (Donkers; van den Herik, Donkers & Spronck 2005, Figure 2) models the opponent as a mixed
// strategy over opponent types w_0 ... w_{n-1}, each a minimax player with its own evaluation searching to
// our horizon: at every one of its moves the opponent is taken to act as type w_i with probability P(w_i).
// At MAX nodes the search maximises; at a MIN node it probes every type for the move that type plays
// (alpha-beta with the type's evaluation and the type's own transposition table) and takes the expected
// value of our own evaluation over those moves. Beta-pruning works per type as in OM search: a type's
// probe at a grandchild that its own move leads to starts from that type's value two plies higher.
//
// By convention w_0 is our own evaluation as the opponent sees it under minimax (ZeroSumOpponent of ours;
// over difference features our own weights); with P(w_0) = 1 PrOM search is minimax. Every evaluation is
// valued for its owner, as the M* family does (see omValueCache).

// OpponentType is one opponent type of PrOM search: a minimax player with its own evaluation.
type OpponentType struct {
	// Name identifies the type in logs and presets ("materialist").
	Name string
	// Eval is the type's evaluation, valued from the opponent's point of view (OMOptions.Mirror reads
	// the features from the side not to move); over difference features, its value for the side to move.
	Eval engine.Evaluation
}

// PromModel is PrOM search's model of the opponent: types and their probabilities.
type PromModel struct {
	// Types are the opponent types; by convention Types[0] is minimax's model of the opponent,
	// ZeroSumOpponent(own, mirror), which over difference features has our own weights.
	Types []OpponentType
	// TypeProbabilities holds P(w_i) for each type: non-negative, summing to 1 (within 1e-9).
	TypeProbabilities []float64
}

// Check reports an error if the model does not fit game or its probabilities are not a distribution.
func (m PromModel) Check(game games.Game) error {
	if len(m.Types) == 0 {
		return fmt.Errorf("PrOM model: no opponent types")
	}
	if len(m.TypeProbabilities) != len(m.Types) {
		return fmt.Errorf("PrOM model: %d opponent types but %d probabilities", len(m.Types), len(m.TypeProbabilities))
	}
	sum := 0.0
	for i, t := range m.Types {
		if err := t.Eval.Check(game); err != nil {
			return fmt.Errorf("PrOM model, type %d (%s): %w", i, t.Name, err)
		}
		p := m.TypeProbabilities[i]
		if math.IsNaN(p) || p < 0 || p > 1 {
			return fmt.Errorf("PrOM model: probability of type %d (%s) is %v, want a number in [0, 1]", i, t.Name, p)
		}
		sum += p
	}
	if math.Abs(sum-1) > 1e-9 {
		return fmt.Errorf("PrOM model: the type probabilities sum to %v, want 1", sum)
	}
	return nil
}

// PromSearch is PrOM search with alpha-beta probing and beta-pruning (PromSearchBPb).
type PromSearch struct {
	promCore
}

var _ engine.Searcher = (*PromSearch)(nil)

// promCore is the PrOM machinery, which OM search shares (a single type of probability 1).
type promCore struct {
	omBase
	model  PromModel
	opts   OMOptions
	typeAB []*omProbe // each type's probe (a type that is minimax's model shares ours)
	// probeDepths holds how many plies each type searches from its moves, 0 (or a nil slice) meaning to
	// our horizon: PrOM's assumption, under which beta-pruning holds. OM's model may search less.
	probeDepths []int
	// table holds the PrOM values of the positions already searched in the current fixed-depth search.
	table promTable
	// effort counts the work of the latest SearchDepth or Search.
	effort PromEffort

	// Per-ply scratch: the types' values and moves at a MIN node, the bounds handed to a child, and the
	// distinct moves the types chose.
	typeValue  [][]float64
	typeMove   [][]games.Move
	childBound [][]float64
	distinct   [][]games.Move
}

// PromEffort is where the work of a PrOM (or OM) search went: in the latest SearchDepth, or in every
// iteration of the latest Search.
type PromEffort struct {
	// Nodes counts every node: the model search's own and every probe's.
	Nodes uint64
	// ModelNodes counts the model search's own nodes (leaves included); MaxNodes and MinNodes its
	// expanded nodes of each side, the root among MaxNodes; TableHits the nodes whose value PrOM's table
	// held.
	ModelNodes, MaxNodes, MinNodes, TableHits uint64
	// MinimalLeaves estimates the least work of any exact PrOM search of the same tree: for each MIN node
	// with b replies whose types search r plies, the leaves of the minimal alpha-beta tree that proves a
	// choice, b^ceil(r/2) + b^floor(r/2) - 1 (Knuth and Moore, the tree taken as uniform), counted once
	// for all the types. No expected value bounds a MIN node before its types have chosen, so every MIN
	// child of a MAX node needs its types' choices.
	MinimalLeaves uint64
	// Probes and ProbeNodes count each type's probes at MIN nodes and the nodes they searched (a probe
	// read from the type's table counts with no nodes).
	Probes, ProbeNodes []uint64
	// LeafNodes counts the nodes of our own evaluation's searches: leaf values (quiescence), the root
	// player's moves one ply above the horizon, and the similarity tests.
	LeafNodes uint64
	// Extractions counts the feature extractions, each serving every evaluation.
	Extractions uint64
}

// Effort returns where the work of the latest SearchDepth or Search went.
func (s *promCore) Effort() PromEffort {
	e := s.effort
	e.Probes, e.ProbeNodes = slices.Clone(e.Probes), slices.Clone(e.ProbeNodes)
	return e
}

// resetEffort starts the count of a SearchDepth or Search.
func (s *promCore) resetEffort() {
	probes, nodes := s.effort.Probes, s.effort.ProbeNodes
	if len(probes) != len(s.typeAB) {
		probes, nodes = make([]uint64, len(s.typeAB)), make([]uint64, len(s.typeAB))
	}
	clear(probes)
	clear(nodes)
	s.effort = PromEffort{Probes: probes, ProbeNodes: nodes}
}

// searchFixed is SearchDepth for PrOM and OM.
func (s *promCore) searchFixed(p games.Position, depth int) ModelResult {
	s.resetEffort()
	return s.fixedDepth(p, depth, s.searchRoot)
}

// searchIterative is Search for PrOM and OM.
func (s *promCore) searchIterative(p games.Position, ctl *engine.Control, report func(engine.Info)) engine.Result {
	s.resetEffort()
	return s.iterate(p, ctl, report, s.searchRoot)
}

// NewPromSearch returns a PrOM search for game with our evaluation own and the opponent model; each type
// gets its own probe and transposition table, except that a type equal to minimax's model
// (ZeroSumOpponent of own) shares ours. Types without probability are not probed (they cannot change an
// expected value) until SetTypeProbabilities gives them some.
func NewPromSearch(game games.Game, own engine.Evaluation, model PromModel, opts OMOptions) (*PromSearch, error) {
	s := &PromSearch{}
	if err := s.init(game, own, model, opts); err != nil {
		return nil, err
	}
	return s, nil
}

// init checks the evaluations, the model and the options against game and builds the probes.
func (s *promCore) init(game games.Game, own engine.Evaluation, model PromModel, opts OMOptions) error {
	if err := own.Check(game); err != nil {
		return err
	}
	if err := model.Check(game); err != nil {
		return err
	}
	if err := checkSimilarity(opts); err != nil {
		return err
	}
	if err := opts.Mirror.Check(len(game.FeatureNames())); err != nil {
		return err
	}
	s.opts = opts
	var evals []engine.Evaluation
	for _, t := range model.Types {
		evals = append(evals, t.Eval)
	}
	s.typeAB = s.setup(game, opts.Probe, opts.Mirror, own, evals)[1:]
	s.similarity = opts.SimilarityPruning
	s.model = PromModel{Types: slices.Clone(model.Types)}
	s.setProbabilities(model.TypeProbabilities)
	s.resetEffort()
	return nil
}

// Model returns the opponent model the search uses, with the current type probabilities.
func (s *PromSearch) Model() PromModel {
	return PromModel{Types: slices.Clone(s.model.Types), TypeProbabilities: slices.Clone(s.model.TypeProbabilities)}
}

// SetTypeProbabilities replaces P(w_i), for a model learnt during a game; the tables are kept. The
// probabilities must fit the types as PromModel.Check says.
func (s *PromSearch) SetTypeProbabilities(probabilities []float64) error {
	if err := (PromModel{Types: s.model.Types, TypeProbabilities: probabilities}).Check(s.game); err != nil {
		return err
	}
	s.setProbabilities(probabilities)
	return nil
}

func (s *promCore) setProbabilities(probabilities []float64) {
	s.model.TypeProbabilities = slices.Clone(probabilities)
	s.gainPerLevel = 0
	for k, pr := range s.typeAB {
		if pr != s.own {
			s.gainPerLevel += 2 * probabilities[k] * s.opts.SimilarityBound
		}
	}
}

// NewGame clears every probe's table.
func (s *PromSearch) NewGame() { s.newGame() }

// SearchDepth runs PrOM search on p to depth plies without limits and returns the value, the move and
// the most probable reply; p is left as it was.
func (s *PromSearch) SearchDepth(p games.Position, depth int) ModelResult {
	return s.searchFixed(p, depth)
}

// Search runs iterative deepening PrOM search under ctl (see Searcher).
func (s *PromSearch) Search(p games.Position, ctl *engine.Control, report func(engine.Info)) engine.Result {
	return s.searchIterative(p, ctl, report)
}

// scratch makes sure the per-ply buffers reach ply.
func (s *promCore) scratch(ply int) {
	n := len(s.typeAB)
	for len(s.typeValue) <= ply {
		s.typeValue = append(s.typeValue, make([]float64, n))
		s.typeMove = append(s.typeMove, make([]games.Move, n))
		s.childBound = append(s.childBound, make([]float64, n))
		s.distinct = append(s.distinct, make([]games.Move, 0, n))
	}
}

// searchRoot is the fixed-depth search of p (the root moves prepared as omBase says).
func (s *promCore) searchRoot(p games.Position, ctl *engine.Control, depth int) ModelResult {
	s.scratch(depth + 1)
	s.table.newSearch()
	probeNodes := slices.Clone(s.effort.ProbeNodes)
	r := s.searchFrom(p, ctl, depth, func(p games.Position, moves []games.Move) ModelResult {
		s.effort.MaxNodes++
		none := s.childBound[0]
		for i := range none {
			none[i] = math.Inf(-1)
		}
		return s.result(s.maxNode(p, moves, depth, 0, none))
	})
	e := &s.effort
	e.Nodes += r.Nodes
	e.ModelNodes += s.nodes
	e.Extractions += r.Leaves
	e.LeafNodes += r.Nodes - s.nodes
	for k, n := range e.ProbeNodes {
		e.LeafNodes -= n - probeNodes[k]
	}
	return r
}

// maxNode searches a node of the root player with its legal moves: the best child's move, the reply
// predicted there and the value. When stopped it returns the best of the children searched.
func (s *promCore) maxNode(p games.Position, moves []games.Move, depth, ply int, bounds []float64) (move, reply games.Move, best float64) {
	best = math.Inf(-1)
	s.orderMoves(p, moves, ply)
	for _, m := range moves {
		p.Play(m)
		if s.cannotBeat(p, depth-1, ply+1, best) {
			p.Undo()
			continue
		}
		v, r := s.value(p, depth-1, ply+1, bounds)
		p.Undo()
		if s.aborted {
			break
		}
		if v > best {
			best, move, reply = v, m, r
		}
	}
	return move, reply, best
}

// probeDepth is how far type k's probe searches at a MIN node with depth plies left.
func (s *promCore) probeDepth(k, depth int) int {
	if k < len(s.probeDepths) && s.probeDepths[k] > 0 {
		return min(s.probeDepths[k], depth)
	}
	return depth
}

// value is the PrOM value of p for the root player, with the most probable reply when p is a MIN node.
// bounds[k] is a lower bound on active type k's probe value at the MIN nodes among this MAX node's
// children (-inf for none); the slice is only read.
func (s *promCore) value(p games.Position, depth, ply int, bounds []float64) (float64, games.Move) {
	if s.visit() {
		return 0, games.NoMove
	}
	key := p.Hash()
	if v, reply, ok := s.table.lookup(key, depth); ok {
		s.effort.TableHits++
		return v, reply
	}
	v, reply := s.searchValue(p, depth, ply, bounds)
	if !s.aborted {
		s.table.store(key, depth, v, reply)
	}
	return v, reply
}

// searchValue is value for a position not in the table.
func (s *promCore) searchValue(p games.Position, depth, ply int, bounds []float64) (float64, games.Move) {
	v, moves, done := s.frontier(p, depth, ply)
	if done {
		return v, games.NoMove
	}
	if p.ToMove() == s.rootSide {
		if depth == 1 {
			return s.maxOverLeaves(p, ply), games.NoMove
		}
		s.effort.MaxNodes++
		_, _, best := s.maxNode(p, moves, depth, ply, bounds)
		return best, games.NoMove
	}

	// MIN node: every type's move, then the expected value over the distinct moves.
	s.effort.MinNodes++
	s.effort.MinimalLeaves += MinimalTreeLeaves(len(moves), s.probeDepth(0, depth))
	prob := s.model.TypeProbabilities
	values, chosen := s.typeValue[ply], s.typeMove[ply]
	distinct := s.distinct[ply][:0]
	for k, pr := range s.typeAB {
		chosen[k] = games.NoMove
		if prob[k] == 0 {
			continue
		}
		if j := s.sameProbe(k, depth, bounds); j >= 0 { // a type with the same weights: the same probe
			values[k], chosen[k] = values[j], chosen[j]
			continue
		}
		alpha := math.Inf(-1)
		if s.opts.BetaPruning {
			alpha = math.Nextafter(bounds[k], math.Inf(-1))
		}
		hint := games.NoMove
		if len(distinct) > 0 {
			hint = distinct[0]
		}
		before := pr.ab.Nodes()
		u, m, again := pr.bestMove(p, s.probeDepth(k, depth), alpha, hint)
		s.effort.Probes[k]++
		s.effort.ProbeNodes[k] += pr.ab.Nodes() - before
		if again {
			s.reprobes++
		}
		if s.stoppedBy() || m == games.NoMove {
			s.aborted = true
			return 0, games.NoMove
		}
		values[k], chosen[k] = u, m
		if !slices.Contains(distinct, m) {
			distinct = append(distinct, m)
		}
	}
	s.distinct[ply] = distinct
	childBound := s.childBound[ply]
	expected := 0.0
	likeliest, likeliestP := games.NoMove, -1.0
	for _, m := range distinct {
		total := 0.0
		known := false // whether a type with our own weights chose m one ply above the horizon
		var v float64
		for k, pr := range s.typeAB {
			childBound[k] = math.Inf(-1)
			if chosen[k] != m {
				continue
			}
			total += prob[k]
			if s.probeDepth(k, depth) == depth { // the grandchildren's probes search to the same horizon
				childBound[k] = omGrandchildBound(values[k])
				if depth == 1 && pr == s.own {
					// That type is minimax's model: its probe value is our value of the leaf it chose.
					known, v = true, s.toRoot(p, values[k], ply)
				}
			}
		}
		if !known {
			p.Play(m)
			v, _ = s.value(p, depth-1, ply+1, childBound)
			p.Undo()
			if s.aborted {
				return 0, games.NoMove
			}
		}
		expected += total * v
		if total > likeliestP {
			likeliest, likeliestP = m, total
		}
	}
	return expected, likeliest
}

// sameProbe returns an earlier type with a probability, the same probe, probe depth and bound as type k,
// whose probe result type k can take over; -1 if there is none.
func (s *promCore) sameProbe(k, depth int, bounds []float64) int {
	for j := range k {
		if s.typeAB[j] == s.typeAB[k] && s.model.TypeProbabilities[j] > 0 && bounds[j] == bounds[k] &&
			s.probeDepth(j, depth) == s.probeDepth(k, depth) {
			return j
		}
	}
	return -1
}

// promTableEntries is the size of PrOM's table of node values (about 1.5 MiB).
const promTableEntries = 1 << 16

// promTable is a direct-mapped table of PrOM values of positions, keyed by the position's hash and the
// plies left. A PrOM value is a function of the position and the plies left, the root being fixed: the
// probes and our leaf values look at the same subtree (up to repetitions of positions on the path, as
// any transposition table). Entries live for one fixed-depth search, so that the values, whose mates are
// counted from the root, keep one root and one ply per depth.
type promTable struct {
	keys    []uint64
	gens    []uint32 // the search that wrote each entry
	depths  []int32
	values  []float64
	replies []games.Move
	gen     uint32
}

// newSearch empties the table (allocating it the first time).
func (t *promTable) newSearch() {
	if t.keys == nil {
		t.keys = make([]uint64, promTableEntries)
		t.gens = make([]uint32, promTableEntries)
		t.depths = make([]int32, promTableEntries)
		t.values = make([]float64, promTableEntries)
		t.replies = make([]games.Move, promTableEntries)
	}
	t.gen++
	if t.gen == 0 {
		clear(t.gens)
		t.gen = 1
	}
}

// lookup returns the stored value and reply of the position with the given hash and plies left.
func (t *promTable) lookup(key uint64, depth int) (float64, games.Move, bool) {
	if t.keys == nil {
		return 0, games.NoMove, false
	}
	i := key & (promTableEntries - 1)
	if t.gens[i] != t.gen || t.keys[i] != key || t.depths[i] != int32(depth) {
		return 0, games.NoMove, false
	}
	return t.values[i], t.replies[i], true
}

// store records a position's value and reply, replacing what its slot held.
func (t *promTable) store(key uint64, depth int, value float64, reply games.Move) {
	if t.keys == nil {
		return
	}
	i := key & (promTableEntries - 1)
	t.keys[i], t.gens[i], t.depths[i], t.values[i], t.replies[i] = key, t.gen, int32(depth), value, reply
}

// MinimalTreeLeaves is the number of leaves of the minimal tree that proves the value of a uniform tree
// with b moves per node to depth plies, b^ceil(depth/2) + b^floor(depth/2) - 1 (Knuth and Moore): the
// least any alpha-beta search of it visits.
func MinimalTreeLeaves(b, depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	power := func(n int) uint64 {
		x := uint64(1)
		for range n {
			x *= uint64(b)
		}
		return x
	}
	return power((depth+1)/2) + power(depth/2) - 1
}
