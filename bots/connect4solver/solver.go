// Package connect4solver solves Connect-Four positions exactly: negamax with alpha-beta on bitboards,
// a transposition table of score bounds, and a null-window search for the exact score (after Pascal
// Pons's solver, blog.gamesolver.org; no opening book).
//
// Scores follow Pons's convention, from the side to move's point of view: 0 is a draw; a win is
// positive and the larger the sooner, (cells + 1 - s) / 2 in integer division when s stones were on
// the board before the winning one (on the 7x6 board, 22 minus the number of stones the winner has
// played, the winning one included: 18 for a win with its fourth stone, 1 for a win with the board's
// last); a loss is the negative of the opponent's win.
package connect4solver

import (
	"math"
	"slices"
	"time"

	"dossier/games"
	"dossier/games/connect4"
	"dossier/internal/prefetch"
)

// limitCheckInterval is the number of nodes between two looks at the stop flag and the clock.
const limitCheckInterval = 4096

// Solver solves positions of one board size at a time, keeping what it learnt in its transposition
// table across calls. It is not safe for concurrent use.
type Solver struct {
	geo        geometry
	table      table
	nodes      uint64 // negamax calls since New or Reset
	boardKnown bool   // geo describes the board of the positions in the table

	// Limits of the current search: checked when nodes reaches nextCheck.
	nextCheck uint64
	nodeLimit uint64 // nodes at which to give up; math.MaxUint64 for none
	stop      <-chan struct{}
	deadline  time.Time
	aborted   bool // a limit was hit; every search call unwinds without storing anything
}

// Limits bounds a search; the zero value sets no bound.
type Limits struct {
	MaxNodes uint64          // give up after this many nodes of this call (0: no limit)
	Deadline time.Time       // give up at this time (zero: none)
	Stop     <-chan struct{} // give up once this is closed (nil: never)
}

// MoveScore is a legal move and its exact score for the side to move.
type MoveScore struct {
	Move  games.Move // connect4.ColumnMove(column)
	Score int
}

// Solves reports whether the solver plays g: Connect-Four, whose positions it reads.
func Solves(g games.Game) bool {
	_, ok := g.(connect4.Game)
	return ok
}

// New returns a solver with a transposition table of about hashMB megabytes (8 bytes an entry, a power
// of two entries, at least 64 K; 64 MB gives 8 M). The memory of a table below 64 MB is mapped here
// rather than during the first search (on Linux, where the table asks for huge pages, that took up to
// 2 s for 128 MB on a busy machine); a larger one is mapped as the searches use it, since mapping
// gigabytes here would keep a GUI waiting for readyok longer than it allows.
func New(hashMB int) *Solver {
	return &Solver{table: newTable(hashMB), nodeLimit: math.MaxUint64, nextCheck: math.MaxUint64}
}

// Nodes returns the number of positions searched since New or the last Reset.
func (s *Solver) Nodes() uint64 { return s.nodes }

// Reset empties the transposition table and zeroes the node count.
func (s *Solver) Reset() {
	s.table.clear()
	s.nodes = 0
}

// Solve returns the exact score of p for the side to move (see the package comment).
func (s *Solver) Solve(p *connect4.Position) int {
	score, _ := s.SolveWithin(p, Limits{})
	return score
}

// WeakSolve returns 1 if the side to move wins p, 0 if it is a draw and -1 if the side to move loses.
func (s *Solver) WeakSolve(p *connect4.Position) int {
	score, _ := s.WeakSolveWithin(p, Limits{})
	return score
}

// SolveLimited is Solve giving up after maxNodes nodes (0: no limit) or once stop is closed (nil: never);
// ok is false when it gave up, and the score is then meaningless. For a deadline, use SolveWithin.
func (s *Solver) SolveLimited(p *connect4.Position, maxNodes uint64, stop <-chan struct{}) (score int, ok bool) {
	return s.SolveWithin(p, Limits{MaxNodes: maxNodes, Stop: stop})
}

