// Online learning of each opponent inside the Player: one background worker per game learns from the queue of
// the opponent's moves, scores every model on each move before it learns from it (the per-game yardstick), and
// files the yardstick in the opponent's profile; the learners' stored states are folds over the finished
// games (merge.go).

package player

import (
	"context"
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
	sink   func(*learning, learnItem, float64)
	bg     background // where the worker runs: between our searches, on a thread of the lowest priority

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
// each learned move with the probability the model in use gave it (-1 when none).
func newLearning(g games.Game, l *learners, load func() *learners, gameID, inUse string,
	sink func(*learning, learnItem, float64), bg background) *learning {
	w := &learning{l: l, gameID: gameID, inUse: inUse, sink: sink, bg: bg, done: make(chan struct{}),
		yard: learn.GameYardstick{Game: g.Name(), Scores: map[string]learn.Score{}}}
	w.cond = sync.NewCond(&w.mu)
	runAtLowPriority("dossier-learn", bg.nice, func() { w.run(load) })
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
			// Between our searches: the opponent's move arrives just before our search of the reply, and a
			// move learned beside it would share the core with it.
			leave := w.bg.enter()
			stopCounting := countBackgroundCPU()
			w.learnOne(it)
			stopCounting()
			leave()
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
		w.yard.Scores[learn.SearchModelName] = w.yard.Scores[learn.SearchModelName].Pool(searchPrediction(it.rec))
	}
	w.learned++
	w.mu.Unlock()
	prob := -1.0
	if s, ok := scores[w.inUse]; ok {
		prob = 0
		if s.Impossible == 0 {
			prob = min(math.Exp(s.LogLikelihood), 1) // a sure move can come out a rounding above 1
		}
	}
	if w.sink != nil {
		w.sink(w, it, prob)
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

// learnPrep is what prepareLearning read for an opponent and a game, off the clock.
type learnPrep struct {
	key, game, preset string
	l                 *learners
	choice            autoChoice
}

// learningPart is the Player's online learning, with its own lock: the learners read off the clock for the
// next game, the game's worker, the live moves the worker may still file, and what Search auto chose at the
// game's start. The order is the Player's lock, then this one's, then the filer's; the worker's sink takes
// this lock alone.
type learningPart struct {
	mu    sync.Mutex
	filer *filer
	bg    background // where the workers and folds run (set at New; nice follows BackgroundNice)
	// readingDone waits for the Player's reading of the memory for the next game (set at New; nil: none).
	readingDone func()
	worker      *learning      // the current game's worker (nil: none)
	prepared    *learnPrep     // what prepare read for the next game (nil: nothing)
	live        map[int]string // the current game's opponent moves by ply, as observed and not taken back
	auto        autoChoice     // what Search auto plays in the game in progress
	serial      uint64         // counts the games auto chose for

	foldMu sync.Mutex     // one fold of the stored games at a time (see foldLearners)
	folds  sync.WaitGroup // the folds after a game's end still running
}

// newLearningPart returns the learning of a Player filing through f.
func newLearningPart(f *filer, bg background) *learningPart { return &learningPart{filer: f, bg: bg} }

// prepareLearning reads the opponent's learned models and yardsticks from the memory and decides what Search
// auto plays: at a new game and when the opponent is named, never on the clock. Without a memory it forgets
// what it had.
func (p *Engine) prepareLearning() {
	p.mu.Lock()
	key, g, cfg := p.learnerKey(), p.game, p.cfg
	p.mu.Unlock()
	p.learning.prepare(key, g, cfg)
}

// prepare is prepareLearning's reading, for the opponent key in game g under the configuration cfg.
func (l *learningPart) prepare(key string, g games.Game, cfg searchers.Config) {
	mem, log := l.filer.memory(), l.filer.logger()
	if mem == nil {
		l.mu.Lock()
		l.prepared = nil
		l.mu.Unlock()
		return
	}
	our, err := learnedPreset(g, cfg)
	if err != nil {
		return
	}
	// Read again at every new game, even for the opponent read last: another process on the memory may have
	// finished games since, and the learners are a fold over all of them.
	prep := l.loadLearning(mem, key, g, our, log)
	l.mu.Lock()
	l.prepared = prep
	l.mu.Unlock()
}

// learnedPreset is our own preset as the learners take it (their minimax and depth models use its
// evaluation): the configured one, or the game's default when the configuration names another game's.
func learnedPreset(g games.Game, cfg searchers.Config) (presets.Preset, error) {
	if our, err := presets.Lookup(g, cfg.Preset); err == nil {
		return our, nil
	}
	return presets.Lookup(g, presets.Default)
}

// loadLearning builds the opponent's learners from their states folded over every game the memory holds
// (filing the folded states it had to compute) and its yardsticks, and auto's choice.
func (l *learningPart) loadLearning(mem *memory.Memory, key string, g games.Game, our presets.Preset, log *zap.Logger) *learnPrep {
	models, prof, err := l.fold(mem, key, g, our)
	if err != nil {
		log.Warn("cannot read the opponent's learned models; learning anew", zap.String("opponent", key), zap.Error(err))
		models = nil
	}
	if prof != nil {
		if models == nil {
			models = map[string][]memory.ModelPoint{}
		}
		models[learn.ModelYardstick] = prof.Models[learn.ModelYardstick]
	}
	return buildLearning(key, g, our, models, log)
}

// buildLearning builds an opponent's learners and auto's choice from the models given (as newLearners takes them).
func buildLearning(key string, g games.Game, our presets.Preset, models map[string][]memory.ModelPoint, log *zap.Logger) *learnPrep {
	l, err := newLearners(key, g, our, models)
	if err != nil {
		log.Warn("no learners for the game", zap.String("game", g.Name()), zap.Error(err))
		return nil
	}
	return &learnPrep{key: key, game: g.Name(), preset: our.Name, l: l, choice: chooseAuto(l)}
}

// start starts the game's worker for the game gameID ("": not filed) against the opponent key, with the
// learners read at the new game, or, when the game started without one (or for another opponent), read now in
// the background: auto then plays alpha-beta.
func (l *learningPart) start(gameID, key string, g games.Game, cfg searchers.Config) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.stopLocked()
	l.serial++
	l.auto = autoChoice{Search: searchers.AlphaBetaSearch, Why: "auto: alphabeta (no memory)", Serial: l.serial}
	mem := l.filer.memory()
	if mem == nil || gameID == "" {
		return
	}
	prep := l.prepared
	l.prepared = nil // the learners now belong to this game; the next game reads what it leaves
	l.live = map[int]string{}
	inUse := ""
	if cfg.Search == "" || strings.EqualFold(cfg.Search, searchers.AlphaBetaSearch) || strings.EqualFold(cfg.Search, searchers.AutoSearch) {
		inUse = learn.MinimaxModelName
	}
	if prep != nil && prep.key == key && prep.game == g.Name() {
		l.auto = prep.choice
		l.auto.Serial = l.serial
		if l.auto.Model != "" {
			inUse = l.auto.Model
		}
		l.worker = newLearning(g, prep.l, nil, gameID, inUse, l.learnedMove, l.bg)
		return
	}
	l.auto.Why = "auto: alphabeta (the game started without a new game or the opponent's name: its profile is read during the game)"
	log := l.filer.logger()
	// The worker reads the profile itself, before the first move it learns, so that no search waits for it: what
	// the reading of the memory for this game finds when it is under way (a front end that sent go without
	// isready), else its own reading.
	readingDone := l.readingDone
	load := func() *learners {
		if readingDone != nil {
			readingDone()
			l.mu.Lock()
			prep := l.prepared
			if prep != nil && prep.key == key && prep.game == g.Name() {
				l.prepared = nil
				l.mu.Unlock()
				return prep.l
			}
			l.mu.Unlock()
		}
		our, err := learnedPreset(g, cfg)
		if err != nil {
			return nil
		}
		if prep := l.loadLearning(mem, key, g, our, log); prep != nil {
			return prep.l
		}
		return nil
	}
	l.worker = newLearning(g, nil, load, gameID, inUse, l.learnedMove, l.bg)
}

// stopLocked drops the worker of a game that was never reported over (l.mu held), stopping it in the
// background; nothing is filed (see save).
func (l *learningPart) stopLocked() {
	w := l.worker
	l.worker = nil
	if w != nil {
		go l.save(w)
	}
}

// take hands over the current game's worker (nil: none), which then learns no more moves of the game.
func (l *learningPart) take() *learning {
	l.mu.Lock()
	defer l.mu.Unlock()
	w := l.worker
	l.worker = nil
	return w
}

// save stops the worker of a game that did not end (without l.mu), waiting for the moves queued as the end
// of a game does. Nothing is filed: the stored states are folds over finished games (see foldLearners), and
// a game without an end has no place in their order.
func (l *learningPart) save(w *learning) {
	if w == nil {
		return
	}
	_, _, _ = w.finish(learnWait)
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

// queue hands an observed opponent move, with its record as filed (nil: none), to the worker.
func (l *learningPart) queue(om play.ObservedMove, obs Observation, rec *memory.MoveRecord) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.worker != nil {
		l.live[obs.Ply] = obs.Move
		l.worker.add(learnItem{pos: om.Before.Clone(), move: om.Move, ply: om.Ply, rec: rec})
	}
}

// takeBack forgets the opponent's moves beyond the first keep moves of the game.
func (l *learningPart) takeBack(keep int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.worker != nil {
		l.worker.takeBack(keep)
	}
	for ply := range l.live {
		if ply >= keep {
			delete(l.live, ply)
		}
	}
}

// learnedMove is the worker's sink: it files the move again with the probability the model in use gave it
// (a move's record sits under its own key, so the second write replaces the first) unless the move was taken
// back meanwhile. The learners' states are not filed: the stored states are folds over finished games (see
// foldLearners), which the end of this game extends.
func (l *learningPart) learnedMove(w *learning, it learnItem, prob float64) {
	if it.rec != nil && prob >= 0 && w.gameID != "" {
		l.mu.Lock()
		still := true
		if l.worker == w { // the game goes on: a take-back may have removed the move
			still = l.live[it.ply] == it.rec.Move
		}
		l.mu.Unlock()
		if still {
			rec := *it.rec
			rec.Probability = prob
			l.filer.recordBackground(memory.Event{Move: &rec})
		}
	}
}

// finish waits for a finished game's worker (bounded by learnWait, never under a lock), files the game's
// yardstick with the game's ID, and folds the stored games again in the background, this one included (its
// end was filed before), so that the stored states count every finished game; the next game reads the
// opponent afresh.
func (l *learningPart) finish(w *learning) {
	if w == nil {
		return
	}
	yard, _, err := w.finish(learnWait)
	if err != nil {
		l.filer.logger().Warn("learning from the opponent's moves failed", zap.Error(err))
	}
	if key := w.key(); key != "" {
		if mem := l.filer.memory(); mem != nil {
			g, our := w.l.game, w.l.our
			l.folds.Add(1)
			runAtLowPriority("dossier-fold", l.background().nice, func() {
				defer l.folds.Done()
				defer countBackgroundCPU()()
				if _, _, err := l.fold(mem, key, g, our); err != nil {
					l.filer.logger().Warn("cannot fold the stored games into the learners", zap.String("opponent", key), zap.Error(err))
				}
				collectBetweenSearches(context.Background(), l.background().fg)
			})
		}
		if len(yard.Scores) > 0 {
			if data, err := json.Marshal(yard); err == nil {
				l.filer.recordModel(key, learn.ModelYardstick, data, w.gameID)
			}
		}
	}
	l.mu.Lock()
	l.prepared = nil
	l.mu.Unlock()
}

// choice returns what Search auto plays in the game in progress.
func (l *learningPart) choice() autoChoice {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.auto
}

// preparedNow returns what prepare read for the next game (nil: nothing), for tests.
func (l *learningPart) preparedNow() *learnPrep {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.prepared
}

// learnerKey is the opponent key learning files under (p.mu held): the name the front end gave, or for an
// unnamed opponent the stored opponent it was identified as, play.UnknownKey before that.
func (p *Engine) learnerKey() string { return p.opponentKeyLocked() }

// background returns where the workers and folds run.
func (l *learningPart) background() background {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.bg
}

// setNice sets the priority of the next workers and folds (BackgroundNice).
func (l *learningPart) setNice(nice int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.bg.nice = nice
}
