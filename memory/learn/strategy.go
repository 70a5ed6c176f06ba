// Carmel and Markovitch's learning of the opponent's strategy, a linear evaluation and a depth, by linear
// programming (their Figure 9), with gonum's simplex.

package learn

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"

	"dossier/engine"
	"dossier/games"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize/convex/lp"
)

// ModelStrategy names a learned Strategy in memory.ModelUpdate events.
const ModelStrategy = "strategy"

// StrategyConfig sets how LearnStrategy searches for the opponent's strategy; zero fields take the defaults
// DefaultStrategyConfig gives.
type StrategyConfig struct {
	// MaxDepth is the deepest search tried, 1..MaxDepth.
	MaxDepth int
	// Iterations bounds the constraint systems solved at one depth (Carmel and Markovitch needed 2-3).
	Iterations int
	// Epsilon is the gain in accuracy on the monitoring examples below which a depth's iterations stop.
	Epsilon float64
	// Regularisation is the cost of each unit of weight (|w_i| summed) against one unit of slack: small,
	// so that it only picks the sparsest of the weight vectors that explain the moves equally well.
	Regularisation float64
	// MaxConstraints bounds the constraints of one linear program (gonum's simplex is dense, its cost grows
	// with their cube); solve works through larger systems by cutting planes.
	MaxConstraints int
}

// DefaultStrategyConfig returns the configuration LearnStrategy uses for zero fields.
func DefaultStrategyConfig() StrategyConfig {
	return StrategyConfig{MaxDepth: 4, Iterations: 6, Epsilon: 0.005, Regularisation: 1e-3, MaxConstraints: 120}
}

// Strategy is a learned opponent strategy: the (f, d) player that best predicted the monitoring examples,
// with how well it did at each depth. Its JSON form is what the memory keeps.
type Strategy struct {
	// Player is the learned evaluation (named "learned") and depth.
	Player MinimaxPlayer `json:"player"`
	// Accuracy is the fraction of the monitoring examples whose move Player plays.
	Accuracy float64 `json:"accuracy"`
	// Depths are the results of each depth tried, in order.
	Depths []DepthResult `json:"depths"`
}

// DepthResult is what LearnStrategy found at one depth.
type DepthResult struct {
	Depth int `json:"depth"`
	// Weights are the best weights found at this depth and Accuracy their monitoring accuracy.
	Weights  []float64 `json:"weights"`
	Accuracy float64   `json:"accuracy"`
	// Programs counts the constraint systems solved; Constraints the distinct constraints of the last one.
	Programs    int `json:"programs"`
	Constraints int `json:"constraints"`
}

// check reports an error unless the strategy is consistent.
func (s *Strategy) check() error {
	if s.Player.Depth < 1 || s.Player.Depth > MaxDepth {
		return fmt.Errorf("strategy: depth %d, want 1..%d", s.Player.Depth, MaxDepth)
	}
	if len(s.Player.Eval.Weights) == 0 {
		return errors.New("strategy: no weights")
	}
	if !(s.Accuracy >= 0 && s.Accuracy <= 1) {
		return fmt.Errorf("strategy: accuracy %v is not in [0, 1]", s.Accuracy)
	}
	for _, d := range s.Depths {
		if d.Depth < 1 || d.Depth > MaxDepth || len(d.Weights) != len(s.Player.Eval.Weights) || !(d.Accuracy >= 0 && d.Accuracy <= 1) {
			return fmt.Errorf("strategy: the result for depth %d does not fit", d.Depth)
		}
	}
	return nil
}

// UnmarshalJSON reads a strategy written by encoding/json and checks it (not against a game: Check does).
func (s *Strategy) UnmarshalJSON(data []byte) error {
	type plain Strategy
	var p plain
	if err := json.Unmarshal(data, &p); err != nil {
		return fmt.Errorf("strategy: %w", err)
	}
	if err := (*Strategy)(&p).check(); err != nil {
		return err
	}
	*s = Strategy(p)
	return nil
}

// Check reports an error unless the strategy plays game g.
func (s *Strategy) Check(g games.Game) error { return s.Player.Check(g) }

