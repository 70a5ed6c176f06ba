// Search auto: at each game's start, the model search whose model predicted this opponent better than minimax
// did in its recent games, with the learned model handed over live; alpha-beta when the evidence is not there.

package player

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"sync"

	"dossier/bots/searchers"
	"dossier/engine"
	"dossier/games"
	"dossier/memory/learn"
)

// The evidence auto asks of a model before it plays against it, pooled over the opponent's last
// autoGames yardsticks of the game: at least autoMinMoves moves, a top-1 accuracy above minimax's by more
// than autoMargin standard errors of the difference (sqrt((p(1-p) + q(1-q))/n), the moves taken as
// independent, which the same moves scored twice make conservative), and a higher mean log-likelihood.
// Among the models that qualify it takes the one of highest log-likelihood, the proper score of a
// probabilistic prediction.
const (
	autoGames    = 5
	autoMinMoves = 30
	autoMargin   = 2.0
)

// autoChoice is what Search auto plays in one game.
type autoChoice struct {
	// Search is AlphaBetaSearch or the model search chosen.
	Search string
	// Model is the yardstick's name of the model chosen, "" for none.
	Model string
	// Live is the chosen model (nil for alpha-beta).
	Live searchers.LiveModel
	// Why says what auto chose and why, for the info string of the game's first search.
	Why string
	// Serial changes at every game's start.
	Serial uint64
}

// autoEvidence is one model's pooled yardstick against minimax's over the same games.
type autoEvidence struct {
	model             string
	moves             int
	top1, minimaxTop1 float64
	loglik, minimaxLL float64
	se                float64 // the standard error of the top-1 difference
}

// qualifies reports whether the evidence lets auto play against the model.
func (e autoEvidence) qualifies() bool {
	return e.moves >= autoMinMoves && e.top1-e.minimaxTop1 > autoMargin*e.se && e.loglik > e.minimaxLL
}

// String writes the evidence in a few words.
func (e autoEvidence) String() string {
	return fmt.Sprintf("%s over %d moves: top-1 %.0f%% vs minimax (the better of ours at the learners' depth and our search's) %.0f%% (2 SE %.0f points), log-likelihood %.2f vs %.2f",
		e.model, e.moves, 100*e.top1, 100*e.minimaxTop1, 100*autoMargin*e.se, e.loglik, e.minimaxLL)
}

// poolEvidence pools the last autoGames yardsticks for every model scored beside minimax, sorted by name.
func poolEvidence(yards []learn.GameYardstick) []autoEvidence {
	if len(yards) > autoGames {
		yards = yards[len(yards)-autoGames:]
	}
	pooled := map[string][2]learn.Score{} // model -> its score, minimax's on the same games
	var search learn.Score                // the search's own predictions in those games
	for _, y := range yards {
		mm, ok := y.Scores[learn.MinimaxModelName]
		if !ok {
			continue
		}
		search = search.Pool(y.Scores[learn.SearchModelName])
		for name, s := range y.Scores {
			if name == learn.MinimaxModelName || name == learn.SearchModelName || s.Moves != mm.Moves {
				continue
			}
			pair := pooled[name]
			pooled[name] = [2]learn.Score{pair[0].Pool(s), pair[1].Pool(mm)}
		}
	}
	var out []autoEvidence
	for name, pair := range pooled {
		s, mm := pair[0], pair[1]
		// Minimax's top-1 is the better of the learners' fixed-depth minimax and our search's own
		// predictions (over the moves it predicted, nearly all of them).
		base := mm.Top1
		if search.Moves >= autoMinMoves {
			base = max(base, search.Top1)
		}
		n := float64(max(s.Moves, 1))
		out = append(out, autoEvidence{model: name, moves: s.Moves, top1: s.Top1, minimaxTop1: base,
			loglik: s.LogLikelihood, minimaxLL: mm.LogLikelihood,
			se: math.Sqrt((s.Top1*(1-s.Top1) + base*(1-base)) / n)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].model < out[j].model })
	return out
}

// pickModel returns the qualifying model of highest log-likelihood (ok false when none qualifies) and the
// evidence, for the reason given.
func pickModel(yards []learn.GameYardstick) (best autoEvidence, ok bool, all []autoEvidence) {
	all = poolEvidence(yards)
	for _, e := range all {
		if e.qualifies() && (!ok || e.loglik > best.loglik) {
			best, ok = e, true
		}
	}
	return best, ok, all
}

