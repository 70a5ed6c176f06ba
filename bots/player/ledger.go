// The Player's even-game ledger: each opponent's handicap per time control (learn.EvenState), folded over
// every result the memory holds (every process's) at each new game, set on the weak searcher before each
// search and updated after every result.

package player

import (
	"encoding/json"
	"sync"
	"time"

	"dossier/bots/searchers"
	"dossier/engine"
	"dossier/games"
	"dossier/memory/learn"
	"dossier/play"

	"go.uber.org/zap"
)

// ledger is the even-game state of every opponent met, with its own lock; it reads and files the states
// through the filer (the order is the ledger's lock, then the filer's).
type ledger struct {
	mu     sync.Mutex
	filer  *filer
	states map[string]*learn.EvenState // by opponent key
	tc     string                      // the current game's time control, which picks the record
	folds  sync.WaitGroup              // the folds after a result still running
	// results counts the results and loads per opponent: a fold installs its state only when none came
	// after the one it folded for, else an earlier game's fold finishing late would put an older state back.
	results map[string]int
}

// newLedger returns an empty ledger filing through f.
func newLedger(f *filer) *ledger {
	return &ledger{filer: f, states: map[string]*learn.EvenState{}, results: map[string]int{}}
}

// stateLocked returns the even-game state of the opponent key, read from the memory when first needed (a
// fresh state when the memory has none or cannot be read, which is logged). l.mu is held.
func (l *ledger) stateLocked(key string) *learn.EvenState {
	if s, ok := l.states[key]; ok {
		return s
	}
	s := l.read(key)
	l.states[key] = s
	return s
}

// read folds the opponent's stored even-game results (see foldEven), without filing anything; a memory that
// cannot be read gives a fresh state, which is logged.
func (l *ledger) read(key string) *learn.EvenState {
	l.filer.ensureOpen()
	mem := l.filer.memory()
	if mem == nil {
		return learn.FoldEven(nil, nil)
	}
	s, err := foldEven(mem, key, nil)
	if err != nil {
		l.filer.logger().Warn("cannot read the even-game state; starting afresh", zap.String("opponent", key), zap.Error(err))
		return learn.FoldEven(nil, nil)
	}
	return s
}

// load reads the opponent's state again now, off the clock (at every new game: other processes on the
// memory may have filed results since).
func (l *ledger) load(key string) {
	s := l.read(key)
	l.mu.Lock()
	defer l.mu.Unlock()
	l.states[key] = s
	l.results[key]++
}

// startGame takes the new game's time control.
func (l *ledger) startGame(timeControl string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.tc = timeControl
}

// level returns the rating the even mode plays at against the opponent at the current time control.
func (l *ledger) level(key string) float64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.stateLocked(key).Record(l.tc).Level
}

// result updates the opponent's record at the current time control with a finished game's score, files the
// game's result (learn.EvenResult, the ledger's contribution of the game gameID) and, in the background,
// the state folded over every stored result.
func (l *ledger) result(key string, g games.Game, score float64, gameID string) {
	res := learn.EvenResult{Version: learn.EvenResultVersion, Score: score}
	l.mu.Lock()
	res.TimeControl = l.tc
	l.stateLocked(key).Record(l.tc).Update(res.Score)
	l.results[key]++
	mine := l.results[key]
	l.mu.Unlock()
	if gameID == "" {
		return
	}
	raw, err := json.Marshal(res)
	if err != nil {
		l.filer.logger().Error("cannot encode the even-game result", zap.Error(err))
		return
	}
	l.filer.recordModelAt(key, learn.EvenResultModel, raw, gameID, time.Now())
	mem := l.filer.memory()
	if mem == nil {
		return
	}
	l.folds.Add(1)
	go func() {
		defer l.folds.Done()
		s, err := foldEven(mem, key, func(model string, state json.RawMessage, at time.Time, id string) {
			l.filer.recordModelAt(key, model, state, id, at)
		})
		if err != nil {
			l.filer.logger().Warn("cannot fold the even-game results", zap.String("opponent", key), zap.Error(err))
			return
		}
		l.mu.Lock()
		if l.results[key] == mine {
			l.states[key] = s
		}
		l.mu.Unlock()
	}()
}

// record returns a copy of the opponent's record at a time control.
func (l *ledger) record(key, timeControl string) learn.EvenRecord {
	l.mu.Lock()
	defer l.mu.Unlock()
	return *l.stateLocked(key).Record(timeControl)
}

// playsEven reports whether the configuration learns an even game (Mode even without UCI_LimitStrength).
func playsEven(cfg searchers.Config) bool {
	weak, _ := cfg.Weakens()
	return weak && !cfg.LimitStrength
}

// evenLevel sets the weak searcher's rating from the current opponent's record at the current time
// control. p.mu must be held.
func (p *Engine) evenLevel(s engine.Searcher) {
	if w, ok := s.(*searchers.WeakSearcher); ok && playsEven(p.cfg) {
		w.SetLevel(p.ledger.level(p.current.Opponent.Key()))
	}
}

// evenResult hands a finished game's result to the ledger when the Player learns an even game. p.mu must be
// held.
func (p *Engine) evenResult(score float64, gameID string) {
	if playsEven(p.cfg) && score >= 0 {
		p.ledger.result(p.current.Opponent.Key(), p.game, score, gameID)
	}
}

// EvenRecord returns a copy of the even-game record against an opponent at a time control, as the Player
// knows it now (reading the memory when first needed).
func (p *Engine) EvenRecord(o play.Opponent, timeControl string) learn.EvenRecord {
	return p.ledger.record(o.Key(), timeControl)
}

// prepareLedger reads the current opponent's even-game state again, off the clock, when the Player learns an
// even game.
func (p *Engine) prepareLedger() {
	p.mu.Lock()
	even, key := playsEven(p.cfg), p.opponent.Key()
	p.mu.Unlock()
	if even {
		p.ledger.load(key)
	}
}
