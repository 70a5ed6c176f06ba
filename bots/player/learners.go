// The learners of one opponent inside the Player: type probabilities over the presets, the opponent's depth,
// Sen & Arora's discrepancy counts, each published as a live model, and the yardstick that scores every model
// on each move before it learns from it.

package player

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sync"
	"time"

	"dossier/bots/presets"
	"dossier/bots/searchers"
	"dossier/games"
	"dossier/memory"
	"dossier/memory/learn"
)

// Settings of the online learners. Their depths keep a learner's cost per opponent move at a few
// milliseconds (BenchmarkLearnMove measures it): the worker runs beside our search on the same cores.
const (
	// typeRate and typePS are the slow type learner's learning factor and Reibman and Ballard's PS; typePS
	// is also the PS of the depth model's rank model, so that the two are scored alike.
	typeRate = 0.1
	typePS   = 0.8
	// publishStep is how far a type probability must move before a live PrOM model is republished (a new
	// model rebuilds the search and its tables).
	publishStep = 0.05
	// minTypeProbability drops a type from the live PrOM model (each type costs PrOM a probe).
	minTypeProbability = 0.02
)

// learnWait bounds how long the end of a game waits for the worker to learn the moves still queued; the moves it
// has not learned by then are filed without a probability. A variable only so that the tests that count every
// move's probability can wait longer on a machine that the race detector and other jobs slow down.
var learnWait = 5 * time.Second

// learnerDepth is the depth of the learners of a game: the deepest type, the depth learner's range, minimax's
// depth in the yardstick (its book's: chess, the costliest game to search, learns shallower).
func learnerDepth(g games.Game) int { return presets.Learning(g).Depth }

// typeDepths are the depths each preset is a type at (its book's: a shallow one and the learners' depth, but
// in chess, where five presets at 2 plies cost 10 ms a move, 1 ply only).
func typeDepths(g games.Game) []int { return presets.Learning(g).TypeDepths }

// learners are the models of one opponent in one game: what the worker updates and the yardstick scores.
// Only the worker touches them while a game is on, except the discrepancy learner (safe for concurrent use,
// MEU reads it) and the live models (guarded by their own locks).
type learners struct {
	key     string
	game    games.Game
	our     presets.Preset
	depth   int
	types   *learn.TypeLearner
	depthL  *learn.DepthLearner
	disc    *learn.DiscrepancyLearner
	minimax *learn.FalliblePlayer
	// depthModels are the rank models of our evaluation at each depth the depth learner names.
	depthModels map[int]*learn.FalliblePlayer
	// yardsticks are the opponent's yardsticks of this game stored so far, oldest first (for Search auto).
	yardsticks []learn.GameYardstick
	// typesLive and depthLive are the live models auto hands to PrOM and OM.
	typesLive, depthLive *learnedLive
}

// learnedLive is a LiveModel whose state the worker replaces.
type learnedLive struct {
	mu    sync.Mutex
	state searchers.LiveModelState
	probs []float64 // the type probabilities last published (PrOM)
}

// Current implements LiveModel.
func (l *learnedLive) Current() searchers.LiveModelState {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.state
}

// set publishes a new spec.
func (l *learnedLive) set(spec searchers.ModelSpec, probs []float64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.state = searchers.LiveModelState{Spec: spec, Version: l.state.Version + 1}
	l.probs = probs
}

// restoreLearner is the one rule of what a stored learner state is: it returns the learner of one of
// foldedModels (a *learn.TypeLearner, *learn.DepthLearner or *learn.DiscrepancyLearner) that a stored state
// raw restores for game g with our preset, or an error saying why the state is not one of them. newLearners
// plays with what it takes and learnerBase merges from what it takes, so the two never disagree.
func restoreLearner(model string, raw json.RawMessage, g games.Game, our presets.Preset) (any, error) {
	switch model {
	case learn.ModelTypeProbs:
		var st learn.TypeLearnerState
		if err := json.Unmarshal(raw, &st); err != nil {
			return nil, err
		}
		for _, t := range st.Types {
			if _, err := presets.Lookup(g, t.Eval.Name); err != nil {
				return nil, err
			}
		}
		return learn.NewTypeLearner(g, st)
	case learn.ModelDepth:
		var st learn.DepthLearnerState
		if err := json.Unmarshal(raw, &st); err != nil {
			return nil, err
		}
		if st.Eval.Name != our.Name {
			return nil, fmt.Errorf("depth learner of %s, not of our preset %s", st.Eval.Name, our.Name)
		}
		return learn.NewDepthLearner(g, st)
	case searchers.DiscrepancyModelName:
		var c learn.DiscrepancyCounts
		if err := json.Unmarshal(raw, &c); err != nil {
			return nil, err
		}
		if err := c.Check(); err != nil {
			return nil, err
		}
		if c.Game != g.Name() || c.Evaluation != our.Name {
			return nil, fmt.Errorf("discrepancy counts of %s %s, not of %s %s", c.Game, c.Evaluation, g.Name(), our.Name)
		}
		return searchers.RestoreDiscrepancyLearner(g, &c, 1)
	}
	return nil, fmt.Errorf("no learner is called %s", model)
}

