// The opponent-model searchers of Config.Search, built from our preset and a ModelSpec.

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

// modelEnv is what every model searcher is built from: the game, our evaluation, how the game's
// features read from the other side, and the options of the alpha-beta probes (OM, PrOM, MEU), whose
// HashMB is the memory of all their tables together.
type modelEnv struct {
	game   games.Game
	own    engine.Evaluation
	mirror model.Mirror
	probe  engine.AlphaBetaOptions
	// replies, when not nil, is MEU's model of the replies in place of the one the model spec names.
	replies model.MoveProbabilities
}

// evalOf returns the evaluation of the preset a term names.
func (env modelEnv) evalOf(t ModelTerm) (engine.Evaluation, error) {
	p, err := presets.Lookup(env.game, t.Name)
	if err != nil {
		return engine.Evaluation{}, fmt.Errorf("opponent model term %s: %w", ShortQuote(t.Text), err)
	}
	return p.Eval, nil
}

// chain returns our evaluation followed by the evaluation of every term: the player of the M* family.
func (env modelEnv) chain(spec ModelSpec) ([]engine.Evaluation, error) {
	chain := []engine.Evaluation{env.own}
	for _, t := range spec.Terms {
		e, err := env.evalOf(t)
		if err != nil {
			return nil, err
		}
		chain = append(chain, e)
	}
	return chain, nil
}

// opponentOf returns the evaluation of a one-term model, or minimax's implicit model for the empty one.
func (env modelEnv) opponentOf(spec ModelSpec) (engine.Evaluation, int, error) {
	if spec.IsZero() {
		return model.ZeroSumOpponent(env.own, env.mirror), 0, nil
	}
	e, err := env.evalOf(spec.Terms[0])
	return e, spec.Terms[0].Depth, err
}

// probeOptions returns the probe options with the table memory shared among tables.
func (env modelEnv) probeOptions(tables int) engine.AlphaBetaOptions {
	o := env.probe
	if o.HashMB > 0 {
		o.HashMB = max(o.HashMB/max(tables, 1), 1)
	}
	return o
}

// newModelSearcher builds the searcher of a model search (not alpha-beta); the model has been checked
// against the algorithm (ModelSpec.checkFor).
func newModelSearcher(env modelEnv, algorithm string, spec ModelSpec) (engine.Searcher, error) {
	modelOpts := model.ModelOptions{Mirror: env.mirror, Order: true}
	switch algorithm {
	case MStarSearch, MStarOnePassSearch, AlphaBetaStarSearch:
		if algorithm == MStarSearch && len(spec.Terms) == 1 && spec.Terms[0].Depth > 0 {
			return newStrategySearcher(env, spec, false)
		}
		chain, err := env.chain(spec)
		if err != nil {
			return nil, err
		}
		player := model.NewPlayerModel(chain...)
		switch algorithm {
		case MStarSearch:
			return model.NewMStar(env.game, player, modelOpts)
		case MStarOnePassSearch:
			return model.NewMStarOnePass(env.game, player, modelOpts)
		}
		bounds, err := modelLeafBounds(env.game, chain, env.mirror)
		if err != nil {
			return nil, err
		}
		ranges, err := modelLeafRanges(env.game, chain, env.mirror)
		if err != nil {
			return nil, err
		}
		s, err := model.NewAlphaBetaStar(env.game, player, bounds, modelOpts)
		if err != nil {
			return nil, err
		}
		s.SetLeafRanges(ranges) // one-sided where the functions say so: more pruning than the bounds
		return s, nil
	case MStarStrategySearch, MStarRiskSearch:
		return newStrategySearcher(env, spec, algorithm == MStarRiskSearch)
	case OMSearch:
		opponent, depth, err := env.opponentOf(spec)
		if err != nil {
			return nil, err
		}
		opts := model.DefaultOMOptions(env.game)
		opts.Probe, opts.Mirror = env.probeOptions(2), env.mirror
		return model.NewOMSearch(env.game, env.own, model.OMModel{Opponent: opponent, ProbeDepth: depth}, opts)
	case PromSearch:
		prom := model.PromModel{Types: []model.OpponentType{{Name: "minimax",
			Eval: model.ZeroSumOpponent(env.own, env.mirror)}}, TypeProbabilities: []float64{1}}
		if !spec.IsZero() {
			prom = model.PromModel{}
			for _, t := range spec.Terms {
				e, err := env.evalOf(t)
				if err != nil {
					return nil, err
				}
				prom.Types = append(prom.Types, model.OpponentType{Name: t.Name, Eval: e})
				prom.TypeProbabilities = append(prom.TypeProbabilities, t.Probability)
			}
			learn.Normalise(prom.TypeProbabilities)
		}
		opts := model.DefaultOMOptions(env.game)
		opts.Probe, opts.Mirror = env.probeOptions(1+len(prom.Types)), env.mirror
		return model.NewPromSearch(env.game, env.own, prom, opts)
	case MEUSearch:
		replies, err := env.replyModel(spec)
		if err != nil {
			return nil, err
		}
		opts := model.DefaultMEUOptions(env.game)
		opts.Probe, opts.Mirror = env.probeOptions(1), env.mirror
		return model.NewMEU(env.game, env.own, replies, opts)
	case SymmetricSearch:
		return newSymmetricSearcher(env, spec)
	}
	return nil, fmt.Errorf("unknown search %q", algorithm)
}

