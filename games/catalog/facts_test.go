// The games' facts as front ends read them: side names, the side called White, protocol names and pieces.
package catalog

import (
	"testing"

	"dossier/games"
)

func TestGameFacts(t *testing.T) {
	cases := []struct {
		game          string
		first, second string
		white         games.Side
		variants      games.Variants
		startPieces   int
	}{
		{"chess", "white", "black", games.First, games.Variants{CECP: "normal"}, 32},
		{"chess960", "white", "black", games.First, games.Variants{CECP: "fischerandom", Record: "Chess960"}, 32},
		{"checkers", "black", "white", games.Second, games.Variants{UCI: "checkers", CECP: "checkers"}, 24},
		{"connect4", "first", "second", games.First, games.Variants{UCI: "cfour", CECP: "cfour", Record: "cfour"}, -1},
		{"tictactoe", "first", "second", games.First, games.Variants{UCI: "tictactoe", CECP: "tictactoe", Record: "tictactoe"}, -1},
	}
	for _, c := range cases {
		t.Run(c.game, func(t *testing.T) {
			g, err := Lookup(c.game)
			if err != nil {
				t.Fatal(err)
			}
			if got := [2]string{games.SideName(g, games.First), games.SideName(g, games.Second)}; got != [2]string{c.first, c.second} {
				t.Errorf("side names %v, want %s and %s", got, c.first, c.second)
			}
			if got := games.WhiteSide(g); got != c.white {
				t.Errorf("white side %v, want %v", got, c.white)
			}
			if got := games.VariantsOf(g); got != c.variants {
				t.Errorf("variants %+v, want %+v", got, c.variants)
			}
			if got := games.PieceCount(g.Start()); got != c.startPieces {
				t.Errorf("start position has %d pieces, want %d", got, c.startPieces)
			}
		})
	}
	t.Run("pieces after a capture", func(t *testing.T) {
		g, _ := Lookup("chess")
		p, err := g.ParsePosition("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1")
		if err != nil {
			t.Fatal(err)
		}
		m, err := p.ParseMove("e4d5")
		if err != nil {
			t.Fatal(err)
		}
		p.Play(m)
		if got := games.PieceCount(p); got != 3 {
			t.Fatalf("%d pieces after exd5, want 3", got)
		}
		ck, _ := Lookup("checkers")
		q, err := ck.ParsePosition("W:W21,22,K5:B1-4")
		if err != nil {
			t.Fatal(err)
		}
		if got := games.PieceCount(q); got != 7 {
			t.Fatalf("%d pieces in W:W21,22,K5:B1-4, want 7", got)
		}
	})
}
