// Player: the protocol.Engine that plays a preset with a search, and keeps what it observed of its opponent.
package bots

import (
	"fmt"
	"runtime"
	"slices"
	"sync"

	"dossier/engine"
	"dossier/games"
	"dossier/protocol"
)

// Bounds of the Player's spin options.
const (
	maxHashMB   = 16384
	maxThreads  = 256
	maxDepthCap = 100
	maxContempt = 10000
)

// Observation is one move the opponent played and the position it played it in.
type Observation struct {
	// FEN is the position before the move, in the game's position notation.
	FEN string
	// Move is the move in the game's protocol notation.
	Move string
	// Ply is the position's ply count (half-moves since the game's start).
	Ply int
}

// ObservedGame is what the Player saw of its opponent in one game.
type ObservedGame struct {
	// Game is the name of the game played.
	Game string
	// Opponent is who the GUI said the opponent was.
	Opponent protocol.Opponent
	// Moves are the opponent's moves in the order they were played.
	Moves []Observation
}

// Player is dossier's protocol.Engine: it searches with the searcher its configuration describes (see
// NewSearcher), rebuilt when an option changes, and records the opponent's moves game by game for the
// opponent models. Its methods are safe for concurrent use, except that Search must not run twice at once.
type Player struct {
	mu       sync.Mutex
	game     games.Game
	cfg      PlayerConfig
	searcher engine.Searcher // nil until the next search after a change of game or option
	warning  string          // why searcher is not the configured one, or ""
	opponent protocol.Opponent
	observed []ObservedGame // one per game, the current game last
}

var _ protocol.Engine = (*Player)(nil)

// NewPlayer returns a Player of g with the given configuration.
func NewPlayer(g games.Game, cfg PlayerConfig) *Player {
	return &Player{game: g, cfg: cfg, observed: []ObservedGame{{Game: g.Name()}}}
}

// Config returns the Player's current configuration.
func (p *Player) Config() PlayerConfig {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.cfg
}

// Game returns the game being played.
func (p *Player) Game() games.Game {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.game
}

// Opponent returns the opponent the GUI named last.
func (p *Player) Opponent() protocol.Opponent {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.opponent
}

// Observed returns a copy of the observed games, the current one last.
func (p *Player) Observed() []ObservedGame {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make([]ObservedGame, len(p.observed))
	for i, g := range p.observed {
		out[i] = g
		out[i].Moves = slices.Clone(g.Moves)
	}
	return out
}

// configure changes the configuration under the lock; the searcher is rebuilt at the next search.
func (p *Player) configure(change func(*PlayerConfig)) {
	p.mu.Lock()
	defer p.mu.Unlock()
	change(&p.cfg)
	p.dropSearcher()
}

// dropSearcher forgets the searcher, to be rebuilt when next needed, and frees its tables now: a large
// table lives outside the Go heap (see tablemem), and the collector, which frees it, would otherwise run
// only when the small heap grows, while the next searcher's table is already in use.
func (p *Player) dropSearcher() {
	if p.searcher != nil {
		p.searcher = nil
		runtime.GC()
	}
}

// Options returns the Player's UCI options: Hash, Threads, Search, OpponentModel, Preset, Depth and
// Contempt. Preset offers the presets of every game, since a GUI may set it before it names the game; a
// preset the current game lacks is replaced by the game's default at search time, with an info string
// saying so. OpponentModel is the model of a model search (see ParseModelSpec); setoption reports a
// malformed one at once, and a search whose model does not fit the game or the search plays alpha-beta
// instead, with an info string naming the term at fault.
func (p *Player) Options() []protocol.Option {
	cfg := p.Config()
	hash := cfg.HashMB
	if hash <= 0 {
		hash = engine.DefaultAlphaBetaOptions(p.Game()).HashMB
	}
	preset := cfg.Preset
	if preset == "" {
		preset = DefaultPreset
	}
	search := cfg.Search
	if search == "" {
		search = AlphaBetaSearch
	}
	return []protocol.Option{
		protocol.SpinOption("Hash", hash, 1, maxHashMB, func(n int) { p.configure(func(c *PlayerConfig) { c.HashMB = n }) }),
		protocol.SpinOption("Threads", max(cfg.Threads, 1), 1, maxThreads,
			func(n int) { p.configure(func(c *PlayerConfig) { c.Threads = n }) }),
		protocol.ComboOption("Search", search, SearchAlgorithms(),
			func(v string) { p.configure(func(c *PlayerConfig) { c.Search = v }) }),
		{Name: "OpponentModel", Type: protocol.StringType, Default: cfg.Model, Apply: func(v string) error {
			p.configure(func(c *PlayerConfig) { c.Model = v })
			_, err := ParseModelSpec(v)
			return err
		}},
		protocol.ComboOption("Preset", preset, AllPresetNames(),
			func(v string) { p.configure(func(c *PlayerConfig) { c.Preset = v }) }),
		protocol.SpinOption("Depth", cfg.Depth, 0, maxDepthCap,
			func(n int) { p.configure(func(c *PlayerConfig) { c.Depth = n }) }),
		protocol.SpinOption("Contempt", int(cfg.Contempt), -maxContempt, maxContempt,
			func(n int) { p.configure(func(c *PlayerConfig) { c.Contempt = float64(n) }) }),
	}
}

