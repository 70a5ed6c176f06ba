// The even-game mode's learning: a handicap per opponent and time control, adjusted after every result as
// dynamic scripting with top culling adjusts its weight cap, with a rating estimate of the opponent, kept in
// the memory as the "even" model.
package player

import (
	"encoding/json"

	"dossier/bots/searchers"
	"dossier/engine"
	"dossier/memory/learn"
	"dossier/play"

	"go.uber.org/zap"
)

// evenState returns the even-game state of the opponent key, read from the memory when first needed (a
// fresh state when the memory has none or cannot be read, which is logged). p.mu must be held.
func (p *Engine) evenState(key string) *learn.EvenState {
	if s, ok := p.even[key]; ok {
		return s
	}
	s := &learn.EvenState{Version: learn.EvenStateVersion}
	raw, err := p.filer.latestModel(key, learn.EvenModel)
	if err == nil && raw != nil {
		var stored *learn.EvenState
		if stored, err = learn.ParseEvenState(raw); err == nil {
			s = stored
		}
	}
	if err != nil {
		p.filer.logger().Warn("cannot read the even-game state; starting afresh", zap.String("opponent", key), zap.Error(err))
	}
	if p.even == nil {
		p.even = map[string]*learn.EvenState{}
	}
	p.even[key] = s
	return s
}

// playsEven reports whether the configuration learns an even game (Mode even without UCI_LimitStrength).
func playsEven(cfg searchers.Config) bool {
	weak, _ := cfg.Weakens()
	return weak && !cfg.LimitStrength
}

// evenHandicap sets the weak searcher's handicap from the current opponent's record at the current time
// control. p.mu must be held.
func (p *Engine) evenHandicap(s engine.Searcher) {
	w, ok := s.(*searchers.WeakSearcher)
	if !ok || !playsEven(p.cfg) {
		return
	}
	rec := p.evenState(p.current.Opponent.Key()).Record(p.evenTC)
	w.SetHandicapPawns(rec.Handicap)
}

// evenResult updates the current opponent's even-game record with a finished game's result and files the
// new state in the memory after the game gameID. p.mu must be held.
func (p *Engine) evenResult(score float64, gameID string) {
	if !playsEven(p.cfg) || score < 0 {
		return
	}
	key := p.current.Opponent.Key()
	state := p.evenState(key)
	state.Record(p.evenTC).Update(score, searchers.MaxLearnedHandicap(p.game))
	raw, err := json.Marshal(state)
	if err != nil {
		p.filer.logger().Error("cannot encode the even-game state", zap.Error(err))
		return
	}
	p.filer.recordModel(key, learn.EvenModel, raw, gameID)
}

// EvenRecord returns a copy of the even-game record against an opponent at a time control, as the Player
// knows it now (reading the memory when first needed).
func (p *Engine) EvenRecord(o play.Opponent, timeControl string) learn.EvenRecord {
	p.mu.Lock()
	defer p.mu.Unlock()
	return *p.evenState(o.Key()).Record(timeControl)
}
