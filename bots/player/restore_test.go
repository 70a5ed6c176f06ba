// Tests of restoreLearner, the one rule of what a stored learner state is: the merge of the stored games
// (learnerFits, learnerBase) and the learners a game plays with (newLearners) take the same states.

package player

import (
	"encoding/json"
	"math/rand/v2"
	"testing"
	"time"

	"dossier/bots/presets"
	"dossier/bots/searchers"
	"dossier/games"
	"dossier/games/connect4"
	"dossier/memory"
	"dossier/memory/learn"
)

// brokenReplyDepth returns discrepancy counts whose reply depth is not the one their depth measures at: the
// counts pass learn.DiscrepancyCounts.Check, but no learner can go on from them (Restore refuses them). Before
// restoreLearner, learnerFits took such counts as a legacy base that newLearners then threw away.
func brokenReplyDepth(t *testing.T, raw json.RawMessage) json.RawMessage {
	t.Helper()
	var c learn.DiscrepancyCounts
	if err := json.Unmarshal(raw, &c); err != nil {
		t.Fatal(err)
	}
	c.Depth, c.ReplyDepth = 3, 0 // a learner at depth 3 measures the replies at 1
	if err := c.Check(); err != nil {
		t.Fatalf("the broken counts must pass Check: %v", err)
	}
	out, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestMergeAndPlayTakeTheSameStates checks, for stored states that fit and states that do not, that
// learnerFits (the merge's rule) takes a state exactly when newLearners (the game's) restores it.
func TestMergeAndPlayTakeTheSameStates(t *testing.T) {
	g := connect4.Game{}
	our := mustPreset(t, g, presets.Default)
	other := presets.Of(g)[0]
	if other.Name == our.Name {
		other = presets.Of(g)[1]
	}
	played, err := newLearners("x", g, our, nil)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	replayGame(played, g, &memory.Game{GameSummary: memory.GameSummary{OurSide: int(games.First)}, Moves: randomMoves(g, rng, 20)})
	played.disc.CountGame()
	states, err := played.states()
	if err != nil {
		t.Fatal(err)
	}
	otherDepth, err := json.Marshal(learn.DepthLearnerState{Eval: other.Eval, MaxDepth: 2})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, model string
		state       json.RawMessage
		fits        bool
	}{
		{"types learned", learn.ModelTypeProbs, states[learn.ModelTypeProbs], true},
		{"depth learned", learn.ModelDepth, states[learn.ModelDepth], true},
		{"counts learned", searchers.DiscrepancyModelName, states[searchers.DiscrepancyModelName], true},
		{"depth of another preset", learn.ModelDepth, otherDepth, false},
		{"counts at a reply depth no learner measures at", searchers.DiscrepancyModelName,
			brokenReplyDepth(t, states[searchers.DiscrepancyModelName]), false},
		{"not JSON", learn.ModelDepth, json.RawMessage(`{`), false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fits := learnerFits(c.model, c.state, g, our)
			l, err := newLearners("x", g, our, map[string][]memory.ModelPoint{c.model: {{State: c.state}}})
			if err != nil {
				t.Fatal(err)
			}
			got, err := l.states()
			if err != nil {
				t.Fatal(err)
			}
			played := sameState(got[c.model], c.state) == ""
			if fits != c.fits || played != c.fits {
				t.Errorf("the merge takes it: %v, the game plays it: %v; want both %v", fits, played, c.fits)
			}
		})
	}
}

// TestFoldSkipsAStateTheGameCannotPlay checks that a legacy snapshot the learners cannot go on from is no base
// of the fold: the game before it is folded, as newLearners, which refuses the snapshot, learns it anew. The
// merge's old rule took the snapshot as the base and left that game out of every learner.
func TestFoldSkipsAStateTheGameCannotPlay(t *testing.T) {
	g := connect4.Game{}
	our := mustPreset(t, g, presets.Default)
	key := foldOpponent.Key()
	t0 := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	rng := rand.New(rand.NewPCG(11, 12))
	mem := openMemory(t, t.TempDir())
	write := memoryWriter(mem, key)
	recordFinishedGame(t, mem, g, "old", games.First, randomMoves(g, rng, 16), t0)
	fresh, err := newLearners(key, g, our, nil)
	if err != nil {
		t.Fatal(err)
	}
	states, err := fresh.states()
	if err != nil {
		t.Fatal(err)
	}
	write(searchers.DiscrepancyModelName, brokenReplyDepth(t, states[searchers.DiscrepancyModelName]), t0.Add(time.Second), "old")
	mem.Flush(t.Context())
	prof, err := mem.Profile(key)
	if err != nil {
		t.Fatal(err)
	}
	if models, at, _ := learnerBase(prof, g, our); len(models) != 0 || !at.IsZero() {
		t.Errorf("the base holds %d states from %v, want none", len(models), at)
	}
	if _, _, folded, _, err := foldLearnersOnce(mem, key, g, our, write, time.Time{}); err != nil || folded != 1 {
		t.Errorf("folded %d games (%v), want the one game before the snapshot", folded, err)
	}
}