// SolveWithin is Solve within limits; ok is false when a limit was hit, and the score is then meaningless.
// What the table learnt before the limit stays valid, so a second call on the same position resumes faster.
func (s *Solver) SolveWithin(p *connect4.Position, limits Limits) (score int, ok bool) {
	return s.solveRoot(p, limits, false)
}

// WeakSolveWithin is WeakSolve within limits; ok is false when a limit was hit.
func (s *Solver) WeakSolveWithin(p *connect4.Position, limits Limits) (score int, ok bool) {
	return s.solveRoot(p, limits, true)
}

// BestMoves returns every legal move of p with its exact score for the side to move, best first (the
// centre first among equals); it returns nothing when the game is over.
func (s *Solver) BestMoves(p *connect4.Position) []MoveScore {
	moves, _ := s.BestMovesWithin(p, Limits{})
	return moves
}

// BestMovesWithin is BestMoves within limits (shared by all the moves); ok is false when a limit was hit,
// and the scores are then meaningless.
func (s *Solver) BestMovesWithin(p *connect4.Position, limits Limits) (moves []MoveScore, ok bool) {
	s.prepare(p, limits)
	defer s.clearLimits()
	current, mask := p.Current(), p.Mask()
	g := &s.geo
	if g.aligned(current ^ mask) {
		return nil, true
	}
	stones := stoneCount(mask)
	possible := g.possible(mask)
	for _, column := range g.columnsByPriority[:g.width] {
		cell := possible & column
		if cell == 0 {
			continue
		}
		var score int
		if g.winningCells(current, mask)&cell != 0 {
			score = (g.cells + 1 - stones) / 2
		} else {
			score = -s.solvePosition(current^mask, mask|cell, stones+1, false)
		}
		if s.aborted {
			return nil, false
		}
		moves = append(moves, MoveScore{Move: connect4.ColumnMove(g.columnOf(cell)), Score: score})
	}
	slices.SortStableFunc(moves, func(a, b MoveScore) int { return b.Score - a.Score })
	return moves, true
}

// BestMove returns a move of p that keeps its exact score, the centre first among equals, with that
// score; it returns games.NoMove when the game is over. It costs about one Solve, far less than
// BestMoves, which must also value every worse move exactly.
func (s *Solver) BestMove(p *connect4.Position) MoveScore {
	best, _ := s.BestMoveWithin(p, Limits{})
	return best
}

// BestMoveWithin is BestMove within limits; ok is false when a limit was hit, and the move is then NoMove.
func (s *Solver) BestMoveWithin(p *connect4.Position, limits Limits) (best MoveScore, ok bool) {
	s.prepare(p, limits)
	defer s.clearLimits()
	current, mask := p.Current(), p.Mask()
	g := &s.geo
	stones := stoneCount(mask)
	if g.aligned(current^mask) || stones == g.cells {
		return MoveScore{}, true
	}
	score := s.solvePosition(current, mask, stones, false)
	possible := g.possible(mask)
	wins := g.winningCells(current, mask) & possible
	for _, column := range g.columnsByPriority[:g.width] {
		cell := possible & column
		if cell == 0 || s.aborted {
			continue
		}
		if s.keepsScore(current, mask, stones, cell, wins, score) && !s.aborted {
			return MoveScore{Move: connect4.ColumnMove(g.columnOf(cell)), Score: score}, true
		}
	}
	if s.aborted {
		return MoveScore{}, false
	}
	panic("connect4solver: no move keeps the score the position solved to")
}

// keepsScore reports whether dropping a stone on cell keeps the score of the position (current, mask,
// stones), given its cells that win at once and its exact score: a null-window search shows that the
// opponent can do no better than -score after it.
func (s *Solver) keepsScore(current, mask uint64, stones int, cell, wins uint64, score int) bool {
	g := &s.geo
	if wins != 0 {
		return wins&cell != 0 // with an immediate win, the score is that of winning at once
	}
	childCurrent, childMask := current^mask, mask|cell
	switch {
	case g.winningCells(childCurrent, childMask)&g.possible(childMask) != 0:
		return -(g.cells-stones)/2 == score // the opponent wins with its next stone
	case stones+1 == g.cells:
		return score == 0 // the last cell, and no four: a draw
	}
	return -s.negamax(childCurrent, childMask, stones+1, -score, -score+1) >= score
}

