// playerView: a position wrapper that shows every leaf to the evaluation from the searching player's
// point of view, for evaluations that are not antisymmetric between the sides.

package searchers

import (
	"dossier/engine"
	"dossier/games"
)

// A negamax search evaluates each leaf for the side to move there and negates the value on the way up.
// That equals evaluating every leaf for the root player only when the evaluation is antisymmetric: what the
// opponent's features give the opponent is minus what the root player's give the root player. Difference
// features ("mine minus theirs") with any weights are; Carmel & Markovitch's Mat - Tot/25 is not (Tot is
// the same number for both sides), nor is an evaluation that weighs "my windows" and "their windows"
// unequally. Such an evaluation is a player's function, f(board, player), so a playerView rewrites the
// features of every position where the opponent is to move into what the evaluation must see for negamax
// to return f(board, root player).
//
// With the mirror of a book, feature i from the opponent's side equals sign[i] times feature partner[i]
// from the root player's side (the mirror is an involution). The opponent to move must see features whose
// value is -f(board, root) = -w . x_root, with x_root[i] = sign[i] x_opp[partner[i]]; writing
// -sign[i] x_opp[partner[i]] does it for every weight vector w.

// ViewSpec is the mirror of a game's features, resolved to indices, for the evaluations that need it.
type ViewSpec struct {
	partner []int
	sign    []float64
}

// newViewSpec returns the view of a game whose features read from the other side as sign[i] times feature
// partner[i] (see presets.MirrorTable).
func NewViewSpec(partner []int, sign []float64) ViewSpec {
	return ViewSpec{partner: partner, sign: sign}
}

// NeedsView reports whether eval differs from its mirror image, i.e. whether negamax over the side to
// move's features would not compute eval from the root player's point of view.
func (v ViewSpec) NeedsView(eval engine.Evaluation) bool {
	for j, w := range eval.Weights {
		i := v.partner[j]
		if w != -v.sign[i]*eval.Weights[i] {
			return true
		}
	}
	return false
}

// viewHashSalt separates the transposition table entries of searches for the two root players: the same
// position has different values for them under a player's function.
const viewHashSalt = 0x9e3779b97f4a7c15

// playerView is a position whose Features are seen from the root player's point of view (see above).
// It passes through the optional interfaces a search uses; a wrapped position that lacks one behaves as a
// position of a game without it (no tactical moves, never in check, no forced tactics).
type playerView struct {
	games.Position
	root     games.Side
	spec     ViewSpec
	salt     uint64
	scratch  []float64
	tactical games.Tactical
	checker  games.Checker
	forced   games.ForcedTactics
}

// nullView is a playerView of a position that can pass the move (null-move pruning).
type nullView struct {
	*playerView
	nuller games.NullMover
}

// NewPlayerView wraps p for a search by the side to move in p.
func NewPlayerView(p games.Position, spec ViewSpec) games.Position {
	v := &playerView{Position: p, root: p.ToMove(), spec: spec, scratch: make([]float64, len(spec.partner))}
	if v.root == games.Second {
		v.salt = viewHashSalt
	}
	v.tactical, _ = p.(games.Tactical)
	v.checker, _ = p.(games.Checker)
	v.forced, _ = p.(games.ForcedTactics)
	if n, ok := p.(games.NullMover); ok {
		return nullView{playerView: v, nuller: n}
	}
	return v
}

// Features writes the features as the evaluation must see them for the root player's function.
func (v *playerView) Features(dst []float64) {
	v.Position.Features(dst)
	if v.Position.ToMove() == v.root {
		return
	}
	copy(v.scratch, dst)
	for i := range dst {
		dst[i] = -v.spec.sign[i] * v.scratch[v.spec.partner[i]]
	}
}

// Hash returns the wrapped position's hash, salted by the root player.
func (v *playerView) Hash() uint64 { return v.Position.Hash() ^ v.salt }

// Clone returns a view of a clone of the wrapped position, for the same root player.
func (v *playerView) Clone() games.Position {
	c := &playerView{Position: v.Position.Clone(), root: v.root, spec: v.spec, salt: v.salt,
		scratch: make([]float64, len(v.scratch))}
	c.tactical, _ = c.Position.(games.Tactical)
	c.checker, _ = c.Position.(games.Checker)
	c.forced, _ = c.Position.(games.ForcedTactics)
	if n, ok := c.Position.(games.NullMover); ok {
		return nullView{playerView: c, nuller: n}
	}
	return c
}

// AppendTactical appends the wrapped position's tactical moves, if it has any.
func (v *playerView) AppendTactical(dst []games.Move) []games.Move {
	if v.tactical == nil {
		return dst
	}
	return v.tactical.AppendTactical(dst)
}

// IsTactical reports whether m is a tactical move of the wrapped position.
func (v *playerView) IsTactical(m games.Move) bool {
	return v.tactical != nil && v.tactical.IsTactical(m)
}

// TacticalGain scores m as the wrapped position does, 0 without tactical moves.
func (v *playerView) TacticalGain(m games.Move) int {
	if v.tactical == nil {
		return 0
	}
	return v.tactical.TacticalGain(m)
}

// InCheck reports whether the side to move of the wrapped position is in check.
func (v *playerView) InCheck() bool { return v.checker != nil && v.checker.InCheck() }

// TacticsForced reports whether the wrapped position forces a tactical move.
func (v *playerView) TacticsForced() bool { return v.forced != nil && v.forced.TacticsForced() }

// PlayNull passes the move in the wrapped position.
func (v nullView) PlayNull() { v.nuller.PlayNull() }

// UndoNull takes back PlayNull.
func (v nullView) UndoNull() { v.nuller.UndoNull() }
