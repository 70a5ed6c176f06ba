// Package player holds the engine behind play.Engine, the Player: it plays a preset with the search its
// configuration describes and hands each event of the game's life cycle to its parts (the memory filer, the
// learning worker, the identifier of unnamed opponents, the even-game ledger, the game memory).
package player

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"

	"dossier/bots/prepare"
	"dossier/bots/presets"
	"dossier/bots/searchers"
	"dossier/engine"
	"dossier/games"
	"dossier/memory/learn"
	"dossier/play"
)

// Bounds of the Player's spin options.
const (
	maxHashMB   = 16384
	maxThreads  = 256
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

// Engine is dossier's play.Engine, the Player: it searches with the searcher its configuration describes (see
// searchers.New), rebuilt when an option changes, and files the game's life cycle (the opponent, each of its
// moves with what we predicted of it, take-backs, the result) in the per-opponent memory when it has one.
// Its methods are safe for concurrent use, except that Search must not run twice at once.
//
// Lock order. p.mu guards the Player's own fields (the configuration, the searcher, the game, the opponent,
// contempt, MemoryRisk) and is always taken first: a method whose name ends in Locked, and the few whose doc
// says p.mu is held (dropSearcher, learnerKey, evenLevel, evenResult, analyseAfterGame), run with it held.
// Each part has its own lock, taken after p.mu or alone, and never takes p.mu back (the parts call the Player
// only through functions that take no lock of its, such as pauseReading):
//
//	p.mu
//	  -> learningPart.mu -> learning.mu (the game's worker), and learningPart.mu -> filer.mu
//	  -> ledger.mu -> filer.mu
//	  -> identifier.mu, gameMemory.mu, memoryUse.mu, analyst.mu, filer.mu (each alone: they take no other)
//
// filer.mu is the innermost of them: under it the filer calls only the memory, and the memory's writer never
// waits for it (its alerts go through a channel). The locks of the foreground gate, the reading, a
// budgetGate, a learnedLive and autoSearcher take no other lock, and learningPart.foldMu (one fold at a time)
// is held without p.mu. The worker's sink (learnedMove) takes learningPart.mu alone, never while learning.mu is
// held.
//
// The background's threads (the reading, the learner, the fold, the analysis) run at the lowest priority: one
// that holds a lock runs again only when nothing else wants the core, so a search of ours or the front end that
// waits for that lock waits for as long as another engine keeps the core busy (session 22: up to 2.7 s). They
// therefore hold no lock while they compute: they file through filer.recordBackground and read the memory and
// the logger through atomics (filer.memory, filer.logger); the gate's bookkeeping is done beside our search
// (foreground.hold). What they still take are short critical sections that only copy fields (p.mu in the
// reading's parts, learningPart.mu in learnedMove, learning.mu, analyst.mu).
type Engine struct {
	mu         sync.Mutex
	game       games.Game
	cfg        searchers.Config
	searcher   engine.Searcher // nil until the next search after a change of game or option
	warning    string          // why searcher is not the configured one, or ""
	opponent   play.Opponent
	current    CurrentGame
	filer      *filer        // the memory's side of the life cycle, with its own lock
	gameMemory *gameMemory   // the game memory of the opponent, with its own lock (see recall.go)
	ledger     *ledger       // the even-game state of every opponent met, with its own lock
	learning   *learningPart // the learners, the game's worker and auto's choice, with their own lock
	ident      *identifier   // the identifier of an unnamed opponent, with its own lock (see identify.go)
	risk       riskPart      // whether MemoryRisk was set (see risk.go)
	contempt   contemptPart  // the contempt the dossier sets (see contempt.go)
	analyst    analyst       // the analysis of the last game, with its own lock (see analyst.go)
	book       bookPart      // the opening book, with its own lock (see book.go)
	// analysisDepth is the depth the analyst searches our moves to (0: analysisDepth); tests set it, and
	// analysisOff (no analysis filed or taken), to see another part's doing alone.
	analysisDepth int
	analysisOff   bool
	// background is what the work between games may take (see background.go).
	background backgroundLimits
	use        memoryUse // what the memory did in the game in progress (see memoryuse.go)
	reading    reading   // the parts' reading of the memory for the next game (see reading.go)
}

var _ play.Engine = (*Engine)(nil)

// New returns a Player of g with the given configuration and no memory (see UseMemory).
func New(g games.Game, cfg searchers.Config) *Engine {
	if cfg.ModelRisk == 0 {
		cfg.ModelRisk = searchers.DefaultModelRisk
	}
	p := &Engine{game: g, cfg: cfg, current: CurrentGame{Game: g.Name()}, risk: riskPart{memorySet: cfg.MemoryRisk > 0},
		contempt: contemptPart{fixed: cfg.Contempt != 0}, background: defaultBackground()}
	p.filer = newFiler(MemoryConfig{})
	p.filer.readPause = p.pauseReading
	p.ledger = newLedger(p.filer)
	p.ident = &identifier{}
	p.gameMemory = &gameMemory{}
	p.learning = newLearningPart(p.filer, background{fg: p.analyst.foreground(), nice: p.background.nice})
	p.learning.readingDone = p.reading.waitDone
	gm := p.gameMemory
	p.analyst.prepared = func(key string, g games.Game, fd prepare.Finding) { gm.addPrepared(key, g, fd) }
	return p
}

// Config returns the Player's current configuration.
func (p *Engine) Config() searchers.Config {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.cfg
}

// Game returns the game being played.
func (p *Engine) Game() games.Game {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.game
}

// Opponent returns the opponent the front end named last.
func (p *Engine) Opponent() play.Opponent {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.opponent
}

// Current returns a copy of what the Player saw of the game in progress.
func (p *Engine) Current() CurrentGame {
	p.mu.Lock()
	defer p.mu.Unlock()
	c := p.current
	c.Moves = slices.Clone(c.Moves)
	return c
}

// configure changes the configuration under the lock; the searcher is rebuilt at the next search.
func (p *Engine) configure(change func(*searchers.Config)) {
	p.mu.Lock()
	defer p.mu.Unlock()
	change(&p.cfg)
	p.dropSearcher()
}

// dropSearcher forgets the searcher (p.mu held), to be rebuilt when next needed, and frees its tables now: a large
// table lives outside the Go heap (see tablemem), and the collector, which frees it, would otherwise run
// only when the small heap grows, while the next searcher's table is already in use.
func (p *Engine) dropSearcher() {
	if p.searcher != nil {
		p.searcher = nil
		runtime.GC()
	}
}

// Options returns the Player's UCI options: Hash, Threads, Search, OpponentModel, Preset, Depth,
// Contempt, ModelRisk and MemoryRisk (see searchers.Config), the strength's Mode (strongest or even), UCI_LimitStrength with
// UCI_Elo, MultiPV, and the memory's Memory (on or off) and MemoryPath (its directory, "" for the default, or a
// postgres:// URL, shown without its password).
//
// Preset lists the presets of the game being played (the list is rebuilt when the game changes). A preset of
// another game is kept, with an error saying that this game plays its default until the game changes to
// the preset's; an unknown name is refused. OpponentModel is checked at setoption against the game (preset
// names, rank:PS in (0, 1], a counts file) and against the search when one is chosen (@depth below ours,
// probabilities for PrOM), so that a mistake shows when it is made; Search is not checked against a model
// set before it (a GUI may change both, in any order). A search whose model still does not fit plays
// alpha-beta, with an info string naming the term at fault.
//
// Depth follows one rule: 0 keeps the preset's own depth (none for strongest, the papers' depths for their
// presets: mat-tot25 searches 4 plies as in Carmel & Markovitch), a positive Depth replaces it, and a go
// command's depth caps both. A search that stops at such a depth says so in an info string.
func (p *Engine) Options() []play.Option {
	cfg := p.Config()
	mem := p.memoryConfig()
	g := p.Game()
	hash := cfg.HashMB
	if hash <= 0 {
		hash = engine.DefaultAlphaBetaOptions(g).HashMB
	}
	preset := cfg.Preset
	if preset == "" {
		preset = presets.Default
	}
	search := cfg.Search
	if search == "" {
		search = searchers.AlphaBetaSearch
		if mem.Enabled && cfg.Model == "" {
			search = searchers.AutoSearch
		}
	}
	mode := searchers.StrongestMode
	if strings.EqualFold(cfg.Mode, searchers.EvenMode) {
		mode = searchers.EvenMode
	}
	elo := cfg.Elo
	if elo == 0 {
		elo = defaultElo
	}
	return append([]play.Option{
		play.SpinOption("Hash", hash, 1, maxHashMB, func(n int) { p.configure(func(c *searchers.Config) { c.HashMB = n }) }),
		play.SpinOption("Threads", max(cfg.Threads, 1), 1, maxThreads,
			func(n int) { p.configure(func(c *searchers.Config) { c.Threads = n }) }),
		play.ComboOption("Search", search, searchers.SearchAlgorithms(), func(v string) { p.configure(func(c *searchers.Config) { c.Search = v }) }),
		{Name: "OpponentModel", Type: play.StringType, Default: cfg.Model, Apply: p.setModel},
		{Name: "Preset", Type: play.ComboType, Default: preset, Vars: presets.Names(g.Name()), AcceptsOthers: true,
			Apply: p.setPreset},
		play.SpinOption("Depth", cfg.Depth, 0, searchers.MaxDepth,
			func(n int) { p.configure(func(c *searchers.Config) { c.Depth = n }) }),
		play.SpinOption("Contempt", int(cfg.Contempt), -maxContempt, maxContempt, p.setContempt),
		play.CheckOption("MemoryContempt", p.memoryContempt(), p.setMemoryContempt),
		play.SpinOption("ModelRisk", cfg.ModelRisk, 0, searchers.MaxModelRisk, p.SetModelRisk),
		play.SpinOption("MemoryRisk", p.memoryRisk(), 0, searchers.MaxModelRisk, p.SetMemoryRisk),
		play.SpinOption("PrepareTime", defaultPrepareSeconds, 0, maxPrepareSeconds, p.setPrepareSeconds),
		play.SpinOption("BackgroundNice", defaultBackgroundNice, 0, 19, p.setBackgroundNice),
		play.ComboOption("Mode", mode, searchers.StrengthModes(),
			func(v string) { p.configure(func(c *searchers.Config) { c.Mode = v }) }),
		play.CheckOption("UCI_LimitStrength", cfg.LimitStrength,
			func(on bool) { p.configure(func(c *searchers.Config) { c.LimitStrength = on }) }),
		play.SpinOption("UCI_Elo", elo, learn.MinElo, learn.MaxElo, func(n int) { p.configure(func(c *searchers.Config) { c.Elo = n }) }),
		play.SpinOption("MultiPV", max(cfg.MultiPV, 1), 1, maxMultiPV,
			func(n int) { p.configure(func(c *searchers.Config) { c.MultiPV = n }) }),
		play.CheckOption("Memory", mem.Enabled, func(on bool) { p.changeMemory(func(c *MemoryConfig) { c.Enabled = on }) }),
		play.StringOption("MemoryPath", shownLocation(mem.Dir), func(dir string) { p.changeMemory(func(c *MemoryConfig) { c.Dir = dir }) }),
	}, p.bookOptions()...)
}

// setPreset is the Preset option: a preset of the game is taken; a preset of another game is kept for when
// that game is played, with an error saying what this game plays meanwhile; an unknown name is refused.
func (p *Engine) setPreset(name string) error {
	g := p.Game()
	if preset, err := presets.Lookup(g, name); err == nil {
		p.configure(func(c *searchers.Config) { c.Preset = preset.Name })
		return nil
	}
	for _, game := range presets.Games {
		for _, n := range presets.Names(game) {
			if strings.EqualFold(n, name) {
				p.configure(func(c *searchers.Config) { c.Preset = n })
				return fmt.Errorf("%s is a preset of %s, not of %s; %s plays %s until the game is %s", n, game,
					g.Name(), g.Name(), presets.Default, game)
			}
		}
	}
	return fmt.Errorf("no preset %s (%s has %s)", searchers.ShortQuote(name), g.Name(), strings.Join(presets.Names(g.Name()), ", "))
}

// setModel is the OpponentModel option. A model checkModel refuses is not kept: the previous model stays,
// so that the error shows once, at setoption, rather than at every later go.
func (p *Engine) setModel(model string) error {
	previous := p.Config().Model
	p.configure(func(c *searchers.Config) { c.Model = model })
	if err := p.checkModel(); err != nil {
		p.configure(func(c *searchers.Config) { c.Model = previous })
		if previous == "" {
			return fmt.Errorf("%w; no opponent model is set", err)
		}
		return fmt.Errorf("%w; the opponent model stays %s", err, searchers.ShortQuote(previous))
	}
	return nil
}

// checkModel checks the configured opponent model against the game and, when the search is a model search,
// against the search: the errors searchers.New would give at the next go, given at setoption instead. Under
// alpha-beta a model waits for its search (GUIs send options in any order), so only the terms are checked.
func (p *Engine) checkModel() error {
	cfg := p.Config()
	model, err := searchers.ParseModelSpec(cfg.Model)
	if err != nil || model.IsZero() {
		return err
	}
	g := p.Game()
	for _, t := range model.Terms {
		switch {
		case t.Path != "":
			counts, err := learn.LoadDiscrepancyCounts(t.Path)
			if err != nil {
				return fmt.Errorf("opponent model term %s: %w", searchers.ShortQuote(t.Text), err)
			}
			if counts.Game != g.Name() {
				return fmt.Errorf("opponent model term %s: the counts are of %s, not %s", searchers.ShortQuote(t.Text), counts.Game, g.Name())
			}
		case t.Name == searchers.RankModelName:
			if !t.HasProbability || t.Probability <= 0 {
				return fmt.Errorf("opponent model term %s: rank:PS needs PS in (0, 1]", searchers.ShortQuote(t.Text))
			}
		default:
			if _, err := presets.Lookup(g, t.Name); err != nil {
				return fmt.Errorf("opponent model term %s: %w", searchers.ShortQuote(t.Text), err)
			}
		}
	}
	algorithm, err := searchers.LookupSearch(cfg.Search)
	if err != nil || algorithm == searchers.AlphaBetaSearch {
		return err
	}
	depthCap := cfg.Depth
	if depthCap == 0 {
		if preset, err := presets.Lookup(g, cfg.Preset); err == nil {
			depthCap = preset.Depth
		}
	}
	return model.CheckFor(algorithm, depthCap)
}

// NewGame starts a game of g: it clears the search tables (a new searcher for another game, built at once)
// and opens a new record of the game (the front end reported the end of an unfinished one before).
func (p *Engine) NewGame(g games.Game) {
	p.prepareContempt(g) // before the searcher is built: a change of contempt rebuilds it
	p.newGame(g)
	p.prepareParts()
}

// prepareParts has the parts that play with what the memory knows of the opponent read it, in the background
// (reading.go): the game memory, the learners (and Search auto's choice), the identifier of an unnamed
// opponent, the even-game ledger.
func (p *Engine) prepareParts() {
	p.mu.Lock()
	nice := p.background.nice
	p.mu.Unlock()
	fg := p.analyst.foreground()
	p.reading.start(nice, func() {
		// Each part between our searches (unless a front end waits for the reading): a part allocates much (a
		// memory of 1,000 games decoded), and the garbage collector's workers, which that wakes, run at the
		// search's priority.
		for _, part := range []func(){p.loadRecall, p.prepareLearning, p.prepareIdentifier, p.prepareLedger} {
			_, leave := fg.enter(p.reading.gate())
			part()
			leave()
		}
		collectBetweenSearches(p.reading.gate(), fg)
		if !p.analysisOff {
			p.analyst.kick(p.filer) // the analyses other processes left, in this one's idle time
		}
	})
}

// newGame is NewGame but for the game memory, under the lock.
func (p *Engine) newGame(g games.Game) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if g.Name() != p.game.Name() {
		p.dropSearcher()
	} else if p.searcher != nil {
		p.searcher.NewGame()
	}
	p.game = g
	// Build the searcher (and allocate its tables) now rather than on the clock of the first move: GUIs
	// send ucinewgame after the options and before the game's first go. The memory opens now too.
	p.searcherLocked()
	p.current = CurrentGame{Game: g.Name(), Opponent: p.opponent}
	p.filer.ensureOpen()
}

