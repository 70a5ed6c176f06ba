// The Player's memory filer: opening the per-opponent memory when first needed, filing the game's life cycle
// as memory events in the background, and waiting for a move's commit only when the search is over.

package player

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"dossier/engine"
	"dossier/games"
	"dossier/memory"
	"dossier/play"

	"go.uber.org/zap"
)

// MemoryConfig says whether and where the Player keeps its dossier on each opponent.
type MemoryConfig struct {
	// Enabled turns the memory on.
	Enabled bool
	// Dir is the memory's location: a directory ("" is memory.DefaultDir()) or a postgres:// URL.
	Dir string
	// Logger receives the memory's messages; nil discards them.
	Logger *zap.Logger
}

// commitWait bounds how long a search's answer waits for the commit of the moves observed before it: the
// commit runs while the search does and is nearly always done first; a memory slower than this (one busy with
// the reading of 1,000 games for the next game, a PostgreSQL server far away) costs the move no more, and the
// event stays queued. A second here (until session 19) cost moves of 300 ms and more at 50 ms a move while
// the reading ran beside the game.
const commitWait = 10 * time.Millisecond

// closeWait bounds how long Close waits for the memory to acknowledge what it was sent.
const closeWait = 5 * time.Second

// filer is the memory's side of a Player, with its own lock: the Player calls it with its own lock held or
// not (the order is the Player's lock, then the filer's), and the learning worker files through it too.
type filer struct {
	// shared and sharedLog are the open memory (nil: none) and the logger, read without mu: by our searches
	// and by the background's threads, which file through recordBackground. A thread of the lowest priority
	// that holds mu runs again only when nothing else wants the core: on a core another engine keeps busy,
	// our searches waited up to 1.4 s for mu while one built an analysis's event under it (session 22).
	shared    atomic.Pointer[memory.Memory]
	sharedLog atomic.Pointer[zap.Logger]

	mu      sync.Mutex // guards everything below
	cfg     MemoryConfig
	log     *zap.Logger
	mem     *memory.Memory
	tried   bool   // whether opening was tried under cfg
	notice  string // a failure to tell the front end once, in the next search's info
	openErr error  // why the memory could not be opened
	// alerts are the memory's own notices (a database unreachable, back), told in the next search's info; a
	// channel, as the memory's writer sends them and must never wait for f.mu (Close holds it while the
	// writer stops).
	alerts chan string
	// restoreGC restores the garbage collector's percent that opening the memory raised (see memoryGCPercent).
	restoreGC func()
	// readPause is the memory's ReadPause (set once by the Player; nil: reads never pause).
	readPause func()

	pending []*memory.Pending // events not known to be committed yet

	gameID  string
	game    games.Game
	start   games.Position
	ourSide games.Side
	// reached is the game's position after the last move filed (the start before any), at ply reachedPly
	// from the start; nil when unknown. Our own moves are filed from it (see fileOurMoveLocked). trail holds
	// the position strings of the plies seen, "" where unknown, for a take-back to go back to.
	reached    games.Position
	reachedPly int
	trail      []string
	// prediction is our expected reply to our last move: the move we predicted for ply predictedPly and our
	// evaluation then.
	predicted    string
	predictedPly int
	eval         float64
}

// UseMemory turns the memory on or off or moves it; the memory opens when first needed (a new game, the
// opponent's name, a game's start). A memory the Player opened before is closed first.
func (p *Engine) UseMemory(cfg MemoryConfig) error { return p.filer.use(cfg) }

// memoryConfig returns the memory's configuration.
func (p *Engine) memoryConfig() MemoryConfig { return p.filer.config() }

// changeMemory changes the memory's configuration (the Memory and MemoryPath options); the memory reopens when
// next needed.
func (p *Engine) changeMemory(change func(*MemoryConfig)) {
	cfg := p.filer.config()
	change(&cfg)
	if err := p.filer.use(cfg); err != nil {
		p.filer.tell(fmt.Sprintf("error: closing the memory: %v", err))
	}
}

// Memory returns the memory the Player files into, or nil when it has none (off, or it failed to open).
func (p *Engine) Memory() *memory.Memory { return p.filer.memory() }

// OpenMemory opens the memory now if it is on and not open yet, and returns why it cannot be opened (nil when
// it is open or off); the Player plays on without it either way.
func (p *Engine) OpenMemory() error { return p.filer.open() }

// memoryNotice returns, once, what the front end should be told about the memory.
func (p *Engine) memoryNotice() string { return p.filer.takeNotice() }

