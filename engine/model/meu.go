// MEU search (Sen & Arora's maximum expected utility play) and its two models of the opponent's replies.

package model

import (
	"dossier/engine"
	"errors"
	"fmt"
	"math"
	"slices"

	"dossier/games"
)

// Sen & Arora (1997) value each of our moves by the expected value of the opponent's replies under a
// conditional model p(reply | our move) of that opponent, instead of by the worst reply (maximin). Their
// Figure 1: the numbers in ovals are minimax values (what the model sees to rank the replies and measure
// their discrepancy), the numbers in squares expected values (what MEU maximises). Minimax is the special
// case of a model that puts all probability on the optimal replies.
//
// MEU here applies the expectation at the first ExpectedLevels levels of opponent moves (Sen & Arora's
// use is one level: the replies to our move, each worth its minimax value); below them, and at every level
// when ExpectedLevels is 0, values are minimax values from our own alpha-beta probe. Levels with the
// expectation are searched in full: an expectation has no cut-offs.

// MoveProbabilities is a model of the opponent's move choice: the conditional probability of each reply.
type MoveProbabilities interface {
	// Probabilities fills probs[j] with the probability that the side to move in p plays replies[j].
	// values[j] is the minimax value for the searching player (the opponent's adversary) of the position
	// after replies[j], so the opponent's optimal replies are those of lowest value. The probabilities
	// are non-negative and sum to 1. p must be left as it was.
	Probabilities(p games.Position, replies []games.Move, values []float64, probs []float64)
}

// ReplyRanks writes the rank of each reply for the opponent into ranks: 1 for the replies of lowest value
// (the opponent's best), and tied values share the rank of the first of them (1, 1, 3, ...).
func ReplyRanks(values []float64, ranks []int) {
	for j, v := range values {
		r := 1
		for _, w := range values {
			if w < v {
				r++
			}
		}
		ranks[j] = r
	}
}

// RankModel is Reibman & Ballard's model of a fallible opponent: the reply of rank r is played with
// probability proportional to (1 - Ps)^(r-1) * Ps (van den Herik, Donkers & Spronck 2005, eq. 1).
type RankModel struct {
	// Ps in (0, 1] is the opponent's likeliness not to deviate from its best reply; 1 is minimax.
	Ps float64
}

// NewRankModel returns the rank model with the given Ps, or an error when Ps is outside (0, 1].
func NewRankModel(ps float64) (RankModel, error) {
	if !(ps > 0 && ps <= 1) {
		return RankModel{}, fmt.Errorf("rank model: Ps = %v, want a number in (0, 1]", ps)
	}
	return RankModel{Ps: ps}, nil
}

// Probabilities implements MoveProbabilities.
func (m RankModel) Probabilities(_ games.Position, _ []games.Move, values []float64, probs []float64) {
	var ranks [games.MaxMoves]int
	ReplyRanks(values, ranks[:len(values)])
	sum := 0.0
	for j := range values {
		probs[j] = math.Pow(1-m.Ps, float64(ranks[j]-1)) * m.Ps
		sum += probs[j]
	}
	for j := range probs[:len(values)] {
		probs[j] /= sum
	}
}

// DiscrepancyModel is Sen & Arora's learned model: counts of the opponent's moves by discrepancy range,
// per band of move numbers. A reply's discrepancy is how much worse it is for the opponent than its best
// reply, its value minus the lowest reply value (so 0 for an optimal reply). Range 0 holds discrepancy 0;
// range r (1 <= r <= len(Edges)) holds discrepancies in (Edges[r-2], Edges[r-1]] (with Edges[-1] = 0); the
// last range, len(Edges)+1, holds those above the last edge.
//
// The counts say how often the opponent was seen to pick a move of each range. In a position, the model
// takes the opponent to pick a range among those its replies fall in, with probability proportional to
// the range's count, and then one of that range's replies uniformly. Without counts for the position's
// band it uses the counts of all bands together, and without any counts it is minimax's model (all
// probability on the optimal replies), the prior Sen & Arora start from.
type DiscrepancyModel struct {
	edges     []float64
	bandPlies int
	counts    [][]float64 // [band][range]
	pooled    []float64
}

// NewDiscrepancyModel returns an empty model with the given range edges (positive and increasing) and
// bands of bandPlies plies of the game (0 for a single band over the whole game).
func NewDiscrepancyModel(edges []float64, bandPlies int) (*DiscrepancyModel, error) {
	for i, e := range edges {
		if math.IsNaN(e) || math.IsInf(e, 0) || e <= 0 || (i > 0 && e <= edges[i-1]) {
			return nil, fmt.Errorf("discrepancy model: edge %d is %v, want finite positive edges in increasing order", i, e)
		}
	}
	if bandPlies < 0 {
		return nil, fmt.Errorf("discrepancy model: band of %d plies is negative", bandPlies)
	}
	return &DiscrepancyModel{edges: slices.Clone(edges), bandPlies: bandPlies, pooled: make([]float64, len(edges)+2)}, nil
}