// LearnStrategy learns the strategy (W . h, d) of an opponent from its moves, h the game's features:
// Carmel and Markovitch's Figure 9. For d = 1 .. MaxDepth, starting from the previous depth's weights, it
// searches each alternative of each training example d-1 plies with the current weights and takes the
// board the search's value comes from (the dominant board, features seen by the mover); the constraints
// W . (h(dominant of the move played) - h(dominant of the alternative)) >= 0 are solved by linear
// programming (below), and the dominant boards found again with the new weights, until two systems in a
// row did not raise the accuracy on the monitoring examples by Epsilon or Iterations systems were solved
// (a system that does worse is still searched from once: from poor weights the dominant boards are poor
// too, and the next system may recover). The result is the (W, d) with the best monitoring accuracy.
//
// The linear program is Duda and Hart's for inseparable systems: minimise the slack, sum_j s_j, subject to
// W . delta_j + s_j >= 1, s_j >= 0, so that W = 0 (slack 1 everywhere) is never better than weights that
// explain any move, plus Regularisation times sum_i |w_i|, so that among equally good weights the sparsest
// wins. Comparisons with a won or lost game at either end are left out (no weights change them); a drawn
// line's board counts as all features 0. Examples with fewer than two legal moves teach nothing and are
// skipped.
func LearnStrategy(g games.Game, train, monitor []Observation, cfg StrategyConfig) (Strategy, error) {
	def := DefaultStrategyConfig()
	if cfg.MaxDepth == 0 {
		cfg.MaxDepth = def.MaxDepth
	}
	if cfg.Iterations == 0 {
		cfg.Iterations = def.Iterations
	}
	if cfg.Epsilon == 0 {
		cfg.Epsilon = def.Epsilon
	}
	if cfg.Regularisation == 0 {
		cfg.Regularisation = def.Regularisation
	}
	if cfg.MaxConstraints == 0 {
		cfg.MaxConstraints = def.MaxConstraints
	}
	switch {
	case cfg.MaxDepth < 1 || cfg.MaxDepth > MaxDepth:
		return Strategy{}, fmt.Errorf("strategy: maximal depth %d, want 1..%d", cfg.MaxDepth, MaxDepth)
	case cfg.Iterations < 1 || cfg.Epsilon < 0 || cfg.Regularisation < 0 || cfg.MaxConstraints < 1:
		return Strategy{}, errors.New("strategy: iterations and constraints must be positive, epsilon and regularisation not negative")
	case len(train) == 0 || len(monitor) == 0:
		return Strategy{}, errors.New("strategy: no training or no monitoring examples")
	}
	train, err := informative(train)
	if err != nil {
		return Strategy{}, fmt.Errorf("strategy: training examples: %w", err)
	}
	if monitor, err = informative(monitor); err != nil {
		return Strategy{}, fmt.Errorf("strategy: monitoring examples: %w", err)
	}
	n := len(g.FeatureNames())
	l := &strategyLearner{game: g, cfg: cfg, n: n}
	weights := make([]float64, n)
	var best Strategy
	best.Accuracy = -1
	for d := 1; d <= cfg.MaxDepth; d++ {
		res := DepthResult{Depth: d, Weights: slices.Clone(weights), Accuracy: l.accuracy(monitor, weights, d)}
		current := res.Weights
		for stale := 0; stale < 2 && res.Programs < cfg.Iterations; stale++ {
			rows := l.constraints(train, current, d)
			w, err := l.solve(rows)
			if err != nil {
				return Strategy{}, fmt.Errorf("strategy: depth %d: %w", d, err)
			}
			res.Programs++
			res.Constraints = len(rows)
			acc := l.accuracy(monitor, w, d)
			if acc >= res.Accuracy+cfg.Epsilon {
				stale = -1
			}
			if acc > res.Accuracy {
				res.Weights, res.Accuracy = w, acc
			}
			current = w
		}
		best.Depths = append(best.Depths, res)
		if res.Accuracy > best.Accuracy {
			best.Accuracy = res.Accuracy
			best.Player = MinimaxPlayer{Eval: engine.Evaluation{Name: "learned", Weights: slices.Clone(res.Weights)}, Depth: d}
		}
		weights = res.Weights
	}
	return best, nil
}

