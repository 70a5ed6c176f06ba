// Training a discrepancy learner: distinct starting configurations, training games and MEU playing the learned counts.

package training

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"dossier/bots/match"
	"dossier/bots/presets"
	"dossier/bots/searchers"
	"dossier/engine"
	"dossier/engine/enginetest"
	"dossier/games"
	"dossier/games/connect4"
	"dossier/memory/learn"
)

// inProcessFactory builds in-process match players with searchers.New.
func inProcessFactory(g games.Game, spec match.PlayerSpec) (match.InProcess, error) {
	s, err := searchers.New(g, searchers.Config{Preset: spec.Preset, Search: spec.Search, Model: spec.Model, Depth: spec.Depth})
	if err != nil {
		return match.InProcess{}, err
	}
	p, _ := presets.Lookup(g, spec.Preset)
	return match.InProcess{Engine: match.SearcherEngine(s), Name: p.Name, Depth: max(spec.Depth, p.Depth)}, nil
}

func TestTrainDiscrepanciesAndPlayThem(t *testing.T) {
	g := connect4.Game{}
	gameCount := 8
	if testing.Short() {
		gameCount = 2
	}
	l := learnerOf(t, g, "sophisticated", learn.DiscrepancyLearnerConfig{Depth: 2, BandPlies: 8})
	starts, err := match.DistinctRandomStarts(g, []int{2, 8}, gameCount/2, 1)
	if err != nil {
		t.Fatal(err)
	}
	var counted []int
	cfg := match.Config{Game: g, Games: gameCount, Openings: starts, NewSearcher: inProcessFactory,
		OnGame: func(rec match.GameRecord, _ match.Summary) { counted = append(counted, len(rec.Moves)) }}
	cfg.Players[0] = match.PlayerSpec{Preset: "sophisticated", Depth: 2}
	cfg.Players[1] = match.PlayerSpec{Preset: "sp"}
	sum, err := TrainDiscrepancies(context.Background(), cfg, l)
	if err != nil {
		t.Fatal(err)
	}
	c := l.Counts()
	total := 0.0
	for b, row := range c.Counts {
		for r, x := range row {
			total += x
			if x > c.Offered[b][r] {
				t.Errorf("band %d range %d: chosen %v times, offered %v", b, r, x, c.Offered[b][r])
			}
		}
	}
	if sum.Games != gameCount || c.Games != gameCount || len(counted) != gameCount || c.Observations == 0 || total != float64(c.Observations) {
		t.Fatalf("%d games (%d seen by the learner), %d observations, counts total %v", sum.Games, c.Games, c.Observations, total)
	}

	// The counts as MEU's model, from the file and learning online: legal moves.
	path := filepath.Join(t.TempDir(), "sp.json")
	if err := c.Save(path); err != nil {
		t.Fatal(err)
	}
	fromFile := mustSearcher(t, g, searchers.Config{Preset: "sophisticated", Search: "meu", Model: "discrepancy:" + path, Depth: 4})
	online, err := searchers.NewLearningMEU(g, l, searchers.Config{Preset: "sophisticated", Depth: 4})
	if err != nil {
		t.Fatal(err)
	}
	sp := mustSearcher(t, g, searchers.Config{Preset: "sp"})
	for _, s := range []engine.Searcher{fromFile, online} {
		if o, plies := playGame(t, starts[0], s, sp, engine.Limits{}, 42); !o.Result.Over() || plies == 0 {
			t.Errorf("game %v after %d plies", o, plies)
		}
	}
	if _, err := searchers.NewLearningMEU(g, l, searchers.Config{Preset: "sp"}); err == nil || !strings.Contains(err.Error(), "not the learner's") {
		t.Errorf("another preset: %v", err)
	}
}

// learnerOf builds a learner or fails the test.
func learnerOf(t testing.TB, g games.Game, preset string, cfg learn.DiscrepancyLearnerConfig) *learn.DiscrepancyLearner {
	t.Helper()
	l, err := searchers.NewDiscrepancyLearner(g, preset, 0, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// mustSearcher builds a searcher or fails the test.
func mustSearcher(t testing.TB, g games.Game, cfg searchers.Config) engine.Searcher {
	t.Helper()
	s, err := searchers.New(g, cfg)
	if err != nil {
		t.Fatalf("searchers.New(%s, %+v): %v", g.Name(), cfg, err)
	}
	return s
}

// searchLimited runs one search of p under lim.
func searchLimited(s engine.Searcher, p games.Position, lim engine.Limits) engine.Result {
	return enginetest.SearchLimited(s, p, lim)
}

// playGame plays a game between two searchers (see enginetest.PlayGame).
func playGame(t *testing.T, start games.Position, first, second engine.Searcher, lim engine.Limits, maxPlies int) (games.Outcome, int) {
	t.Helper()
	return enginetest.PlayGame(t, start, first, second, lim, maxPlies)
}
