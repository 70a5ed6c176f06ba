// Package searchers holds what wraps the engine's searches into the searcher a configuration asks for: the
// preset's alpha-beta, the opponent-model searches and their model grammar, the ModelRisk guard, playing below
// full strength, the Connect-Four solver hand-over, the live and mixed models, and the player's view of a
// position. Config and New are the one way a configuration becomes a searcher, for the Player and for
// `dossier match`.
package searchers

import (
	"fmt"
	"strings"

	"dossier/bots/connect4solver"
	"dossier/bots/presets"
	"dossier/engine"
	"dossier/engine/model"
	"dossier/games"
	"dossier/memory/learn"
)

// MaxDepth bounds the depth cap of a configuration (the Depth option, a model's depths).
const MaxDepth = 100

// Config says how to play: which preset of the game, with which search, how deep, and with what
// resources. The zero value plays the game's strongest preset with alpha-beta and default resources.
type Config struct {
	// Preset names one of the game's presets (see Presets); "" is presets.Default.
	Preset string
	// Search names the search algorithm (see SearchAlgorithms); "" is alpha-beta.
	Search string
	// Model is the opponent model of a model search, in the grammar of ParseModelSpec (e.g. "mat-tot25@3",
	// "strongest:0.5,materialist:0.3,attacker:0.2"); "" is minimax's implicit model.
	Model string
	// Depth, when positive, replaces the preset's depth cap (in plies); 0 keeps the preset's own.
	Depth int
	// HashMB is the transposition table size in MiB (shared by the probes' tables of OM, PrOM and MEU);
	// 0 is engine.DefaultAlphaBetaOptions' size.
	HashMB int
	// Threads is the number of search threads; 0 is one.
	Threads int
	// Contempt is what a draw costs the searching side, in evaluation units (centipawns, hundredths of a
	// man); alpha-beta only.
	Contempt float64
	// ModelRisk is how far below its best move, in evaluation units, the Player's own alpha-beta may value a
	// move that a model search or what it learned of the opponent (its game memory) suggests before it plays
	// it; player.New makes 0 DefaultModelRisk, and ModelRiskOff plays a model search unguarded. New's
	// searchers are never guarded: the Player guards its model searches (see guard.go).
	ModelRisk int
	// MemoryRisk is how far below its best move, in evaluation units, the Player's own alpha-beta may value
	// the move of a won game that its game memory replays before it plays it (a lost game's line is left
	// through the experience its search reads, with no such bound); 0 is the game's DefaultMemoryRisk (the Player's SetMemoryRisk sets 0 itself).
	MemoryRisk int
	// Mode is StrongestMode ("" too) or EvenMode, which plays at a rating (a level: WeakSearcher) that
	// Player sets from what it learned about the opponent (alpha-beta only).
	Mode string
	// LimitStrength plays at the rating Elo (UCI_LimitStrength and UCI_Elo), the level of that rating in
	// the game's table; it takes precedence over Mode (alpha-beta only).
	LimitStrength bool
	// Elo is the rating LimitStrength plays at, clamped to MinElo..MaxElo.
	Elo int
	// MultiPV is how many root moves alpha-beta values and reports (UCI's MultiPV); 0 or 1 is one.
	MultiPV int
	// Live, when set and Model is empty, is the opponent model a model search plays against: read at every
	// move, so that what learners change plays at once (see LiveModel).
	Live LiveModel
}

// New builds the searcher that cfg describes for g. The preset's depth (or cfg.Depth) caps every
// search: a go command's own depth limit applies too, and the smaller one wins. A model search uses the
// preset's evaluation as ours and cfg.Model as its model of the opponent; the errors of a model name the
// term that is wrong.
func New(g games.Game, cfg Config) (engine.Searcher, error) {
	spec, err := ParseModelSpec(cfg.Model)
	if err != nil {
		return nil, err
	}
	if cfg.Live != nil && spec.IsZero() && cfg.Search != "" && cfg.Search != AlphaBetaSearch {
		// Check the configuration once with minimax's model; the live model's own states are checked as
		// they come.
		if _, err := newSearcher(g, cfg, ModelSpec{}, nil); err != nil {
			return nil, err
		}
		return &LiveSearcher{game: g, cfg: cfg, live: cfg.Live}, nil
	}
	return newSearcher(g, cfg, spec, nil)
}