// newFiler returns the filer of a memory configuration (a nil Logger discards the messages).
func newFiler(cfg MemoryConfig) *filer {
	f := &filer{}
	f.take(cfg)
	return f
}

// take forgets the memory's state and takes the configuration cfg (a nil Logger discards the messages).
// f.mu is held, or f is new.
func (f *filer) take(cfg MemoryConfig) {
	f.cfg, f.log = cfg, cfg.Logger
	if f.log == nil {
		f.log = zap.NewNop()
	}
	f.sharedLog.Store(f.log)
	f.tried, f.notice, f.openErr, f.pending = false, "", nil, nil
	f.gameID, f.game, f.start, f.predicted, f.reached = "", nil, nil, "", nil
}

// use closes the memory the filer opened and takes the configuration cfg; the memory opens when next needed.
func (f *filer) use(cfg MemoryConfig) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	err := f.closeLocked()
	f.take(cfg)
	return err
}

// config returns the memory's configuration.
func (f *filer) config() MemoryConfig {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.cfg
}

// memory returns the open memory, or nil. It takes no lock.
func (f *filer) memory() *memory.Memory { return f.shared.Load() }

// logger returns the memory's logger. It takes no lock.
func (f *filer) logger() *zap.Logger {
	if log := f.sharedLog.Load(); log != nil {
		return log
	}
	return zap.NewNop()
}

// setMemoryLocked makes m the open memory (nil: none). f.mu is held, or f is new.
func (f *filer) setMemoryLocked(m *memory.Memory) {
	f.mem = m
	f.shared.Store(m)
}

// open opens the memory if it is on and not open yet, and returns why it cannot be opened.
func (f *filer) open() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.ensureOpenLocked()
	if f.cfg.Enabled && f.mem == nil {
		return f.openErr
	}
	return nil
}

// tell keeps a notice for the next search's info.
func (f *filer) tell(notice string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.notice = notice
}

// takeNotice returns, once, what the front end should be told about the memory.
func (f *filer) takeNotice() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := f.notice
	f.notice = ""
	for more := true; more; {
		select {
		case a := <-f.alerts:
			n = strings.TrimPrefix(n+"; "+a, "; ")
		default:
			more = false
		}
	}
	return n
}

// ensureOpen opens the memory if it is on and was not tried yet (see ensureOpenLocked).
func (f *filer) ensureOpen() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.ensureOpenLocked()
}

// ensureOpenLocked opens the memory if it is on and was not tried yet; a failure is logged and told once, and
// the Player plays on without memory. A PostgreSQL server that cannot be reached is no failure here: the
// memory opens and spools until it answers (memory.Options.SpoolWhenUnreachable); one that refuses the
// connection is, and is not tried again until the memory's configuration changes. f.mu is held.
func (f *filer) ensureOpenLocked() {
	if !f.cfg.Enabled || f.tried {
		return
	}
	f.tried = true
	f.alerts = make(chan string, 16)
	alerts := f.alerts
	// A database that is down when the engine starts must not cost the games it plays meanwhile: they are
	// spooled and written once it answers, as they are when it goes away later.
	m, err := memory.Open(memory.Options{Dir: f.cfg.Dir, Logger: f.log, SpoolWhenUnreachable: true, ReadPause: f.readPause, Notify: func(msg string) {
		select {
		case alerts <- msg:
		default: // the front end has not heard the last ones yet; the log has them all
		}
	}})
	if err != nil {
		f.openErr = err
		f.log.Error("memory unavailable; playing without it", zap.Error(err))
		f.notice = fmt.Sprintf("error: %v; playing without memory", err)
		return
	}
	f.setMemoryLocked(m)
	f.restoreGC = collectLessOften()
	f.log.Info("memory open", zap.String("dir", m.Dir()), zap.Bool("owner", m.Owner()))
}

// openedFiler returns a filer of the memory mem, open already (a study's, a test's).
func openedFiler(mem *memory.Memory, log *zap.Logger) *filer {
	f := newFiler(MemoryConfig{Enabled: true, Logger: log})
	f.tried = true
	f.setMemoryLocked(mem)
	return f
}

// recordBackground queues an event of the background's work (an analysis, a preparation's finding, a learned
// move) without taking f.mu and without keeping its Pending: our searches never wait for it (see afterSearch);
// what waits for it flushes the memory. Without a memory open it is dropped.
func (f *filer) recordBackground(ev memory.Event) {
	if mem := f.memory(); mem != nil {
		mem.Record(ev)
	}
}

// record queues an event (see recordLocked).
func (f *filer) record(ev memory.Event) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.recordLocked(ev)
}

