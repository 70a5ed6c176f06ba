// The session with the real game catalog, as cmd/dossier runs it.

package protocol

import (
	"slices"
	"strings"
	"testing"

	"dossier/games/catalog"
	"dossier/games/chess"
)

// TestCatalogVariants: every UCI_Variant choice the session announces is a game the catalog knows, and
// switching to each gives the catalog's game and its start position.
func TestCatalogVariants(t *testing.T) {
	for _, variant := range DefaultVariants() {
		t.Run(variant, func(t *testing.T) {
			g, err := catalog.Lookup(variant)
			if err != nil {
				t.Fatalf("catalog does not know %q: %v", variant, err)
			}
			if catalog.VariantName(g.Name()) != variant {
				t.Errorf("catalog names %s's variant %q", g.Name(), catalog.VariantName(g.Name()))
			}
			eng := newFakeEngine(0)
			out := runScript(t, eng, chess.Game{}, Config{Lookup: catalog.Lookup},
				"setoption name UCI_Variant value "+variant+"\nucinewgame\nposition startpos\nd\n")
			if !slices.Contains(out, "Fen: "+g.Start().FEN()) || len(linesWith(out, "error")) > 0 {
				t.Errorf("output %q", out)
			}
		})
	}
}

// TestChess960Session: UCI_Chess960 and the Chess960 variant names switch chess to king-takes-rook castling
// (in the legal moves shown and in moves read), X-FEN and Shredder-FEN positions read in either mode, and
// standard chess keeps e1g1.
func TestChess960Session(t *testing.T) {
	const shredder = "position fen 1r1k4/8/8/8/8/8/8/R4K1R w HA - 0 1"
	tests := []struct {
		name   string
		script string
		want   []string
	}{
		{"option announced", "uci\n", []string{"option name UCI_Chess960 type check default false"}},
		{"chess960 castling", "setoption name UCI_Chess960 value true\n" + shredder + "\nd\n" + shredder + " moves f1h1\nd\n",
			[]string{"Legal moves: ", " f1h1", " f1a1", "Fen: 1r1k4/8/8/8/8/8/8/R4RK1 b - - 1 1"}},
		{"fischerandom variant", "setoption name UCI_Variant value fischerandom\nposition startpos moves e2e4 e7e5 g1f3 g8f6 f1c4 f8c5 e1h1\nd\n",
			[]string{"Fen: rnbqk2r/pppp1ppp/5n2/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1 b kq - 5 4", " e8h8"}},
		{"standard notation", "setoption name UCI_Variant value standard\n" + shredder + "\nd\n",
			[]string{"Fen: 1r1k4/8/8/8/8/8/8/R4K1R w KQ - 0 1", " f1c1"}},
		{"option switched off again", "setoption name UCI_Chess960 value true\nsetoption name UCI_Chess960 value false\nposition startpos moves e2e4 e7e5 g1f3 g8f6 f1c4 f8c5 e1g1\nd\n",
			[]string{"Fen: rnbqk2r/pppp1ppp/5n2/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1 b kq - 5 4", " e8g8"}},
		{"started as chess960", "uci\nposition startpos moves e2e4 e7e5 g1f3 g8f6 f1c4 f8c5 e1h1\nd\n",
			[]string{"option name UCI_Chess960 type check default true", " e8h8"}},
		{"chess960 perft", "setoption name UCI_Chess960 value true\nposition fen bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9\ngo perft 3\n",
			[]string{"12189"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			game := chess.Game{}
			if strings.HasPrefix(tc.name, "started as chess960") {
				game.Chess960 = true
			}
			out := runScript(t, newFakeEngine(0), game, Config{Lookup: catalog.Lookup}, tc.script)
			text := strings.Join(out, "\n")
			for _, want := range tc.want {
				if !strings.Contains(text, want) {
					t.Errorf("output lacks %q:\n%s", want, text)
				}
			}
			if errs := linesWith(out, "error"); len(errs) > 0 {
				t.Errorf("errors: %q", errs)
			}
		})
	}
}
