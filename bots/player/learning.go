// Online learning of each opponent inside the Player: one background worker per game learns from the queue of
// the opponent's moves, scores every model on each move before it learns from it (the per-game yardstick), and
// files the learners' states and the yardstick in the opponent's profile.
package player

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"time"

	"dossier/bots/presets"
	"dossier/bots/searchers"
	"dossier/games"
	"dossier/memory"
	"dossier/memory/learn"
	"dossier/play"

	"go.uber.org/zap"
)

// Settings of the online learners. Their depths keep a learner's cost per opponent move at a few
// milliseconds (BenchmarkLearnMove measures it): the worker runs beside our search on the same cores.
const (
	// persistEvery is how many opponent moves the worker learns between two mid-game saves of the learners'
	// states, so that a killed process loses at most that many moves of learning.
	persistEvery = 10
	// learnWait bounds how long the end of a game waits for the worker to learn the moves still queued.
	learnWait = 5 * time.Second
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
	latest := func(name string, accept func(json.RawMessage) bool) {
		points := models[name]
		for i := len(points) - 1; i >= 0; i-- {
			if accept(points[i].State) {
				return
			}
		}
	}
	latest(learn.ModelTypeProbs, func(raw json.RawMessage) bool {
		var st learn.TypeLearnerState
		if json.Unmarshal(raw, &st) != nil {
			return false
		}
		for _, t := range st.Types {
			if _, err := presets.Lookup(g, t.Eval.Name); err != nil {
				return false
			}
		}
		tl, err := learn.NewTypeLearner(g, st)
		l.types = tl
		return err == nil
	})
	if l.types == nil {
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
	latest(learn.ModelDepth, func(raw json.RawMessage) bool {
		var st learn.DepthLearnerState
		if json.Unmarshal(raw, &st) != nil || st.Eval.Name != our.Name {
			return false
		}
		dl, err := learn.NewDepthLearner(g, st)
		l.depthL = dl
		return err == nil
	})
	if l.depthL == nil {
		dl, err := learn.NewDepthLearner(g, learn.DepthLearnerState{Eval: our.Eval, MaxDepth: d})
		if err != nil {
			return nil, err
		}
		l.depthL = dl
	}
	latest(searchers.DiscrepancyModelName, func(raw json.RawMessage) bool {
		var c learn.DiscrepancyCounts
		if json.Unmarshal(raw, &c) != nil || c.Check() != nil || c.Game != g.Name() || c.Evaluation != our.Name {
			return false
		}
		dl, err := searchers.RestoreDiscrepancyLearner(g, &c, 1)
		l.disc = dl
		return err == nil
	})
	if l.disc == nil {
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

// SearchModelName names, in the yardstick, minimax's implicit model as our own search holds it: the reply its
// principal variation predicted, at the depth it reached. It is the baseline auto's models must beat besides
// the learners' fixed-depth minimax, which at 1 or 2 plies predicts far worse than a real search (on
// Glaurung's moves, 25-35% against the search's 50%). It scores only the moves the search predicted.
const SearchModelName = "search"

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

// learnItem is one queued opponent move.
type learnItem struct {
	pos  games.Position
	move games.Move
	ply  int
	rec  *memory.MoveRecord // the move's record as filed, nil without a memory
}

// learning is one game's learning worker: a queue of the opponent's moves and the goroutine that learns from
// them, never on our clock.
type learning struct {
	l      *learners
	gameID string
	inUse  string // the model whose probability of each move is filed with it ("" for none)
	sink   func(*learning, learnItem, float64, map[string]json.RawMessage)

	mu      sync.Mutex
	cond    *sync.Cond
	queue   []learnItem
	closed  bool
	drop    bool // give up the queue: the end of the game waited long enough
	done    chan struct{}
	yard    learn.GameYardstick
	learned int   // opponent moves learned this game
	err     error // the first error a move gave (the worker goes on with the next)
}

// newLearning starts the worker of a game with the learners l, or with those load returns when l is nil (the
// worker calls it first, off the clock; nil learners learn nothing). sink receives, on the worker's goroutine,
// each learned move with the probability the model in use gave it (-1 when none) and, every persistEvery
// moves, the learners' states.
func newLearning(g games.Game, l *learners, load func() *learners, gameID, inUse string,
	sink func(*learning, learnItem, float64, map[string]json.RawMessage)) *learning {
	w := &learning{l: l, gameID: gameID, inUse: inUse, sink: sink, done: make(chan struct{}),
		yard: learn.GameYardstick{Game: g.Name(), Scores: map[string]learn.Score{}}}
	w.cond = sync.NewCond(&w.mu)
	go w.run(load)
	return w
}

// add queues an opponent move.
func (w *learning) add(it learnItem) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return
	}
	w.queue = append(w.queue, it)
	w.cond.Signal()
}

// takeBack drops the queued moves from ply keep on. Moves already learned stay learned: each was still the
// opponent's choice in its position, which is what the learners learn from (and the yardstick keeps its score).
func (w *learning) takeBack(keep int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.queue = slices.DeleteFunc(w.queue, func(it learnItem) bool { return it.ply >= keep })
}

// run is the worker's loop.
func (w *learning) run(load func() *learners) {
	defer close(w.done)
	if w.l == nil && load != nil {
		l := load()
		w.mu.Lock()
		w.l = l
		w.mu.Unlock()
	}
	for {
		w.mu.Lock()
		for len(w.queue) == 0 && !w.closed {
			w.cond.Wait()
		}
		if len(w.queue) == 0 || w.drop {
			w.mu.Unlock()
			return
		}
		it := w.queue[0]
		w.queue = w.queue[1:]
		w.mu.Unlock()
		if w.l != nil {
			w.learnOne(it)
		}
	}
}

// learnOne scores and learns one move and hands it to the sink.
func (w *learning) learnOne(it learnItem) {
	scores, err := w.l.scoreAndLearn(it.pos, it.move)
	w.mu.Lock()
	if err != nil {
		if w.err == nil {
			w.err = err
		}
		w.mu.Unlock()
		return
	}
	for name, s := range scores {
		w.yard.Scores[name] = w.yard.Scores[name].Pool(s)
	}
	if it.rec != nil && it.rec.Predicted != "" {
		w.yard.Scores[SearchModelName] = w.yard.Scores[SearchModelName].Pool(searchPrediction(it.rec))
	}
	w.learned++
	persist := w.learned%persistEvery == 0
	w.mu.Unlock()
	prob := -1.0
	if s, ok := scores[w.inUse]; ok {
		prob = 0
		if s.Impossible == 0 {
			prob = min(math.Exp(s.LogLikelihood), 1) // a sure move can come out a rounding above 1
		}
	}
	var states map[string]json.RawMessage
	if persist {
		states, _ = w.l.states()
	}
	if w.sink != nil {
		w.sink(w, it, prob, states)
	}
}

// finish waits (at most wait) for the queued moves to be learned, then stops the worker; what was still queued
// is dropped. It returns the game's yardstick and the learners' states, safe to read once the worker is done.
func (w *learning) finish(wait time.Duration) (learn.GameYardstick, map[string]json.RawMessage, error) {
	w.mu.Lock()
	w.closed = true
	w.cond.Broadcast()
	w.mu.Unlock()
	select {
	case <-w.done:
	case <-time.After(wait):
		w.mu.Lock()
		w.drop = true
		w.mu.Unlock()
		<-w.done // the move being learned takes milliseconds
	}
	if w.l == nil {
		return w.yard, nil, w.err
	}
	w.l.disc.CountGame()
	states, err := w.l.states()
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.yard, states, errors.Join(err, w.err)
}

// learnerKey is the opponent key learning files under (p.mu held): the name the front end gave, or for an
// unnamed opponent the stored opponent it was identified as, play.UnknownKey before that.
func (p *Engine) learnerKey() string { return p.opponentKeyLocked() }

// learnPrep is what prepareLearning read for an opponent and a game, off the clock.
type learnPrep struct {
	key, game, preset string
	l                 *learners
	choice            autoChoice
}

// prepareLearning reads the opponent's learned models and yardsticks from the memory and decides what Search
// auto plays: at a new game and when the opponent is named, never on the clock. Without a memory it forgets
// what it had.
func (p *Engine) prepareLearning() {
	p.mu.Lock()
	mem, key, g, log, cfg := p.filer.memory(), p.learnerKey(), p.game, p.filer.logger(), p.cfg
	prep := p.prepared
	p.mu.Unlock()
	if mem == nil {
		p.mu.Lock()
		p.prepared = nil
		p.mu.Unlock()
		return
	}
	our, err := learnedPreset(g, cfg)
	if err != nil {
		return
	}
	if prep != nil && prep.key == key && prep.game == g.Name() && prep.preset == our.Name {
		return // read already, and no game has ended since (GameOver forgets it)
	}
	prep = loadLearning(mem, key, g, our, log)
	p.mu.Lock()
	p.prepared = prep
	p.mu.Unlock()
}

// learnedPreset is our own preset as the learners take it (their minimax and depth models use its
// evaluation): the configured one, or the game's default when the configuration names another game's.
func learnedPreset(g games.Game, cfg searchers.Config) (presets.Preset, error) {
	if our, err := presets.Lookup(g, cfg.Preset); err == nil {
		return our, nil
	}
	return presets.Lookup(g, presets.Default)
}

// loadLearning reads the opponent's models from the memory and builds its learners and auto's choice.
func loadLearning(mem *memory.Memory, key string, g games.Game, our presets.Preset, log *zap.Logger) *learnPrep {
	var models map[string][]memory.ModelPoint
	prof, err := mem.Profile(key)
	switch {
	case err == nil:
		models = prof.Models
	case !errors.Is(err, memory.ErrUnknownOpponent):
		log.Warn("cannot read the opponent's learned models; learning anew", zap.String("opponent", key), zap.Error(err))
	}
	l, err := newLearners(key, g, our, models)
	if err != nil {
		log.Warn("no learners for the game", zap.String("game", g.Name()), zap.Error(err))
		return nil
	}
	return &learnPrep{key: key, game: g.Name(), preset: our.Name, l: l, choice: chooseAuto(l)}
}

// startLearning starts the game's worker (p.mu held) with the learners read at the new game, or, when the
// game started without one (or for another opponent), read now in the background: auto then plays alpha-beta.
func (p *Engine) startLearning() {
	p.stopLearning()
	p.autoSerial++
	p.auto = autoChoice{Search: searchers.AlphaBetaSearch, Why: "auto: alphabeta (no memory)", Serial: p.autoSerial}
	if p.filer.memory() == nil || p.current.ID == "" {
		return
	}
	key, g := p.learnerKey(), p.game
	prep := p.prepared
	p.prepared = nil // the learners now belong to this game; the next game reads what it leaves
	inUse := ""
	if cfg := p.cfg; cfg.Search == "" || strings.EqualFold(cfg.Search, searchers.AlphaBetaSearch) || strings.EqualFold(cfg.Search, searchers.AutoSearch) {
		inUse = learn.MinimaxModelName
	}
	if prep != nil && prep.key == key && prep.game == g.Name() {
		p.auto = prep.choice
		p.auto.Serial = p.autoSerial
		if p.auto.Model != "" {
			inUse = p.auto.Model
		}
		p.learning = newLearning(g, prep.l, nil, p.current.ID, inUse, p.learnedMove)
		return
	}
	p.auto.Why = "auto: alphabeta (the game started without a new game or the opponent's name: its profile is read during the game)"
	mem, log, cfg := p.filer.memory(), p.filer.logger(), p.cfg
	// The worker reads the profile itself, before the first move it learns, so that no search waits for it.
	load := func() *learners {
		our, err := learnedPreset(g, cfg)
		if err != nil {
			return nil
		}
		if prep := loadLearning(mem, key, g, our, log); prep != nil {
			return prep.l
		}
		return nil
	}
	p.learning = newLearning(g, nil, load, p.current.ID, inUse, p.learnedMove)
}

// stopLearning drops the worker of a game that was never reported over (p.mu held): what it learned is saved
// as a mid-game state, in the background.
func (p *Engine) stopLearning() {
	w := p.learning
	p.learning = nil
	if w != nil {
		go p.saveLearning(w)
	}
}

// saveLearning stops a game's worker (without p.mu), waiting for the moves queued as the end of a game does,
// and files the learners' states as mid-game states.
func (p *Engine) saveLearning(w *learning) {
	if w == nil {
		return
	}
	_, states, _ := w.finish(learnWait)
	p.mu.Lock()
	defer p.mu.Unlock()
	if key := w.key(); key != "" {
		for name, st := range states {
			p.filer.recordModel(key, name, st, "")
		}
	}
}

// key returns the opponent key the game's learners file under.
func (w *learning) key() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.l == nil {
		return ""
	}
	return w.l.key
}