// newLearners builds the learners of an opponent for game g from the states the memory holds (models maps a
// model's name to its history, oldest first; nil for none): the latest state of each model that fits this
// game and our preset, or a new learner. It returns an error only when not even a new learner can be made.
func newLearners(key string, g games.Game, our presets.Preset, models map[string][]memory.ModelPoint) (*learners, error) {
	ofGame := presets.Of(g)
	if len(ofGame) == 0 {
		return nil, fmt.Errorf("no presets for %s", g.Name())
	}
	d := learnerDepth(g)
	l := &learners{key: key, game: g, our: our, depth: d, depthModels: map[int]*learn.FalliblePlayer{},
		typesLive: &learnedLive{}, depthLive: &learnedLive{}}
	// The latest stored state of each model that restoreLearner takes, else a new learner.
	latest := func(name string) any {
		points := models[name]
		for i := len(points) - 1; i >= 0; i-- {
			if r, err := restoreLearner(name, points[i].State, g, our); err == nil {
				return r
			}
		}
		return nil
	}
	if tl, ok := latest(learn.ModelTypeProbs).(*learn.TypeLearner); ok {
		l.types = tl
	} else {
		var types []learn.MinimaxPlayer
		for _, p := range ofGame {
			for _, depth := range typeDepths(g) {
				types = append(types, learn.MinimaxPlayer{Eval: p.Eval, Depth: depth})
			}
		}
		tl, err := learn.NewTypeLearner(g, learn.TypeLearnerState{Types: types, Mode: learn.SlowLearning, Rate: typeRate, PS: typePS})
		if err != nil {
			return nil, err
		}
		l.types = tl
	}
	if dl, ok := latest(learn.ModelDepth).(*learn.DepthLearner); ok {
		l.depthL = dl
	} else {
		dl, err := learn.NewDepthLearner(g, learn.DepthLearnerState{Eval: our.Eval, MaxDepth: d})
		if err != nil {
			return nil, err
		}
		l.depthL = dl
	}
	if dl, ok := latest(searchers.DiscrepancyModelName).(*learn.DiscrepancyLearner); ok {
		l.disc = dl
	} else {
		dl, err := searchers.NewDiscrepancyLearner(g, our.Name, 1, learn.DiscrepancyLearnerConfig{Depth: d, Opponent: key})
		if err != nil {
			return nil, err
		}
		l.disc = dl
	}
	mm, err := learn.MinimaxModel(g, learn.MinimaxPlayer{Eval: our.Eval, Depth: d})
	if err != nil {
		return nil, err
	}
	l.minimax = mm
	for _, pt := range models[learn.ModelYardstick] {
		var y learn.GameYardstick
		if json.Unmarshal(pt.State, &y) == nil && y.Game == g.Name() {
			l.yardsticks = append(l.yardsticks, y)
		}
	}
	l.publishTypes(true)
	l.depthLive.set(searchers.ModelSpec{Terms: []searchers.ModelTerm{{Name: our.Name, Depth: l.depthL.Depth(), Text: our.Name}}}, nil)
	return l, nil
}

