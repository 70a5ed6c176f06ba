// Package chess is a fast, exact chess board for dossier's searches: magic bitboards, fully legal move
// generation with pin and check masks, copy-make Play/Undo, incremental Zobrist hashing, the draw rules,
// and a feature vector for linear evaluation functions. notnil/chess is used only for PGN tests, never here.
package chess

import (
	"math/rand/v2"

	"dossier/games"
)

// Game is chess; it implements games.Game. Both kinds of game read any X-FEN or Shredder-FEN and play
// Chess960 castling wherever the position's castling rights say so; Chess960 changes only the notation.
type Game struct {
	// Chess960 writes castling in UCI as the king taking its own rook (e1h1), as UCI_Chess960 asks, and
	// names the game "chess960" in Variant.
	Chess960 bool
}

var _ games.Game = Game{}

// Name returns "chess" for both kinds: the rules, features and presets are chess's (see Variant).
func (Game) Name() string { return "chess" }

// SideNames names chess's sides: White moves first.
func (Game) SideNames() [2]string { return [2]string{"white", "black"} }

// Variants gives chess's protocol names: no UCI_Variant (Chess960 is UCI_Chess960), CECP's "normal" or
// "fischerandom", and a Variant tag for Chess960 alone.
func (g Game) Variants() games.Variants {
	if g.Chess960 {
		return games.Variants{CECP: "fischerandom", Record: "Chess960"}
	}
	return games.Variants{CECP: "normal"}
}

// Variant returns "chess960" for a Chess960 game and "chess" otherwise.
func (g Game) Variant() string {
	if g.Chess960 {
		return "chess960"
	}
	return "chess"
}

// Start returns the standard starting position (Chess960 position 518 for a Chess960 game, which a match
// replaces by random start positions, see Chess960Start).
func (g Game) Start() games.Position {
	p := StartPosition()
	p.chess960 = g.Chess960
	return p
}

// RandomStart returns a start position drawn by rng: one of the 960 of Chess960 (numbered as Chess960Start
// numbers them), or the standard start for standard chess.
func (g Game) RandomStart(rng *rand.Rand) games.Position {
	if !g.Chess960 {
		return g.Start()
	}
	p, err := Chess960Start(rng.IntN(Chess960Positions))
	if err != nil {
		panic(err) // every number below Chess960Positions is a start position; a failure is a bug here
	}
	return p
}

// ParsePosition reads a FEN, X-FEN or Shredder-FEN (see ParseFEN).
func (g Game) ParsePosition(s string) (games.Position, error) {
	p, err := ParseFEN(s)
	if err != nil {
		return nil, err
	}
	p.chess960 = g.Chess960
	return p, nil
}

// FeatureNames names the entries of Position.Features, in order.
func (Game) FeatureNames() []string { return append([]string(nil), featureNames[:]...) }

// Status reports the endings that need no move generation:
//   - the fifty-move rule: a halfmove clock of at least 100 draws, unless the side to move is checkmated
//     (then Status says Ongoing and NoMovesOutcome reports the mate);
//   - threefold repetition: the position occurred twice before (see Repetitions);
//   - insufficient material, as InsufficientMaterial describes.
func (p *Position) Status() games.Outcome {
	s := &p.st
	if s.halfmove >= 100 && !(s.inCheck() && s.countMoves(p.rules) == 0) {
		return games.Outcome{Result: games.Draw, Reason: games.MoveRule}
	}
	if s.halfmove >= 4 && p.Repetitions() >= 2 {
		return games.Outcome{Result: games.Draw, Reason: games.Repetition}
	}
	if p.InsufficientMaterial() {
		return games.Outcome{Result: games.Draw, Reason: games.InsufficientMaterial}
	}
	return games.Outcome{}
}

// NoMovesOutcome returns checkmate (a loss for the side to move) when in check, stalemate otherwise.
func (p *Position) NoMovesOutcome() games.Outcome {
	if p.st.inCheck() {
		return games.Outcome{Result: games.LossFor(p.ToMove()), Reason: games.Checkmate}
	}
	return games.Outcome{Result: games.Draw, Reason: games.Stalemate}
}

// Repetitions returns how many earlier positions in this Position's history equal the current one (same
// pieces, side to move, castling rights and legal en-passant captures, compared by hash). It scans back
// only within the halfmove clock (a capture or pawn move makes earlier positions unreachable) and not across
// a null move.
func (p *Position) Repetitions() int {
	s := &p.st
	window := int(s.halfmove)
	if int(s.sinceNull) < window {
		window = int(s.sinceNull)
	}
	n := len(p.stack)
	if window > n {
		window = n
	}
	count := 0
	for back := 4; back <= window; back += 2 {
		if p.stack[n-back].hash == s.hash {
			count++
		}
	}
	return count
}

// InsufficientMaterial reports whether neither side can ever checkmate: no pawns, rooks or queens, and
// either at most one knight or bishop on the whole board, or no knights and every bishop (of either side,
// any number) on squares of one colour. K+N vs K+N, K+B vs K+N and K+N+N vs K are not counted (a mate is
// possible with help). This is the same definition as notnil/chess uses.
func (p *Position) InsufficientMaterial() bool {
	s := &p.st
	if s.pieces[Pawn]|s.pieces[Rook]|s.pieces[Queen] != 0 {
		return false
	}
	minors := s.pieces[Knight] | s.pieces[Bishop]
	if minors&(minors-1) == 0 {
		return true
	}
	if s.pieces[Knight] != 0 {
		return false
	}
	return s.pieces[Bishop]&lightSquares == 0 || s.pieces[Bishop]&darkSquares == 0
}