// SetOpponent records who the opponent is, in the memory too; it names the current game's opponent while
// the game has not started. An opponent without a name is not filed as a sighting (a CECP GUI sends
// computer or rating before name, which would leave an empty "(unknown)" profile): a game against it files
// it at its start.
func (p *Engine) SetOpponent(o play.Opponent) {
	p.mu.Lock()
	p.opponent = o
	if !p.current.Started {
		p.current.Opponent = o
	}
	if o.Named() {
		p.filer.sighting(o)
	}
	g := p.game
	p.mu.Unlock()
	p.prepareContempt(g)
	p.prepareParts()
}

// StartGame opens the game's record in the memory; the analysis of earlier games and the preparation for this
// one go on, never during our search.
func (p *Engine) StartGame(gs play.GameStart) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.current = CurrentGame{Game: gs.Game.Name(), Opponent: p.opponent, Started: true, OurSide: gs.OurSide}
	p.current.ID = p.filer.startGame(gs, p.opponent)
	p.use.reset()
	p.filer.fileLearnedAs(p.current.ID, p.opponent.Key(), p.learnerKey())
	p.ledger.startGame(gs.TimeControl)
	p.learning.start(p.current.ID, p.learnerKey(), p.game, p.cfg)
	p.ident.startGame()
}

// ObserveMove records an opponent's move in the current game, and in the memory with what we predicted of
// it; the memory commits it in the background, and Search waits for it before answering.
func (p *Engine) ObserveMove(om play.ObservedMove) {
	obs := Observation{FEN: om.Before.FEN(), Move: om.Before.FormatMove(om.Move), Ply: om.Ply}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.current.Moves = append(p.current.Moves, obs)
	p.learning.queue(om, obs, p.filer.observe(om, obs))
	p.ident.observe(om)
}