// recordLocked queues an event, keeping its Pending until it is known to be committed. f.mu is held.
func (f *filer) recordLocked(ev memory.Event) {
	if f.mem == nil {
		return
	}
	f.pending = append(f.pending, f.mem.Record(ev))
}

// sighting files the opponent as the front end named it.
func (f *filer) sighting(o play.Opponent) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.ensureOpenLocked()
	f.recordLocked(memory.Event{Sighting: &memory.Sighting{Opponent: o, At: time.Now()}})
}

// startGame files the start of a game and returns its identifier ("" without a memory).
func (f *filer) startGame(gs play.GameStart, o play.Opponent) string {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.ensureOpenLocked()
	f.game, f.start, f.ourSide = gs.Game, gs.Start.Clone(), gs.OurSide
	f.gameID, f.predicted = "", ""
	f.reached, f.reachedPly = gs.Start.Clone(), 0
	f.trail = append(f.trail[:0], f.reached.FEN())
	if f.mem == nil {
		return ""
	}
	f.gameID = memory.NewGameID()
	f.recordLocked(memory.Event{Start: &memory.GameStart{GameID: f.gameID, OpponentKey: o.Key(), Opponent: o,
		Game: gs.Game.Name(), Variant: gs.Variant, OurSide: int(gs.OurSide), TimeControl: gs.TimeControl,
		StartFEN: gs.Start.FEN(), At: time.Now()}})
	return f.gameID
}

// observe files one opponent move with what we predicted for it, and returns its record (nil: not filed).
func (f *filer) observe(om play.ObservedMove, obs Observation) *memory.MoveRecord {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.gameID == "" {
		return nil
	}
	rec := &memory.MoveRecord{GameID: f.gameID, Ply: om.Ply, ByOpponent: true, PositionKey: om.Before.Hash(),
		FEN: obs.FEN, Move: obs.Move, TimeMS: -1, Probability: -1, Eval: math.NaN(), At: time.Now()}
	if om.Elapsed >= 0 {
		rec.TimeMS = om.Elapsed.Milliseconds()
	}
	if f.predicted != "" && f.predictedPly == om.Ply {
		rec.Predicted, rec.Eval = f.predicted, f.eval
	}
	f.fileOurMoveLocked(om)
	f.recordLocked(memory.Event{Move: rec})
	f.reached, f.reachedPly = om.Before.Clone(), om.Ply+1
	f.reached.Play(om.Move)
	f.mark(om.Ply, om.Before.FEN())
	f.mark(om.Ply+1, f.reached.FEN())
	return rec
}

// mark keeps the position string of a ply in the trail. f.mu is held.
func (f *filer) mark(ply int, fen string) {
	if ply < 0 {
		return
	}
	for len(f.trail) <= ply {
		f.trail = append(f.trail, "")
	}
	f.trail[ply] = fen
}

// fileOurMoveLocked files our move that led to the opponent's move om, when it is the one move between the
// last position filed and om's: the move of that position whose result is om.Before. Without it a game's
// stored moves were the opponent's alone, every other ply, and a game that never reached its end (the
// engine killed, the GUI gone) could not be replayed: its stored move list, read from these records, had
// the opponent's moves one after another (issue #34, item 9). The move is found among the legal ones rather
// than taken from our search, so what is filed is what was played, whoever chose it. f.mu is held.
func (f *filer) fileOurMoveLocked(om play.ObservedMove) {
	from := f.reached
	if from == nil || om.Ply != f.reachedPly+1 || from.ToMove() != f.ourSide {
		return
	}
	played := moveBetween(from, om.Before)
	if played == games.NoMove {
		f.log.Warn("memory: our move before the opponent's is not one move from the last position filed; not filed",
			zap.Int("ply", f.reachedPly), zap.String("from", from.FEN()), zap.String("to", om.Before.FEN()))
		return
	}
	f.recordLocked(memory.Event{Move: &memory.MoveRecord{GameID: f.gameID, Ply: f.reachedPly, ByOpponent: false,
		PositionKey: from.Hash(), FEN: from.FEN(), Move: from.FormatMove(played), TimeMS: -1, Probability: -1,
		Eval: math.NaN(), At: time.Now()}})
}

// moveBetween returns the legal move of from that leads to to, NoMove when none does.
func moveBetween(from, to games.Position) games.Move {
	want, wantFEN := to.Hash(), to.FEN()
	p := from.Clone()
	for _, m := range p.AppendMoves(make([]games.Move, 0, games.MaxMoves)) {
		p.Play(m)
		same := p.Hash() == want && p.FEN() == wantFEN
		p.Undo()
		if same {
			return m
		}
	}
	return games.NoMove
}