// queueLearning hands an observed opponent move to the worker (p.mu held).
func (p *Engine) queueLearning(om play.ObservedMove, rec *memory.MoveRecord) {
	if p.learning != nil {
		p.learning.add(learnItem{pos: om.Before.Clone(), move: om.Move, ply: om.Ply, rec: rec})
	}
}

// learnedMove is the worker's sink: it files the move again with the probability the model in use gave it
// (a move's record sits under its own key, so the second write replaces the first) unless the move was taken
// back meanwhile, and the learners' states when given.
func (p *Engine) learnedMove(w *learning, it learnItem, prob float64, states map[string]json.RawMessage) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if it.rec != nil && prob >= 0 && w.gameID != "" {
		still := true
		if p.learning == w { // the game goes on: a take-back may have removed the move
			still = slices.ContainsFunc(p.current.Moves, func(o Observation) bool { return o.Ply == it.ply && o.Move == it.rec.Move })
		}
		if still {
			rec := *it.rec
			rec.Probability = prob
			p.filer.record(memory.Event{Move: &rec})
		}
	}
	for name, st := range states {
		p.filer.recordModel(w.l.key, name, st, "") // the worker calls this, after it set w.l
	}
}

// finishLearning waits for the game's worker (bounded by learnWait, never under p.mu) and files the learners'
// states and the game's yardstick with the game's ID.
func (p *Engine) finishLearning(w *learning) {
	if w == nil {
		return
	}
	yard, states, err := w.finish(learnWait)
	p.mu.Lock()
	defer p.mu.Unlock()
	if err != nil {
		p.filer.logger().Warn("learning from the opponent's moves failed", zap.Error(err))
	}
	key := w.key()
	if key == "" {
		return
	}
	for name, st := range states {
		p.filer.recordModel(key, name, st, w.gameID)
	}
	if len(yard.Scores) > 0 {
		if data, err := json.Marshal(yard); err == nil {
			p.filer.recordModel(key, learn.ModelYardstick, data, w.gameID)
		}
	}
	p.prepared = nil
}
