// The model-risk guard: every model search the Player plays is checked by our own full alpha-beta, so that
// the move played is never valued by our search more than ModelRisk below its best move.

package searchers

import (
	"fmt"
	"math"
	"time"

	"dossier/bots/presets"
	"dossier/engine"
	"dossier/games"
)

// DefaultModelRisk is how far below its best move (in the game's evaluation units: centipawns, hundredths of
// a man) the Player will value a move that what it learned of the opponent suggests.
const DefaultModelRisk = 50

// DefaultMemoryRisk returns the MemoryRisk of a Player of game g that was not given one: its book's (150 in
// chess, whose values swing by more than half a pawn from one depth to the next), DefaultModelRisk
// elsewhere. A won game's move has more behind it than a model's guess: it won against this opponent.
func DefaultMemoryRisk(g games.Game) int {
	if r := presets.MemoryRisk(g); r > 0 {
		return r
	}
	return DefaultModelRisk
}

// MaxModelRisk bounds the ModelRisk and MemoryRisk options.
const MaxModelRisk = 10000

// ModelRiskOff is the ModelRisk that turns the guard off (the option's maximum): the model search's move is
// played unchecked, as the papers' players do.
const ModelRiskOff = MaxModelRisk

// Shares of the move's budget (time or nodes) in a guarded search: our alpha-beta first, then the model
// search; the check of the model's move, restricted to one root move with a warm table, gets what is left.
// Together they take about what one search would have taken: a guarded model search plays at equal time.
const (
	guardOwnShare   = 0.4
	guardModelShare = 0.5
	// guardCheckShare of the move's hard limit is kept for the check whatever the first two phases took.
	guardCheckShare = 0.1
)

// Bounds of the time the check may take after an open search (infinite, ponder, or no limit at all), which
// has no budget to share: a quarter of the time already spent, within these bounds.
const (
	guardMinAfter = 20 * time.Millisecond
	guardMaxAfter = 2 * time.Second
)

// guardSearcher plays a model search guarded by our own alpha-beta with the same preset (see Search).
type guardSearcher struct {
	model engine.Searcher
	own   engine.Searcher // alpha-beta with the preset's evaluation and depth cap, never the solver
	risk  func() int      // the ModelRisk now, read at every move (the option changes it between moves)
}

// newGuardedSearcher builds the searcher of cfg for g and, when it is a model search, guards it with our
// own alpha-beta, each with half of the configured table memory; risk returns the ModelRisk at each move.
func NewGuarded(g games.Game, cfg Config, risk func() int) (engine.Searcher, error) {
	algorithm, err := LookupSearch(cfg.Search)
	if err != nil || algorithm == AlphaBetaSearch {
		return New(g, cfg)
	}
	hash := cfg.HashMB
	if hash <= 0 {
		hash = engine.DefaultAlphaBetaOptions(g).HashMB
	}
	cfg.HashMB = max(hash/2, 1)
	model, err := New(g, cfg)
	if err != nil {
		return nil, err
	}
	ownCfg := cfg
	ownCfg.Search, ownCfg.Model, ownCfg.Live, ownCfg.MultiPV = AlphaBetaSearch, "", nil, 0
	own, err := New(g, ownCfg)
	if err != nil {
		return nil, err
	}
	return Guard(model, own, risk), nil
}

// guard guards a model search with own, our alpha-beta (its search, not the solver's, when own is the
// Connect-Four solver: the check compares values at one depth, and the solver's exact values have none).
func Guard(model, own engine.Searcher, risk func() int) *guardSearcher {
	if solving, ok := own.(*solverSearcher); ok {
		own = solving.fallback
	}
	return &guardSearcher{model: model, own: own, risk: risk}
}

// NewGame clears both searchers' tables.
func (s *guardSearcher) NewGame() {
	s.model.NewGame()
	s.own.NewGame()
}

// OwnLine is what our alpha-beta found at one depth: the best move and its value.
type OwnLine struct {
	Move  games.Move
	Score float64
}

// ownRun is our alpha-beta's search of the position: its result and its best line at every depth completed.
type ownRun struct {
	res     engine.Result
	byDepth map[int]OwnLine
}

