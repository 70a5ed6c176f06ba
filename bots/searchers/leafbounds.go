// Sound bounds on how far two evaluations are from zero-sum below a position: alpha-beta*'s leaf bounds
// and the symmetric search's bound on common interest, derived per game from bounds on the features.

package searchers

import (
	"fmt"
	"math"
	"math/bits"
	"slices"
	"strings"

	"dossier/engine"
	"dossier/engine/model"
	"dossier/games"
	"dossier/games/checkers"
	"dossier/games/chess"
	"dossier/games/connect4"
	"dossier/games/tictactoe"
)

// Two functions f (the player's) and g (its model of the opponent), each valued for its owner, sum at a
// leaf to gap . x, x the leaf's features read from f's owner's side and gap = f + g read from the other
// side (zeroSumGap). So |f + g| <= sum_i |gap_i| * X_i wherever |x_i| <= X_i. A feature bound X_i that holds
// at every position reachable from a node, whoever is to move there, makes this a bound at every leaf
// below the node, which is what alpha-beta* needs (|f_k + f_{k+1}| at the leaves) and what the symmetric
// search needs for its bound on common interest (|V1 + V2|).
//
// The feature bounds come from what cannot grow along a line of play: a side's pieces in checkers and
// chess (captures only remove them; a checkers man that crowns stays a piece, a chess pawn that promotes
// is one piece of some type, so a type's count is at most its count plus the side's pawns), and the board
// itself where nothing else is known (windows and lines of Connect-Four and tic-tac-toe). A feature that a
// game's table below does not cover has no bound, and a pair of functions that differ on it has none.
// Carmel & Markovitch's checkers pair, Mat - Tot/25 against the same function from the other side,
// differs only on Tot (by 2/25 of a man per piece), so its bound is (2/25) Tot as in the paper.

// featureBounder bounds a game's features below a position.
type featureBounder struct {
	// known[i] reports whether feature i has a proven bound.
	known []bool
	// nonNegative[i] reports whether feature i is never negative, read from either side (a count that is
	// not a difference, such as Tot): its values lie in [0, X_i] rather than [-X_i, X_i].
	nonNegative []bool
	// at writes X_i >= |x_i| for every position reachable from p and either side's view into dst
	// (+Inf for the features without a bound); it reports false when p is not a position the bounder
	// can read (then every bound is +Inf).
	at func(p games.Position, dst []float64) bool
	// refine, when not nil, narrows the intervals [low_i, high_i] of the features at the leaves of a
	// search of depth plies below p (every leaf static: no finished game among them), or leaves them
	// as they are.
	refine func(p games.Position, depth int, low, high []float64)
}

// intervals writes [low_i, high_i] holding feature i at every leaf of a search of depth plies below p
// (depth < 1: of any search below p), or reports false when p is not a position the bounder can read.
// Unless a refinement says otherwise, every interval holds 0.
func (b featureBounder) intervals(p games.Position, depth int, low, high []float64) bool {
	if !b.at(p, high) {
		return false
	}
	for i, x := range high {
		low[i] = -x
		if b.nonNegative[i] {
			low[i] = 0
		}
	}
	if b.refine != nil && depth >= 1 {
		b.refine(p, depth, low, high)
	}
	return true
}

// featureBounderOf returns the bounder of g's features, known for the games whose feature sets the bounders
// below were written for; a game without one has no known bound.
func featureBounderOf(g games.Game) featureBounder {
	names := g.FeatureNames()
	switch g.(type) {
	case checkers.Game:
		return checkersBounder(names)
	case chess.Game:
		return chessBounder(names)
	case connect4.Game:
		return connect4Bounder(names)
	case tictactoe.Game:
		return tictactoeBounder(names)
	}
	return featureBounder{known: make([]bool, len(names)), nonNegative: make([]bool, len(names)),
		at: func(games.Position, []float64) bool { return false }}
}

// boundRule is how a feature's bound scales with the per-side quantities a game reads at the node.
type boundRule struct {
	quantity    int     // which quantity (game-specific index), or -1 for a constant
	factor      float64 // the bound is factor * quantity (or factor alone for a constant)
	nonNegative bool    // the feature is a count, never negative from either side
}

// resolveRules maps every feature to its rule; features without one are unknown.
func resolveRules(names []string, rules map[string]boundRule) ([]boundRule, []bool) {
	resolved := make([]boundRule, len(names))
	known := make([]bool, len(names))
	for i, n := range names {
		resolved[i], known[i] = rules[n]
	}
	return resolved, known
}