// solveRoot sets the search up for p and solves it, strongly or weakly.
func (s *Solver) solveRoot(p *connect4.Position, limits Limits, weak bool) (int, bool) {
	s.prepare(p, limits)
	defer s.clearLimits()
	current, mask := p.Current(), p.Mask()
	if s.geo.aligned(current ^ mask) {
		// The last mover has won: the score it had just before its winning stone, negated.
		score := -(s.geo.cells + 2 - stoneCount(mask)) / 2
		if weak {
			score = -1
		}
		return score, true
	}
	score := s.solvePosition(current, mask, stoneCount(mask), weak)
	if weak {
		score = sign(score)
	}
	return score, !s.aborted
}

// prepare adapts the solver to p's board size (emptying the table if it changes) and arms the limits.
func (s *Solver) prepare(p *connect4.Position, limits Limits) {
	if !s.boardKnown || s.geo.width != p.Width() || s.geo.height != p.Height() {
		// Keys are unique only within one board size.
		s.geo = newGeometry(p.Width(), p.Height())
		s.table.clear()
		s.boardKnown = true
	}
	s.aborted = false
	s.nodeLimit = math.MaxUint64
	if limits.MaxNodes > 0 && limits.MaxNodes < math.MaxUint64-s.nodes {
		s.nodeLimit = s.nodes + limits.MaxNodes
	}
	s.stop, s.deadline = limits.Stop, limits.Deadline
	s.scheduleCheck()
	if closed(s.stop) {
		s.aborted = true
	}
}

// scheduleCheck sets the node count of the next look at the limits: the node limit itself, or sooner
// when there is a flag or a clock to watch.
func (s *Solver) scheduleCheck() {
	s.nextCheck = s.nodeLimit
	if s.stop != nil || !s.deadline.IsZero() {
		s.nextCheck = min(s.nodeLimit, s.nodes+limitCheckInterval)
	}
}

// clearLimits forgets the limits of the finished search, so that it keeps no reference to the stop channel.
func (s *Solver) clearLimits() {
	s.stop, s.deadline = nil, time.Time{}
	s.nodeLimit, s.nextCheck = math.MaxUint64, math.MaxUint64
}

// checkLimits is called when the node count reaches nextCheck: it sets aborted if a limit is hit and
// otherwise schedules the next check.
func (s *Solver) checkLimits() {
	switch {
	case s.nodes >= s.nodeLimit,
		closed(s.stop),
		!s.deadline.IsZero() && !time.Now().Before(s.deadline):
		s.aborted = true
		s.nextCheck = math.MaxUint64
		return
	}
	s.scheduleCheck()
}

// closed reports whether stop is closed; a nil channel never is.
func closed(stop <-chan struct{}) bool {
	select {
	case <-stop:
		return true
	default:
		return false
	}
}

// solvePosition returns the score of a position where the game is not over (current and mask as in
// connect4.Position, stones the number of stones on the board), narrowing the score down with
// null-window searches. Weak, it only separates wins, draws and losses (the sign of the result is exact).
func (s *Solver) solvePosition(current, mask uint64, stones int, weak bool) int {
	g := &s.geo
	if stones == g.cells {
		return 0
	}
	if g.winningCells(current, mask)&g.possible(mask) != 0 {
		return (g.cells + 1 - stones) / 2
	}
	lower, upper := -(g.cells-stones)/2, (g.cells+1-stones)/2
	if weak {
		lower, upper = -1, 1
	}
	for lower < upper && !s.aborted {
		// Test a score between the bounds, nearer to 0 than the middle: most positions are decided
		// early, and a small null window around 0 is much cheaper to search than a large score.
		probe := lower + (upper-lower)/2
		if probe <= 0 && lower/2 < probe {
			probe = lower / 2
		} else if probe >= 0 && upper/2 > probe {
			probe = upper / 2
		}
		score := s.negamax(current, mask, stones, probe, probe+1)
		if score <= probe {
			upper = score
		} else {
			lower = score
		}
	}
	return lower
}

