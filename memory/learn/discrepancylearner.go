// The discrepancy learner: Sen & Arora's training phase, counting the opponent's moves by discrepancy range.

package learn

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"sync"

	"dossier/engine"
	"dossier/engine/model"
	"dossier/games"
)

// Sen & Arora's learner watches the opponent move and, for every move, measures its discrepancy: how much
// better for the learner the reply it chose is than the opponent's best reply, both valued by the
// learner's own minimax search. The counts of the discrepancy ranges, per band of move numbers, are the
// model MEU plays with (model.DiscrepancyModel).
//
// Which search values the replies: MEU at depth d values the replies to its move by alpha-beta to depth
// d - 2 below each reply (the expectation is taken one ply below the root, over positions searched to the
// horizon). The learner values the replies it sees the same way, so that a discrepancy it counts is one
// MEU would measure in the same position: the counts are calibrated for MEU at depth d. A win or loss
// within that horizon is worth engine.MateScore less the plies to it, so a reply that lets a forced win
// through, or misses one, has a discrepancy near MateScore.
//
// A choice among replies that all fall in one range (a single legal move, or every move equally good)
// says nothing about which ranges the opponent prefers: the model takes a range among those offered with
// probability proportional to its count, and a choice with one range offered has probability 1 whatever
// the counts. Such moves are not counted.

// DiscrepancyLearnerConfig says how a learner measures discrepancies and how it groups them.
type DiscrepancyLearnerConfig struct {
	// Depth is the search depth of the player that will use the counts (at least 1); the replies are
	// searched to max(Depth - 2, 0).
	Depth int
	// Edges are the discrepancy ranges' upper ends; nil is DefaultDiscrepancyEdges of the evaluation.
	Edges []float64
	// BandPlies is the width of a band of move numbers in plies (0: one band for the whole game).
	BandPlies int
	// Opponent describes the opponent for the counts file.
	Opponent string
}

// DiscrepancyLearner counts an opponent's moves by discrepancy range. It is also the opponent model of
// the MEU player that learns while it plays (Probabilities; see searchers.NewLearningMEU). Its methods are safe for
// concurrent use; observations are serialised.
type DiscrepancyLearner struct {
	game games.Game
	eval engine.Evaluation // the evaluation whose search values the replies

	mu     sync.RWMutex // guards everything below; Probabilities reads the model under the read lock
	probe  ReplyProbe
	model  *model.DiscrepancyModel
	counts *DiscrepancyCounts
}

// ReplyProbe values a position for its side to move by our evaluation's search to depth plies (a won or
// lost game within them scores near ±engine.MateScore). The learner calls it one position at a time.
type ReplyProbe func(p games.Position, depth int) float64

var _ model.MoveProbabilities = (*DiscrepancyLearner)(nil)

// DefaultDiscrepancyEdges returns ranges on the scale of an evaluation: the smallest weight magnitude m
// times powers of the evaluation's step s (the geometric mean ratio between its distinct weight
// magnitudes, at least 2), m, m s, m s^2, ... up to one step above the largest weight, and a last edge
// at half engine.MateBound that parts the replies which let a forced win through or miss one from the
// rest. For Sen & Arora's sophisticated Connect-Four evaluation (windows of 1, 2, 3 stones weigh 1, 5,
// 25) the edges are 1, 5, 25, 125 and 495000: a discrepancy up to 1 is one one-stone window, up to 5
// one two-stone window, up to 25 one open three, up to 125 several threats at once (no reply measured
// at depth 2 against SP differed by more without a forced result), the last range a forced win or loss.
func DefaultDiscrepancyEdges(eval engine.Evaluation) []float64 {
	var mags []float64
	for _, w := range eval.Weights {
		if a := math.Abs(w); a > 0 && !slices.Contains(mags, a) {
			mags = append(mags, a)
		}
	}
	sort.Float64s(mags)
	low, high, step := 1.0, 1.0, 2.0
	if n := len(mags); n > 0 {
		low, high = mags[0], mags[n-1]
	}
	if n := len(mags); n >= 2 {
		step = max(step, math.Pow(high/low, 1/float64(n-1)))
	}
	var edges []float64
	for e := low; e <= high*step*(1+1e-9) && e < engine.MateBound/2 && len(edges) < MaxDiscrepancyEdges-1; e *= step {
		edges = append(edges, roundEdge(e))
	}
	return append(edges, engine.MateBound/2)
}

