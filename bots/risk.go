// The Player's risk options and live model: ModelRisk and MemoryRisk, read at every move, and the live
// opponent model its model searches play against.
package bots

import "dossier/bots/searchers"

// SetModelRisk sets the ModelRisk (the option of that name; 0 too, which NewPlayer's configuration cannot
// say): the guard and the game memory read it at every move, so the searcher is not rebuilt.
func (p *Player) SetModelRisk(n int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cfg.ModelRisk = n
}

// SetMemoryRisk sets the MemoryRisk option: how far below its best our own search may value the move the
// game memory plays (0: only moves worth our best).
func (p *Player) SetMemoryRisk(n int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cfg.MemoryRisk = n
	p.memoryRiskSet = true
}

// memoryRiskLocked returns the MemoryRisk now: the one set, else the current game's default. p.mu is held.
func (p *Player) memoryRiskLocked() int {
	if p.memoryRiskSet {
		return p.cfg.MemoryRisk
	}
	return searchers.DefaultMemoryRisk(p.game)
}

// memoryRisk returns the MemoryRisk now.
func (p *Player) memoryRisk() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.memoryRiskLocked()
}

// modelRisk returns the ModelRisk now.
func (p *Player) modelRisk() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.cfg.ModelRisk
}

// SetLiveModel gives the Player's model searches a live opponent model (nil: none); it stays through every
// later change of option, which rebuilds the searcher around it.
func (p *Player) SetLiveModel(m searchers.LiveModel) {
	p.configure(func(c *searchers.Config) { c.Live = m })
}