// NewGame starts a game of g: it clears the search tables (a new searcher for another game, built at once)
// and opens a new record of observations.
func (p *Player) NewGame(g games.Game) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if g.Name() != p.game.Name() {
		p.dropSearcher()
	} else if p.searcher != nil {
		p.searcher.NewGame()
	}
	p.game = g
	// Build the searcher (and allocate its tables) now rather than on the clock of the first move: GUIs
	// send ucinewgame after the options and before the game's first go.
	p.searcherLocked()
	current := &p.observed[len(p.observed)-1]
	if len(current.Moves) == 0 {
		*current = ObservedGame{Game: g.Name(), Opponent: p.opponent}
		return
	}
	p.observed = append(p.observed, ObservedGame{Game: g.Name(), Opponent: p.opponent})
}

// SetOpponent records who the opponent is; it names the current game's opponent while no move of it has
// been observed yet.
func (p *Player) SetOpponent(o protocol.Opponent) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.opponent = o
	if current := &p.observed[len(p.observed)-1]; len(current.Moves) == 0 {
		current.Opponent = o
	}
}

// ObserveMove records an opponent's move and the position before it in the current game's record.
func (p *Player) ObserveMove(before games.Position, m games.Move) {
	obs := Observation{FEN: before.FEN(), Move: before.FormatMove(m), Ply: before.Ply()}
	p.mu.Lock()
	defer p.mu.Unlock()
	current := &p.observed[len(p.observed)-1]
	current.Moves = append(current.Moves, obs)
}

// Search searches pos with the configured searcher, building it first after a change. A configuration
// the game cannot play (a preset of another game) falls back on the game's default preset, and each search
// says so in an info string.
func (p *Player) Search(pos games.Position, ctl *engine.Control, report func(engine.Info)) engine.Result {
	s, warning := p.currentSearcher()
	if warning != "" && report != nil {
		report(engine.Info{Text: warning})
	}
	if s == nil {
		<-ctl.Released()
		return engine.Result{}
	}
	return s.Search(pos, ctl, report)
}

// currentSearcher returns the searcher of the current game and configuration, building it if needed, and
// the warning to show when it is not the configured one (nil when the game cannot be played at all).
func (p *Player) currentSearcher() (engine.Searcher, string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.searcherLocked()
}

// searcherLocked is currentSearcher with p.mu held. A configuration that cannot be built falls back on
// alpha-beta with the configured preset, and failing that with the game's default preset.
func (p *Player) searcherLocked() (engine.Searcher, string) {
	if p.searcher != nil {
		return p.searcher, p.warning
	}
	s, err := NewSearcher(p.game, p.cfg)
	p.warning = ""
	if err != nil {
		fallback := p.cfg
		fallback.Search, fallback.Model = AlphaBetaSearch, ""
		var fallbackErr error
		if s, fallbackErr = NewSearcher(p.game, fallback); fallbackErr != nil {
			fallback.Preset = DefaultPreset
			if s, fallbackErr = NewSearcher(p.game, fallback); fallbackErr != nil {
				return nil, fmt.Sprintf("error: cannot play %s: %v", p.game.Name(), fallbackErr)
			}
		}
		preset := fallback.Preset
		if preset == "" {
			preset = DefaultPreset
		}
		p.warning = fmt.Sprintf("error: %v; playing %s %s with %s", err, p.game.Name(), preset, AlphaBetaSearch)
	}
	p.searcher = s
	return s, p.warning
}
