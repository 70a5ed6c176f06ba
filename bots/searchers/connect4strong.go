// Connect-Four's strongest player: the first player's opening book, then the exact solver when it
// finishes within the move's budget, alpha-beta with the sophisticated evaluation otherwise.

package searchers

import (
	"fmt"
	"time"

	"dossier/bots/connect4solver"
	"dossier/engine"
	"dossier/games"
	"dossier/games/connect4"
)

// Solver budgets where the go command gives no clock: a node budget for depth- and node-limited searches,
// and a larger one before an infinite or pondering search hands over to alpha-beta.
const (
	defaultSolveNodes = 2_000_000
	openSolveNodes    = 20_000_000
)

// solverSearcher plays from the opening book, else tries the exact solver and falls back on an
// alpha-beta searcher.
type solverSearcher struct {
	book     *connect4solver.Book // nil: no book
	solver   *connect4solver.Solver
	fallback engine.Searcher
}

// newSolverSearcher returns a solving searcher with the embedded opening book and a table of solverMB
// MiB in front of fallback.
func newSolverSearcher(solverMB int, fallback engine.Searcher) *solverSearcher {
	// A book that does not parse is left out; the book's tests make sure the embedded one parses.
	book, _ := connect4solver.DefaultBook()
	return &solverSearcher{book: book, solver: connect4solver.New(solverMB), fallback: fallback}
}

// NewGame clears the solver's table and the fallback's tables.
func (s *solverSearcher) NewGame() {
	s.solver.Reset()
	s.fallback.NewGame()
}

// Search plays the book's move when p is in the book; otherwise it solves p within the budget
// solveBudget allows and plays the best move of the exact solution, and when the solver gives up, the
// fallback searches under ctl, whose clock kept running meanwhile.
func (s *solverSearcher) Search(p games.Position, ctl *engine.Control, report func(engine.Info)) engine.Result {
	pos, ok := p.(*connect4.Position)
	if !ok || games.OutcomeOf(p).Result != games.Ongoing || len(ctl.Limits().SearchMoves) > 0 {
		return s.fallback.Search(p, ctl, report)
	}
	if entry, ok := s.book.Lookup(pos); ok {
		// Lookup checked that the move is legal. Early in a game the solver could not find a winning
		// move within a move's budget, and alpha-beta's move may throw the win away.
		return s.playSolved(pos, ctl, report, entry, 0, fmt.Sprintf("book: a win (Pons score %d)", entry.Score), false)
	}
	budget, nodes := solveBudget(ctl)
	limits := connect4solver.Limits{MaxNodes: nodes, Stop: ctl.Done()}
	if budget > 0 {
		limits.Deadline = time.Now().Add(budget)
	}
	before := s.solver.Nodes()
	// One move that keeps the exact score costs about one solve; the scores of all moves would cost far more
	// early in a game (every losing move valued exactly), and the player needs only the one.
	best, solved := s.solver.BestMoveWithin(pos, limits)
	if !solved || best.Move == games.NoMove {
		ctl.HandOver()
		return s.fallback.Search(p, ctl, report)
	}
	return s.playSolved(pos, ctl, report, best, s.solver.Nodes()-before, describeSolution(best.Score), true)
}

// playSolved returns the result of playing best, whose exact score is known, after reporting it with
// text and waiting for ctl to release the move. With predict, the solver looks for the expected reply
// (cheap right after solving, with the table warm; not after a book move).
func (s *solverSearcher) playSolved(pos *connect4.Position, ctl *engine.Control, report func(engine.Info),
	best connect4solver.MoveScore, nodes uint64, text string, predict bool) engine.Result {
	res := engine.Result{Move: best.Move, Score: solvedScore(best.Score, pos), Depth: pos.Width()*pos.Height() - pos.Moves(),
		Nodes: nodes, PV: []games.Move{best.Move}}
	if predict {
		res.Ponder = s.expectedReply(pos, best.Move)
	}
	if res.Ponder != games.NoMove {
		res.PV = append(res.PV, res.Ponder)
	}
	if report != nil {
		report(engine.Info{Depth: res.Depth, SelDepth: res.Depth, Score: res.Score, Nodes: res.Nodes,
			TimeMS: ctl.Elapsed().Milliseconds(), PV: res.PV, Text: text})
	}
	ctl.WaitRelease()
	return res
}

// expectedReply is the opponent's best answer to m by the solver, if it finds it quickly (the table is
// warm from solving the position before m).
func (s *solverSearcher) expectedReply(pos *connect4.Position, m games.Move) games.Move {
	pos.Play(m)
	defer pos.Undo()
	if pos.Status().Result != games.Ongoing {
		return games.NoMove
	}
	reply, ok := s.solver.BestMoveWithin(pos, connect4solver.Limits{MaxNodes: defaultSolveNodes / 4})
	if !ok {
		return games.NoMove
	}
	return reply.Move
}

// solvedScore turns Pons's score into the engine's scale: a win in n plies scores MateScore - n.
func solvedScore(pons int, p *connect4.Position) float64 {
	half := p.Width()*p.Height()/2 + 1
	stones := p.Moves()
	switch {
	case pons > 0:
		moves := half - pons - stones/2 // the side to move's stones still to play, the winning one included
		return engine.MateScore - float64(2*moves-1)
	case pons < 0:
		moves := half + pons - (stones+1)/2 // the opponent's stones still to play
		return -(engine.MateScore - float64(2*moves))
	}
	return 0
}

// describeSolution says in words what the solution is, for an info string.
func describeSolution(pons int) string {
	switch {
	case pons > 0:
		return fmt.Sprintf("solved: a win (Pons score %d)", pons)
	case pons < 0:
		return fmt.Sprintf("solved: a loss (Pons score %d)", pons)
	}
	return "solved: a draw"
}

// solveBudget is the time and node budget of the solver for a move under ctl: half of what the move may
// take (under a clock, half its usual share), so that alpha-beta keeps the other half when the solver
// gives up.
func solveBudget(ctl *engine.Control) (time.Duration, uint64) {
	lim := ctl.Limits()
	soft, hard := ctl.Budget()
	switch {
	case lim.Infinite || lim.Ponder:
		return 0, openSolveNodes
	case soft > 0:
		return soft / 2, lim.Nodes / 2
	case hard > 0:
		return hard / 2, lim.Nodes / 2
	case lim.Nodes > 0:
		return 0, max(lim.Nodes/2, 1)
	}
	return 0, defaultSolveNodes
}
