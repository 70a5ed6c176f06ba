// The Player's own opening book: the options OwnBook, BookFile and BookDepth, and the book move a search
// plays instead of searching.

package player

import (
	"cmp"
	"fmt"
	"maps"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"dossier/bots/openingbook"
	"dossier/bots/prepare"
	"dossier/engine"
	"dossier/games"
	"dossier/memory"
	"dossier/play"

	"go.uber.org/zap"
)

// DefaultBookFile is the BookFile value that names the built-in repertoire of the game being played.
const DefaultBookFile = "<default>"

// maxBookDepth bounds BookDepth.
const maxBookDepth = 1000

// bookPart is the Player's opening book, with its own lock: the options set it on the front end's goroutine,
// the search reads it.
type bookPart struct {
	mu    sync.Mutex
	own   bool              // OwnBook
	file  string            // BookFile: a path, or DefaultBookFile
	depth int               // BookDepth: the last ply of the game a book move is played at (0: no limit)
	book  *openingbook.Book // the opened file (nil for the built-in repertoire, or after an error)
	rng   *rand.Rand
	// chosen is what choosing and isOwn read, published by every change under mu: they are asked with the
	// Player's lock held (a game's end), and a book move holds mu while it takes the Player's lock.
	chosen atomic.Pointer[bookChosen]
}

// bookChosen is the book the Player chooses from, as a preparation names it (see choosing).
type bookChosen struct {
	own   bool
	file  string
	depth int
}

// publishLocked publishes the book's state for choosing and isOwn (b.mu held).
func (b *bookPart) publishLocked() {
	c := &bookChosen{own: b.own, depth: b.depth}
	switch {
	case b.file == "" || b.file == DefaultBookFile:
		c.file = DefaultBookFile
	case b.book != nil:
		c.file = b.file
	default: // the file did not open: no book at all
		c.own = false
	}
	b.chosen.Store(c)
}

// bookOptions returns the book's options: OwnBook (off by default), BookFile (DefaultBookFile, the game's
// built-in repertoire, or a polyglot .bin file) and BookDepth (plies from the game's start, 0 for as deep as
// the book goes).
func (p *Engine) bookOptions() []play.Option {
	b := &p.book
	b.mu.Lock()
	own, file, depth := b.own, b.file, b.depth
	b.mu.Unlock()
	if file == "" {
		file = DefaultBookFile
	}
	return []play.Option{
		play.CheckOption("OwnBook", own, func(on bool) {
			b.mu.Lock()
			b.own = on
			b.publishLocked()
			b.mu.Unlock()
		}),
		{Name: "BookFile", Type: play.StringType, Default: file, Apply: b.setFile},
		play.SpinOption("BookDepth", depth, 0, maxBookDepth, func(n int) {
			b.mu.Lock()
			b.depth = n
			b.publishLocked()
			b.mu.Unlock()
		}),
	}
}

// setFile is the BookFile option: the file is opened and checked at once, so that a missing or corrupt file
// is reported when it is set; the engine then plays without a book file (the search plays every move) until
// another is set.
func (b *bookPart) setFile(path string) error {
	path = strings.TrimSpace(path)
	var opened *openingbook.Book
	var err error
	if path == "<empty>" { // how some GUIs send an empty string
		path = ""
	}
	if path != "" && path != DefaultBookFile {
		opened, err = openingbook.Open(path)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.book != nil {
		b.book.Close()
	}
	b.file, b.book = path, opened // after an error: a file named and none open, so no book at all
	b.publishLocked()
	if err != nil {
		return fmt.Errorf("%w; the engine plays without a book until another BookFile is set", err)
	}
	return nil
}

// isOwn reports whether OwnBook is on with a book to play from.
func (b *bookPart) isOwn() bool {
	c := b.chosen.Load()
	return c != nil && c.own
}

// close closes the book file.
func (b *bookPart) close() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.book != nil {
		b.book.Close()
		b.book = nil
		b.publishLocked()
	}
}