// Table values: an upper bound u is stored as u - lowestScore + 1 and a lower bound l as
// l - lowestScore + 1 + scoreSpan, so both are non-zero and fit in a byte on any board (at most
// 64 cells, so scores within -33..33).
const (
	lowestScore = -33
	scoreSpan   = 2*33 + 1
)

// negamax returns the score of a position where the side to move cannot win at once and the game is not
// over, if it lies within (alpha, beta); otherwise a bound on it on the same side of the window as the
// score (fail-soft within the score bounds the number of stones allows).
func (s *Solver) negamax(current, mask uint64, stones, alpha, beta int) int {
	s.nodes++
	if s.nodes >= s.nextCheck {
		s.checkLimits()
	}
	if s.aborted {
		return 0
	}
	g := &s.geo
	candidates := s.nonLosingMoves(current, mask)
	if candidates == 0 {
		// Every move lets the opponent win with its next stone.
		return -(g.cells - stones) / 2
	}
	if stones >= g.cells-2 {
		// The opponent cannot win with the last stone, nor we with ours: a draw.
		return 0
	}
	// We cannot lose before the opponent's second stone from now, nor win before our next-but-one.
	if lowest := -(g.cells - 2 - stones) / 2; alpha < lowest {
		alpha = lowest
		if alpha >= beta {
			return alpha
		}
	}
	if highest := (g.cells - 1 - stones) / 2; beta > highest {
		beta = highest
		if alpha >= beta {
			return beta
		}
	}
	key := current + mask
	if value := int(s.table.get(key)); value != 0 {
		if value > scoreSpan {
			if lowest := value - scoreSpan + lowestScore - 1; alpha < lowest {
				alpha = lowest
				if alpha >= beta {
					return alpha
				}
			}
		} else if highest := value + lowestScore - 1; beta > highest {
			beta = highest
			if alpha >= beta {
				return beta
			}
		}
	}

	// Order the moves by the number of cells each leaves where our next stone would win, most first;
	// insertion keeps the centre-first order among equals. An entry is score<<8 | column priority.
	var order [maxWidth]uint16
	n := 0
	// Fetch the children's table slots now: the memory latency, the largest cost of a node, then
	// overlaps the ordering work below instead of stalling each child's own probe.
	for rest := candidates; rest != 0; rest &= rest - 1 {
		cell := rest & -rest
		prefetch.Line(s.table.slot((current ^ mask) + (mask | cell)))
	}
	for i := g.width - 1; i >= 0; i-- {
		cell := candidates & g.columnsByPriority[i]
		if cell == 0 {
			continue
		}
		merit := uint16(stoneCount(g.winningCells(current|cell, mask|cell)))
		j := n
		n++
		for ; j > 0 && order[j-1]>>8 > merit; j-- {
			order[j] = order[j-1]
		}
		order[j] = merit<<8 | uint16(i)
	}
	for n > 0 {
		n--
		cell := candidates & g.columnsByPriority[order[n]&0xff]
		score := -s.negamax(current^mask, mask|cell, stones+1, -beta, -alpha)
		if s.aborted {
			return 0
		}
		if score >= beta {
			s.table.put(key, uint8(score-lowestScore+1+scoreSpan))
			return score
		}
		if score > alpha {
			alpha = score
		}
	}
	s.table.put(key, uint8(alpha-lowestScore+1))
	return alpha
}

// nonLosingMoves returns the cells the side to move can play without letting the opponent win with its
// next stone: none if the opponent has two immediate wins, only the block if it has one, and never the
// cell just below an opponent's winning cell.
func (s *Solver) nonLosingMoves(current, mask uint64) uint64 {
	g := &s.geo
	possible := g.possible(mask)
	threats := g.winningCells(current^mask, mask)
	if forced := possible & threats; forced != 0 {
		if forced&(forced-1) != 0 {
			return 0
		}
		possible = forced
	}
	return possible &^ (threats >> 1)
}

// sign returns -1, 0 or 1 as x is negative, zero or positive.
func sign(x int) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}