// informative returns the examples with at least two legal moves, or an error naming a bad one.
func informative(examples []Observation) ([]Observation, error) {
	var out []Observation
	for k, o := range examples {
		if o.Position == nil {
			return nil, fmt.Errorf("example %d has no position", k+1)
		}
		moves, err := legalMoves(o.Position)
		if err != nil {
			return nil, fmt.Errorf("example %d: %w", k+1, err)
		}
		if _, err := indexOf(o.Position, moves, o.Move); err != nil {
			return nil, fmt.Errorf("example %d: %w", k+1, err)
		}
		if len(moves) > 1 {
			out = append(out, o)
		}
	}
	if len(out) == 0 {
		return nil, errors.New("none has two legal moves to choose from")
	}
	return out, nil
}

// strategyLearner holds what one LearnStrategy call shares.
type strategyLearner struct {
	game games.Game
	cfg  StrategyConfig
	n    int // features
}

// row is one distinct constraint W . delta >= 0 and how many comparisons gave it.
type row struct {
	delta []float64
	count float64
}

// accuracy is the fraction of the examples whose move the (weights, depth) player plays, with the plain
// move order a player's choice among equal moves depends on.
func (l *strategyLearner) accuracy(examples []Observation, weights []float64, depth int) float64 {
	s := newFixedSearch(l.game, engine.Evaluation{Name: "learned", Weights: weights}, false)
	hits := 0
	for _, o := range examples {
		if s.bestMove(o.Position, depth) == o.Move {
			hits++
		}
	}
	return float64(hits) / float64(len(examples))
}

// constraints returns the distinct constraints of the training examples under the current weights at depth,
// the most frequent first.
func (l *strategyLearner) constraints(examples []Observation, weights []float64, depth int) []row {
	s := newFixedSearch(l.game, engine.Evaluation{Name: "learned", Weights: weights}, true)
	index := map[string]int{}
	var rows []row
	key := make([]byte, 0, 8*l.n)
	var buf [games.MaxMoves]games.Move
	for _, o := range examples {
		p := o.Position
		moves := p.AppendMoves(buf[:0])
		leaves := make([]leaf, len(moves))
		played := 0
		for i, m := range moves {
			if m == o.Move {
				played = i
			}
			p.Play(m)
			leaves[i] = s.principalLeaf(l.game, p, depth-1)
			p.Undo()
		}
		chosen := leaves[played]
		for i, alt := range leaves {
			if i == played {
				continue
			}
			delta, ok := l.delta(chosen, alt)
			if !ok {
				continue
			}
			key = key[:0]
			zero := true
			for _, x := range delta {
				zero = zero && x == 0
				key = fmt.Appendf(key, "%x,", math.Float64bits(x))
			}
			if zero {
				continue
			}
			if j, seen := index[string(key)]; seen {
				rows[j].count++
				continue
			}
			index[string(key)] = len(rows)
			rows = append(rows, row{delta: delta, count: 1})
		}
	}
	slices.SortStableFunc(rows, func(a, b row) int { return cmpFloat(b.count, a.count) })
	return rows
}

// delta returns h(chosen) - h(alt) in the mover's view (leaves are seen from the side to move after the
// move, so the difference is h(alt) - h(chosen) in theirs), or false when a won or lost game at either end
// makes the comparison independent of the weights.
func (l *strategyLearner) delta(chosen, alt leaf) ([]float64, bool) {
	features := func(x leaf) ([]float64, bool) {
		if !x.ended {
			return x.features, true
		}
		if x.outcome == 0 {
			return make([]float64, l.n), true // a draw is worth 0 to every linear function
		}
		return nil, false
	}
	c, ok1 := features(chosen)
	a, ok2 := features(alt)
	if !ok1 || !ok2 {
		return nil, false
	}
	d := make([]float64, l.n)
	for i := range d {
		d[i] = a[i] - c[i]
	}
	return d, true
}