// bookMove returns the book's move in pos when OwnBook is on, the game is within BookDepth, the search is to
// play a move (not to analyse: neither infinite nor several lines, by the MultiPV option or by go, nor
// restricted moves) and the book has a move there; it reports it in an info string ("book: e2e4 (weight 120
// of 400 in book.bin)", with our record against the opponent when it chose by it).
func (p *Engine) bookMove(pos games.Position, ctl *engine.Control, report func(engine.Info)) (engine.Result, bool) {
	b := &p.book
	b.mu.Lock()
	defer b.mu.Unlock()
	lim := ctl.Limits()
	if !b.own || openingbook.PastDepth(pos, b.depth) || lim.Infinite || lim.MultiPV > 1 || len(lim.SearchMoves) > 0 ||
		p.Config().MultiPV > 1 {
		return engine.Result{}, false
	}
	book := b.book
	name := filepath.Base(b.file)
	if book == nil {
		if b.file != "" && b.file != DefaultBookFile {
			return engine.Result{}, false
		}
		var err error
		if book, err = openingbook.Default(p.Game().Name()); book == nil || err != nil {
			return engine.Result{}, false
		}
		name = "the " + p.Game().Name() + " repertoire"
	}
	moves, err := book.Moves(pos)
	if err != nil {
		if report != nil {
			report(engine.Info{Text: "error: " + err.Error()})
		}
		return engine.Result{}, false
	}
	if b.rng == nil {
		b.rng = rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))
	}
	chosen, ok := p.chooseBookMove(pos, moves, b.rng)
	if !ok {
		return engine.Result{}, false
	}
	if report != nil {
		total := 0
		for _, m := range moves {
			total += m.Weight
		}
		text := fmt.Sprintf("book: %s (weight %d of %d in %s)", pos.FormatMove(chosen.Move.Move), chosen.Weight, total, name)
		switch {
		case chosen.against == "":
		case chosen.New && chosen.Everyone.Games > 0:
			text += fmt.Sprintf("; a line new against %s (against the others: %d games, %.0f%%)", chosen.against,
				chosen.Everyone.Games, 100*chosen.Everyone.Points/float64(chosen.Everyone.Games))
		case chosen.New:
			text += fmt.Sprintf("; a line new against %s", chosen.against)
		default:
			text += fmt.Sprintf("; against %s: %d games, %.0f%%", chosen.against, chosen.Record.Games,
				100*chosen.Record.Points/float64(chosen.Record.Games))
		}
		report(engine.Info{Text: text})
	}
	return engine.Result{Move: chosen.Move.Move, PV: []games.Move{chosen.Move.Move}}, true
}

// bookChoice is the book move played, with the opponent it was chosen against ("" when by the book's weights).
type bookChoice struct {
	openingbook.Choice
	against string
}

// chooseBookMove chooses among the book's moves in pos: against an opponent whose games the game memory holds,
// by our results with each move against it (openingbook.ChooseAgainst: the lines that scored are played
// again, the others left for new ones drawn by the book's weights); otherwise, and in the even mode or at a
// limited strength, which play no better than their level, by the book's weights alone.
func (p *Engine) chooseBookMove(pos games.Position, moves []openingbook.Move, rng *rand.Rand) (bookChoice, bool) {
	p.mu.Lock()
	weak, _ := p.cfg.Weakens()
	game := p.game.Name()
	p.mu.Unlock()
	if !weak {
		if records, everyone, prior, opponent, ok := p.gameMemory.bookRecords(game, pos, moves); ok {
			choice, ok := openingbook.ChooseAgainst(moves, records, everyone, prior, rng)
			return bookChoice{Choice: choice, against: opponent}, ok
		}
	}
	m, ok := openingbook.Choose(moves, rng.Float64())
	return bookChoice{Choice: openingbook.Choice{Move: m, New: true}}, ok
}

// choosing returns the book the Player chooses its moves from, as a preparation names it ("" when OwnBook is
// off or the book file did not open; DefaultBookFile for the built-in repertoire), and BookDepth. It takes no
// lock (see bookPart.chosen).
func (b *bookPart) choosing() (string, int) {
	c := b.chosen.Load()
	if c == nil || !c.own {
		return "", 0
	}
	return c.file, c.depth
}

// openBook opens the book a preparation names (see choosing), nil for none, with what closes it. A book that no
// longer opens is said in the log, and the preparation goes on without the book.
func openBook(g games.Game, name string, log *zap.Logger) (*openingbook.Book, func()) {
	if name == "" {
		return nil, func() {}
	}
	b, closeBook, err := bookNamed(g, name)
	if err != nil {
		log.Warn("the preparation goes on without the book", zap.Error(err))
		return nil, func() {}
	}
	return b, closeBook
}

