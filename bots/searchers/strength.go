// Playing below full strength: the even-game mode and UCI_LimitStrength play at a rating, whose level
// limits the search's depth and draws the move among the MultiPV root moves, under safety rules that never
// allow a stupid move.

package searchers

import (
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"dossier/bots/connect4solver"
	"dossier/bots/presets"
	"dossier/engine"
	"dossier/games"
	"dossier/games/connect4"
	"dossier/memory/learn"
)

// The strength modes of the Mode option.
const (
	// StrongestMode plays the best move the search finds.
	StrongestMode = "strongest"
	// EvenMode aims at an even game against each opponent: a handicap learned from game to game and
	// adjusted to the course of the game.
	EvenMode = "even"
)

// StrengthModes lists the Mode option's values.
func StrengthModes() []string { return []string{StrongestMode, EvenMode} }

// SetLevel sets the rating the next searches play at (learn.MinLevel..learn.FullLevel; from FullLevel
// up, full strength).
func (w *WeakSearcher) SetLevel(elo float64) { w.level = elo }

// choice is the move a weakened player picks, why, and how much it gives up.
type choice struct {
	line   int     // index into the lines
	reason string  // the rule that decided, for the info string
	loss   float64 // the best value minus the chosen one
}

// chooseLine picks among lines (best first, values from the side to move) at level lvl, under the rules;
// pieces is the number of pieces on the board (-1 when unknown) and u a uniform random number in [0, 1).
// The rules, first match wins:
//   - a forced win (a mate score for us) plays the best line: never miss a mate the search sees;
//   - a won endgame (a lead of Won with at most EndgamePieces pieces) plays the best line;
//   - otherwise a line is drawn among the safe ones with a weight exp(-loss/Spread), loss being how far
//     below the best it is valued. Safe means not more than the level's Bound below the best, not a lost
//     value where the best is not lost, never a forced loss unless every line is one.
//
// The rules do not look at who is ahead: a player that played the best moves once behind would switch from
// careless to perfect in the middle of a game.
func chooseLine(lines []engine.RootLine, lvl presets.Level, rules presets.StrengthRules, pieces int, u float64) choice {
	best := lines[0].Score
	switch {
	case best >= engine.MateBound:
		return choice{reason: "a forced win"}
	case best >= rules.Won && rules.EndgamePieces > 0 && pieces >= 0 && pieces <= rules.EndgamePieces:
		return choice{reason: "a won endgame"}
	case lvl.Spread <= 0:
		return choice{reason: "the best line"}
	}
	weights := make([]float64, len(lines))
	var sum float64
	safe := 0
	for i, l := range lines {
		if safeLine(l.Score, best, lvl.Bound, rules) {
			weights[i] = math.Exp(-(best - l.Score) / lvl.Spread)
			sum += weights[i]
			safe++
		}
	}
	pick, target := 0, u*sum
	for i, wt := range weights {
		if wt == 0 {
			continue
		}
		pick = i
		if target < wt {
			break
		}
		target -= wt
	}
	return choice{line: pick, reason: fmt.Sprintf("drawn among %d lines", safe),
		loss: best - lines[pick].Score}
}

// safeLine reports whether a line valued v may be played when the best is valued best.
func safeLine(v, best, bound float64, rules presets.StrengthRules) bool {
	switch {
	case v < best-bound:
		return false // more than the level's bound below the best: material this rating does not drop
	case v <= -engine.MateBound && best > -engine.MateBound:
		return false // a forced loss where the best line is none
	case v <= -rules.Lost && best > -rules.Lost:
		return false // a drawn or won position turned into a lost one
	}
	return true
}

// WeakSearcher plays below full strength, at a rating: the rating's level (presets.StrengthRules.LevelAt)
// limits the search's depth and draws the move among the best root moves the search values; in
// Connect-Four the exact solver, when it can value every move within its budget, keeps a won position won.
type WeakSearcher struct {
	game   games.Game
	rules  presets.StrengthRules
	inner  engine.Searcher
	solver *connect4solver.Solver // Connect-Four only
	level  float64                // the rating played at; set before each search
	label  string                 // "even" or "UCI_Elo 1500", for the info string
	rng    *rand.Rand
	// last is the best value of the previous search in this game (valid when hasLast): a won endgame or a
	// forced win is played on at full strength.
	last    float64
	hasLast bool
}