// TakeBack forgets the opponent's moves beyond the first keep moves of the game, here and in the memory.
func (p *Engine) TakeBack(keep int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.current.Moves = slices.DeleteFunc(p.current.Moves, func(o Observation) bool { return o.Ply >= keep })
	p.filer.takeBack(keep)
	p.learning.takeBack(keep)
	p.ident.takeBack(keep)
}

// GameOver files the game's result in the memory.
func (p *Engine) GameOver(end play.GameEnd) {
	p.mu.Lock()
	defer p.learning.finish(p.learning.take()) // after the unlock: it waits for the worker
	defer p.mu.Unlock()
	score := -1.0
	if end.Outcome.Result.Over() && p.current.Started {
		score = end.Outcome.Result.PointsFor(p.current.OurSide)
	}
	start := p.filer.gameStart()
	gameID := p.filer.gameOver(end)
	if p.current.Started {
		if p.filer.memory() != nil {
			p.use.log(p.filer.logger(), gameID, score, p.cfg.Contempt)
		}
		p.evenResult(score, gameID)
		p.analyseAfterGame(end, score, start, gameID)
	}
	p.current.Started = false
}

// Close flushes what the memory has not committed yet and closes the memory if the Player opened it.
func (p *Engine) Close() error {
	p.reading.wait()
	p.analyst.stop()
	p.learning.save(p.learning.take()) // the game in progress files no state (it did not end)
	p.learning.waitFolds()
	p.ledger.folds.Wait()
	p.book.close()
	return p.filer.close()
}

