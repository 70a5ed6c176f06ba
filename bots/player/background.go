// What the work between games may take: the preparation's time after each game's analysis, and the niceness
// of the thread both run on, as UCI options (PrepareTime, BackgroundNice).

package player

import "time"

// Defaults and bounds of the options. The preparation is off until set: it changes the moves of the next game
// (prepared moves are played where the search is shallower), and memory-on against memory-off with it on showed
// no significant gain against opponents on a clock (docs/log/experiments.md, session 11); `dossier memory prepare`
// runs it by hand. Both run at the lowest priority.
const (
	defaultPrepareSeconds = 0
	maxPrepareSeconds     = 3600
	defaultBackgroundNice = 19
)

// backgroundLimits bound the analyst's work between games. The Player's lock guards them.
type backgroundLimits struct {
	prepare time.Duration // 0: no preparation
	nice    int
}

func defaultBackground() backgroundLimits {
	return backgroundLimits{prepare: defaultPrepareSeconds * time.Second, nice: defaultBackgroundNice}
}

// setPrepareSeconds sets the time of the preparation after each game (0: none), from the next game's end on.
func (p *Engine) setPrepareSeconds(n int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.background.prepare = time.Duration(max(0, min(n, maxPrepareSeconds))) * time.Second
}

// setBackgroundNice sets the niceness of the analysis and preparation thread (0..19).
func (p *Engine) setBackgroundNice(n int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.background.nice = max(0, min(n, 19))
	p.learning.setNice(p.background.nice)
}
