// Game memory: what the Player remembers of its earlier games against the opponent. Where a won game went
// through the position, it plays the move that won again; where a lost game did, it leaves that game's line,
// each time only when its own search values the move within MemoryRisk of its best.
package player

import (
	"fmt"
	"slices"
	"sync"
	"time"

	"dossier/bots/searchers"
	"dossier/engine"
	"dossier/games"
	"dossier/memory"
	"dossier/play"

	"go.uber.org/zap"
)

// recall is the game memory for one opponent and one game: our moves in the positions of its won and lost
// games, by position.
type recall struct {
	opponent string              // the opponent's key
	game     string              // the game's name
	won      map[string]string   // position (FEN) -> the move we played there in a game we won
	lost     map[string][]string // position (FEN) -> the moves we played there in games we lost
}

// newRecall builds the game memory of an opponent's stored games of game g.
func newRecall(key string, g games.Game, stored []memory.Game) *recall {
	r := &recall{opponent: key, game: g.Name(), won: map[string]string{}, lost: map[string][]string{}}
	for _, sg := range stored {
		if sg.Game != g.Name() || (sg.OurScore != 1 && sg.OurScore != 0) {
			continue
		}
		p, err := g.ParsePosition(sg.StartFEN)
		if err != nil {
			continue
		}
		ours := games.Side(sg.OurSide)
		for _, text := range sg.Moves {
			m, err := p.ParseMove(text)
			if err != nil {
				break
			}
			if p.ToMove() == ours {
				fen := p.FEN()
				if sg.OurScore == 1 {
					r.won[fen] = text // the latest win through the position counts
				} else {
					r.lost[fen] = append(r.lost[fen], text)
				}
			}
			p.Play(m)
		}
	}
	return r
}

// loadRecall reads the opponent's games from the memory, when it has one and the opponent gave a name (games
// against unnamed opponents are not one opponent's). It runs at a new game and when the opponent is named, never
// on the clock.
func (p *Engine) loadRecall() {
	p.mu.Lock()
	mem, key, g, log := p.filer.memory(), p.opponentKeyLocked(), p.game, p.filer.logger()
	p.mu.Unlock()
	if mem == nil || key == play.UnknownKey {
		p.setRecall(nil)
		return
	}
	stored, err := mem.Games(key)
	if err != nil {
		log.Debug("no game memory for the opponent", zap.String("opponent", key), zap.Error(err))
		p.setRecall(nil)
		return
	}
	p.setRecall(newRecall(key, g, stored))
}

// setRecall installs a game memory.
func (p *Engine) setRecall(r *recall) { p.gameMemory.set(r) }

// gameMemory holds the game memory of the current opponent (nil: none), with its own lock: loadRecall
// replaces it off the clock while a search may read it.
type gameMemory struct {
	mu     sync.Mutex
	recall *recall
}

// set installs a game memory.
func (g *gameMemory) set(r *recall) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.recall = r
}

// get returns the game memory installed (nil: none); a recall is never changed once built.
func (g *gameMemory) get() *recall {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.recall
}

// consultRecall changes the search's move when the game memory says so and our own search agrees that the
// change costs at most MemoryRisk: the move of a won game through this position, or, where the move chosen is
// the one of a lost game, the best other move. It searches again, restricted to those moves, only in such
// positions, and compares the values at the deepest depth both searches completed (main kept the first
// search's best line at every depth), so that a check cut short by the clock still decides on equal terms.
func (p *Engine) consultRecall(s engine.Searcher, pos games.Position, ctl *engine.Control, res engine.Result,
	main *searchers.DepthLines, report func(engine.Info)) engine.Result {
	p.mu.Lock()
	r, risk, game := p.gameMemory.get(), float64(p.memoryRiskLocked()), p.game.Name()
	alphaBeta := p.cfg.Search == "" || p.cfg.Search == searchers.AlphaBetaSearch
	p.mu.Unlock()
	if r == nil || r.game != game || !alphaBeta || res.Move == games.NoMove || ctl.Limits().Infinite {
		return res
	}
	say := func(format string, args ...any) {
		if report != nil {
			report(engine.Info{Text: fmt.Sprintf(format, args...)})
		}
	}
	fen := pos.FEN()
	if text, ok := r.won[fen]; ok {
		m, err := pos.ParseMove(text)
		if err != nil || !games.IsLegal(pos, m) || m == res.Move {
			return res
		}
		alt, v, best, depth := searchOnly(s, pos, ctl, res, main, []games.Move{m})
		switch {
		case depth == 0:
			say("game memory: no time to check %s of a won game; not replayed", text)
		case v >= best-risk:
			say("game memory: %s as in a game won against this opponent (%.0f, best %.0f at depth %d)", text, v, best, depth)
			return alt
		default:
			say("game memory: %s of a won game is %.0f below the best at depth %d; not replayed", text, best-v, depth)
		}
		return res
	}
	lostMoves, ok := r.lost[fen]
	if !ok || !containsText(pos, lostMoves, res.Move) {
		return res
	}
	var others []games.Move
	for _, m := range pos.AppendMoves(nil) {
		if !containsText(pos, lostMoves, m) {
			others = append(others, m)
		}
	}
	if len(others) == 0 {
		return res
	}
	alt, v, best, depth := searchOnly(s, pos, ctl, res, main, others)
	if depth > 0 && v >= best-risk {
		say("game memory: leaving the line of a game lost to this opponent with %s (%.0f, best %.0f at depth %d)",
			pos.FormatMove(alt.Move), v, best, depth)
		return alt
	}
	return res
}

// searchOnly searches pos again, restricted to moves, at most as deep as the search that gave res, within a
// quarter of the time that search took when it had a clock. It returns the result, and the value of its best
// move and of the first search's best at the deepest depth both completed (depth 0: none).
func searchOnly(s engine.Searcher, pos games.Position, ctl *engine.Control, res engine.Result, main *searchers.DepthLines,
	moves []games.Move) (alt engine.Result, v, best float64, depth int) {
	lim := engine.Limits{Depth: max(res.Depth, 1), SearchMoves: moves}
	if outer := ctl.Limits(); outer.MoveTime > 0 || outer.Time[pos.ToMove()] > 0 {
		lim.MoveTime = max(ctl.Elapsed()/4, 5*time.Millisecond)
	}
	lines := searchers.NewDepthLines(nil)
	alt = s.Search(pos.Clone(), engine.NewControl(lim, pos.ToMove()), lines.Report)
	if alt.Move == games.NoMove {
		return alt, 0, 0, 0
	}
	first := main.Lines()
	for d, l := range lines.Lines() {
		if b, ok := first[d]; ok && d > depth && slices.Contains(moves, l.Move) {
			depth, v, best = d, l.Score, b.Score
		}
	}
	if alt.Depth >= res.Depth && alt.Depth > depth { // a search that reported no lines (a test's searcher)
		depth, v, best = alt.Depth, alt.Score, res.Score
	}
	return alt, v, best, depth
}

// containsText reports whether m, written in p's notation, is among texts.
func containsText(p games.Position, texts []string, m games.Move) bool {
	name := p.FormatMove(m)
	for _, t := range texts {
		if t == name {
			return true
		}
	}
	return false
}
