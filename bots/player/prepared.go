// Prepared moves: where the experience holds an entry that a preparation between games filed for the position to
// play, searched deeper than the search just was, the Player plays its move.

package player

import (
	"fmt"

	"dossier/bots/presets"
	"dossier/bots/searchers"
	"dossier/engine"
	"dossier/games"
)

// plainSearchLocked reports whether the Player plays its own alpha-beta at full strength: the game memory's
// moves (consultRecall, consultPrepared) are for that search alone, since a player held to a rating (Mode even,
// UCI_LimitStrength) that replayed won games' moves would play above it. p.mu must be held.
func (p *Engine) plainSearchLocked() bool {
	weak, _ := p.cfg.Weakens()
	return (p.cfg.Search == "" || p.cfg.Search == searchers.AlphaBetaSearch) && !weak
}

// consultPrepared returns the result with the experience's move for pos when the entry is deeper than the
// search that gave res, its move legal, and the Player plays full-strength alpha-beta (the even mode and
// limited strength choose weaker moves on purpose, and a model search its own).
func (p *Engine) consultPrepared(x *experienceTable, pos games.Position, ctl *engine.Control, res engine.Result,
	report func(engine.Info)) engine.Result {
	if x == nil || res.Move == games.NoMove || ctl.Limits().Infinite {
		return res
	}
	p.mu.Lock()
	plain := p.plainSearchLocked()
	p.mu.Unlock()
	e, ok := x.Lookup(pos.Hash())
	if !plain || !ok || !x.prepared[pos.Hash()] || e.Move == games.NoMove || e.Depth <= res.Depth || !games.IsLegal(pos, e.Move) {
		return res
	}
	if report != nil {
		unit := presets.Strength(p.Game()).Unit
		verb := "plays"
		if e.Move == res.Move {
			verb = "agrees on"
		}
		report(engine.Info{Text: fmt.Sprintf("experience: %s %s (%+.1f at depth %d; the search reached depth %d)",
			verb, games.NumberedMove(pos, e.Move), e.Score/unit, e.Depth, res.Depth)})
	}
	if e.Move == res.Move {
		return res
	}
	return engine.Result{Move: e.Move, Score: e.Score, Depth: e.Depth, PV: []games.Move{e.Move}, Nodes: res.Nodes}
}
