// Live opponent models: what the Player knows of its opponent now, handed to the model searches through an
// interface at every move, so that a learner's update plays at the next move and survives the rebuilding of
// the searcher when an option changes.

package searchers

import (
	"sync"

	"dossier/engine"
	"dossier/engine/model"
	"dossier/games"
)

// LiveModel is an opponent model that learners keep current while games go on.
type LiveModel interface {
	// Current returns the model as it stands.
	Current() LiveModelState
}

// LiveModelState is a live model at one moment.
type LiveModelState struct {
	// Spec is the model for the model searches (type probabilities, the opponent's evaluation and depth);
	// the zero spec is minimax's implicit model.
	Spec ModelSpec
	// Replies, when not nil, is MEU's model of the opponent's replies (learned discrepancy counts, say); it
	// is read at every node, so it may change between moves without a new Version.
	Replies model.MoveProbabilities
	// Version changes whenever Spec or Replies is replaced, so that a search knows when to rebuild.
	Version uint64
}

// liveSearcher runs the model search of its configuration with the live model's current state, rebuilding
// the inner searcher when the state's Version changes.
type LiveSearcher struct {
	game  games.Game
	cfg   Config // Live is this searcher's model; Model is ignored
	live  LiveModel
	mu    sync.Mutex
	inner engine.Searcher
	built uint64 // the Version inner was built for
	has   bool
}

// Search searches with the inner searcher of the model's current state; a state the search cannot take (a
// spec of the wrong form for the algorithm) plays alpha-beta with the same preset instead.
func (s *LiveSearcher) Search(p games.Position, ctl *engine.Control, report func(engine.Info)) engine.Result {
	s.mu.Lock()
	state := s.live.Current()
	if !s.has || state.Version != s.built {
		inner, err := newSearcher(s.game, s.cfg, state.Spec, state.Replies)
		if err != nil {
			fallback := s.cfg
			fallback.Search = AlphaBetaSearch
			inner, _ = newSearcher(s.game, fallback, ModelSpec{}, nil)
			if report != nil {
				report(engine.Info{Text: "error: the learned model does not fit " + s.cfg.Search + ": " + err.Error() + "; playing alpha-beta"})
			}
		}
		s.inner, s.built, s.has = inner, state.Version, true
	}
	inner := s.inner
	s.mu.Unlock()
	if inner == nil {
		ctl.WaitRelease()
		return engine.Result{}
	}
	return inner.Search(p, ctl, report)
}

// NewGame clears the inner searcher's tables.
func (s *LiveSearcher) NewGame() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.inner != nil {
		s.inner.NewGame()
	}
}

// newLiveSearcher returns the searcher of cfg for g that reads the live model at every move.
func NewLive(g games.Game, cfg Config, live LiveModel) engine.Searcher {
	return &LiveSearcher{game: g, cfg: cfg, live: live}
}