// publishTypes republishes the live PrOM model when a type probability moved by publishStep or more since the
// last one (always when force is set): the types by preset, their probabilities summed over depths (PrOM's
// types search to our horizon), those below minTypeProbability dropped.
func (l *learners) publishTypes(force bool) {
	probs := l.types.Probabilities()
	last := l.typesLive.Current()
	l.typesLive.mu.Lock()
	old := l.typesLive.probs
	l.typesLive.mu.Unlock()
	if !force && last.Version > 0 && len(old) == len(probs) && learn.MaxError(old, probs) < publishStep {
		return
	}
	byName := map[string]float64{}
	var names []string
	for i, t := range l.types.State().Types {
		if _, seen := byName[t.Eval.Name]; !seen {
			names = append(names, t.Eval.Name)
		}
		byName[t.Eval.Name] += probs[i]
	}
	names = slices.DeleteFunc(names, func(n string) bool { return byName[n] < minTypeProbability })
	sum := 0.0
	for _, n := range names {
		sum += byName[n]
	}
	var spec searchers.ModelSpec
	for _, n := range names {
		spec.Terms = append(spec.Terms, searchers.ModelTerm{Name: n, Probability: byName[n] / sum, HasProbability: true, Text: n})
	}
	l.typesLive.set(spec, probs)
}

// discrepancyMoveModel is the discrepancy learner as the yardstick sees it: the probabilities MEU gives the
// replies, from their values for us.
type discrepancyMoveModel struct {
	l      *learn.DiscrepancyLearner
	values [games.MaxMoves]float64
}

// MoveProbabilities implements learn.MoveModel.
func (m *discrepancyMoveModel) MoveProbabilities(p games.Position, moves []games.Move, probs []float64) error {
	values := m.values[:len(moves)]
	m.l.ReplyValues(p, moves, values)
	m.l.Probabilities(p, moves, values, probs)
	return nil
}

// depthModel returns the rank model of our evaluation at the learned depth.
func (l *learners) depthModel() (*learn.FalliblePlayer, error) {
	d := l.depthL.Depth()
	if m, ok := l.depthModels[d]; ok {
		return m, nil
	}
	m, err := learn.NewFalliblePlayer(l.game, learn.MinimaxPlayer{Eval: l.our.Eval, Depth: d}, typePS)
	if err != nil {
		return nil, err
	}
	l.depthModels[d] = m
	return m, nil
}

// searchPrediction scores the search's prediction of one move as a model that puts all its mass on it: top-1
// and top-3 are 1 on a hit and 0 on a miss, the log-likelihood 0 or that of MinProbability.
func searchPrediction(rec *memory.MoveRecord) learn.Score {
	if rec.Predicted == rec.Move {
		return learn.Score{Moves: 1, Top1: 1, Top3: 1}
	}
	return learn.Score{Moves: 1, LogLikelihood: math.Log(learn.MinProbability), Impossible: 1}
}

// scoreAndLearn scores the move under every model (what each had learned before it), then learns from it.
// It returns each model's score of the one move.
func (l *learners) scoreAndLearn(p games.Position, m games.Move) (map[string]learn.Score, error) {
	dm, err := l.depthModel()
	if err != nil {
		return nil, err
	}
	models := []struct {
		name  string
		model learn.MoveModel
	}{{learn.MinimaxModelName, l.minimax}, {learn.ModelTypeProbs, l.types}, {learn.ModelDepth, dm},
		{searchers.DiscrepancyModelName, &discrepancyMoveModel{l: l.disc}}}
	obs := []learn.Observation{{Position: p, Move: m}}
	scores := make(map[string]learn.Score, len(models))
	for _, x := range models {
		s, err := learn.Measure(x.model, obs)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", x.name, err)
		}
		scores[x.name] = s
	}
	if _, err := l.types.Observe(p, m); err != nil {
		return nil, err
	}
	before := l.depthL.Depth()
	if err := l.depthL.Observe(p, m); err != nil {
		return nil, err
	}
	if _, err := l.disc.Observe(p, m); err != nil {
		return nil, err
	}
	l.publishTypes(false)
	if d := l.depthL.Depth(); d != before {
		l.depthLive.set(searchers.ModelSpec{Terms: []searchers.ModelTerm{{Name: l.our.Name, Depth: d, Text: l.our.Name}}}, nil)
	}
	return scores, nil
}

// states returns each learner's state as JSON, by model name.
func (l *learners) states() (map[string]json.RawMessage, error) {
	out := map[string]json.RawMessage{}
	for name, v := range map[string]any{learn.ModelTypeProbs: l.types.State(), learn.ModelDepth: l.depthL.State(),
		searchers.DiscrepancyModelName: l.disc.Counts()} {
		data, err := json.Marshal(v)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		out[name] = data
	}
	return out, nil
}
