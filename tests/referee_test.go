// An independent chess referee (notnil/chess) for games against external programs, and a random-move opponent.

package tests

import (
	"math/rand/v2"
	"slices"

	notnil "github.com/notnil/chess"
)

// referee keeps a chess game with notnil/chess, a move generator written independently of dossier's, so that
// every move dossier sends through another program is checked against rules dossier did not write.
type referee struct {
	game *notnil.Game
}

// newReferee starts a game from the standard position, with moves in UCI notation (e2e4, e7e8q).
func newReferee() *referee {
	return &referee{game: notnil.NewGame(notnil.UseNotation(notnil.UCINotation{}))}
}

// play plays a move in UCI notation, returning notnil's error when it is not legal.
func (r *referee) play(uci string) error {
	return r.game.MoveStr(uci)
}

// moves returns the game's moves in UCI notation.
func (r *referee) moves() []string {
	out := make([]string, 0, len(r.game.Moves()))
	for _, m := range r.game.Moves() {
		out = append(out, notnil.UCINotation{}.Encode(nil, m))
	}
	return out
}

// over reports whether the game has ended, and how: by a result notnil applies itself (mate, stalemate,
// insufficient material, fivefold repetition, the 75-move rule) or by a draw either player could claim
// (threefold repetition, the fifty-move rule), where a referee would stop a game between programs.
func (r *referee) over() (bool, string) {
	if o := r.game.Outcome(); o != notnil.NoOutcome {
		return true, o.String() + " by " + r.game.Method().String()
	}
	draws := r.game.EligibleDraws()
	if slices.Contains(draws, notnil.ThreefoldRepetition) {
		return true, "1/2-1/2 by claimable threefold repetition"
	}
	if slices.Contains(draws, notnil.FiftyMoveRule) {
		return true, "1/2-1/2 by claimable fifty-move rule"
	}
	return false, ""
}

// randomMove picks one of the legal moves with rng, in UCI notation.
func (r *referee) randomMove(rng *rand.Rand) string {
	valid := r.game.ValidMoves()
	return notnil.UCINotation{}.Encode(nil, valid[rng.IntN(len(valid))])
}
