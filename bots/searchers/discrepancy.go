// Sen & Arora's discrepancy learner as a player uses it: built on a preset's search (through the player's
// view where the evaluation needs one), restored from stored counts, and played by MEU while it learns.

package searchers

import (
	"fmt"
	"math"

	"dossier/bots/presets"
	"dossier/engine"
	"dossier/engine/model"
	"dossier/games"
	"dossier/memory/learn"
)

// NewDiscrepancyLearner returns a discrepancy learner of g whose replies are valued by the preset's
// alpha-beta (one thread, a table of hashMB MiB; 0 is the alpha-beta default), as MEU with that preset
// values them.
func NewDiscrepancyLearner(g games.Game, preset string, hashMB int, cfg learn.DiscrepancyLearnerConfig) (*learn.DiscrepancyLearner, error) {
	p, err := presets.Lookup(g, preset)
	if err != nil {
		return nil, err
	}
	partner, sign, err := presets.MirrorTable(g)
	if err != nil {
		return nil, err
	}
	opts := engine.DefaultAlphaBetaOptions(g)
	if hashMB > 0 {
		opts.HashMB = hashMB
	}
	opts.Threads = 1
	ab := engine.NewAlphaBeta(g, p.Eval, opts)
	probe := func(q games.Position, depth int) float64 { return ab.Probe(q, depth, math.Inf(-1), math.Inf(1)) }
	if spec := NewViewSpec(partner, sign); spec.NeedsView(p.Eval) {
		probe = func(q games.Position, depth int) float64 {
			return ab.Probe(NewPlayerView(q, spec), depth, math.Inf(-1), math.Inf(1))
		}
	}
	return learn.NewDiscrepancyLearner(g, p.Eval, probe, cfg)
}

// RestoreDiscrepancyLearner returns a discrepancy learner of g that goes on from stored counts.
func RestoreDiscrepancyLearner(g games.Game, c *learn.DiscrepancyCounts, hashMB int) (*learn.DiscrepancyLearner, error) {
	l, err := NewDiscrepancyLearner(g, c.Evaluation, hashMB, learn.DiscrepancyLearnerConfig{Depth: c.Depth,
		Edges: c.Edges, BandPlies: c.BandPlies, Opponent: c.Opponent})
	if err != nil {
		return nil, err
	}
	if err := l.Restore(c); err != nil {
		return nil, err
	}
	return l, nil
}

// NewLearningMEU builds the player that learns while it plays, as Sen & Arora's MEU did: the MEU search of
// cfg (its preset must be the learner's; cfg.Search and cfg.Model are ignored) with the learner's counts as
// its opponent model, which every later observation updates.
func NewLearningMEU(g games.Game, l *learn.DiscrepancyLearner, cfg Config) (engine.Searcher, error) {
	cfg.Search, cfg.Model = MEUSearch, ""
	preset, err := presets.Lookup(g, cfg.Preset)
	if err != nil {
		return nil, err
	}
	if ours := l.Evaluation().Name; preset.Name != ours {
		return nil, fmt.Errorf("discrepancy learner: the player's preset %s is not the learner's %s", preset.Name, ours)
	}
	cfg.Live = LiveReplies(l)
	return New(g, cfg)
}

// LiveReplies is the live model of MEU whose replies are what replies gives now, read at every node (a
// discrepancy learner's counts so far).
func LiveReplies(replies model.MoveProbabilities) LiveModel { return liveReplies{replies} }

// liveReplies is LiveReplies' model.
type liveReplies struct{ replies model.MoveProbabilities }

// Current implements LiveModel.
func (m liveReplies) Current() LiveModelState { return LiveModelState{Replies: m.replies} }
