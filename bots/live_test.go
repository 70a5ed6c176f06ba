// Live models: a search reads the model's current state at every move and rebuilds only when it changed,
// and the model survives option changes.
package bots

import (
	"sync"
	"testing"

	"dossier/engine"
	"dossier/games/checkers"
)

// countingModel is a LiveModel whose state a test replaces, counting how often searches read it.
type countingModel struct {
	mu    sync.Mutex
	state LiveModelState
	reads int
}

func (m *countingModel) Current() LiveModelState {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.reads++
	return m.state
}

func (m *countingModel) set(spec string, version uint64) {
	parsed, err := ParseModelSpec(spec)
	if err != nil {
		panic(err)
	}
	m.mu.Lock()
	m.state = LiveModelState{Spec: parsed, Version: version}
	m.mu.Unlock()
}

func (m *countingModel) count() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.reads
}

func TestLiveModel(t *testing.T) {
	g := checkers.Game{}
	live := &countingModel{}
	live.set("mat-tot25@2", 1)
	player := NewPlayer(g, PlayerConfig{Preset: "mat-tot25", Search: MStarSearch, HashMB: 1})
	player.SetLiveModel(live)
	search := func() engine.Result {
		ctl := engine.NewControl(engine.Limits{Depth: 3}, g.Start().ToMove())
		return player.Search(g.Start(), ctl, nil)
	}
	first := search()
	if live.count() != 1 || first.Move == 0 {
		t.Fatalf("after one search: %d reads, move %v", live.count(), first.Move)
	}
	// An option change rebuilds the searcher; the live model stays and is read again.
	for _, o := range player.Options() {
		if o.Name == "Hash" {
			if err := o.Set("2", true); err != nil {
				t.Fatal(err)
			}
		}
	}
	search()
	if live.count() != 2 {
		t.Errorf("after an option change: %d reads, want 2", live.count())
	}
	if player.Config().Live != LiveModel(live) {
		t.Error("the option change dropped the live model")
	}
	// A new state (a term of the wrong form for M*: a probability) is read at the next move and reported.
	live.set("mat-tot25@2:0.5,mat+tot25@2:0.5", 2)
	var texts []string
	ctl := engine.NewControl(engine.Limits{Depth: 3}, g.Start().ToMove())
	res := player.Search(g.Start(), ctl, func(i engine.Info) {
		if i.Text != "" {
			texts = append(texts, i.Text)
		}
	})
	if res.Move == 0 || len(texts) == 0 {
		t.Errorf("a state M* cannot take: move %v, info strings %q", res.Move, texts)
	}
}