// nonNegativeOf lists which resolved rules are counts.
func nonNegativeOf(rules []boundRule) []bool {
	out := make([]bool, len(rules))
	for i, r := range rules {
		out[i] = r.nonNegative
	}
	return out
}

// applyRules writes factor * quantity per feature into dst, +Inf for the unknown ones.
func applyRules(rules []boundRule, known []bool, quantities []float64, dst []float64) {
	for i, r := range rules {
		switch {
		case !known[i]:
			dst[i] = math.Inf(1)
		case r.quantity < 0:
			dst[i] = r.factor
		default:
			dst[i] = r.factor * quantities[r.quantity]
		}
	}
}

// Checkers quantities: the larger side's pieces and men at the node, and all pieces.
const (
	checkersPieces = iota // max over the sides of the side's pieces (never grows)
	checkersMen           // max over the sides of the side's men (never grows: men only leave or crown)
	checkersTotal         // pieces of both sides
	checkersQuantities
)

// checkersMaterial is what a checkers position says about its pieces.
type checkersMaterial interface {
	Men(s games.Side) uint32
	Kings(s games.Side) uint32
}

// checkersBounder bounds the checkers features: every difference feature counts a side's own men or
// pieces (at most a few per piece, mobility at most four moves per piece), or is 0/1.
func checkersBounder(names []string) featureBounder {
	piece := func(f float64) boundRule { return boundRule{quantity: checkersPieces, factor: f} }
	man := func(f float64) boundRule { return boundRule{quantity: checkersMen, factor: f} }
	one := boundRule{quantity: -1, factor: 1}
	tot := slices.Index(names, "tot")
	rules, known := resolveRules(names, map[string]boundRule{
		"men": man(1), "kings": piece(1), "tot": {quantity: checkersTotal, factor: 1, nonNegative: true}, "advance": man(7), "backRank": man(1),
		"bridge": one, "oreo": one, "centreMen": man(1), "centreKings": piece(1), "mobility": piece(4),
		"threats": piece(1), "runaway": man(1), "dogHole": one, "mainDiagonal": piece(1),
		"doubleCorner": piece(1), "edge": piece(1), "backed": man(1), "isolated": piece(1), "nearCrown": man(1),
	})
	return featureBounder{known: known, nonNegative: nonNegativeOf(rules), at: func(p games.Position, dst []float64) bool {
		cp, ok := p.(checkersMaterial)
		if !ok {
			applyRules(rules, make([]bool, len(rules)), nil, dst)
			return false
		}
		var q [checkersQuantities]float64
		for _, s := range []games.Side{games.First, games.Second} {
			men, kings := bits.OnesCount32(cp.Men(s)), bits.OnesCount32(cp.Kings(s))
			q[checkersPieces] = max(q[checkersPieces], float64(men+kings))
			q[checkersMen] = max(q[checkersMen], float64(men))
			q[checkersTotal] += float64(men + kings)
		}
		applyRules(rules, known, q[:], dst)
		return true
	}, refine: func(p games.Position, depth int, low, high []float64) {
		if tot >= 0 && depth == 1 {
			checkersRefineTot(p, tot, low, high)
		}
	}}
}

// checkersRefineTot narrows Tot's interval one ply from the horizon, where the leaves are p's children
// (this reasoning follows the engine's exact range of the paper's checkers pair). None of them is a
// finished game unless a draw can arise in one ply: only a king's quiet move can repeat a position (which
// needs four plies without a capture or a man move) or reach the no-progress limit. Where captures are
// forced every child has lost at least one of the opponent's pieces and at most all of them; otherwise,
// when no draw can arise, every child keeps p's Tot.
func checkersRefineTot(p games.Position, tot int, low, high []float64) {
	cp, ok := p.(*checkers.Position)
	if !ok {
		return
	}
	mover := cp.ToMove()
	pieces := float64(bits.OnesCount32(cp.Men(games.First) | cp.Kings(games.First) | cp.Men(games.Second) | cp.Kings(games.Second)))
	noProgress := cp.NoProgress() + 1
	switch {
	case cp.TacticsForced():
		theirs := float64(bits.OnesCount32(cp.Men(mover.Other()) | cp.Kings(mover.Other())))
		low[tot], high[tot] = pieces-theirs, pieces-1
	case cp.Kings(mover) == 0 || (noProgress < 4 && noProgress < checkers.NoProgressPlies):
		low[tot], high[tot] = pieces, pieces
	}
}

