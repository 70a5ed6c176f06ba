package match

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"dossier/bots/openingbook/booktest"
	"dossier/games"
	"dossier/games/chess"
)

// TestRunPlaysAPlayersBook gives player 1 a book of two first moves (book=): every game it opens starts with
// one of them, both come up, and its opponent's first moves are its own. A missing book fails the match
// before its first game.
func TestRunPlaysAPlayersBook(t *testing.T) {
	g := chess.Game{}
	start := g.Start()
	// moves a zero evaluation at depth 1 would not all choose
	path := booktest.File(t, booktest.Line{Move: "a2a3", Weight: 1}, booktest.Line{Move: "h2h3", Weight: 1})
	cfg := quickConfig(g, mustSpec(t, "preset=zero depth=1 book="+path), mustSpec(t, "preset=zero depth=1"))
	cfg.Games, cfg.MaxMoves, cfg.Seed = 12, 3, 5
	_, records := collect(t, cfg)
	seen := map[string]int{}
	for n, rec := range records {
		first := start.FormatMove(rec.Moves[0])
		if rec.Player1 == games.First {
			if first != "a2a3" && first != "h2h3" {
				t.Errorf("game %d: player 1 opened %s, not a book move", n, first)
			}
			seen[first]++
		} else if first == "a2a3" || first == "h2h3" {
			seen["other "+first]++
		}
	}
	if seen["a2a3"] == 0 || seen["h2h3"] == 0 {
		t.Errorf("the book's two moves were not both played: %v", seen)
	}

	cfg = quickConfig(g, mustSpec(t, "preset=zero depth=1 book="+filepath.Join(t.TempDir(), "missing.bin")), mustSpec(t, "preset=zero depth=1"))
	if _, err := Run(context.Background(), cfg); err == nil || !strings.Contains(err.Error(), "missing.bin") {
		t.Fatalf("a missing book: %v", err)
	}
}
