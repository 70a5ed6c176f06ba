// The Player's even-game ledger: each opponent's handicap per time control (learn.EvenState), read from the
// memory when first needed, set on the weak searcher before each search and updated after every result.
package player

import (
	"encoding/json"
	"sync"

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
}

// newLedger returns an empty ledger filing through f.
func newLedger(f *filer) *ledger { return &ledger{filer: f, states: map[string]*learn.EvenState{}} }

// stateLocked returns the even-game state of the opponent key, read from the memory when first needed (a
// fresh state when the memory has none or cannot be read, which is logged). l.mu is held.
func (l *ledger) stateLocked(key string) *learn.EvenState {
	if s, ok := l.states[key]; ok {
		return s
	}
	s := &learn.EvenState{Version: learn.EvenStateVersion}
	raw, err := l.filer.latestModel(key, learn.EvenModel)
	if err == nil && raw != nil {
		var stored *learn.EvenState
		if stored, err = learn.ParseEvenState(raw); err == nil {
			s = stored
		}
	}
	if err != nil {
		l.filer.logger().Warn("cannot read the even-game state; starting afresh", zap.String("opponent", key), zap.Error(err))
	}
	l.states[key] = s
	return s
}

// load reads the opponent's state now, off the clock.
func (l *ledger) load(key string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.stateLocked(key)
}

// startGame takes the new game's time control.
func (l *ledger) startGame(timeControl string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.tc = timeControl
}

// handicap returns the opponent's handicap at the current time control, in pawns.
func (l *ledger) handicap(key string) float64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.stateLocked(key).Record(l.tc).Handicap
}

// result updates the opponent's record at the current time control with a finished game's score and files
// the new state in the memory after the game gameID.
func (l *ledger) result(key string, g games.Game, score float64, gameID string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	state := l.stateLocked(key)
	state.Record(l.tc).Update(score, searchers.MaxLearnedHandicap(g))
	raw, err := json.Marshal(state)
	if err != nil {
		l.filer.logger().Error("cannot encode the even-game state", zap.Error(err))
		return
	}
	l.filer.recordModel(key, learn.EvenModel, raw, gameID)
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

// evenHandicap sets the weak searcher's handicap from the current opponent's record at the current time
// control. p.mu must be held.
func (p *Engine) evenHandicap(s engine.Searcher) {
	if w, ok := s.(*searchers.WeakSearcher); ok && playsEven(p.cfg) {
		w.SetHandicapPawns(p.ledger.handicap(p.current.Opponent.Key()))
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