// Chess quantities, each the larger of the two sides' (or the sum where noted) at the node.
const (
	chessPawns      = iota // pawns (never grow)
	chessKnights           // knights + pawns (a pawn may promote)
	chessBishops           // bishops + pawns
	chessRooks             // rooks + pawns
	chessQueens            // queens + pawns
	chessOfficers          // knights, bishops, rooks and queens, + pawns, at most pieces - 1
	chessPieces            // all pieces, the king included (never grow)
	chessBothPieces        // the pieces of both sides together, for signed sums
	chessDanger            // officers^2 * 45, the most king_danger can reach
	chessQuantities
)

// chessBitboards is what a chess position says about its pieces.
type chessBitboards interface {
	Bitboard(color, pieceType int) uint64
}

// chessBounder bounds the chess features from the counts of each side's pieces. A raw term is bounded
// per side; its mg and eg features are the term times the phase or 1 - phase (the endgame ones also
// times the endgame scale), all in [0, 1]. The table sums are signed: each piece adds one entry of its
// table, at most chess.TableMaxAbs in absolute value, so the piece-square difference is at most that
// times both sides' pieces, and a mobility difference at most twice that times the larger side's
// pieces of the type (pawns included, which may promote).
func chessBounder(names []string) featureBounder {
	raw := map[string]boundRule{
		"pawn": {quantity: chessPawns, factor: 1}, "knight": {quantity: chessKnights, factor: 1}, "bishop": {quantity: chessBishops, factor: 1},
		"rook": {quantity: chessRooks, factor: 1}, "queen": {quantity: chessQueens, factor: 1}, "bishop_pair": {quantity: -1, factor: 1},
		// Each officer attacks at most the 9 squares of the king's zone, weighing at most 5 per square.
		"king_attack": {quantity: chessOfficers, factor: 45}, "king_attackers": {quantity: chessOfficers, factor: 1}, "king_danger": {quantity: chessDanger, factor: 1},
		"pawn_shield": {quantity: chessPawns, factor: 1}, "king_open_files": {quantity: -1, factor: 3},
		// Safe checks are squares that check the king from a knight's jump or a line: at most 8, 13, 14, 27.
		"safe_checks_knight": {quantity: -1, factor: 8}, "safe_checks_bishop": {quantity: -1, factor: 13},
		"safe_checks_rook": {quantity: -1, factor: 14}, "safe_checks_queen": {quantity: -1, factor: 27},
		"doubled_pawns": {quantity: chessPawns, factor: 1}, "isolated_pawns": {quantity: chessPawns, factor: 1}, "backward_pawns": {quantity: chessPawns, factor: 1},
		"connected_pawns": {quantity: chessPawns, factor: 1}, "passed_rank2": {quantity: chessPawns, factor: 1}, "passed_rank3": {quantity: chessPawns, factor: 1},
		"passed_rank4": {quantity: chessPawns, factor: 1}, "passed_rank5": {quantity: chessPawns, factor: 1}, "passed_rank6": {quantity: chessPawns, factor: 1},
		"passed_rank7": {quantity: chessPawns, factor: 1}, "passed_free": {quantity: chessPawns, factor: 1},
		// A king's distance counts at most 5, times at most 4 by rank, per passed pawn.
		"passed_blocked": {quantity: chessPawns, factor: 1}, "passed_king_own": {quantity: chessPawns, factor: 20},
		"passed_king_enemy": {quantity: chessPawns, factor: 20},
		"rook_open_file":    {quantity: chessRooks, factor: 1}, "rook_semiopen_file": {quantity: chessRooks, factor: 1}, "rook_seventh": {quantity: chessRooks, factor: 1},
		// Threats count enemy pieces, which the enemy's piece count bounds.
		"pawn_threats": {quantity: chessPieces, factor: 1}, "minor_threats": {quantity: chessPieces, factor: 1},
		"space": {quantity: -1, factor: 12}, "outposts": {quantity: chessOfficers, factor: 1}, "tempo": {quantity: -1, factor: 1},
		"mop_up": {quantity: -1, factor: chess.MopUpMax},
	}
	byFeature := map[string]boundRule{}
	for _, n := range names {
		base := strings.TrimSuffix(strings.TrimSuffix(n, "_mg"), "_eg")
		if r, ok := raw[base]; ok {
			byFeature[n] = r
		}
	}
	for _, phase := range []string{"_mg", "_eg"} {
		byFeature["pst"+phase] = boundRule{quantity: chessBothPieces, factor: chess.TableMaxAbs("pst" + phase)}
		for i, piece := range []string{"knight", "bishop", "rook", "queen"} {
			n := "mobility_" + piece + phase
			byFeature[n] = boundRule{quantity: chessKnights + i, factor: 2 * chess.TableMaxAbs(n)}
		}
	}
	rules, known := resolveRules(names, byFeature)
	return featureBounder{known: known, nonNegative: nonNegativeOf(rules), at: func(p games.Position, dst []float64) bool {
		cp, ok := p.(chessBitboards)
		if !ok {
			applyRules(rules, make([]bool, len(rules)), nil, dst)
			return false
		}
		var q [chessQuantities]float64
		for color := chess.White; color <= chess.Black; color++ {
			count := func(pt int) float64 { return float64(bits.OnesCount64(cp.Bitboard(color, pt))) }
			pawns := count(chess.Pawn)
			var officers, pieces float64
			for pt := chess.Pawn; pt <= chess.King; pt++ {
				pieces += count(pt)
			}
			for i, pt := range []int{chess.Knight, chess.Bishop, chess.Rook, chess.Queen} {
				q[chessKnights+i] = max(q[chessKnights+i], min(count(pt)+pawns, pieces-1))
				officers += count(pt)
			}
			q[chessPawns] = max(q[chessPawns], pawns)
			q[chessOfficers] = max(q[chessOfficers], min(officers+pawns, pieces-1))
			q[chessPieces] = max(q[chessPieces], pieces)
			q[chessBothPieces] += pieces
		}
		q[chessDanger] = 45 * q[chessOfficers] * q[chessOfficers]
		applyRules(rules, known, q[:], dst)
		return true
	}}
}

