// Online learning of each opponent inside the Player: one background worker per game learns from the queue of
// the opponent's moves, scores every model on each move before it learns from it (the per-game yardstick), and
// files the learners' states and the yardstick in the opponent's profile.
package player

import (
	"encoding/json"
	"errors"
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
