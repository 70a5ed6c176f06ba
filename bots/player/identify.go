// The Player's identifier of an unnamed opponent: built from the memory off the clock, fed every observed
// move, announced in the next search's info.
package player

import (
	"fmt"
	"sync"

	"dossier/engine"
	"dossier/memory/learn"
	"dossier/play"

	"go.uber.org/zap"
)

// identifier is the Player's identifier of an unnamed opponent, kept across the games of the session while
// the opponent stays unnamed and the game the same, with its own lock.
type identifier struct {
	mu     sync.Mutex
	id     *learn.Identifier // nil: none (a named opponent, no memory)
	said   string            // the key announced last
	notice string            // the announcement for the next search's info, "" when none
}

// has reports whether there is an identifier of the game called game.
func (s *identifier) has(game string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.id != nil && s.id.Game() == game
}

// set replaces the identifier (nil: none) and forgets what was announced.
func (s *identifier) set(id *learn.Identifier) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.id, s.said, s.notice = id, "", ""
}

// startGame begins a game of the session.
func (s *identifier) startGame() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.id != nil {
		s.id.StartGame()
	}
}

// observe adds an opponent move and, when it makes a stored opponent the identified one, prepares the info.
func (s *identifier) observe(om play.ObservedMove) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.id == nil || om.Before == nil {
		return
	}
	s.id.Observe(om.Before, om.Move, om.Ply)
	if c, ok := s.id.Identified(); ok && c.Key != s.said {
		s.said = c.Key
		s.notice = fmt.Sprintf("identified: %s (p=%.3f)", c.Key, c.Probability)
	}
}

// takeBack removes the evidence of the moves taken back.
func (s *identifier) takeBack(keep int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.id != nil {
		s.id.TakeBack(keep)
	}
}

// takeNotice returns, once, the announcement of an identification.
func (s *identifier) takeNotice() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := s.notice
	s.notice = ""
	return n
}

// identified returns the stored opponent identified, if any.
func (s *identifier) identified() (learn.IdentifyCandidate, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.id == nil {
		return learn.IdentifyCandidate{}, false
	}
	return s.id.Identified()
}

// ranking returns the ranking of the stored opponents and someone new, nil without an identifier.
func (s *identifier) ranking() []learn.IdentifyCandidate {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.id == nil {
		return nil
	}
	return s.id.Ranking()
}

// prepareIdentifier builds the identifier from the memory when the opponent gave no name and there is none for
// this game yet, and drops it when the opponent is named. It reads the memory, so it runs off the clock (a new
// game, the opponent's name).
func (p *Engine) prepareIdentifier() {
	p.mu.Lock()
	mem, unnamed, g, log := p.filer.memory(), p.opponent.Key() == play.UnknownKey, p.game, p.filer.logger()
	have := p.ident.has(g.Name())
	if !unnamed || mem == nil {
		p.ident.set(nil)
	}
	p.mu.Unlock()
	if !unnamed || mem == nil || have {
		return
	}
	stored, err := learn.LoadOpponentGames(mem, g)
	if err != nil {
		log.Warn("cannot identify the unnamed opponent", zap.Error(err))
		return
	}
	id, err := learn.NewIdentifier(g, stored, learn.IdentifierOptions{})
	if err != nil {
		log.Warn("cannot identify the unnamed opponent", zap.Error(err))
		return
	}
	log.Debug("identifier built", zap.Int("opponents", id.Opponents()), zap.Int("positions", id.Positions()))
	p.mu.Lock()
	if p.opponent.Key() == play.UnknownKey && p.game.Name() == g.Name() {
		p.ident.set(id)
	}
	p.mu.Unlock()
}

// opponentKeyLocked is the key whose memory the Player plays with (p.mu held): the opponent's, or, for an
// unnamed opponent the identifier has named, the identified opponent's, so that the next game against it
// plays its game memory and learns into its models (identification is only ever used from a new game on:
// what is read for it comes from the memory, off the clock).
func (p *Engine) opponentKeyLocked() string {
	key := p.opponent.Key()
	if key == play.UnknownKey {
		if c, ok := p.ident.identified(); ok && c.Key != learn.NewOpponentKey {
			return c.Key
		}
	}
	return key
}

// reportIdentified tells the front end, once, that the unnamed opponent was identified.
func (p *Engine) reportIdentified(report func(engine.Info)) {
	if n := p.ident.takeNotice(); n != "" && report != nil {
		report(engine.Info{Text: n})
	}
}

// Identified returns the stored opponent the unnamed opponent was identified as (its posterior above the
// threshold over the moves of the session's unnamed games), and false while there is none (a named opponent,
// no memory, too little evidence).
func (p *Engine) Identified() (learn.IdentifyCandidate, bool) { return p.ident.identified() }

// IdentifyRanking returns the identifier's ranking of the stored opponents and someone new, nil when there is
// no identifier (a named opponent, no memory).
func (p *Engine) IdentifyRanking() []learn.IdentifyCandidate { return p.ident.ranking() }
