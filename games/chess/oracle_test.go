// Random playouts cross-checked against notnil/chess (an independent move generator) and gametest.

package chess

import (
	"math/rand/v2"
	"sort"
	"strings"
	"testing"

	notnil "github.com/notnil/chess"

	"dossier/games"
	"dossier/games/gametest"
)

// TestPlayoutsAgreeWithNotnil plays seeded random games and compares, at every ply, the set of legal moves
// (as UCI strings), checkmate and stalemate, insufficient material, the FEN (board, side, castling, clocks),
// and the SAN of the move played with notnil/chess. Definitional differences, by design: notnil writes an
// en-passant square after every double push, this package only when a capture is legal, so the en-passant
// field is not compared; notnil's automatic draws (fivefold repetition, 75 moves) are not compared.
func TestPlayoutsAgreeWithNotnil(t *testing.T) {
	nGames, maxPlies := 1000, 200
	if testing.Short() {
		nGames = 60
	}
	rng := rand.New(rand.NewPCG(42, 4242))
	var buf [games.MaxMoves]games.Move
	san := notnil.AlgebraicNotation{}
	var plies, mates, stalemates, insufficient, epMoves, castles, promotions int
	for g := 0; g < nGames; g++ {
		p := StartPosition()
		ref := notnil.StartingPosition()
		for ply := 0; ply < maxPlies; ply++ {
			fen := p.FEN()
			moves := p.AppendMoves(buf[:0])
			mine := make([]string, len(moves))
			for i, m := range moves {
				mine[i] = p.FormatMove(m)
			}
			refMoves := ref.ValidMoves()
			theirs := make([]string, len(refMoves))
			byName := make(map[string]*notnil.Move, len(refMoves))
			for i, m := range refMoves {
				theirs[i] = m.String()
				byName[theirs[i]] = m
			}
			sort.Strings(mine)
			sort.Strings(theirs)
			if strings.Join(mine, " ") != strings.Join(theirs, " ") {
				t.Fatalf("game %d ply %d %s: legal moves\n mine   %v\n notnil %v", g, ply, fen, mine, theirs)
			}
			if got, want := fenWithoutEP(fen), fenWithoutEP(ref.String()); got != want {
				t.Fatalf("game %d ply %d: FEN %q, notnil %q", g, ply, got, want)
			}
			refStatus := ref.Status()
			if len(moves) == 0 {
				o := p.NoMovesOutcome()
				if (o.Reason == games.Checkmate) != (refStatus == notnil.Checkmate) || (o.Reason == games.Stalemate) != (refStatus == notnil.Stalemate) {
					t.Fatalf("game %d ply %d %s: outcome %v, notnil %v", g, ply, fen, o.Reason, refStatus)
				}
				if o.Reason == games.Checkmate {
					mates++
				} else {
					stalemates++
				}
				break
			}
			if p.st.pieces[Pawn]|p.st.pieces[Rook]|p.st.pieces[Queen] == 0 {
				opt, err := notnil.FEN(ref.String())
				if err != nil {
					t.Fatal(err)
				}
				refGame := notnil.NewGame(opt)
				if got, want := p.InsufficientMaterial(), refGame.Method() == notnil.InsufficientMaterial; got != want {
					t.Fatalf("game %d ply %d %s: insufficient material %v, notnil %v", g, ply, fen, got, want)
				}
				if p.InsufficientMaterial() {
					insufficient++
				}
			}
			if p.Status().Result.Over() {
				break
			}
			m := moves[rng.IntN(len(moves))]
			name := p.FormatMove(m)
			if got, want := p.SAN(m), san.Encode(ref, byName[name]); got != want {
				t.Fatalf("game %d ply %d %s: SAN of %s is %q, notnil %q", g, ply, fen, name, got, want)
			}
			plies++
			switch {
			case moveKind(m) == kindEnPassant:
				epMoves++
			case moveKind(m) == kindCastle:
				castles++
			case movePromotion(m) != NoPiece:
				promotions++
			}
			p.Play(m)
			ref = ref.Update(byName[name])
		}
	}
	t.Logf("%d plies compared; %d checkmates, %d stalemates, %d insufficient-material ends; played %d en passant, %d castlings, %d promotions",
		plies, mates, stalemates, insufficient, epMoves, castles, promotions)
}

// fenWithoutEP drops the en-passant field of a FEN.
func fenWithoutEP(fen string) string {
	f := strings.Fields(fen)
	if len(f) < 4 {
		return fen
	}
	return strings.Join(append(f[:3:3], f[4:]...), " ")
}

// TestGametestRandomPlayouts runs the shared interface conformance checks on random games.
func TestGametestRandomPlayouts(t *testing.T) {
	n := 40
	if testing.Short() {
		n = 5
	}
	gametest.RandomPlayouts(t, Game{}, n, 200, 7)
}