// replyModel returns MEU's model of the opponent's replies: the rank model of rank:PS (Ps = 1, minimax,
// for the empty model), or the counts read from the file of discrepancy:PATH, which must be counts of
// the game being played.
func (env modelEnv) replyModel(spec ModelSpec) (model.MoveProbabilities, error) {
	if env.replies != nil {
		return env.replies, nil
	}
	if !spec.IsZero() && spec.Terms[0].Path != "" {
		t := spec.Terms[0]
		counts, err := learn.LoadDiscrepancyCounts(t.Path)
		if err != nil {
			return nil, fmt.Errorf("opponent model term %s: %w", ShortQuote(t.Text), err)
		}
		if counts.Game != env.game.Name() {
			return nil, fmt.Errorf("opponent model term %s: the counts are of %s, not %s", ShortQuote(t.Text), counts.Game, env.game.Name())
		}
		m, err := counts.Model()
		if err != nil {
			return nil, fmt.Errorf("opponent model term %s: %w", ShortQuote(t.Text), err)
		}
		return m, nil
	}
	ps := 1.0 // all probability on the best replies: minimax
	if !spec.IsZero() {
		ps = spec.Terms[0].Probability
	}
	rank, err := model.NewRankModel(ps)
	if err != nil {
		return nil, fmt.Errorf("opponent model %s: %w", ShortQuote(spec.String()), err)
	}
	return rank, nil
}

// newStrategySearcher builds the strategy form of M*: the opponent is the one term's preset searching
// its depth (default: our depth - 1 at every iteration), or minimax's implicit model for the empty model.
func newStrategySearcher(env modelEnv, spec ModelSpec, riskReduced bool) (engine.Searcher, error) {
	opponent, depth, err := env.opponentOf(spec)
	if err != nil {
		return nil, err
	}
	if depth == 0 {
		depth = maxModelDepth // the engine searches min(depth, ours - 1)
	}
	return model.NewMStarStrategy(env.game, env.own, model.Strategy{Eval: opponent, Depth: depth}, riskReduced,
		model.ModelOptions{Mirror: env.mirror, Order: true})
}

// mirrored returns the weights that value a position for an owner who is not to move, reading the
// features of the side to move (model.Mirror's other side).
func mirrored(w []float64, mirror model.Mirror) []float64 {
	out := make([]float64, len(w))
	for i, x := range w {
		j, sign := i, -1.0
		if mirror.Partner != nil {
			j, sign = mirror.Partner[i], mirror.Sign[i]
		}
		out[j] += x * sign
	}
	return out
}

// Symmetric opponent modelling (model.SymmetricSearch) wants the pay-offs of a bounded-common-interest
// game in the negamax convention: the side to move receives C + S and the other side C - S, with C and S
// linear in the features. We play our preset's function f and know the opponent's g (each valued for its
// owner); the side to move's pay-off is then f or g depending on who moves, which one linear function of
// the side to move's features cannot say. So the search sees doubled features: x followed by zeros where
// we are to move, zeros followed by x where the opponent is, and
//
//	S = [(f - g')/2, (g - f')/2],  C = [(f + g')/2, (g + f')/2],
//
// where f' and g' value a position for an owner who waits (mirrored). 2C is f + g at the leaf, whose
// bound the leaf bounds of alpha-beta* give (see leafbounds.go), read at the root of every search. With
// the empty model g is minimax's implicit opponent, C = 0 and the search is minimax.

// symmetricSearcher plays symmetric opponent modelling with our evaluation against a known opponent's.
type symmetricSearcher struct {
	split       splitGame
	competitive engine.Evaluation
	common      engine.Evaluation
	gap         pairGap
	bounder     featureBounder
	low, bounds []float64 // scratch: the features' intervals below the root
}

