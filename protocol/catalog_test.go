// The session with the real game catalog, as cmd/dossier runs it.
package protocol

import (
	"slices"
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