// newSearcher is New with the model given as a parsed spec, and MEU's reply model when replies is not
// nil (a learner's live counts) instead of the one the spec names.
func newSearcher(g games.Game, cfg Config, spec ModelSpec, replies model.MoveProbabilities) (engine.Searcher, error) {
	preset, err := presets.Lookup(g, cfg.Preset)
	if err != nil {
		return nil, err
	}
	algorithm, err := LookupSearch(cfg.Search)
	if err != nil {
		return nil, err
	}
	if algorithm == AutoSearch {
		// Auto without the Player's learners to choose from (see auto.go) is alpha-beta.
		algorithm, cfg.Search = AlphaBetaSearch, AlphaBetaSearch
	}
	if weak, label := cfg.Weakens(); weak && algorithm != AlphaBetaSearch {
		return nil, fmt.Errorf("%s plays with %s, not %s", label, AlphaBetaSearch, algorithm)
	}
	switch {
	case cfg.MultiPV < 0:
		return nil, fmt.Errorf("MultiPV %d is negative", cfg.MultiPV)
	case cfg.Mode != "" && !strings.EqualFold(cfg.Mode, StrongestMode) && !strings.EqualFold(cfg.Mode, EvenMode):
		return nil, fmt.Errorf("mode %q is not one of %s", cfg.Mode, strings.Join(StrengthModes(), ", "))
	case cfg.Depth < 0:
		return nil, fmt.Errorf("depth %d is negative", cfg.Depth)
	case cfg.HashMB < 0:
		return nil, fmt.Errorf("hash size %d MiB is negative", cfg.HashMB)
	case cfg.Threads < 0:
		return nil, fmt.Errorf("thread count %d is negative", cfg.Threads)
	}
	depthCap := preset.Depth
	if cfg.Depth > 0 {
		depthCap = cfg.Depth
	}
	if err := spec.CheckFor(algorithm, depthCap); err != nil {
		return nil, err
	}
	if err := preset.Eval.Check(g); err != nil {
		return nil, err
	}
	partner, sign, err := presets.MirrorTable(g)
	if err != nil {
		return nil, err
	}
	opts := engine.DefaultAlphaBetaOptions(g)
	if cfg.HashMB > 0 {
		opts.HashMB = cfg.HashMB
	}
	if cfg.Threads > 0 {
		opts.Threads = cfg.Threads
	}
	if algorithm != AlphaBetaSearch {
		env := modelEnv{game: g, own: preset.Eval, mirror: model.Mirror{Partner: partner, Sign: sign}, probe: opts,
			replies: replies}
		inner, err := newModelSearcher(env, algorithm, spec)
		if err != nil {
			return nil, err
		}
		return &presetSearcher{preset: preset, inner: inner, depthCap: depthCap}, nil
	}
	opts.Contempt = cfg.Contempt
	weak, label := cfg.Weakens()
	solver := preset.Solver && connect4solver.Solves(g) && !weak
	solverMB := max(opts.HashMB-opts.HashMB/4, 1)
	if solver {
		// The solver's table is worth more than alpha-beta's: it gets three quarters of the memory.
		opts.HashMB = max(opts.HashMB/4, 1)
	}
	s := &presetSearcher{preset: preset, inner: engine.NewAlphaBeta(g, preset.Eval, opts), depthCap: depthCap,
		multiPV: cfg.MultiPV}
	if spec := (ViewSpec{partner: partner, sign: sign}); spec.NeedsView(preset.Eval) {
		s.view = &spec
	}
	if weak {
		w := newWeakSearcher(g, s, opts.HashMB)
		w.label = label
		if cfg.LimitStrength {
			w.level = float64(max(learn.MinElo, min(cfg.Elo, learn.MaxElo)))
		}
		return w, nil
	}
	if solver {
		return newSolverSearcher(solverMB, s), nil
	}
	return s, nil
}

// Weakens reports whether the configuration plays below full strength, and how, in words.
func (cfg Config) Weakens() (bool, string) {
	switch {
	case cfg.LimitStrength:
		return true, fmt.Sprintf("UCI_Elo %d", max(learn.MinElo, min(cfg.Elo, learn.MaxElo)))
	case strings.EqualFold(cfg.Mode, EvenMode):
		return true, EvenMode
	}
	return false, ""
}

// presetSearcher runs a search with a preset's evaluation under the preset's depth cap, from the
// searching player's point of view when alpha-beta's evaluation needs it (the model searches value every
// function for its owner themselves).
type presetSearcher struct {
	preset   presets.Preset
	inner    engine.Searcher
	depthCap int       // 0: none
	view     *ViewSpec // nil: the evaluation is antisymmetric and needs no view
	multiPV  int       // root moves to value when the search asks for none (UCI's MultiPV option)
}

// Search searches p with the inner searcher, capping the depth and wrapping p as the preset needs.
func (s *presetSearcher) Search(p games.Position, ctl *engine.Control, report func(engine.Info)) engine.Result {
	if s.view != nil {
		p = NewPlayerView(p, *s.view)
	}
	inner := ctl.WithDepth(s.depthCap)
	if s.multiPV > 1 && inner.Limits().MultiPV == 0 {
		inner = inner.WithMultiPV(s.multiPV)
	}
	res := s.inner.Search(p, inner, report)
	if lim := ctl.Limits(); s.depthCap > 0 && res.Depth >= s.depthCap && (lim.Depth == 0 || lim.Depth > s.depthCap) &&
		report != nil && !ctl.Stopped() {
		// The search ended before its time because of the preset's depth, which a user would not guess.
		report(engine.Info{Text: fmt.Sprintf("%s stops at %d plies, its depth (the Depth option changes it)",
			s.preset.Name, s.depthCap)})
	}
	return res
}

// NewGame clears the inner searcher's tables.
func (s *presetSearcher) NewGame() { s.inner.NewGame() }