// takeBack files a take-back to the game's first keep moves.
func (f *filer) takeBack(keep int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.gameID == "" {
		return
	}
	f.predicted = ""
	f.recordLocked(memory.Event{TakeBack: &memory.TakeBack{GameID: f.gameID, ToPly: keep}})
	f.rewindLocked(keep)
}

// rewindLocked takes the last position filed back to the game's first keep moves: the trail's position at
// that ply, read again (a take-back is rare; reading needs no history, which move generation does not use),
// or none when the trail does not have it (the next opponent move then sets it again, and our move before
// that one is not filed). f.mu is held.
func (f *filer) rewindLocked(keep int) {
	if keep >= f.reachedPly && f.reached != nil {
		return
	}
	f.reached = nil
	if keep < 0 || keep >= len(f.trail) {
		return
	}
	f.trail = f.trail[:keep+1]
	if f.trail[keep] == "" || f.game == nil {
		return
	}
	if p, err := f.game.ParsePosition(f.trail[keep]); err == nil {
		f.reached, f.reachedPly = p, keep
	}
}

// gameStart returns a copy of the current game's start position (nil: no game filed).
func (f *filer) gameStart() games.Position {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.gameID == "" || f.start == nil {
		return nil
	}
	return f.start.Clone()
}

// gameOver files the game's end with its moves and our score, and returns the game's ID ("": not filed).
func (f *filer) gameOver(end play.GameEnd) string {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.gameID == "" {
		return ""
	}
	final := f.start.Clone()
	moves := make([]string, 0, len(end.Moves))
	for _, m := range end.Moves {
		moves = append(moves, final.FormatMove(m))
		final.Play(m)
	}
	score := -1.0
	if end.Outcome.Result.Over() {
		score = end.Outcome.Result.PointsFor(f.ourSide)
	}
	f.recordLocked(memory.Event{End: &memory.GameEnd{GameID: f.gameID, Result: end.Outcome.Result.String(),
		Reason: end.Reason, OurScore: score, Moves: moves, FinalFEN: final.FEN(), At: time.Now()}})
	id := f.gameID
	f.gameID, f.predicted = "", ""
	return id
}

// afterSearch keeps the search's expected reply for the opponent's next move, then waits (briefly, see
// commitWait) for the events recorded before it, so that an observed move is committed before the bestmove
// that answers it.
func (f *filer) afterSearch(pos games.Position, res engine.Result, clock *onClock) {
	f.mu.Lock()
	clock.mark(partFilerLock)
	if f.gameID != "" && f.start != nil {
		reply := res.Ponder
		if reply == games.NoMove && len(res.PV) > 1 && res.PV[0] == res.Move {
			reply = res.PV[1]
		}
		f.predicted = ""
		if reply != games.NoMove && res.Move != games.NoMove {
			after := pos.Clone()
			after.Play(res.Move)
			f.predicted, f.predictedPly, f.eval = after.FormatMove(reply), pos.Ply()-f.start.Ply()+1, res.Score
		}
	}
	pending, log := f.pending, f.log
	f.pending = nil
	f.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), commitWait)
	defer cancel()
	defer clock.mark(partCommit)
	for _, pe := range pending {
		if err := pe.Wait(ctx); err != nil {
			if errors.Is(err, context.DeadlineExceeded) {
				log.Warn("memory commit still pending after the search; answering anyway", zap.Duration("waited", commitWait))
				return
			}
			log.Error("memory write failed", zap.Error(err))
		}
	}
}

// close waits for what was recorded and closes the memory.
func (f *filer) close() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.closeLocked()
}

// closeLocked is close with f.mu held.
func (f *filer) closeLocked() error {
	if f.mem == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), closeWait)
	defer cancel()
	flushErr := f.mem.Flush(ctx)
	closeErr := f.mem.Close()
	f.setMemoryLocked(nil)
	f.pending, f.tried = nil, false
	if f.restoreGC != nil {
		f.restoreGC()
		f.restoreGC = nil
	}
	return errors.Join(flushErr, closeErr)
}

// recordModel files a learned model's new state for an opponent key, after the game gameID ("" mid-game).
func (f *filer) recordModel(key, model string, state json.RawMessage, gameID string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.recordLocked(memory.Event{Model: &memory.ModelUpdate{OpponentKey: key, Model: model, State: state, GameID: gameID,
		At: time.Now()}})
}

// shownLocation is the memory's location as the MemoryPath option shows it: a PostgreSQL URL without its
// password.
func shownLocation(dir string) string { return memory.RedactURL(dir) }
