// Which moves the engine observes as the opponent's, for sequences of position and go commands.

package protocol

import (
	"slices"
	"strings"
	"testing"

	"dossier/games/chess"
)

func TestObserveMove(t *testing.T) {
	startFEN := chess.Game{}.Start().FEN()
	tests := []struct {
		name     string
		commands []string
		want     []string
	}{
		{"engine plays white", []string{
			"ucinewgame", "position startpos", "go",
			"position startpos moves e2e4 e7e5", "go",
			"position startpos moves e2e4 e7e5 g1f3 b8c6", "go",
		}, []string{"e7e5", "b8c6"}},
		{"engine plays black", []string{
			"ucinewgame", "position startpos moves e2e4", "go",
			"position startpos moves e2e4 e7e5 g1f3", "go",
			"position startpos moves e2e4 e7e5 g1f3 b8c6 f1b5", "go",
		}, []string{"e2e4", "g1f3", "f1b5"}},
		{"ponder hit", []string{
			"position startpos", "go",
			"position startpos moves e2e4 e7e5", "go ponder", "ponderhit",
			"position startpos moves e2e4 e7e5 g1f3 b8c6", "go",
		}, []string{"e7e5", "b8c6"}},
		{"ponder hit at the end of input", []string{
			"position startpos moves e2e4 e7e5", "go ponder", "ponderhit",
		}, []string{"e7e5"}},
		{"ponder miss", []string{
			"position startpos", "go",
			"position startpos moves e2e4 e7e5", "go ponder", "stop",
			"position startpos moves e2e4 d7d5", "go",
		}, []string{"d7d5"}},
		{"ponder miss, then hit", []string{
			"position startpos moves e2e4", "go",
			"position startpos moves e2e4 e7e5 g1f3", "go ponder", "stop",
			"position startpos moves e2e4 e7e5 d2d4", "go",
			"position startpos moves e2e4 e7e5 d2d4 e5d4 c2c3", "go ponder", "ponderhit",
			"position startpos moves e2e4 e7e5 d2d4 e5d4 c2c3 d4c3 b1c3", "go",
		}, []string{"e2e4", "d2d4", "c2c3", "b1c3"}},
		{"stopped ponder, then the same move", []string{
			"position startpos", "go",
			"position startpos moves e2e4 e7e5", "go ponder", "stop",
			"position startpos moves e2e4 e7e5", "go",
		}, []string{"e7e5"}},
		{"the same position twice", []string{
			"position startpos moves e2e4", "go",
			"position startpos moves e2e4", "go",
		}, []string{"e2e4"}},
		{"positions without go are seen at the next go", []string{
			"position startpos moves e2e4",
			"position startpos moves e2e4 e7e5 g1f3",
			"go",
		}, []string{"e2e4", "g1f3"}},
		{"a diverging move list starts a new record", []string{
			"position startpos moves e2e4", "go",
			"position startpos moves d2d4", "go",
		}, []string{"e2e4", "d2d4"}},
		{"a move list shorter by a few plies takes them back", []string{
			"position startpos moves e2e4 e7e5 g1f3", "go",
			"position startpos moves e2e4", "go",
		}, []string{"e2e4", "g1f3"}},
		{"a move list shorter by many plies starts a new record", []string{
			"position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 d2d3", "go",
			"position startpos moves e2e4", "go",
		}, []string{"e2e4", "g1f3", "f1c4", "d2d3", "e2e4"}},
		{"startpos and its FEN are the same start", []string{
			"position startpos moves e2e4", "go",
			"position fen " + startFEN + " moves e2e4 e7e5 d2d4", "go",
		}, []string{"e2e4", "d2d4"}},
		{"another start is a new record", []string{
			"position startpos moves e2e4", "go",
			"position fen rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 moves e7e5 d2d4", "go",
		}, []string{"e2e4", "d2d4"}},
		{"a bare FEN has no moves to see", []string{
			"position fen rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", "go",
		}, nil},
		{"ucinewgame starts a new record", []string{
			"position startpos moves e2e4", "go",
			"ucinewgame", "position startpos moves e2e4", "go",
		}, []string{"e2e4", "e2e4"}},
		{"a bad position line changes nothing", []string{
			"position startpos moves e2e4", "go",
			"position startpos moves e2e4 e7e5 zz9", "go",
			"position startpos moves e2e4 e7e5 g1f3", "go",
		}, []string{"e2e4", "g1f3"}},
		{"perft is not a search", []string{
			"position startpos moves e2e4", "go perft 1", "go",
		}, []string{"e2e4"}},
		{"the move that ends the game", []string{
			"position startpos", "go",
			"position startpos moves f2f3 e7e5", "go",
			"position startpos moves f2f3 e7e5 g2g4 d8h4", "go",
		}, []string{"e7e5", "d8h4"}},
		{"a variant change starts a new record", []string{
			"position startpos moves e2e4", "go",
			"setoption name UCI_Variant value cfour", "position startpos moves P@d1", "go",
		}, []string{"e2e4", "P@d1"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			eng := newFakeEngine(0)
			out := runScript(t, eng, chess.Game{}, testConfig(), "debug on\n"+strings.Join(tc.commands, "\n")+"\n")
			if got := eng.observedMoves(); !slices.Equal(got, tc.want) {
				t.Errorf("observed %q, want %q", got, tc.want)
			}
			if got := linesWith(out, "debug: opponent move"); len(got) != len(tc.want) {
				t.Errorf("debug reports %q", got)
			}
			if errs := linesWith(out, "error"); len(errs) > 0 && !strings.Contains(tc.name, "bad") {
				t.Errorf("errors %q", errs)
			}
		})
	}
}
