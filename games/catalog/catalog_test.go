// Tests of the game catalog's names: dossier's, cutechess's UCI_Variant values and their aliases.

package catalog

import (
	"strings"
	"testing"

	"dossier/games/chess"
)

func TestLookup(t *testing.T) {
	tests := []struct {
		name, wantGame, wantVariant string
	}{
		{"chess", "chess", "chess"},
		{"standard", "chess", "chess"},
		{"Chess960", "chess", "chess960"},
		{"fischerandom", "chess", "chess960"},
		{"cfour", "connect4", ""},
		{"tic-tac-toe", "tictactoe", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g, err := Lookup(tc.name)
			if err != nil {
				t.Fatal(err)
			}
			if g.Name() != tc.wantGame {
				t.Fatalf("%s is %s, want %s", tc.name, g.Name(), tc.wantGame)
			}
			if cg, ok := g.(chess.Game); ok && cg.Variant() != tc.wantVariant {
				t.Fatalf("%s is variant %s, want %s", tc.name, cg.Variant(), tc.wantVariant)
			}
		})
	}
	if _, err := Lookup("go"); err == nil || !strings.Contains(err.Error(), "chess960") {
		t.Errorf("unknown game: error %v, want one listing the games", err)
	}
	for _, name := range Names() {
		if _, err := Lookup(VariantName(name)); err != nil {
			t.Errorf("the variant name %q of %s is not looked up: %v", VariantName(name), name, err)
		}
	}
	if VariantName("chess960") != "fischerandom" {
		t.Errorf("chess960's UCI_Variant name is %q, want cutechess's fischerandom", VariantName("chess960"))
	}
}
