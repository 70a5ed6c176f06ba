package openingbook

import (
	"testing"

	"dossier/bots/searchers"
	"dossier/engine"
	"dossier/games"
)

// newTestSearcher returns our default search of g with a small table.
func newTestSearcher(t testing.TB, g games.Game) engine.Searcher {
	t.Helper()
	s, err := searchers.New(g, searchers.Config{HashMB: 8})
	if err != nil {
		t.Fatal(err)
	}
	return s
}
