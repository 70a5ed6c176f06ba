// The one iterative-deepening driver and the one fixed-depth result type of every opponent-model search.

package model

import (
	"dossier/engine"
	"slices"

	"dossier/games"
)

// ModelResult is the outcome of one fixed-depth search of an opponent-model search (M*, M* 1-pass,
// alpha-beta*, OM, PrOM, MEU, symmetric).
type ModelResult struct {
	// Move is the player's choice (the first of equally valued moves), games.NoMove without legal moves.
	Move games.Move
	// Predicted is the opponent's reply to Move that the model predicts (the most probable one for the
	// probabilistic models), or games.NoMove when the depth leaves the opponent no move to predict.
	Predicted games.Move
	// Value is the search value of the position for the player, from the player's point of view.
	Value float64
	// Vector is the root's value vector (M* 1-pass and alpha-beta*): the player's value, its model's,
	// and so on, one entry per level down to the search depth; the strategy form of M* gives the pair
	// (player's value, model's value); nil for the other searches.
	Vector []float64
	// Nodes counts the positions expanded (move lists generated), probes included.
	Nodes uint64
	// Leaves counts the static evaluations: feature extractions, each serving every function at a leaf.
	Leaves uint64
	// Aborted reports that the Control stopped the search before it finished; the other fields then hold
	// what was found so far (Move the best fully searched root move, or games.NoMove).
	Aborted bool
	// Solved reports that no leaf was cut by the depth limit (every line ended the game or a hand-built
	// tree), so that deeper searches return the same; searches that do not track it leave it false.
	Solved bool
}

// modelIteration is one iteration of a model search's iterative deepening: the search of p to depth,
// with first (unless games.NoMove) searched first at the root and the root restricted to the Control's
// SearchMoves. Depth 0 is asked only of a root whose game goes on without legal moves (a hand-built
// tree's frontier), for its static value.
type modelIteration func(depth int, first games.Move) ModelResult

// iterateModel is the iterative-deepening driver every model Searcher shares: depth 1, 2, ... until the
// Control stops it, its depth limit is reached, an iteration is solved or the player wins on the move (a
// model's mate in more moves is no proof: the model searches deeper in the next iteration). The move of
// the deepest completed iteration is played; an interrupted first iteration still yields its best
// searched root move, and a search stopped before that the first legal (searchable) move, so that a legal
// move is always returned when there is one. Each completed iteration is reported with the predicted
// reply. When pondering or searching infinitely it does not return before ctl is released, as UCI requires.
func iterateModel(p games.Position, ctl *engine.Control, report func(engine.Info), search modelIteration) engine.Result {
	defer ctl.WaitRelease()
	if o := p.Status(); o.Result != games.Ongoing {
		return engine.Result{Score: rootOutcome(o.Result, p.ToMove())}
	}
	var buf [games.MaxMoves]games.Move
	moves := searchableRootMoves(p, ctl, games.NoMove, buf[:0])
	if len(moves) == 0 {
		if o := p.NoMovesOutcome(); o.Result != games.Ongoing {
			return engine.Result{Score: rootOutcome(o.Result, p.ToMove())}
		}
		r := search(0, games.NoMove)
		return engine.Result{Score: r.Value, Nodes: r.Nodes}
	}
	res := engine.Result{Move: moves[0], PV: []games.Move{moves[0]}}
	maxDepth := maxPly - 2
	if d := ctl.Limits().Depth; d > 0 {
		maxDepth = min(d, maxDepth)
	}
	var nodes uint64
	for depth := 1; depth <= maxDepth && ctl.NextIteration(depth); depth++ {
		first := games.NoMove
		if res.Depth > 0 {
			first = res.Move
		}
		r := search(depth, first)
		nodes += r.Nodes
		if r.Aborted {
			if res.Depth == 0 && r.Move != games.NoMove {
				res.Move, res.Score, res.Ponder, res.PV = r.Move, r.Value, r.Predicted, modelPV(r)
			}
			break
		}
		res = engine.Result{Move: r.Move, Ponder: r.Predicted, Score: r.Value, Depth: depth, PV: modelPV(r)}
		if report != nil {
			report(engine.Info{Depth: depth, SelDepth: depth, Score: r.Value, Nodes: nodes,
				TimeMS: ctl.Elapsed().Milliseconds(), PV: res.PV, Predicted: r.Predicted})
		}
		if r.Solved || r.Value >= engine.MateScore-1 {
			break // deeper searches change nothing, or cannot beat a win on the move
		}
	}
	res.Nodes = nodes
	return res
}

// searchableRootMoves appends to dst the legal moves of p, restricted to ctl's SearchMoves when any of
// them is legal, with first (when among them) moved to the front.
func searchableRootMoves(p games.Position, ctl *engine.Control, first games.Move, dst []games.Move) []games.Move {
	dst = p.AppendMoves(dst[:0])
	if ctl != nil {
		if only := ctl.Limits().SearchMoves; len(only) > 0 && slices.ContainsFunc(dst, func(m games.Move) bool {
			return slices.Contains(only, m)
		}) {
			dst = slices.DeleteFunc(dst, func(m games.Move) bool { return !slices.Contains(only, m) })
		}
	}
	moveToFront(dst, first)
	return dst
}

// moveToFront moves first, when it is in moves, to the front; the other moves keep their order.
func moveToFront(moves []games.Move, first games.Move) {
	if i := slices.Index(moves, first); i > 0 {
		copy(moves[1:i+1], moves[:i])
		moves[0] = first
	}
}

// modelPV is the principal variation a model search knows: its move and the predicted reply.
func modelPV(r ModelResult) []games.Move {
	if r.Predicted == games.NoMove {
		return []games.Move{r.Move}
	}
	return []games.Move{r.Move, r.Predicted}
}

// rootOutcome is a finished game's score for the side to move at the root.
func rootOutcome(r games.Result, toMove games.Side) float64 {
	if r == games.Draw {
		return 0
	}
	if w, _ := r.Winner(); w == toMove {
		return engine.MateScore
	}
	return -engine.MateScore
}