// solve finds the weights of the linear program above for all the rows by cutting planes: gonum's simplex
// is dense and refactorises its basis at every pivot, so its cost grows with the cube of the constraints,
// while at the optimum only the tight and the violated constraints matter. It solves the program over a
// working set of at most MaxConstraints rows, adds the rows the solution violates (W . delta < 1), most
// violated first, drops from a full working set the rows the solution satisfies with room to spare, and
// stops when nothing is violated outside the set or ten rounds did not lower the objective over all the
// rows (200 rounds at most). It returns the weights with the lowest objective. With chess's per-square tables
// nearly every comparison is a distinct row (20,000 from 480 positions), and the objective over all of them
// often stays put for several rounds while the working set gathers the rows that matter: after three such
// rounds the learner kept weights that predicted 9% of the moves, after ten 92%.
func (l *strategyLearner) solve(rows []row) ([]float64, error) {
	budget := l.cfg.MaxConstraints
	add := max(budget/4, 1)
	inSet := make([]bool, len(rows))
	var working []int
	for i := range rows[:min(len(rows), budget/2)] {
		inSet[i] = true
		working = append(working, i)
	}
	var best []float64
	bestCost := math.Inf(1)
	margins := make([]float64, len(rows))
	// Ten rounds without a better objective end the search, and so do 200 rounds in all.
	for round, stale := 0, 0; stale < 10 && round < 200; round, stale = round+1, stale+1 {
		set := make([]row, len(working))
		for k, i := range working {
			set[k] = rows[i]
		}
		w, err := l.solveRows(set)
		if err != nil {
			return nil, err
		}
		cost := 0.0
		for _, x := range w {
			cost += l.cfg.Regularisation * math.Abs(x)
		}
		var violated []int
		for i, r := range rows {
			margins[i] = dot(w, r.delta)
			cost += r.count * max(0, 1-margins[i])
			if !inSet[i] && margins[i] < 1-1e-7 {
				violated = append(violated, i)
			}
		}
		if cost < bestCost {
			best, bestCost, stale = w, cost, -1
		}
		if len(violated) == 0 {
			break
		}
		slices.SortStableFunc(violated, func(a, b int) int { return cmpFloat(margins[a], margins[b]) })
		if len(working)+add > budget {
			kept := working[:0]
			for _, i := range working {
				if margins[i] <= 1+1e-7 {
					kept = append(kept, i)
				} else {
					inSet[i] = false
				}
			}
			working = kept
		}
		room := min(add, budget-len(working), len(violated))
		if room == 0 {
			break
		}
		for _, i := range violated[:room] {
			inSet[i] = true
			working = append(working, i)
		}
	}
	return best, nil
}

// dot is the dot product of two vectors of equal length.
func dot(a, b []float64) float64 {
	s := 0.0
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

// cmpFloat orders two numbers, smaller first.
func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// solveRows solves the linear program over the given rows. In gonum's standard form (minimise c . x subject
// to A x = b, x >= 0) the variables are w = p - q over the features that vary in some row (a feature that
// never varies keeps weight 0: its column would be all zero), then the slacks s and the surpluses e of the
// rows: row j reads delta_j . p - delta_j . q + s_j - e_j = 1. The slacks alone are a feasible basis to
// start from (s = 1). Weights below 1e-5 of the largest are rounding (and the margins' perturbation) and
// become 0, so that features the opponent ignores leave its ties intact.
func (l *strategyLearner) solveRows(rows []row) ([]float64, error) {
	weights := make([]float64, l.n)
	if len(rows) == 0 {
		return weights, nil
	}
	var used []int
	for i := range l.n {
		for _, r := range rows {
			if r.delta[i] != 0 {
				used = append(used, i)
				break
			}
		}
	}
	m, f := len(rows), len(used)
	cols := 2*f + 2*m
	a := mat.NewDense(m, cols, nil)
	b := make([]float64, m)
	c := make([]float64, cols)
	basis := make([]int, m)
	for k := range 2 * f {
		c[k] = l.cfg.Regularisation
	}
	for j, r := range rows {
		for k, i := range used {
			a.Set(j, k, r.delta[i])
			a.Set(j, f+k, -r.delta[i])
		}
		a.Set(j, 2*f+j, 1)
		a.Set(j, 2*f+m+j, -1)
		// A margin of 1 for every row makes the program degenerate (many bases share a vertex) and the
		// simplex can cycle among them; margins perturbed by a ten-millionth, distinct for every row, cannot tie.
		b[j] = 1 + 1e-7*math.Mod(float64(j+1)*0.6180339887498949, 1)
		c[2*f+j] = r.count
		basis[j] = 2*f + j
	}
	_, x, err := lp.Simplex(c, a, b, 1e-10, basis)
	if err != nil && x == nil {
		return nil, fmt.Errorf("linear program of %d constraints over %d features: %w", m, f, err)
	}
	largest := 0.0
	for k, i := range used {
		weights[i] = x[k] - x[f+k]
		largest = max(largest, math.Abs(weights[i]))
	}
	for i, w := range weights {
		if math.Abs(w) < 1e-5*largest {
			weights[i] = 0
		}
	}
	return weights, nil
}