// roundEdge rounds an edge to 3 significant digits, so that 5^k prints as 5^k.
func roundEdge(e float64) float64 {
	scale := math.Pow(10, math.Floor(math.Log10(e))-2)
	return math.Round(e/scale) * scale
}

// NewDiscrepancyLearner returns a learner for game g with empty counts, whose probe values the replies by
// the evaluation eval (the preset of that name).
func NewDiscrepancyLearner(g games.Game, eval engine.Evaluation, probe ReplyProbe, cfg DiscrepancyLearnerConfig) (*DiscrepancyLearner, error) {
	if err := eval.Check(g); err != nil {
		return nil, err
	}
	if cfg.Depth < 1 || cfg.Depth > maxCountsDepth {
		return nil, fmt.Errorf("discrepancy learner: depth %d, want the player's search depth in 1..%d", cfg.Depth, maxCountsDepth)
	}
	edges := cfg.Edges
	if edges == nil {
		edges = DefaultDiscrepancyEdges(eval)
	}
	counts, err := NewDiscrepancyCounts(g.Name(), eval.Name, cfg.Depth, max(cfg.Depth-2, 0), edges, cfg.BandPlies)
	if err != nil {
		return nil, fmt.Errorf("discrepancy learner: %w", err)
	}
	counts.Opponent = cfg.Opponent
	counts.Offered = [][]float64{}
	model, err := counts.Model()
	if err != nil {
		return nil, fmt.Errorf("discrepancy learner: %w", err)
	}
	return &DiscrepancyLearner{game: g, eval: eval, probe: probe, model: model, counts: counts}, nil
}

// Restore goes on from stored counts, which must have been measured as this learner measures.
func (l *DiscrepancyLearner) Restore(c *DiscrepancyCounts) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.counts.ReplyDepth != c.ReplyDepth {
		return errors.New("the counts were measured at another depth")
	}
	counts := *c
	counts.Edges = slices.Clone(c.Edges)
	counts.Counts = cloneTable(c.Counts)
	counts.Offered = cloneTable(c.Offered)
	for len(counts.Offered) < len(counts.Counts) {
		counts.Offered = append(counts.Offered, make([]float64, counts.Ranges()))
	}
	model, err := counts.Model()
	if err != nil {
		return err
	}
	l.counts, l.model = &counts, model
	return nil
}

// Evaluation returns the evaluation whose search values the replies.
func (l *DiscrepancyLearner) Evaluation() engine.Evaluation { return l.eval }

// CountGame counts one more game in the counts file, for a game whose moves were observed one by one.
func (l *DiscrepancyLearner) CountGame() {
	l.mu.Lock()
	l.counts.Games++
	l.mu.Unlock()
}

// replyPlies is how far below MEU's root the replies to its move lie.
const replyPlies = 2

// ReplyValues writes into values[j] the value, for the player who waits in p, of the position after
// replies[j] of the side to move in p: our evaluation's alpha-beta value to the reply depth. A won or
// lost game scores ±(engine.MateScore - k), k counting the plies from the player's move before p (as MEU
// counts them from its root): 2 for a game the reply ends. p is left as it was.
func (l *DiscrepancyLearner) ReplyValues(p games.Position, replies []games.Move, values []float64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.replyValues(p, replies, values)
}

// replyValues is ReplyValues with l.mu held.
func (l *DiscrepancyLearner) replyValues(p games.Position, replies []games.Move, values []float64) {
	player := p.ToMove().Other()
	for j, m := range replies {
		p.Play(m)
		switch o := p.Status(); {
		case o.Result == games.Draw:
			values[j] = 0
		case o.Result.Over():
			values[j] = -engine.MateScore
			if w, _ := o.Result.Winner(); w == player {
				values[j] = engine.MateScore
			}
		default:
			values[j] = l.probe(p, l.counts.ReplyDepth)
		}
		switch v := values[j]; {
		case v >= engine.MateBound:
			values[j] = v - replyPlies
		case v <= -engine.MateBound:
			values[j] = v + replyPlies
		}
		p.Undo()
	}
}