// chooseAuto decides what auto plays against the opponent of the learners: the search of the model the
// yardsticks pick, handed its model as it stands and as the worker goes on learning it.
func chooseAuto(l *learners) autoChoice {
	alpha := autoChoice{Search: searchers.AlphaBetaSearch}
	if len(l.yardsticks) == 0 {
		alpha.Why = fmt.Sprintf("auto: alphabeta (no yardstick of this opponent in %s yet)", l.game.Name())
		return alpha
	}
	best, ok, all := pickModel(l.yardsticks)
	games := min(len(l.yardsticks), autoGames)
	if !ok {
		var parts []string
		for _, e := range all {
			parts = append(parts, e.String())
		}
		alpha.Why = fmt.Sprintf("auto: alphabeta (no model beat minimax over the last %d games, by at least %d moves, %g SE on top-1 "+
			"and log-likelihood: %s)", games, autoMinMoves, autoMargin, strings.Join(parts, "; "))
		return alpha
	}
	c := autoChoice{Model: best.model}
	switch best.model {
	case learn.ModelTypeProbs:
		c.Search, c.Live = searchers.PromSearch, l.typesLive
	case learn.ModelDepth:
		c.Search, c.Live = searchers.OMSearch, l.depthLive
	case searchers.DiscrepancyModelName:
		c.Search, c.Live = searchers.MEUSearch, searchers.LiveReplies(l.disc)
	default:
		alpha.Why = fmt.Sprintf("auto: alphabeta (the best model, %s, has no search)", best.model)
		return alpha
	}
	c.Why = fmt.Sprintf("auto: %s with the learned %s model %s (last %d games: %s)", c.Search, best.model,
		describeLive(c.Live), games, best)
	return c
}

// describeLive writes a live model's current state in short.
func describeLive(m searchers.LiveModel) string {
	st := m.Current()
	if st.Spec.IsZero() {
		return "(counts)"
	}
	parts := make([]string, len(st.Spec.Terms))
	for i, t := range st.Spec.Terms {
		parts[i] = t.Name
		if t.Depth > 0 {
			parts[i] += fmt.Sprintf("@%d", t.Depth)
		}
		if t.HasProbability {
			parts[i] += fmt.Sprintf(":%.2f", t.Probability)
		}
	}
	return strings.Join(parts, ",")
}

// autoSearcher is Search auto: at each game's first search it takes the Player's choice for the game and
// plays it, alpha-beta exactly as AlphaBetaSearch plays it when the choice is alpha-beta, a model search
// reading the live model (liveSearcher) otherwise.
type autoSearcher struct {
	game   games.Game
	cfg    searchers.Config
	choice func() autoChoice
	risk   func() int

	mu     sync.Mutex
	alpha  engine.Searcher // built at once, so that its table is not allocated on a clock
	inner  engine.Searcher
	serial uint64
	has    bool
}

// newAutoSearcher returns Search auto for the configuration (cfg.Search is auto), reading the choice of each
// game from choice. A configuration that plays below full strength plays alpha-beta, as it would anyway.
// A model search it chooses is guarded by the alpha-beta searcher (see guard), with the ModelRisk risk returns.
func newAutoSearcher(g games.Game, cfg searchers.Config, choice func() autoChoice, risk func() int) (engine.Searcher, error) {
	if cfg.Model != "" {
		return nil, fmt.Errorf("search auto takes no opponent model (OpponentModel is %s)", searchers.ShortQuote(cfg.Model))
	}
	plain := cfg
	plain.Search = searchers.AlphaBetaSearch
	alpha, err := searchers.New(g, plain)
	if err != nil || func() bool { weak, _ := cfg.Weakens(); return weak }() {
		return alpha, err
	}
	return &autoSearcher{game: g, cfg: cfg, choice: choice, risk: risk, alpha: alpha}, nil
}

// Search plays the game's choice, saying at the game's first search what it is and why.
func (s *autoSearcher) Search(p games.Position, ctl *engine.Control, report func(engine.Info)) engine.Result {
	c := s.choice()
	s.mu.Lock()
	announce := !s.has || c.Serial != s.serial
	if announce {
		s.serial, s.has = c.Serial, true
		s.inner = s.alpha
		if c.Search != searchers.AlphaBetaSearch && c.Live != nil {
			cfg := s.cfg
			cfg.Search, cfg.Model = c.Search, ""
			s.inner = searchers.Guard(searchers.NewLive(s.game, cfg, c.Live), s.alpha, s.risk)
		}
	}
	inner := s.inner
	s.mu.Unlock()
	if announce && report != nil && c.Why != "" {
		report(engine.Info{Text: c.Why})
	}
	return inner.Search(p, ctl, report)
}

// NewGame clears the tables of the searches.
func (s *autoSearcher) NewGame() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.alpha.NewGame()
	if s.inner != nil && s.inner != s.alpha {
		s.inner.NewGame()
	}
}

// newSearcherLocked builds the Player's searcher (p.mu held): Search auto when it is set, or when the memory
// is on and no search was set; searchers.New's otherwise.
func (p *Engine) newSearcherLocked() (engine.Searcher, error) {
	cfg := p.cfg
	if cfg.Search == "" && p.filer.config().Enabled && cfg.Model == "" {
		cfg.Search = searchers.AutoSearch
	}
	if strings.EqualFold(cfg.Search, searchers.AutoSearch) {
		cfg.Search = searchers.AutoSearch
		return newAutoSearcher(p.game, cfg, p.autoChoice, p.modelRisk)
	}
	return searchers.NewGuarded(p.game, cfg, p.modelRisk)
}

// autoChoice returns what Search auto plays in the game in progress.
func (p *Engine) autoChoice() autoChoice { return p.learning.choice() }

// AutoChoice returns, in words, what Search auto plays in the game in progress and why ("" before a game).
func (p *Engine) AutoChoice() string { return p.autoChoice().Why }
