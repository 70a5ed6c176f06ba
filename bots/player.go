// Player: the play.Engine that plays a preset with a search and files the game's life cycle in the memory.
package bots

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"dossier/engine"
	"dossier/games"
	"dossier/play"

	"go.uber.org/zap"
)

// Bounds of the Player's spin options.
const (
	maxHashMB   = 16384
	maxThreads  = 256
	maxDepthCap = 100
	maxContempt = 10000
	maxMultiPV  = 256
	// defaultElo is UCI_Elo's default, the middle of the calibrated range.
	defaultElo = 1800
)

// Observation is one move the opponent played and the position it played it in.
type Observation struct {
	// FEN is the position before the move, in the game's position notation.
	FEN string
	// Move is the move in the game's protocol notation.
	Move string
	// Ply is the move's index in the game since its start position.
	Ply int
}

// CurrentGame is what the Player saw of the game in progress.
type CurrentGame struct {
	// Game is the name of the game played.
	Game string
	// Opponent is who the front end said the opponent was.
	Opponent play.Opponent
	// ID is the game's identifier in the memory ("" before its first search, or without a memory).
	ID string
	// Started says whether the front end started the game (its first search); OurSide is valid then.
	Started bool
	// OurSide is the side the Player plays.
	OurSide games.Side
	// Moves are the opponent's moves in the order they were played.
	Moves []Observation
}

// Player is dossier's play.Engine: it searches with the searcher its configuration describes (see
// NewSearcher), rebuilt when an option changes, and files the game's life cycle (the opponent, each of its
// moves with what we predicted of it, take-backs, the result) in the per-opponent memory when it has one.
// Its methods are safe for concurrent use, except that Search must not run twice at once.
type Player struct {
	mu       sync.Mutex
	game     games.Game
	cfg      PlayerConfig
	searcher engine.Searcher // nil until the next search after a change of game or option
	warning  string          // why searcher is not the configured one, or ""
	opponent play.Opponent
	current  CurrentGame
	dossier  dossier // the memory's side of the life cycle
	// even holds the even-game state of each opponent met (by key), read from the memory when first needed,
	// and evenTC is the current game's time control, which picks the record.
	even   map[string]*EvenState
	evenTC string
}

var _ play.Engine = (*Player)(nil)

// NewPlayer returns a Player of g with the given configuration and no memory (see UseMemory).
func NewPlayer(g games.Game, cfg PlayerConfig) *Player {
	p := &Player{game: g, cfg: cfg, current: CurrentGame{Game: g.Name()}}
	p.dossier.log = zap.NewNop()
	return p
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

// Opponent returns the opponent the front end named last.
func (p *Player) Opponent() play.Opponent {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.opponent
}

// Current returns a copy of what the Player saw of the game in progress.
func (p *Player) Current() CurrentGame {
	p.mu.Lock()
	defer p.mu.Unlock()
	c := p.current
	c.Moves = slices.Clone(c.Moves)
	return c
}

// configure changes the configuration under the lock; the searcher is rebuilt at the next search.
func (p *Player) configure(change func(*PlayerConfig)) {
	p.mu.Lock()
	defer p.mu.Unlock()
	change(&p.cfg)
	p.searcher = nil
}

// Options returns the Player's UCI options: Hash, Threads, Search, OpponentModel, Preset, Depth,
// Contempt, the strength's Mode (strongest or even), UCI_LimitStrength with UCI_Elo, MultiPV, and the
// memory's Memory (on or off) and MemoryPath (its directory, "" for the default). Preset offers the presets of every game, since a GUI may set it before it names the game; a
// preset the current game lacks is replaced by the game's default at search time, with an info string
// saying so. OpponentModel is the model of a model search (see ParseModelSpec); setoption reports a
// malformed one at once, and a search whose model does not fit the game or the search plays alpha-beta
// instead, with an info string naming the term at fault.
func (p *Player) Options() []play.Option {
	cfg := p.Config()
	mem := p.memoryConfig()
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
	mode := StrongestMode
	if strings.EqualFold(cfg.Mode, EvenMode) {
		mode = EvenMode
	}
	elo := cfg.Elo
	if elo == 0 {
		elo = defaultElo
	}
	return []play.Option{
		play.SpinOption("Hash", hash, 1, maxHashMB, func(n int) { p.configure(func(c *PlayerConfig) { c.HashMB = n }) }),
		play.SpinOption("Threads", max(cfg.Threads, 1), 1, maxThreads,
			func(n int) { p.configure(func(c *PlayerConfig) { c.Threads = n }) }),
		play.ComboOption("Search", search, SearchAlgorithms(),
			func(v string) { p.configure(func(c *PlayerConfig) { c.Search = v }) }),
		{Name: "OpponentModel", Type: play.StringType, Default: cfg.Model, Apply: func(v string) error {
			p.configure(func(c *PlayerConfig) { c.Model = v })
			_, err := ParseModelSpec(v)
			return err
		}},
		play.ComboOption("Preset", preset, AllPresetNames(),
			func(v string) { p.configure(func(c *PlayerConfig) { c.Preset = v }) }),
		play.SpinOption("Depth", cfg.Depth, 0, maxDepthCap,
			func(n int) { p.configure(func(c *PlayerConfig) { c.Depth = n }) }),
		play.SpinOption("Contempt", int(cfg.Contempt), -maxContempt, maxContempt,
			func(n int) { p.configure(func(c *PlayerConfig) { c.Contempt = float64(n) }) }),
		play.ComboOption("Mode", mode, StrengthModes(),
			func(v string) { p.configure(func(c *PlayerConfig) { c.Mode = v }) }),
		play.CheckOption("UCI_LimitStrength", cfg.LimitStrength,
			func(on bool) { p.configure(func(c *PlayerConfig) { c.LimitStrength = on }) }),
		play.SpinOption("UCI_Elo", elo, MinElo, MaxElo, func(n int) { p.configure(func(c *PlayerConfig) { c.Elo = n }) }),
		play.SpinOption("MultiPV", max(cfg.MultiPV, 1), 1, maxMultiPV,
			func(n int) { p.configure(func(c *PlayerConfig) { c.MultiPV = n }) }),
		play.CheckOption("Memory", mem.Enabled, func(on bool) { p.changeMemory(func(c *MemoryConfig) { c.Enabled = on }) }),
		play.StringOption("MemoryPath", mem.Dir, func(dir string) { p.changeMemory(func(c *MemoryConfig) { c.Dir = dir }) }),
	}
}

// NewGame starts a game of g: it clears the search tables (a new searcher for another game, built at once)
// and opens a new record of the game (the front end reported the end of an unfinished one before).
func (p *Player) NewGame(g games.Game) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if g.Name() != p.game.Name() {
		p.searcher = nil
	} else if p.searcher != nil {
		p.searcher.NewGame()
	}
	p.game = g
	// Build the searcher (and allocate its tables) now rather than on the clock of the first move: GUIs
	// send ucinewgame after the options and before the game's first go. The memory opens now too.
	p.searcherLocked()
	p.current = CurrentGame{Game: g.Name(), Opponent: p.opponent}
	p.dossier.ensureOpen()
}