// Connect-Four quantities: the windows of each direction group on the board and the centre's cells.
const (
	connect4Horizontal = iota
	connect4Vertical
	connect4Diagonal
	connect4Centre
	connect4Quantities
)

// connect4Board is what a Connect-Four position says about its board.
type connect4Board interface {
	Width() int
	Height() int
}

// connect4Bounder bounds the window counts by the number of windows of their direction on the board,
// and the centre balance by the cells of the (at most two) centre columns.
func connect4Bounder(names []string) featureBounder {
	byFeature := map[string]boundRule{"centre": {quantity: connect4Centre, factor: 1}}
	for k := 1; k <= 3; k++ {
		for _, side := range []string{"mine", "theirs"} {
			byFeature[fmt.Sprintf("h%d_%s", k, side)] = boundRule{quantity: connect4Horizontal, factor: 1, nonNegative: true}
			byFeature[fmt.Sprintf("v%d_%s", k, side)] = boundRule{quantity: connect4Vertical, factor: 1, nonNegative: true}
			byFeature[fmt.Sprintf("d%d_%s", k, side)] = boundRule{quantity: connect4Diagonal, factor: 1, nonNegative: true}
		}
	}
	rules, known := resolveRules(names, byFeature)
	return featureBounder{known: known, nonNegative: nonNegativeOf(rules), at: func(p games.Position, dst []float64) bool {
		b, ok := p.(connect4Board)
		if !ok {
			applyRules(rules, make([]bool, len(rules)), nil, dst)
			return false
		}
		w, h := float64(b.Width()), float64(b.Height())
		q := [connect4Quantities]float64{
			connect4Horizontal: max(w-3, 0) * h,
			connect4Vertical:   w * max(h-3, 0),
			connect4Diagonal:   2 * max(w-3, 0) * max(h-3, 0),
			connect4Centre:     2 * h,
		}
		applyRules(rules, known, q[:], dst)
		return true
	}}
}

// tictactoeBounder bounds the tic-tac-toe features by the board: 8 lines, 1 centre, 4 corners.
func tictactoeBounder(names []string) featureBounder {
	rules, known := resolveRules(names, map[string]boundRule{
		"open_lines": {quantity: -1, factor: 8}, "twos_mine": {quantity: -1, factor: 8, nonNegative: true},
		"twos_theirs": {quantity: -1, factor: 8, nonNegative: true}, "centre": {quantity: -1, factor: 1},
		"corners": {quantity: -1, factor: 4},
	})
	return featureBounder{known: known, nonNegative: nonNegativeOf(rules), at: func(_ games.Position, dst []float64) bool {
		applyRules(rules, known, nil, dst)
		return true
	}}
}

// zeroSumGap returns the weights gap with f(leaf) + g(leaf) = gap . x for f valued from its owner's side
// and g from the other side, x the leaf's features from f's owner's side (see model.Mirror).
func zeroSumGap(f, g []float64, mirror model.Mirror) []float64 {
	gap := mirrored(g, mirror)
	for i, w := range f {
		gap[i] += w
	}
	return gap
}