// Ranges returns the number of discrepancy ranges, len(edges) + 2.
func (d *DiscrepancyModel) Ranges() int { return len(d.edges) + 2 }

// Range returns the range of a discrepancy (negative discrepancies count as 0).
func (d *DiscrepancyModel) Range(discrepancy float64) int {
	if discrepancy <= 0 {
		return 0
	}
	for i, e := range d.edges {
		if discrepancy <= e {
			return i + 1
		}
	}
	return len(d.edges) + 1
}

// Band returns the band of the moves made at the given ply of the game.
func (d *DiscrepancyModel) Band(ply int) int {
	if d.bandPlies == 0 || ply < 0 {
		return 0
	}
	return ply / d.bandPlies
}

// Add counts weight observations of the opponent picking, at ply, a move of the given discrepancy.
func (d *DiscrepancyModel) Add(ply int, discrepancy, weight float64) error {
	if math.IsNaN(weight) || math.IsInf(weight, 0) || weight < 0 {
		return fmt.Errorf("discrepancy model: weight %v, want a finite non-negative number", weight)
	}
	if math.IsNaN(discrepancy) {
		return errors.New("discrepancy model: discrepancy is NaN")
	}
	b, r := d.Band(ply), d.Range(discrepancy)
	d.grow(b)
	d.counts[b][r] += weight
	d.pooled[r] += weight
	return nil
}

// SetCounts replaces the counts of a band, one per range (for a model read from data).
func (d *DiscrepancyModel) SetCounts(band int, counts []float64) error {
	if band < 0 {
		return fmt.Errorf("discrepancy model: band %d is negative", band)
	}
	if len(counts) != d.Ranges() {
		return fmt.Errorf("discrepancy model: %d counts for band %d, want one per range (%d)", len(counts), band, d.Ranges())
	}
	for r, c := range counts {
		if math.IsNaN(c) || math.IsInf(c, 0) || c < 0 {
			return fmt.Errorf("discrepancy model: count %d of band %d is %v, want a finite non-negative number", r, band, c)
		}
	}
	d.grow(band)
	for r, c := range counts {
		d.pooled[r] += c - d.counts[band][r]
		d.counts[band][r] = c
	}
	return nil
}

// Counts returns a copy of the counts of a band (zeros for a band without data).
func (d *DiscrepancyModel) Counts(band int) []float64 {
	if band < 0 || band >= len(d.counts) {
		return make([]float64, d.Ranges())
	}
	return slices.Clone(d.counts[band])
}

func (d *DiscrepancyModel) grow(band int) {
	for len(d.counts) <= band {
		d.counts = append(d.counts, make([]float64, d.Ranges()))
	}
}

// Probabilities implements MoveProbabilities.
func (d *DiscrepancyModel) Probabilities(p games.Position, _ []games.Move, values []float64, probs []float64) {
	counts := d.pooled
	if b := d.Band(p.Ply()); b < len(d.counts) && meuSum(d.counts[b]) > 0 {
		counts = d.counts[b]
	}
	best := slices.Min(values)
	var ranges [games.MaxMoves]int
	var perRangeBuf [32]int
	perRange := perRangeBuf[:0]
	if d.Ranges() <= len(perRangeBuf) {
		perRange = perRangeBuf[:d.Ranges()]
	} else {
		perRange = make([]int, d.Ranges())
	}
	for j, v := range values {
		ranges[j] = d.Range(v - best)
		perRange[ranges[j]]++
	}
	available := 0.0
	for r, n := range perRange {
		if n > 0 {
			available += counts[r]
		}
	}
	for j := range values {
		r := ranges[j]
		switch {
		case available > 0:
			probs[j] = counts[r] / available / float64(perRange[r])
		case r == 0:
			probs[j] = 1 / float64(perRange[0])
		default:
			probs[j] = 0
		}
	}
}

func meuSum(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s
}

// MEUOptions configure an MEU search.
type MEUOptions struct {
	// Probe configures our own alpha-beta probe, which gives the minimax values.
	Probe engine.AlphaBetaOptions
	// Mirror says how the game's features read from the side not to move (zero: all differences), so
	// that our evaluation is valued for us whoever is to move (see the sign conventions in model.go).
	Mirror Mirror
	// ExpectedLevels is how many levels of opponent moves, from the root down, take the expectation;
	// 0 means all of them. Sen & Arora's player is 1.
	ExpectedLevels int
}

// DefaultMEUOptions returns Sen & Arora's MEU: the expectation over the replies to our move, the
// alpha-beta defaults for the probe.
func DefaultMEUOptions(g games.Game) MEUOptions {
	return MEUOptions{Probe: engine.DefaultAlphaBetaOptions(g), ExpectedLevels: 1}
}