// Search searches pos with the configured searcher, building it first after a change. A configuration
// the game cannot play (a preset of another game) falls back on the game's default preset, and each search
// says so in an info string.
func (p *Engine) Search(pos games.Position, ctl *engine.Control, report func(engine.Info)) engine.Result {
	var clock onClock
	clock.begin()
	s, warning := p.currentSearcher()
	if warning != "" && report != nil {
		report(engine.Info{Text: warning})
	}
	if notice := p.memoryNotice(); notice != "" && report != nil {
		report(engine.Info{Text: notice})
	}
	p.reportIdentified(report)
	p.reportContempt(report)
	if res, ok := p.bookMove(pos, ctl, report); ok {
		ctl.WaitRelease()
		p.filer.afterSearch(pos, res, &clock)
		return res
	}
	if s == nil {
		ctl.WaitRelease()
		return engine.Result{}
	}
	clock.mark(partSearcher)
	fg := p.analyst.foreground()
	p.use.waited(fg.hold())
	defer fg.release()
	clock.mark(partHold)
	x := p.installExperience(s)
	clock.mark(partExperience)
	lines := searchers.NewDepthLines(report)
	at, searchCtl, onLine := p.recallAt(pos, ctl), ctl, lines.Report
	if at.mayCheck() {
		searchCtl = ctl.WithTimeShare(recallSearchShare)
		onLine = at.shareTime(pos, searchCtl, lines.Report)
	}
	searched := s.Search(pos, searchCtl, onLine)
	clock.skip()
	hits := searchers.ExperienceHits(s)
	recalled := p.consultRecall(s, pos, ctl, at, searched, lines, report)
	res := p.consultPrepared(x, pos, ctl, recalled, report)
	clock.mark(partConsult)
	p.use.search(pos.Ply(), hits, searched, recalled, res)
	p.reportExperience(x, pos, res, hits, report)
	clock.mark(partReport)
	p.filer.afterSearch(pos, res, &clock)
	p.use.spentOnClock(clock, pos.Ply(), p.filer.logger())
	return res
}