// SetOpponent records who the opponent is, in the memory too; it names the current game's opponent while
// the game has not started.
func (p *Player) SetOpponent(o play.Opponent) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.opponent = o
	if !p.current.Started {
		p.current.Opponent = o
	}
	p.dossier.sighting(o)
	if p.cfg.playsEven() {
		p.evenState(o.Key()) // read the memory now, off the clock
	}
}

// StartGame opens the game's record in the memory.
func (p *Player) StartGame(gs play.GameStart) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.current = CurrentGame{Game: gs.Game.Name(), Opponent: p.opponent, Started: true, OurSide: gs.OurSide}
	p.current.ID = p.dossier.startGame(gs, p.opponent)
	p.evenTC = gs.TimeControl
}

// ObserveMove records an opponent's move in the current game, and in the memory with what we predicted of
// it; the memory commits it in the background, and Search waits for it before answering.
func (p *Player) ObserveMove(om play.ObservedMove) {
	obs := Observation{FEN: om.Before.FEN(), Move: om.Before.FormatMove(om.Move), Ply: om.Ply}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.current.Moves = append(p.current.Moves, obs)
	p.dossier.observe(om, obs)
}

// TakeBack forgets the opponent's moves beyond the first keep moves of the game, here and in the memory.
func (p *Player) TakeBack(keep int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.current.Moves = slices.DeleteFunc(p.current.Moves, func(o Observation) bool { return o.Ply >= keep })
	p.dossier.takeBack(keep)
}

// GameOver files the game's result in the memory.
func (p *Player) GameOver(end play.GameEnd) {
	p.mu.Lock()
	defer p.mu.Unlock()
	score := -1.0
	if end.Outcome.Result.Over() && p.current.Started {
		score = end.Outcome.Result.PointsFor(p.current.OurSide)
	}
	gameID := p.dossier.gameID
	p.dossier.gameOver(end)
	if p.current.Started {
		p.evenResult(score, gameID)
	}
	p.current.Started = false
}

// Close flushes what the memory has not committed yet and closes the memory if the Player opened it.
func (p *Player) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.dossier.close()
}

// Search searches pos with the configured searcher, building it first after a change. A configuration
// the game cannot play (a preset of another game) falls back on the game's default preset, and each search
// says so in an info string.
func (p *Player) Search(pos games.Position, ctl *engine.Control, report func(engine.Info)) engine.Result {
	s, warning := p.currentSearcher()
	if warning != "" && report != nil {
		report(engine.Info{Text: warning})
	}
	if notice := p.memoryNotice(); notice != "" && report != nil {
		report(engine.Info{Text: notice})
	}
	if s == nil {
		<-ctl.Released()
		return engine.Result{}
	}
	res := s.Search(pos, ctl, report)
	p.afterSearch(pos, res)
	return res
}

// currentSearcher returns the searcher of the current game and configuration, building it if needed, and
// the warning to show when it is not the configured one (nil when the game cannot be played at all).
func (p *Player) currentSearcher() (engine.Searcher, string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	s, warning := p.searcherLocked()
	p.evenHandicap(s)
	return s, warning
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