// bookNamed opens the book name names: DefaultBookFile the game's built-in repertoire (shared, it stays open),
// else a polyglot file opened for the caller alone; with what closes it.
func bookNamed(g games.Game, name string) (*openingbook.Book, func(), error) {
	if name == DefaultBookFile {
		b, err := openingbook.Default(g.Name())
		if err != nil {
			return nil, nil, err
		}
		if b == nil {
			return nil, nil, fmt.Errorf("%s has no built-in book", g.Name())
		}
		return b, func() {}, nil
	}
	b, err := openingbook.Open(name)
	if err != nil {
		return nil, nil, err
	}
	return b, func() { b.Close() }, nil
}

// steeredPositions returns what a preparation against the opponent key in g needs of our book at bookDepth:
// whether it has a move for us in a position (where we play it, and never search), and the positions where the
// lines we are likely to play next against the opponent leave it (openingbook.LikelyExits: our choice against it
// as the stored games say, and our lines against the others in mem as the game reads them, its replies as it
// played them), each with its chance over our sides and starts as often as the stored games had them.
func steeredPositions(key string, g games.Game, bookDepth int, stored []memory.Game, book *openingbook.Book,
	mem *memory.Memory, log *zap.Logger) (func(games.Position) bool, []prepare.Position) {
	inBook := func(p games.Position) bool { return book.Plays(p, bookDepth) }
	type start struct {
		fen  string
		side games.Side
	}
	starts, played := map[start]int{}, 0
	for _, sg := range stored {
		if sg.Game == g.Name() {
			starts[start{sg.StartFEN, games.Side(sg.OurSide)}]++
			played++
		}
	}
	r := newRecall(key, g, stored, nil, nil)
	r.readEveryone(mem, g, nil, log)                // as loadRecall reads them for the game
	rng := rand.New(rand.NewPCG(uint64(played), 1)) // the same games predict the same lines
	byFEN := map[string]*prepare.Position{}
	order := slices.SortedFunc(maps.Keys(starts), func(a, b start) int { // a fixed order: the draws repeat
		return cmp.Or(cmp.Compare(a.fen, b.fen), cmp.Compare(a.side, b.side))
	})
	for _, st := range order {
		n := starts[st]
		p, err := g.ParsePosition(st.fen)
		if err != nil {
			continue
		}
		exits, err := openingbook.LikelyExits(p, st.side, book, rng, openingbook.LikelyExitsOptions{Depth: bookDepth,
			Lines: r.lines, Everyone: r.everyone, Prior: r.prior(), Replies: r.replies})
		if err != nil {
			continue
		}
		for _, e := range exits {
			lp := byFEN[e.FEN]
			if lp == nil {
				lp = &prepare.Position{FEN: e.FEN, Ply: e.Ply}
				byFEN[e.FEN] = lp
			}
			lp.Chance += e.Chance * float64(n) / float64(played)
		}
	}
	likely := make([]prepare.Position, 0, len(byFEN))
	for _, lp := range byFEN {
		likely = append(likely, *lp)
	}
	return inBook, likely
}

// BookSteering returns what steers a preparation against a stored opponent in g by the book named (DefaultBookFile:
// the game's built-in repertoire; else a polyglot file) at bookDepth (0: as deep as the book goes), for
// prepare.OpponentOptions.Steer, as the preparation after a game steers by the book the Player plays from
// (`dossier memory prepare --book`), with what closes the book. A book that does not open is an error.
func BookSteering(g games.Game, name string, bookDepth int, mem *memory.Memory, log *zap.Logger) (
	func(key string, stored []memory.Game) (func(games.Position) bool, []prepare.Position), func(), error) {
	if bookDepth < 0 || bookDepth > maxBookDepth {
		return nil, nil, fmt.Errorf("the book depth %d is not within 0-%d", bookDepth, maxBookDepth)
	}
	book, closeBook, err := bookNamed(g, name)
	if err != nil {
		return nil, nil, err
	}
	steer := func(key string, stored []memory.Game) (func(games.Position) bool, []prepare.Position) {
		return steeredPositions(key, g, bookDepth, stored, book, mem, log)
	}
	return steer, closeBook, nil
}