// newWeakSearcher wraps an alpha-beta searcher of g.
func newWeakSearcher(g games.Game, inner engine.Searcher, hashMB int) *WeakSearcher {
	w := &WeakSearcher{game: g, rules: presets.Strength(g), inner: inner, level: learn.FullLevel,
		rng: rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 0x776561))}
	if connect4solver.Solves(g) {
		w.solver = connect4solver.New(max(hashMB/4, 1))
	}
	return w
}

// NewGame clears the tables.
func (w *WeakSearcher) NewGame() {
	w.hasLast = false
	w.inner.NewGame()
	if w.solver != nil {
		w.solver.Reset()
	}
}

// Search searches p at the level's depth for the values of the best root moves and draws one. At full
// strength, in a won endgame and once a forced win is found, it is the full-strength search.
func (w *WeakSearcher) Search(p games.Position, ctl *engine.Control, report func(engine.Info)) engine.Result {
	r := w.rules
	lvl, weak := r.LevelAt(w.level)
	wonEndgame := w.hasLast && w.last >= r.Won && r.EndgamePieces > 0 && games.PieceCount(p) <= r.EndgamePieces
	forcedWin := w.hasLast && w.last >= engine.MateBound
	if !weak || wonEndgame || forcedWin {
		res := w.inner.Search(p, ctl, report)
		w.last, w.hasLast = res.Score, res.Move != games.NoMove
		return res
	}
	depth := int(lvl.Depth)
	if w.rng.Float64() < lvl.Depth-float64(depth) {
		depth++
	}
	depth = max(depth, 1)
	if d := ctl.Limits().Depth; d > 0 {
		depth = min(depth, d)
	}
	k := max(r.Lines, ctl.Limits().MultiPV)
	res := w.inner.Search(p, ctl.WithDepth(depth).WithMultiPV(k), report)
	w.last, w.hasLast = res.Score, res.Move != games.NoMove
	if len(res.Lines) < 2 {
		return res
	}
	lines := res.Lines
	var note string
	if w.solver != nil {
		lines, note = w.keepWin(p, ctl, lines)
	}
	c := chooseLine(lines, lvl, r, games.PieceCount(p), w.rng.Float64())
	chosen := lines[c.line]
	if report != nil {
		report(engine.Info{Text: fmt.Sprintf("%s: level %.0f at depth %d, %s, line %s giving up %.0f%s", w.label,
			w.level, depth, c.reason, p.FormatMove(chosen.Move), c.loss, note)})
	}
	out := engine.Result{Move: chosen.Move, Score: chosen.Score, Depth: res.Depth, Nodes: res.Nodes, PV: chosen.PV,
		Lines: res.Lines}
	if len(chosen.PV) > 1 {
		out.Ponder = chosen.PV[1]
	}
	return out
}

// keepWin keeps the lines whose moves keep a won Connect-Four position won, when the solver values every
// move within a small budget and finds the position won: the game's won endgame, converted at any level. A
// drawn or lost position, or one the solver does not finish, keeps its lines.
func (w *WeakSearcher) keepWin(p games.Position, ctl *engine.Control, lines []engine.RootLine) ([]engine.RootLine, string) {
	pos, ok := p.(*connect4.Position)
	if !ok {
		return lines, ""
	}
	nodes := uint64(defaultSolveNodes / 4)
	if n := ctl.Limits().Nodes; n > 0 {
		nodes = min(nodes, max(n/4, 1))
	}
	scores, solved := w.solver.BestMovesWithin(pos, connect4solver.Limits{MaxNodes: nodes, Stop: ctl.Done()})
	if !solved || len(scores) == 0 || scores[0].Score <= 0 {
		return lines, ""
	}
	value := scores[0].Score
	keep := func(m games.Move) bool {
		for _, s := range scores {
			if s.Move == m {
				return s.Score > 0
			}
		}
		return false
	}
	var kept []engine.RootLine
	for _, l := range lines {
		if keep(l.Move) {
			kept = append(kept, l)
		}
	}
	if len(kept) == 0 { // the lines missed every good move: play the solver's best
		return []engine.RootLine{{Move: scores[0].Move, Score: solvedScore(value, pos), PV: []games.Move{scores[0].Move}}},
			"; solved"
	}
	return kept, "; solved: " + describeSolution(value)
}
