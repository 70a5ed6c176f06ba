// Playing below full strength: the even-game mode and UCI_LimitStrength, which choose among the MultiPV
// root moves by a handicap (top culling) under safety rules that never allow a stupid move.
package searchers

import (
	"fmt"
	"math"

	"dossier/bots/connect4solver"
	"dossier/bots/presets"
	"dossier/engine"
	"dossier/games"
	"dossier/games/connect4"
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

// MaxLearnedHandicap returns the largest handicap the even mode learns in g, in pawns (the game's units).
func MaxLearnedHandicap(g games.Game) float64 {
	r := presets.Strength(g)
	return r.MaxHandicap() / r.Unit
}

// SetHandicapPawns sets the handicap of the next searches, given in pawns (the game's units).
func (w *WeakSearcher) SetHandicapPawns(h float64) { w.handicap = h * w.rules.Unit }

// choice is the move a weakened player picks, why, and how much it gives up.
type choice struct {
	line   int     // index into the lines
	reason string  // the rule that decided, for the info string
	loss   float64 // the best value minus the chosen one
}

// chooseLine picks among lines (best first, values from the side to move) with handicap h in the game's
// units, under the rules; pieces is the number of pieces on the board (-1 when unknown). The rules, first
// match wins:
//   - a forced win (a mate score for us) plays the best line: never miss a mate;
//   - a won endgame (a lead of won with at most endgamePieces pieces) plays the best line;
//   - behind the target plays the best line: the best more than a quarter pawn plus the handicap down (a
//     large handicap, learned against a weak opponent, lets the game go that far before the best moves
//     come back: a game against a weak opponent must be allowed to be lost);
//   - otherwise the handicap, at most the bound, grows with the lead (half of what exceeds a quarter pawn)
//     and top culling picks the line valued nearest to best - handicap among the safe lines: not more than the bound
//     (wonBoundFor once won) below the best, not lost unless the best is, never a forced loss unless every
//     line is one.
func chooseLine(lines []engine.RootLine, h float64, rules presets.StrengthRules, pieces int) choice {
	best := lines[0].Score
	switch {
	case best >= engine.MateBound:
		return choice{reason: "a forced win"}
	case best >= rules.Won && rules.EndgamePieces > 0 && pieces >= 0 && pieces <= rules.EndgamePieces:
		return choice{reason: "a won endgame"}
	case best < -rules.Unit/4-h:
		return choice{reason: "behind"}
	case h <= 0:
		return choice{reason: "no handicap"}
	}
	bound := rules.Bound
	if best >= rules.Won {
		bound = rules.WonBoundFor(h)
	}
	eff := min(h+max(0, best-rules.Unit/4)/2, bound)
	target := best - eff
	pick, nearest := 0, math.Inf(1)
	for i, l := range lines {
		if !safeLine(l.Score, best, bound, rules) {
			continue
		}
		if d := math.Abs(l.Score - target); d < nearest {
			pick, nearest = i, d
		}
	}
	return choice{line: pick, reason: fmt.Sprintf("culling to %.0f below the best", eff), loss: best - lines[pick].Score}
}

// safeLine reports whether a line valued v may be played when the best is valued best.
func safeLine(v, best, bound float64, rules presets.StrengthRules) bool {
	switch {
	case v < best-bound:
		return false // more than the bound below the best: a blunder a beginner would see
	case v <= -engine.MateBound && best > -engine.MateBound:
		return false // a forced loss where the best line is none
	case v <= -rules.Lost && best > -rules.Lost:
		return false // a drawn or won position turned into a lost one
	}
	return true
}

// weakSearcher plays below full strength: it asks the search for the values of several root moves and
// picks one by the handicap and the safety rules; in Connect-Four the exact solver, when it can value every
// move within its budget, keeps the position's theoretical value.
type WeakSearcher struct {
	game     games.Game
	rules    presets.StrengthRules
	inner    engine.Searcher
	solver   *connect4solver.Solver // Connect-Four only
	handicap float64                // in the game's units; set before each search
	label    string                 // "even" or "UCI_Elo 1500", for the info string
	// last is the best value of the previous search in this game (valid when hasLast): a position that was
	// behind, or a forced win, is searched at full strength without the lines, whose cost is depth.
	last    float64
	hasLast bool
}

// newWeakSearcher wraps an alpha-beta searcher of g.
func newWeakSearcher(g games.Game, inner engine.Searcher, hashMB int) *WeakSearcher {
	w := &WeakSearcher{game: g, rules: presets.Strength(g), inner: inner}
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

// Search searches p for the values of the best root moves and picks one by the handicap. Without a
// handicap it is the full-strength search: the lines would cost depth and change nothing.
func (w *WeakSearcher) Search(p games.Position, ctl *engine.Control, report func(engine.Info)) engine.Result {
	r := w.rules
	wonEndgame := w.hasLast && w.last >= r.Won && r.EndgamePieces > 0 && games.PieceCount(p) <= r.EndgamePieces
	behind := w.hasLast && (w.last < -r.Unit/4-w.handicap || w.last >= engine.MateBound)
	if w.handicap <= 0 || behind || wonEndgame {
		res := w.inner.Search(p, ctl, report)
		w.last, w.hasLast = res.Score, res.Move != games.NoMove
		return res
	}
	k := max(w.rules.Lines, ctl.Limits().MultiPV)
	res := w.inner.Search(p, ctl.WithMultiPV(k), report)
	w.last, w.hasLast = res.Score, res.Move != games.NoMove
	if len(res.Lines) < 2 {
		return res
	}
	lines := res.Lines
	var note string
	if w.solver != nil {
		lines, note = w.keepTheoreticalValue(p, ctl, lines)
	}
	c := chooseLine(lines, w.handicap, w.rules, games.PieceCount(p))
	chosen := lines[c.line]
	if report != nil {
		report(engine.Info{Text: fmt.Sprintf("%s: handicap %.0f, %s, line %s giving up %.0f%s", w.label, w.handicap,
			c.reason, p.FormatMove(chosen.Move), c.loss, note)})
	}
	out := engine.Result{Move: chosen.Move, Score: chosen.Score, Depth: res.Depth, Nodes: res.Nodes, PV: chosen.PV,
		Lines: res.Lines}
	if len(chosen.PV) > 1 {
		out.Ponder = chosen.PV[1]
	}
	return out
}

// keepTheoreticalValue keeps the lines whose moves keep a Connect-Four position's exact value (a win or a
// draw stays at least a draw; a lost position keeps its longest defence) when the solver values every move
// within a small budget; otherwise it returns the lines unchanged.
func (w *WeakSearcher) keepTheoreticalValue(p games.Position, ctl *engine.Control, lines []engine.RootLine) ([]engine.RootLine, string) {
	pos, ok := p.(*connect4.Position)
	if !ok {
		return lines, ""
	}
	// The search has spent the move's time: the solver gets a small node budget on top, up to the hard limit.
	nodes := uint64(defaultSolveNodes / 4)
	if n := ctl.Limits().Nodes; n > 0 {
		nodes = min(nodes, max(n/4, 1))
	}
	scores, solved := w.solver.BestMovesWithin(pos, connect4solver.Limits{MaxNodes: nodes, Stop: ctl.Done()})
	if !solved || len(scores) == 0 {
		return lines, ""
	}
	value := scores[0].Score
	keep := func(m games.Move) bool {
		for _, s := range scores {
			if s.Move == m {
				if value >= 0 {
					return s.Score >= 0
				}
				return s.Score == value
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