// pairGap is one pair of functions' distance from zero-sum, ready to bound at a node.
type pairGap struct {
	gap []float64
}

// newPairGap returns the gap of the pair (f, g), or an error naming a feature on which they differ
// without a bound in the game.
func newPairGap(g games.Game, bounder featureBounder, f, model engine.Evaluation, mirror model.Mirror) (pairGap, error) {
	gap := zeroSumGap(f.Weights, model.Weights, mirror)
	names := g.FeatureNames()
	for i, d := range gap {
		if d != 0 && !bounder.known[i] {
			return pairGap{}, fmt.Errorf("%s and %s are not zero-sum on the %s feature %s, which has no proven bound",
				f.Name, model.Name, g.Name(), names[i])
		}
	}
	return pairGap{gap: gap}, nil
}

// rangeOf returns the range [lo, hi] of gap . x over the feature intervals x_i in [low_i, high_i]; both
// ends are 0 for a zero-sum pair.
func (pg pairGap) rangeOf(low, high []float64) (lo, hi float64) {
	for i, d := range pg.gap {
		if d == 0 {
			continue
		}
		a, b := d*low[i], d*high[i]
		lo += min(a, b)
		hi += max(a, b)
	}
	return lo, hi
}

// bound returns a bound on |gap . x| over the feature intervals, the larger end of rangeOf.
func (pg pairGap) bound(low, high []float64) float64 {
	lo, hi := pg.rangeOf(low, high)
	return max(-lo, hi)
}

// modelGaps returns the gaps of the chain of functions (the player's, its model's, ...), pair by pair, or
// an error when a pair has no proven bound.
func modelGaps(g games.Game, bounder featureBounder, chain []engine.Evaluation, mirror model.Mirror) ([]pairGap, error) {
	var pairs []pairGap
	for k := 0; k+1 < len(chain); k++ {
		pg, err := newPairGap(g, bounder, chain[k], chain[k+1], mirror)
		if err != nil {
			return nil, fmt.Errorf("alphabeta-star needs a bound on f + g at the leaves: %w (search=mstar-1pass gives the same moves without one)", err)
		}
		pairs = append(pairs, pg)
	}
	return pairs, nil
}

// chainGaps returns g's feature bounder, the gaps of each pair of the chain's functions, and the interval
// buffers a leaf bound fills, for modelLeafBounds and modelLeafRanges.
func chainGaps(g games.Game, chain []engine.Evaluation, mirror model.Mirror) (featureBounder, []pairGap, []float64, []float64, error) {
	bounder := featureBounderOf(g)
	pairs, err := modelGaps(g, bounder, chain, mirror)
	if err != nil {
		return featureBounder{}, nil, nil, nil, err
	}
	n := len(g.FeatureNames())
	return bounder, pairs, make([]float64, n), make([]float64, n), nil
}

// modelLeafBounds returns alpha-beta*'s leaf bounds for the chain of functions: |f_k + f_{k+1}| at every
// leaf below the node, or an error when a pair has no proven bound.
func modelLeafBounds(g games.Game, chain []engine.Evaluation, mirror model.Mirror) (model.LeafBounds, error) {
	bounder, pairs, low, high, err := chainGaps(g, chain, mirror)
	if err != nil {
		return nil, err
	}
	return func(p games.Position, dst []float64) {
		ok := bounder.intervals(p, 0, low, high)
		for k := range dst {
			dst[k] = math.Inf(1)
			if ok && k < len(pairs) {
				dst[k] = pairs[k].bound(low, high)
			}
		}
	}, nil
}

// modelLeafRanges returns the one-sided, depth-aware form of modelLeafBounds: the range of f_k + f_{k+1}
// at every leaf of the search below the node. For Carmel & Markovitch's checkers pair it is
// [-(2/25) Tot, 0] (Tot a count), where the bound alone says |f1 + f0| <= (2/25) Tot, and one ply from the
// horizon often a single value.
func modelLeafRanges(g games.Game, chain []engine.Evaluation, mirror model.Mirror) (model.LeafRanges, error) {
	bounder, pairs, low, high, err := chainGaps(g, chain, mirror)
	if err != nil {
		return nil, err
	}
	return func(p games.Position, depth int, lo, hi []float64) {
		if !bounder.intervals(p, depth, low, high) {
			return // nothing known: the ranges stay as they were
		}
		for k := range min(len(lo), len(pairs)) {
			lo[k], hi[k] = pairs[k].rangeOf(low, high)
		}
	}, nil
}
