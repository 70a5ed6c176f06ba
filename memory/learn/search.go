// The fixed-depth searches the learners value moves with: engine.AlphaBeta without quiescence or extensions.
package learn

import (
	"errors"
	"fmt"
	"math"

	"dossier/engine"
	"dossier/games"
)

// MaxDepth bounds the search depth of an opponent type or strategy a learner considers.
const MaxDepth = 12

// SearchOptions are the alpha-beta options of every fixed-depth search here: no table (a table entry of a
// deeper draft would answer a shallower probe), no quiescence, no extensions, no null move and no
// reductions, so that a depth-d search is exactly minimax to d plies, the (f, d) player of Carmel &
// Markovitch. PVS, killers and history change only the order moves are tried in, never a value.
func SearchOptions() engine.AlphaBetaOptions {
	return engine.AlphaBetaOptions{PVS: true, Killers: true, History: true}
}

// MinimaxPlayer is a fixed-depth minimax player (f, d): it searches Depth plies with Eval (negamax over the side to
// move's features, as engine.AlphaBeta does) and plays the first best move in its move order.
type MinimaxPlayer struct {
	// Eval is the player's evaluation function.
	Eval engine.Evaluation `json:"eval"`
	// Depth is its search depth in plies, 1..MaxDepth.
	Depth int `json:"depth"`
}

// Check reports an error if the player does not fit the game or searches no ply or too many.
func (pl MinimaxPlayer) Check(g games.Game) error {
	if pl.Depth < 1 || pl.Depth > MaxDepth {
		return fmt.Errorf("player %q searches %d plies, want 1..%d", pl.Eval.Name, pl.Depth, MaxDepth)
	}
	return pl.Eval.Check(g)
}

// fixedSearch runs fixed-depth alpha-beta probes with one evaluation. It is not safe for concurrent use.
type fixedSearch struct {
	ab    *engine.AlphaBeta
	moves [games.MaxMoves]games.Move
}

// newFixedSearch returns the probes of eval for game; ordered says whether killers and history may reorder
// moves (faster, but a player's choice among equal moves then depends on its earlier searches).
func newFixedSearch(g games.Game, eval engine.Evaluation, ordered bool) *fixedSearch {
	opts := engine.AlphaBetaOptions{}
	if ordered {
		opts = SearchOptions()
	}
	return &fixedSearch{ab: engine.NewAlphaBeta(g, eval, opts)}
}

// errNoMoves is returned for a position whose game is over or whose side to move has no move.
var errNoMoves = errors.New("the position has no legal move (the game is over)")

// legalMoves returns the legal moves of p in a fresh slice, or errNoMoves when the game is over there.
func legalMoves(p games.Position) ([]games.Move, error) {
	if p.Status().Result != games.Ongoing {
		return nil, errNoMoves
	}
	var buf [games.MaxMoves]games.Move
	moves := p.AppendMoves(buf[:0])
	if len(moves) == 0 {
		return nil, errNoMoves
	}
	return append([]games.Move(nil), moves...), nil
}

// indexOf returns the index of m in moves, or an error naming the move when it is not legal in p.
func indexOf(p games.Position, moves []games.Move, m games.Move) (int, error) {
	for i, x := range moves {
		if x == m {
			return i, nil
		}
	}
	return 0, fmt.Errorf("move %d is not legal in %s", uint64(m), p.FEN())
}

// bestMove returns the move a depth-plies player with this evaluation plays in p: the first best move in
// its move order. p must have a legal move.
func (s *fixedSearch) bestMove(p games.Position, depth int) games.Move {
	_, m := s.ab.ProbeMove(p, depth, math.Inf(-1), math.Inf(1))
	if m == games.NoMove { // every move lost at once: the first move is as good as any
		m = p.AppendMoves(s.moves[:0])[0]
	}
	return m
}

