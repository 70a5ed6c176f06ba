// The Player's risk options and live model: ModelRisk and MemoryRisk, read at every move, and the live
// opponent model its model searches play against.

package player

import "dossier/bots/searchers"

// riskPart is the state of the risk options beside the configuration (which holds their values); the Player's
// lock guards it.
type riskPart struct {
	// memorySet says that MemoryRisk was configured or set (SetMemoryRisk): else it follows the game.
	memorySet bool
}

// SetModelRisk sets the ModelRisk (the option of that name; 0 too, which New's configuration cannot
// say): the guard and the game memory read it at every move, so the searcher is not rebuilt.
func (p *Engine) SetModelRisk(n int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cfg.ModelRisk = n
}

// SetMemoryRisk sets the MemoryRisk option: how far below its best our own search may value the move the
// game memory plays (0: only moves worth our best).
func (p *Engine) SetMemoryRisk(n int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cfg.MemoryRisk = n
	p.risk.memorySet = true
}

// memoryRiskLocked returns the MemoryRisk now: the one set, else the current game's default. p.mu is held.
func (p *Engine) memoryRiskLocked() int {
	if p.risk.memorySet {
		return p.cfg.MemoryRisk
	}
	return searchers.DefaultMemoryRisk(p.game)
}

// memoryRisk returns the MemoryRisk now.
func (p *Engine) memoryRisk() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.memoryRiskLocked()
}

// modelRisk returns the ModelRisk now.
func (p *Engine) modelRisk() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.cfg.ModelRisk
}

// SetLiveModel gives the Player's model searches a live opponent model (nil: none); it stays through every
// later change of option, which rebuilds the searcher around it.
func (p *Engine) SetLiveModel(m searchers.LiveModel) {
	p.configure(func(c *searchers.Config) { c.Live = m })
}