// Search plays the model search's move when our own search values it within ModelRisk of its best, and our
// best move otherwise. A search with a budget (time, nodes or depth) gives our alpha-beta the first part
// of it and the model search the second; an open one (infinite, ponder, or no limit) runs the model search
// unchanged and checks its move after it, briefly.
func (s *guardSearcher) Search(p games.Position, ctl *engine.Control, report func(engine.Info)) engine.Result {
	risk := s.risk()
	if risk >= ModelRiskOff {
		return s.model.Search(p, ctl, report)
	}
	lim := ctl.Limits()
	_, hard := ctl.Budget()
	open := lim.Infinite || lim.Ponder || (hard == 0 && lim.Nodes == 0 && lim.Depth == 0)
	if open {
		res := s.model.Search(p, ctl, report)
		if res.Move == games.NoMove {
			return res
		}
		check := engine.Limits{Depth: max(res.Depth, 1)}
		if ctl.Stopped() {
			// Stopped (by the GUI or the clock after a ponderhit): the check must be quick.
			after := min(max(ctl.Elapsed()/4, guardMinAfter), guardMaxAfter)
			if hard > 0 {
				after = max(hard/4, time.Millisecond)
			}
			check.MoveTime = after
		}
		start := time.Now()
		own := s.runOwn(p, nil, check, p.ToMove())
		if check.MoveTime > 0 {
			check.MoveTime = max(check.MoveTime-time.Since(start), time.Millisecond)
		}
		return s.decide(p, res, own, nil, check, risk, report)
	}
	side := p.ToMove()
	own := s.runOwn(p, ctl, share(ctl, lim, side, guardOwnShare), side)
	if own.res.Move == games.NoMove {
		ctl.WaitRelease()
		return own.res
	}
	modelLim := share(ctl, lim, side, guardModelShare)
	child, release := linkedControl(ctl, modelLim, side)
	res := s.model.Search(p, child, report)
	release()
	if res.Move == games.NoMove {
		return own.res
	}
	if soft, _ := ctl.Budget(); res.Move == own.res.Move && soft == 0 && hard > 0 && !ctl.Stopped() {
		return s.agreedUnderMoveTime(p, ctl, res, own, risk, report)
	}
	check := engine.Limits{Depth: max(own.res.Depth, 1)}
	if hard > 0 {
		check.MoveTime = hard - ctl.Elapsed()
		if check.MoveTime <= 0 {
			check.MoveTime = time.Millisecond // a depth-1 check at least; the move is due
		}
	}
	if lim.Nodes > 0 {
		check.Nodes = max(uint64(float64(lim.Nodes)*(1-guardOwnShare-guardModelShare)), 1)
	}
	return s.decide(p, res, own, ctl, check, risk, report)
}

// agreedUnderMoveTime plays the move the model search and our alpha-beta agree on, under a move time, which
// asks for the whole time: our alpha-beta goes on searching (its table warm) for what the check would have
// taken, and if it then prefers another move at a greater depth, that move is played; the model's is played
// only while our search has it as its best.
func (s *guardSearcher) agreedUnderMoveTime(p games.Position, ctl *engine.Control, res engine.Result, own ownRun,
	risk int, report func(engine.Info)) engine.Result {
	_, hard := ctl.Budget()
	lim := ctl.Limits()
	more := engine.Limits{Depth: lim.Depth, SearchMoves: lim.SearchMoves, MoveTime: max(hard-ctl.Elapsed(), time.Millisecond)}
	cont := s.runOwn(p, ctl, more, p.ToMove())
	res.Nodes += cont.res.Nodes
	if cont.res.Move != games.NoMove && cont.res.Move != res.Move && cont.res.Depth > own.res.Depth {
		if report != nil {
			report(engine.Info{Text: fmt.Sprintf("model risk: %s, the model's move and our best at depth %d, is not "+
				"our best at depth %d; playing %s", p.FormatMove(res.Move), own.res.Depth, cont.res.Depth,
				p.FormatMove(cont.res.Move))})
		}
		ours := cont.res
		ours.Nodes = res.Nodes + own.res.Nodes
		return s.ours(ours, report)
	}
	return s.decide(p, res, own, ctl, engine.Limits{}, risk, report) // the moves agree: decide says so
}

// share returns the limits of one phase of a guarded search: the fraction f of the move's time and nodes,
// the depth and root moves as they are. Under a clock (a soft budget) the phase gets a soft budget of f of
// the move's soft one, so that our alpha-beta stops iterating as it would on its own; under a move time,
// f of it. A phase never runs into the part of the move's hard limit kept for the check.
func share(ctl *engine.Control, lim engine.Limits, side games.Side, f float64) engine.Limits {
	out := engine.Limits{Depth: lim.Depth, SearchMoves: lim.SearchMoves}
	if lim.Nodes > 0 {
		out.Nodes = max(uint64(float64(lim.Nodes)*f), 1)
	}
	soft, hard := ctl.Budget()
	if hard <= 0 {
		return out
	}
	left := hard - ctl.Elapsed() - time.Duration(float64(hard)*guardCheckShare)
	if soft > 0 {
		// A clock of 6x with 6 moves to go gives the soft budget x and the hard limit 2x (engine's budget).
		x := max(min(time.Duration(float64(soft)*f), left/2), time.Millisecond)
		out.Time[side], out.MovesToGo = 6*x, 6
		return out
	}
	out.MoveTime = max(min(time.Duration(float64(hard)*f), left), time.Millisecond)
	return out
}