// currentSearcher returns the searcher of the current game and configuration, building it if needed, and
// the warning to show when it is not the configured one (nil when the game cannot be played at all).
func (p *Engine) currentSearcher() (engine.Searcher, string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	s, warning := p.searcherLocked()
	p.evenLevel(s)
	return s, warning
}

// searcherLocked is currentSearcher with p.mu held. A configuration that cannot be built falls back on
// alpha-beta with the configured preset, and failing that with the game's default preset.
func (p *Engine) searcherLocked() (engine.Searcher, string) {
	if p.searcher != nil {
		return p.searcher, p.warning
	}
	if p.filer.config().Enabled {
		reserveBackgroundP(p.cfg.Threads) // a P for the memory's work beside the search threads (lowpriority.go)
	}
	s, err := p.newSearcherLocked()
	p.warning = ""
	if err != nil {
		fallback := p.cfg
		fallback.Search, fallback.Model = searchers.AlphaBetaSearch, ""
		var fallbackErr error
		if s, fallbackErr = searchers.New(p.game, fallback); fallbackErr != nil {
			fallback.Preset = presets.Default
			if s, fallbackErr = searchers.New(p.game, fallback); fallbackErr != nil {
				return nil, fmt.Sprintf("error: cannot play %s: %v", p.game.Name(), fallbackErr)
			}
		}
		preset := fallback.Preset
		if preset == "" {
			preset = presets.Default
		}
		p.warning = fmt.Sprintf("error: %v; playing %s %s with %s", err, p.game.Name(), preset, searchers.AlphaBetaSearch)
	}
	p.searcher = s
	return s, p.warning
}