// childValue is the negamax value of the position p reached by a move, searched depth-1 plies, as a
// depth-plies search from its parent sees it: a repetition is a draw there, and mate distances count from
// the parent. The result is from the point of view of the side to move in p (the opponent of the mover).
func (s *fixedSearch) childValue(p games.Position, depth int, alpha, beta float64) float64 {
	if p.Repetitions() > 0 {
		return 0
	}
	return s.ab.Probe(p, depth-1, alpha, beta)
}

// fromParent turns a child's negamax value into the value of the move for the side that played it, with
// mate distances counted from the parent (a monotone map, so it keeps every comparison).
func fromParent(v float64) float64 {
	switch {
	case v >= engine.MateBound:
		return -v + 1
	case v <= -engine.MateBound:
		return -v - 1
	}
	return -v
}

// moveValues fills values[i] with the value of moves[i] in p for the side to move, by a depth-plies search.
func (s *fixedSearch) moveValues(p games.Position, moves []games.Move, depth int, values []float64) {
	for i, m := range moves {
		p.Play(m)
		values[i] = fromParent(s.childValue(p, depth, math.Inf(-1), math.Inf(1)))
		p.Undo()
	}
}

// beats reports whether move m is strictly better than a move of value chosen (as moveValues gives it) for
// the side to move in p at depth plies, by a null-window probe, which costs far less than the move's value.
func (s *fixedSearch) beats(p games.Position, m games.Move, depth int, chosen float64) bool {
	p.Play(m)
	defer p.Undo()
	// The child's value c, from its side to move, is below childOf(chosen) exactly when m beats chosen.
	threshold := -chosen
	switch {
	case chosen >= engine.MateBound:
		threshold = -chosen + 1
	case chosen <= -engine.MateBound:
		threshold = -chosen - 1
	}
	alpha := math.Nextafter(threshold, math.Inf(-1))
	return s.childValue(p, depth, alpha, threshold) <= alpha
}

// leaf is the end of a principal line: its features seen by the side to move at the line's root (the
// evaluation's value of it is then weights . features), or a game end, whose value no weights change.
type leaf struct {
	features []float64
	// outcome is the value of a finished game for the root's side to move (0 for a draw); ended says the
	// line ends in one.
	outcome float64
	ended   bool
}

// principalLeaf follows the principal line of a depth-plies search from p (p is left as it was) and
// returns the board whose value that search returns, Carmel & Markovitch's "dominant" board. A repetition
// on the line is a draw, a finished game its outcome.
func (s *fixedSearch) principalLeaf(g games.Game, p games.Position, depth int) leaf {
	sign := 1.0
	played := 0
	defer func() {
		for ; played > 0; played-- {
			p.Undo()
		}
	}()
	for d := depth; ; d-- {
		if played > 0 && p.Repetitions() > 0 {
			return leaf{ended: true}
		}
		if o := p.Status(); o.Result != games.Ongoing {
			return leaf{ended: true, outcome: sign * outcomeFor(o.Result, p.ToMove())}
		}
		if d <= 0 {
			f := make([]float64, len(g.FeatureNames()))
			p.Features(f)
			for i := range f {
				f[i] *= sign
			}
			return leaf{features: f}
		}
		moves := p.AppendMoves(s.moves[:0])
		if len(moves) == 0 {
			o := p.NoMovesOutcome()
			if o.Result == games.Ongoing { // the frontier of a hand-built tree
				d = 1
				continue
			}
			return leaf{ended: true, outcome: sign * outcomeFor(o.Result, p.ToMove())}
		}
		p.Play(s.bestMove(p, d))
		played++
		sign = -sign
	}
}

// outcomeFor is a finished game's value for side: a mate score for a win, minus one for a loss, 0 for a draw.
func outcomeFor(r games.Result, side games.Side) float64 {
	if r == games.Draw {
		return 0
	}
	if w, _ := r.Winner(); w == side {
		return engine.MateScore
	}
	return -engine.MateScore
}