// linkedControl starts a control for one phase of a search under outer: it stops when outer does. release
// ends the link and the phase's timer.
func linkedControl(outer *engine.Control, lim engine.Limits, side games.Side) (*engine.Control, func()) {
	c := engine.NewControl(lim, side)
	done := make(chan struct{})
	go func() {
		select {
		case <-outer.Done():
			c.Stop()
		case <-done:
		}
	}()
	return c, func() {
		close(done)
		c.Stop()
	}
}

// runOwn runs our alpha-beta on p under lim (linked to outer when outer is not nil) and keeps its best line
// at every depth it completed, for the check to compare the model's move with at the same depth.
func (s *guardSearcher) runOwn(p games.Position, outer *engine.Control, lim engine.Limits, side games.Side) ownRun {
	ctl := engine.NewControl(lim, side)
	release := ctl.Stop
	if outer != nil {
		ctl, release = linkedControl(outer, lim, side)
	}
	lines := NewDepthLines(nil)
	res := s.own.Search(p, ctl, lines.Report)
	release()
	return ownRun{res: res, byDepth: lines.Lines()}
}

// decide checks the model's result res against our own run: the model's move is searched by our alpha-beta
// alone (restricted to it, under check) and compared with our best at the deepest depth both reached. It
// plays the model's move when that costs at most risk and neither gives up a forced win nor walks into a
// forced loss that our search saw; our best move otherwise. It says what happened in an info string.
func (s *guardSearcher) decide(p games.Position, res engine.Result, own ownRun, outer *engine.Control,
	check engine.Limits, risk int, report func(engine.Info)) engine.Result {
	say := func(format string, args ...any) {
		if report != nil {
			report(engine.Info{Text: "model risk: " + fmt.Sprintf(format, args...)})
		}
	}
	if own.res.Move == games.NoMove {
		return res
	}
	model := p.FormatMove(res.Move)
	if res.Move == own.res.Move {
		say("%s, the model's move, is our best too (depth %d)", model, own.res.Depth)
		res.Nodes += own.res.Nodes
		return res
	}
	check.SearchMoves = []games.Move{res.Move}
	alt := s.runOwn(p, outer, check, p.ToMove())
	depth := 0
	for d := range alt.byDepth {
		if _, ok := own.byDepth[d]; ok && d > depth && alt.byDepth[d].Move == res.Move {
			depth = d
		}
	}
	res.Nodes += own.res.Nodes + alt.res.Nodes
	ours := own.res
	ours.Nodes = res.Nodes
	best := p.FormatMove(ours.Move)
	if depth == 0 {
		say("no time to check %s, the model's move; playing our best %s", model, best)
		return s.ours(ours, report)
	}
	v, b := alt.byDepth[depth].Score, own.byDepth[depth]
	ok, why := withinRisk(v, b.Score, float64(risk))
	if ok {
		say("%s, the model's move, is %s against our best %s %s at depth %d (ModelRisk %d): played", model,
			scoreText(v), p.FormatMove(b.Move), scoreText(b.Score), depth, risk)
		return res
	}
	say("%s, the model's move, is %s against our best %s %s at depth %d (ModelRisk %d): %s; playing %s", model,
		scoreText(v), p.FormatMove(b.Move), scoreText(b.Score), depth, risk, why, best)
	return s.ours(ours, report)
}

// ours reports our own search's line as the last before the move, so that a GUI shows the line played,
// with its reply as the predicted one (the model's prediction was of the model's move).
func (s *guardSearcher) ours(res engine.Result, report func(engine.Info)) engine.Result {
	if len(res.PV) > 1 && res.Ponder == games.NoMove {
		res.Ponder = res.PV[1]
	}
	if report != nil {
		report(engine.Info{Depth: res.Depth, SelDepth: res.Depth, Score: res.Score, Nodes: res.Nodes, PV: res.PV,
			Predicted: res.Ponder})
	}
	return res
}

// withinRisk reports whether a move our search values at v may be played when the best is valued at best:
// within risk of it, never giving up a forced win, and never walking into a forced loss the best avoids or
// delays (engine's mate scores: a win within MateBound of MateScore). why says why not.
func withinRisk(v, best, risk float64) (bool, string) {
	switch {
	case best >= engine.MateBound && v < engine.MateBound:
		return false, "it gives up a forced win"
	case v <= -engine.MateBound && v < best:
		return false, "it walks into a forced loss"
	case v < best-risk:
		return false, fmt.Sprintf("%.0f below", best-v)
	}
	return true, ""
}

// scoreText writes a value as an info string shows it: the mate's moves, or the value rounded.
func scoreText(v float64) string {
	if moves, ok := engine.IsMate(v); ok {
		return fmt.Sprintf("mate %d", moves)
	}
	if math.Abs(v) < 0.5 {
		return "0"
	}
	return fmt.Sprintf("%.0f", v)
}
