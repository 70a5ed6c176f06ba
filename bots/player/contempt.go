// Contempt from the dossier: what a draw costs against the opponent, set at each new game from our results
// against it and the ratings the front end sent (learn.ContemptFromResults) when the MemoryContempt option asks
// for it and the Contempt option was not set, and told in an info string. It is off by default: it changes
// play, and its one measurement, memory on against off against Stockfish 2200 on a clock
// (docs/log/experiments.md, session 17), showed no gain (+3.7 ±18.1). Off, the same contempt still weighs the draw
// that the game memory may leave (drawContemptLocked in recall.go), and nothing else.

package player

import (
	"dossier/bots/presets"
	"dossier/bots/searchers"
	"dossier/engine"
	"dossier/games"
	"dossier/memory"
	"dossier/memory/learn"
	"dossier/play"
)

// contemptPart is the contempt the dossier set for the current opponent; the Player's lock guards it.
type contemptPart struct {
	// fromMemory is the MemoryContempt option: the dossier sets the contempt (when not fixed).
	fromMemory bool
	// fixed says that the Contempt option was set (or configured): the dossier then sets nothing.
	fixed bool
	// set is the contempt from the dossier now in the configuration, notice its info string for the next
	// search ("" once told, or when there is nothing to tell).
	set    learn.Contempt
	notice string
}

// prepareContempt reads our results against the opponent in game g from the memory, off the clock, and puts
// the contempt they say in the configuration (the searcher is rebuilt when it changes).
func (p *Engine) prepareContempt(g games.Game) {
	p.mu.Lock()
	off := p.contempt.fixed || !p.contempt.fromMemory
	mem, key, rating := p.filer.memory(), p.learnerKey(), p.ratingLocked()
	p.mu.Unlock()
	if off {
		return
	}
	var counted results
	if mem != nil && key != play.UnknownKey {
		if prof, err := mem.Profile(key); err == nil {
			for _, gs := range prof.Games {
				counted.add(gs, g.Name())
			}
		}
	}
	c := counted.contempt(g, rating)
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.contempt.fixed || !p.contempt.fromMemory {
		return
	}
	p.contempt.set, p.contempt.notice = c, ""
	if c.Games > 0 || c.HasRating {
		p.contempt.notice = c.String()
	}
	if p.cfg.Contempt != c.Value {
		p.cfg.Contempt = c.Value
		p.dropSearcher()
	}
}

// results are our wins, draws and losses in the stored games of one game against an opponent.
type results struct{ wins, draws, losses int }

// add counts gs when it is a finished game of the game named game.
func (r *results) add(gs memory.GameSummary, game string) {
	switch {
	case gs.Game != game || gs.OurScore < 0:
	case gs.OurScore == 1:
		r.wins++
	case gs.OurScore == 0:
		r.losses++
	default:
		r.draws++
	}
}

// games returns how many games the results count.
func (r results) games() int { return r.wins + r.draws + r.losses }

// contempt returns the contempt the results say in g, with our rating advantage as the front end sent it.
func (r results) contempt(g games.Game, rating learn.Rating) learn.Contempt {
	return learn.ContemptFromResults(r.wins, r.draws, r.losses, presets.Strength(g).Unit, rating)
}

// ratingLocked returns our rating advantage over the opponent as the front end sent it (p.mu held).
func (p *Engine) ratingLocked() learn.Rating {
	adv, known := p.opponent.RatingAdvantage()
	return learn.Rating{Advantage: float64(adv), Known: known}
}

// setContempt is the Contempt option: a fixed contempt, which the dossier no longer changes.
func (p *Engine) setContempt(n int) {
	p.mu.Lock()
	p.contempt.fixed, p.contempt.notice = true, ""
	p.mu.Unlock()
	p.configure(func(c *searchers.Config) { c.Contempt = float64(n) })
}

// setMemoryContempt is the MemoryContempt option; turned off, a contempt the dossier had set goes back to 0
// (a fixed one stays).
func (p *Engine) setMemoryContempt(on bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.contempt.fromMemory = on
	if !on && !p.contempt.fixed && p.cfg.Contempt != 0 {
		p.contempt.set, p.contempt.notice = learn.Contempt{}, ""
		p.cfg.Contempt = 0
		p.dropSearcher()
	}
}

// reportContempt tells the front end, once a game, the contempt the dossier set.
func (p *Engine) reportContempt(report func(engine.Info)) {
	p.mu.Lock()
	n := p.contempt.notice
	p.contempt.notice = ""
	p.mu.Unlock()
	if n != "" && report != nil {
		report(engine.Info{Text: n})
	}
}

// memoryContempt returns the MemoryContempt option's value.
func (p *Engine) memoryContempt() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.contempt.fromMemory
}