// newSymmetricSearcher builds the symmetric searcher, or an error when the pair has no proven bound.
func newSymmetricSearcher(env modelEnv, spec ModelSpec) (engine.Searcher, error) {
	opponent, _, err := env.opponentOf(spec)
	if err != nil {
		return nil, err
	}
	bounder := featureBounderOf(env.game)
	gap, err := newPairGap(env.game, bounder, env.own, opponent, env.mirror)
	if err != nil {
		return nil, fmt.Errorf("symmetric search needs a bound on the common interest: %w", err)
	}
	f, g := env.own.Weights, opponent.Weights
	f2, g2 := mirrored(f, env.mirror), mirrored(g, env.mirror)
	n := len(f)
	s := &symmetricSearcher{split: newSplitGame(env.game), gap: gap, bounder: bounder,
		low: make([]float64, n), bounds: make([]float64, n),
		competitive: engine.Evaluation{Name: "competitive", Weights: make([]float64, 2*n)},
		common:      engine.Evaluation{Name: "common interest", Weights: make([]float64, 2*n)}}
	for i := range n {
		s.competitive.Weights[i], s.competitive.Weights[n+i] = (f[i]-g2[i])/2, (g[i]-f2[i])/2
		s.common.Weights[i], s.common.Weights[n+i] = (f[i]+g2[i])/2, (g[i]+f2[i])/2
	}
	return s, nil
}

// Search runs the symmetric search on p with the bound on common interest read at p.
func (s *symmetricSearcher) Search(p games.Position, ctl *engine.Control, report func(engine.Info)) engine.Result {
	pruning := s.bounder.intervals(p, 0, s.low, s.bounds)
	bound := s.gap.bound(s.low, s.bounds)
	if !pruning || math.IsInf(bound, 0) || math.IsNaN(bound) {
		// Not a position the bounder reads: no bound, so neither pruning nor clipping.
		pruning, bound = false, math.MaxFloat64/4
	}
	sym := model.SymmetricModel{Competitive: s.competitive, Common: s.common, Bound: bound}
	search, err := model.NewSymmetricSearch(s.split, sym, model.SymmetricOptions{Pruning: pruning})
	if err != nil {
		// The weights were checked when the searcher was built and the bound is finite, so this cannot
		// happen; a search must still answer with a legal move.
		if report != nil {
			report(engine.Info{Text: "error: symmetric search: " + err.Error()})
		}
		ctl.WaitRelease()
		var buf [games.MaxMoves]games.Move
		if moves := p.AppendMoves(buf[:0]); len(moves) > 0 {
			return engine.Result{Move: moves[0]}
		}
		return engine.Result{}
	}
	return search.Search(newSplitView(p, len(s.bounds)), ctl, report)
}

// NewGame does nothing: the symmetric search keeps nothing between moves.
func (s *symmetricSearcher) NewGame() {}

// splitGame is a game whose features are doubled: the first half where the root player is to move,
// the second where its opponent is (see splitView).
type splitGame struct {
	games.Game
	names []string
}

// newSplitGame returns g with doubled feature names.
func newSplitGame(g games.Game) splitGame {
	names := g.FeatureNames()
	split := make([]string, 0, 2*len(names))
	split = append(split, names...)
	for _, n := range names {
		split = append(split, n+" (opponent to move)")
	}
	return splitGame{Game: g, names: split}
}

// FeatureNames returns the doubled names.
func (g splitGame) FeatureNames() []string { return append([]string(nil), g.names...) }

// splitView is a position whose features are doubled by who is to move: x then zeros where the root
// player is to move, zeros then x where the opponent is.
type splitView struct {
	games.Position
	root    games.Side
	n       int
	scratch []float64
}

// newSplitView wraps p for a search by its side to move over n features.
func newSplitView(p games.Position, n int) *splitView {
	return &splitView{Position: p, root: p.ToMove(), n: n, scratch: make([]float64, n)}
}

// Features writes the doubled features.
func (v *splitView) Features(dst []float64) {
	v.Position.Features(v.scratch)
	clear(dst)
	if v.Position.ToMove() == v.root {
		copy(dst, v.scratch)
	} else {
		copy(dst[v.n:], v.scratch)
	}
}

// Clone returns a split view of a clone of the wrapped position, for the same root player.
func (v *splitView) Clone() games.Position {
	return &splitView{Position: v.Position.Clone(), root: v.root, n: v.n, scratch: make([]float64, v.n)}
}