// DiscrepancyObservation is what the learner measured of one move of the opponent.
type DiscrepancyObservation struct {
	// Ply is the ply of the position the move was played in; Band its band.
	Ply, Band int
	// Discrepancy is the chosen reply's value for the learner minus the lowest reply value; Range its range.
	Discrepancy float64
	Range       int
	// Offered says for each range whether some reply fell in it.
	Offered []bool
	// Counted is false when every reply fell in one range, which says nothing of the opponent's choices.
	Counted bool
}

// Observe measures the discrepancy of the opponent's move m in p (the opponent to move) and counts it.
// p is left as it was; a move that is not legal in p is an error.
func (l *DiscrepancyLearner) Observe(p games.Position, m games.Move) (DiscrepancyObservation, error) {
	var buf [games.MaxMoves]games.Move
	replies := p.AppendMoves(buf[:0])
	chosen := slices.Index(replies, m)
	if chosen < 0 {
		return DiscrepancyObservation{}, fmt.Errorf("discrepancy learner: move %s is not legal in %s", p.FormatMove(m), p.FEN())
	}
	var values [games.MaxMoves]float64
	l.mu.Lock()
	defer l.mu.Unlock()
	l.replyValues(p, replies, values[:len(replies)])
	best := slices.Min(values[:len(replies)])
	obs := DiscrepancyObservation{Ply: p.Ply(), Band: l.model.Band(p.Ply()), Discrepancy: values[chosen] - best,
		Offered: make([]bool, l.model.Ranges())}
	obs.Range = l.model.Range(obs.Discrepancy)
	offered := 0
	for _, v := range values[:len(replies)] {
		if r := l.model.Range(v - best); !obs.Offered[r] {
			obs.Offered[r] = true
			offered++
		}
	}
	if offered < 2 {
		return obs, nil
	}
	if obs.Band >= MaxDiscrepancyBands {
		return obs, fmt.Errorf("discrepancy learner: ply %d lies in band %d, beyond the %d bands a counts file holds", obs.Ply, obs.Band, MaxDiscrepancyBands)
	}
	if err := l.model.Add(obs.Ply, obs.Discrepancy, 1); err != nil {
		return obs, err
	}
	for len(l.counts.Counts) <= obs.Band {
		l.counts.Counts = append(l.counts.Counts, make([]float64, l.model.Ranges()))
		l.counts.Offered = append(l.counts.Offered, make([]float64, l.model.Ranges()))
	}
	l.counts.Counts[obs.Band][obs.Range]++
	for r, ok := range obs.Offered {
		if ok {
			l.counts.Offered[obs.Band][r]++
		}
	}
	l.counts.Observations++
	obs.Counted = true
	return obs, nil
}

// ObserveGame replays a game from start and observes every move of the opponent's side; it returns how
// many moves it counted. start is not changed.
func (l *DiscrepancyLearner) ObserveGame(start games.Position, moves []games.Move, opponent games.Side) (int, error) {
	p := start.Clone()
	counted := 0
	for i, m := range moves {
		if p.ToMove() == opponent {
			obs, err := l.Observe(p, m)
			if err != nil {
				return counted, fmt.Errorf("move %d of the game: %w", i+1, err)
			}
			if obs.Counted {
				counted++
			}
		} else if !games.IsLegal(p, m) {
			return counted, fmt.Errorf("move %d of the game: %s is not legal in %s", i+1, p.FormatMove(m), p.FEN())
		}
		p.Play(m)
	}
	l.CountGame()
	return counted, nil
}

// Counts returns a copy of the counts learned so far.
func (l *DiscrepancyLearner) Counts() *DiscrepancyCounts {
	l.mu.RLock()
	defer l.mu.RUnlock()
	c := *l.counts
	c.Edges = slices.Clone(c.Edges)
	c.Counts = cloneTable(c.Counts)
	c.Offered = cloneTable(c.Offered)
	return &c
}

// cloneTable returns a deep copy of a table of numbers.
func cloneTable(t [][]float64) [][]float64 {
	if t == nil {
		return nil
	}
	out := make([][]float64, len(t))
	for i, row := range t {
		out[i] = slices.Clone(row)
	}
	return out
}

// Probabilities implements model.MoveProbabilities with the counts learned so far.
func (l *DiscrepancyLearner) Probabilities(p games.Position, replies []games.Move, values []float64, probs []float64) {
	l.mu.RLock()
	defer l.mu.RUnlock()
	l.model.Probabilities(p, replies, values, probs)
}