// MEU is the maximum-expected-utility search: it maximises at our moves and takes the expectation over
// the opponent's replies under a MoveProbabilities model.
type MEU struct {
	omBase
	model MoveProbabilities
	opts  MEUOptions

	values [][]float64 // per ply: the replies' minimax values
	utils  [][]float64 // per ply: the replies' expected values
	probs  [][]float64 // per ply: the replies' probabilities
}

var _ engine.Searcher = (*MEU)(nil)

// NewMEU returns an MEU search for game with our evaluation own and the opponent's reply model.
func NewMEU(game games.Game, own engine.Evaluation, model MoveProbabilities, opts MEUOptions) (*MEU, error) {
	if err := own.Check(game); err != nil {
		return nil, err
	}
	if model == nil {
		return nil, errors.New("MEU: no model of the opponent's replies")
	}
	if opts.ExpectedLevels < 0 {
		return nil, fmt.Errorf("MEU: %d expected levels is negative", opts.ExpectedLevels)
	}
	if err := opts.Mirror.Check(len(game.FeatureNames())); err != nil {
		return nil, err
	}
	s := &MEU{model: model, opts: opts}
	s.setup(game, opts.Probe, opts.Mirror, own, nil)
	return s, nil
}

// NewGame clears the probe's table.
func (s *MEU) NewGame() { s.newGame() }

// SearchDepth runs MEU on p to depth plies without limits and returns the expected value, the move and
// the most probable reply; p is left as it was.
func (s *MEU) SearchDepth(p games.Position, depth int) ModelResult {
	return s.fixedDepth(p, depth, s.searchRoot)
}

func (s *MEU) scratch(ply int) {
	for len(s.values) <= ply {
		s.values = append(s.values, make([]float64, games.MaxMoves))
		s.utils = append(s.utils, make([]float64, games.MaxMoves))
		s.probs = append(s.probs, make([]float64, games.MaxMoves))
	}
}

// searchRoot is the fixed-depth search of p (the root moves prepared as omBase says).
func (s *MEU) searchRoot(p games.Position, ctl *engine.Control, depth int) ModelResult {
	s.scratch(depth + 1)
	levels := s.opts.ExpectedLevels
	if levels == 0 {
		levels = -1 // every level
	}
	return s.searchFrom(p, ctl, depth, func(p games.Position, moves []games.Move) ModelResult {
		best, move, predicted := math.Inf(-1), games.NoMove, games.NoMove
		for _, m := range moves {
			p.Play(m)
			_, eu, reply := s.value(p, depth-1, 1, levels)
			p.Undo()
			if s.aborted {
				break
			}
			if eu > best {
				best, move, predicted = eu, m, reply
			}
		}
		return s.result(move, predicted, best)
	})
}

// value returns the minimax value and the expected value of p for the root player, and at a MIN node
// the most probable reply. levels counts the opponent levels that still take the expectation (negative:
// all of them).
func (s *MEU) value(p games.Position, depth, ply, levels int) (minimax, expected float64, reply games.Move) {
	if s.visit() {
		return 0, 0, games.NoMove
	}
	if levels == 0 {
		// Below the expected levels: a minimax value, with the cut-offs of our own alpha-beta.
		if v, _, done := s.frontier(p, depth, ply); done {
			return v, v, games.NoMove
		}
		v := s.exactValue(p, depth, ply)
		if s.stoppedBy() {
			return 0, 0, games.NoMove
		}
		return v, v, games.NoMove
	}
	v, moves, done := s.frontier(p, depth, ply)
	if done {
		return v, v, games.NoMove
	}
	if p.ToMove() == s.rootSide {
		if depth == 1 {
			v := s.maxOverLeaves(p, ply)
			return v, v, games.NoMove
		}
		minimax, expected = math.Inf(-1), math.Inf(-1)
		for _, m := range moves {
			p.Play(m)
			mm, eu, _ := s.value(p, depth-1, ply+1, levels)
			p.Undo()
			if s.aborted {
				return 0, 0, games.NoMove
			}
			minimax, expected = max(minimax, mm), max(expected, eu)
		}
		return minimax, expected, games.NoMove
	}
	n := len(moves)
	values, utils, probs := s.values[ply][:n], s.utils[ply][:n], s.probs[ply][:n]
	for j, m := range moves {
		p.Play(m)
		values[j], utils[j], _ = s.value(p, depth-1, ply+1, levels-1)
		p.Undo()
		if s.aborted {
			return 0, 0, games.NoMove
		}
	}
	s.model.Probabilities(p, moves, values, probs)
	minimax = math.Inf(1)
	likeliest := -1.0
	for j, m := range moves {
		minimax = min(minimax, values[j])
		expected += probs[j] * utils[j]
		if probs[j] > likeliest {
			likeliest, reply = probs[j], m
		}
	}
	return minimax, expected, reply
}

// Search runs iterative deepening MEU under ctl (see Searcher).
func (s *MEU) Search(p games.Position, ctl *engine.Control, report func(engine.Info)) engine.Result {
	return s.iterate(p, ctl, report, s.searchRoot)
}
