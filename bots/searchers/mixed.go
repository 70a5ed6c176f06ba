// The mixed player: at every move one of several presets' searchers, drawn at random with given
// probabilities, as PrOM search assumes its opponent plays.

package searchers

import (
	"fmt"
	"math/rand/v2"

	"dossier/engine"
	"dossier/games"
)

// MixedSearcher plays each move with one of its searchers, drawn afresh at every move with the mixture's
// probabilities (Donkers et al.'s mixed-strategy opponent). It is a Searcher.
type MixedSearcher struct {
	names     []string
	searchers []engine.Searcher
	probs     []float64
	rng       *rand.Rand
}

var _ engine.Searcher = (*MixedSearcher)(nil)

// NewMixedSearcher builds the mixture mix, written as PrOM's models are ("materialist:0.7,attacker:0.3",
// each term NAME[@DEPTH]:PROBABILITY, the probabilities summing to 1), for g. Each term is a preset played
// with base's search settings (alpha-beta, base's depth unless the term gives one, table, threads,
// contempt); seed makes the draws reproducible.
func NewMixedSearcher(g games.Game, base Config, mix string, seed uint64) (*MixedSearcher, error) {
	spec, err := ParseModelSpec(mix)
	if err != nil {
		return nil, fmt.Errorf("mix: %w", err)
	}
	if spec.IsZero() {
		return nil, fmt.Errorf("mix is empty: want PRESET:P,PRESET:P,... with the probabilities summing to 1")
	}
	for _, t := range spec.Terms {
		if !t.HasProbability || t.Path != "" || t.Name == RankModelName {
			return nil, fmt.Errorf("mix term %q: want a preset with its probability, PRESET[@DEPTH]:P", t.Text)
		}
	}
	if err := spec.checkDistribution(); err != nil {
		return nil, fmt.Errorf("mix: %w", err)
	}
	m := &MixedSearcher{rng: rand.New(rand.NewPCG(seed, 0x6d6978))}
	for _, t := range spec.Terms {
		cfg := Config{Preset: t.Name, Depth: base.Depth, HashMB: base.HashMB, Threads: base.Threads, Contempt: base.Contempt}
		if t.Depth > 0 {
			cfg.Depth = t.Depth
		}
		s, err := New(g, cfg)
		if err != nil {
			return nil, fmt.Errorf("mix term %q: %w", t.Text, err)
		}
		m.names = append(m.names, t.String())
		m.searchers = append(m.searchers, s)
		m.probs = append(m.probs, t.Probability)
	}
	return m, nil
}

// Search draws the searcher for this move and searches with it; an info string names the one drawn.
func (m *MixedSearcher) Search(p games.Position, ctl *engine.Control, report func(engine.Info)) engine.Result {
	i, u := 0, m.rng.Float64()
	for i < len(m.probs)-1 && u >= m.probs[i] {
		u -= m.probs[i]
		i++
	}
	if report != nil {
		report(engine.Info{Text: "mix plays " + m.names[i]})
	}
	return m.searchers[i].Search(p, ctl, report)
}

// NewGame starts a new game for every searcher of the mixture.
func (m *MixedSearcher) NewGame() {
	for _, s := range m.searchers {
		s.NewGame()
	}
}
