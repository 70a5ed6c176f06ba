// The Player's analyst: after every finished game, off the clock, it searches our moves again, first quickly
// and then deeper (bots/analysis), niced and within a time budget, only between our own searches (gate.go), and
// files what each pass blamed (in a lost game, or a drawn one we stood better in; a won game is only re-checked)
// and every value it learned in the memory, as one event a pass (a mistake record and experience entries).

package player

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"dossier/bots/analysis"
	"dossier/bots/prepare"
	"dossier/bots/presets"
	"dossier/bots/searchers"
	"dossier/engine"
	"dossier/games"
	"dossier/memory"
	"dossier/play"

	"go.uber.org/zap"
)

// Bounds of an analysis: the depth it searches each of our moves to, the time its searches may take in all, and
// how long it may wait for them, between our own searches, before it is given up.
const (
	// analysisDepth is the least depth, and the depth of the quick pass; a game whose searches went deeper is
	// analysed again analysisDeeper plies deeper than their median, at most maxAnalysisDepth.
	analysisDepth    = 8
	analysisDeeper   = 2
	maxAnalysisDepth = 20
	analysisBudget   = 30 * time.Second
	analysisWait     = 30 * time.Minute
	// lostWindow is how many of our moves before the game's own searches saw a lost game lost for good its
	// analysis begins at: the budget goes where the mistake most likely is.
	lostWindow = 8
	// maxQueued is how many finished games may wait for their analysis; beyond it one is dropped (see last).
	maxQueued = 4
	// standBetterUnits is the lead, in the game's units (pawns, men), from which a drawn game counts as one
	// we stood better in: only then is a move of a drawn game blamed.
	standBetterUnits = 1.5
)

// analyst does the analysis jobs of the memory (jobs.go): those of the games this Player finishes, and those
// other processes left (an engine that played one game and quit, as under lichess-bot), one at a time, the best
// first (lost games, the latest first), on one thread of the lowest priority and only while the Player is not
// searching (fg): in an arena the next game starts at once, so the analysis and the preparation go on during the
// opponent's turns. A new game's start ends neither; Close gives the job in progress back to the queue.
type analyst struct {
	mu     sync.Mutex
	fg     atomic.Pointer[foreground] // taken without mu: our searches never wait for a lock the worker holds
	worker string                     // this process's name as a job worker (made at first use)
	cancel context.CancelFunc         // of the worker, nil when none runs
	done   chan struct{}              // closed when the worker has ended
	again  bool                       // a job was filed while the worker ran: look again before ending
	// prepared hands each finding of a preparation to the Player (nil: nobody), so that the game in progress
	// plays it where it comes.
	prepared func(key string, g games.Game, fd prepare.Finding)
}

// analysisJob is one finished game to analyse (its budget travels in the memory's job: analysisJobOf).
type analysisJob struct {
	lg lostGame
}

// quickPass returns the job of the quick pass over j's game at analysisDepth, and the deep pass that follows
// it, when j's depth is deeper than that (else j alone, and false). Only between our own searches, on a busy
// machine, does the niced analysis get a few milliseconds at a time: a search deeper than the game's own
// (0.35 s at 16 plies in checkers) is cut short and begun again until its budget is spent, and in 40 games
// at 2+0.05 against the checkers preset at 14 plies the analyses filed 6 entries and no mistake for 10 lost
// games, where the analyses at 8 plies of session 10 had filed 1,796 and 3 for 4 (docs/log/experiments.md). The
// quick pass files what fits between our searches; the deep one, queued behind every quick pass waiting,
// files deeper values over it where the machine leaves it time (the deeper entry is the one kept).
func (j analysisJob) quickPass() (quick analysisJob, deep analysisJob, ok bool) {
	if j.lg.deep || j.lg.depth <= analysisDepth {
		return j, analysisJob{}, false
	}
	quick, deep = j, j
	quick.lg.depth = analysisDepth
	deep.lg.deep = true
	return quick, deep, true
}

// lostGame is what an analysis needs of a finished game.
type lostGame struct {
	game    games.Game
	preset  string
	start   games.Position
	moves   []games.Move
	ourSide games.Side
	key     string // the opponent key the findings are filed under
	gameID  string
	drawn   bool // a draw: a move is blamed only where we stood better
	won     bool // a win: its moves are re-checked, none is blamed
	depth   int  // the depth each move is searched to
	deep    bool // the deep pass, after the quick one (see analysisJob.quickPass)
	from    int  // the ply from which our moves are analysed (see memoryUse.lostFrom)
	// done are the moves an earlier run of this analysis found before it was cut short (a process that quit);
	// found receives each move this run finds (nil: nobody), to be saved as the job's progress.
	done  []analysis.Move
	found func(analysis.Move)
	// prepare is the time of the preparation for the next game after the analysis (0: none); nice the
	// niceness of the thread both run on.
	prepare time.Duration
	nice    int
	// book is the book the Player plays from against the opponent ("": none; DefaultBookFile: the game's
	// built-in repertoire; else a book file), bookDepth its BookDepth: the preparation searches where the lines
	// we are likely to play leave it, and not where it plays (steeredPositions).
	book      string
	bookDepth int
	// prepared hands each finding of the preparation to the Player as it is made (nil: none), so that the
	// game in progress plays it where it comes.
	prepared func(prepare.Finding)
}

// foreground returns the gate our searches hold (made at first use). It takes no lock: the worker holds mu on a
// thread of the lowest priority, which may not run again for a long while once a search of ours begins.
func (a *analyst) foreground() *foreground {
	if fg := a.fg.Load(); fg != nil {
		return fg
	}
	a.fg.CompareAndSwap(nil, newForeground())
	return a.fg.Load()
}

// start files lg's analysis as a job, its searches bounded by budget, and starts the worker when none runs. After
// the analysis, when lg asks for it, the worker prepares for the next game against the opponent within lg.prepare
// of search time (see prepareAfterGame).
func (a *analyst) start(lg lostGame, f *filer, budget time.Duration) {
	// Filed without waiting (the Player's lock is held): the memory takes events and operations in order, so the
	// worker's claim sees the job.
	f.record(memory.Event{Job: analysisJobOf(lg, budget, time.Now())})
	a.kick(f)
}

// kick starts the worker when none runs (else has it look for jobs again before it ends): at a game's end, and
// when the memory opens, for the jobs other processes left.
func (a *analyst) kick(f *filer) {
	if f.memory() == nil {
		return
	}
	fg := a.foreground()
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.done != nil {
		a.again = true
		return
	}
	if a.worker == "" {
		a.worker = workerName()
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	a.cancel, a.done, a.again = cancel, done, false
	go a.work(ctx, f, fg, done)
}

// work does the memory's analysis jobs until none is left or ctx ends.
func (a *analyst) work(ctx context.Context, f *filer, fg *foreground, done chan struct{}) {
	defer close(done)
	reserveBackgroundP(0)
	runtime.LockOSThread() // the priority of each job is this thread's alone; the thread ends with the goroutine
	defer unmarkBackgroundThread()
	nameThread("dossier-analyse")
	log := f.logger()
	for ctx.Err() == nil {
		job, err := a.claim(ctx, f)
		if err != nil {
			log.Warn("cannot take an analysis job", zap.Error(err))
		}
		if job == nil {
			a.mu.Lock()
			if a.again && err == nil {
				a.again = false
				a.mu.Unlock()
				continue
			}
			a.cancel()
			a.cancel, a.done = nil, nil
			a.mu.Unlock()
			return
		}
		if _, err := runAnalysisJob(ctx, f, fg, job, a.worker, a.preparedSink()); err != nil {
			log.Warn("analysis job", zap.String("job", job.ID), zap.String("game", job.GameID), zap.Error(err))
		}
		collectBetweenSearches(ctx, fg)
	}
	a.mu.Lock()
	a.cancel, a.done = nil, nil
	a.mu.Unlock()
}

// claim takes the best analysis job waiting (nil: none), between our searches.
func (a *analyst) claim(ctx context.Context, f *filer) (*memory.Job, error) {
	mem := f.memory()
	if mem == nil {
		return nil, nil
	}
	_, leave := a.foreground().enter(ctx) // between our searches
	leave()
	if ctx.Err() != nil {
		return nil, nil
	}
	// The claim itself is not cut short: a claim cancelled after it was sent may still be made, and its job would
	// then wait for its lease to end. One made as the Player ends is given back at once.
	cctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	job, err := mem.ClaimJob(cctx, a.worker, jobLease, analysisKinds...)
	if job != nil && ctx.Err() != nil {
		return nil, mem.ReleaseJob(cctx, job.ID, a.worker)
	}
	return job, err
}

// preparedSink returns where the preparation's findings go.
func (a *analyst) preparedSink() func(string, games.Game, prepare.Finding) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.prepared
}

// rank orders the jobs: lost games first, then drawn ones, then won ones (only re-checked); every deep pass after
// every quick one.
func (j analysisJob) rank() int {
	r := 0
	switch {
	case j.lg.won:
		r = 2
	case j.lg.drawn:
		r = 1
	}
	if j.lg.deep {
		r += 3
	}
	return r
}

// stop ends the analysis and the preparation running, giving the job back to the queue, and waits for the worker.
func (a *analyst) stop() {
	a.mu.Lock()
	cancel, done := a.cancel, a.done
	a.mu.Unlock()
	if cancel != nil {
		cancel()
		<-done
	}
}

// wait waits until the worker has no job left (for tests).
func (a *analyst) wait() {
	for {
		a.mu.Lock()
		done := a.done
		a.mu.Unlock()
		if done == nil {
			return
		}
		<-done
	}
}

// analyse runs the analysis of lg and files it whole, in one event: the move blamed (if any) and the deep value
// of every move analysed as experience.
func analyse(ctx context.Context, lg lostGame, f *filer, gate analysis.Gate) {
	log := f.logger()
	depth := lg.depth
	if depth <= 0 {
		depth = analysisDepth
	}
	// The depth replaces the preset's own (mat-tot25's 4 plies), so that the analysis is as deep as asked.
	s, err := searchers.New(lg.game, searchers.Config{Preset: lg.preset, HashMB: 16, Threads: 1, Depth: depth})
	if err != nil {
		log.Warn("no analysis of the game", zap.Error(err))
		return
	}
	rules := presets.Strength(lg.game)
	rep, err := analysis.Find(ctx, s, lg.start, lg.moves, lg.ourSide, analysis.Options{Depth: depth,
		Threshold: rules.Mistake, Losing: rules.Lost, Gate: gate, StopAtLoss: !lg.won && !lg.drawn, FromPly: lg.from,
		Done: lg.done, Found: lg.found})
	if err != nil {
		log.Warn("no analysis of the game", zap.Error(err))
		return
	}
	if lg.won || lg.drawn && !stoodBetter(rep, standBetterUnits*rules.Unit) {
		rep.Mistake = -1
	}
	a := analysisEvent(lg, rep, rules.Mistake, log)
	if len(a.Experience) == 0 && a.Mistake == nil {
		return
	}
	f.recordBackground(memory.Event{Analysis: a})
	if m, ok := rep.Blamed(); ok {
		log.Info("the game's mistake", zap.String("move", m.Played), zap.Int("ply", m.Ply),
			zap.Float64("value", m.Value), zap.String("better", m.Best), zap.Float64("better_value", m.BestValue),
			zap.Int("depth", m.Depth))
	}
}

// prepareAfterGame searches the opponent's repertoire (bots/prepare) within ctx, on the analyst's niced thread and
// through gate (between our own searches, its budget counting only the time it searched), and files every
// finding as it is made (each is a finished search), handing it to the Player too: in an arena the next game
// has begun, and the finding may come up in it.
func prepareAfterGame(ctx context.Context, lg lostGame, f *filer, gate *budgetGate) {
	mem, log := f.memory(), f.logger()
	if mem == nil {
		return
	}
	// The game that just ended is among the opponent's games once the memory has filed its end.
	if err := mem.Flush(ctx); err != nil {
		return
	}
	stored, err := mem.GamesBrief(lg.key)
	if err != nil {
		log.Debug("no preparation: the games do not read", zap.Error(err))
		return
	}
	// The run's own budget ends a little before the gate's does, so that its last search finishes rather than
	// being cut off (an interrupted search is no finding).
	began := time.Now()
	opts := prepare.OpponentOptions{Options: prepare.Options{Budget: lg.prepare * 9 / 10, Gate: gate}, HashMB: 16,
		Preset: lg.preset}
	if book, closeBook := openBook(lg.game, lg.book, log); book != nil {
		defer closeBook()
		opts.InBook, opts.Likely = steeredPositions(lg.key, lg.game, lg.bookDepth, stored, book, mem, log)
	}
	repertoire, found, err := prepare.Games(ctx, lg.game, stored, opts, nil,
		func(fd prepare.Finding) error {
			f.recordBackground(memory.Event{Analysis: prepare.Event(lg.key, lg.game, []prepare.Finding{fd}, time.Now())})
			if lg.prepared != nil {
				lg.prepared(fd)
			}
			return nil
		})
	if err != nil && len(found) == 0 && ctx.Err() == nil {
		log.Warn("no preparation", zap.Error(err))
	}
	if len(found) == 0 {
		return
	}
	log.Info("prepared for the next game", zap.Int("positions", len(found)), zap.Int("repertoire", repertoire),
		zap.Float64("searched_s", gate.spentTime().Seconds()), zap.Float64("took_s", time.Since(began).Seconds()))
}

// stoodBetter reports whether the deep value of some position of ours in the game reached lead.
func stoodBetter(rep analysis.Report, lead float64) bool {
	for _, m := range rep.Moves {
		if m.BestValue >= lead {
			return true
		}
	}
	return false
}

// analysisEvent turns a report into the memory's analysis: the move blamed, and the deep values learned. For
// every move analysed, the position before it with its best move, at least its deep value for us; for every move
// that fell by more than the threshold (the one blamed among them), the position after it at our move's deep
// value, exactly, for the opponent to move.
//
// The positions before our moves are filed as lower bounds although the search was exact: exact values of the
// lost line's positions, beside the shallow values of every other move, made the next game leave the line 22 to
// 36 plies before the mistake, wherever a shallow value of another move happened to be higher than the line's
// deep one (checkers, depth 2 against depth 5 and 6). As lower bounds they never make the line look worse than
// the search finds it. The positions after our bad moves stay exact: as lower bounds they never settle the root's
// first move, which has no alpha to fail against, and the mistake was played again. So the line is kept up to the
// mistake and left there (TestLostGameIsLeftWhereTheAnalysisFoundTheMistake).
func analysisEvent(lg lostGame, rep analysis.Report, threshold float64, log *zap.Logger) *memory.Analysis {
	a := &memory.Analysis{OpponentKey: lg.key, GameID: lg.gameID, Game: lg.game.Name()}
	for i, m := range rep.Moves {
		before, err := lg.game.ParsePosition(m.Before)
		if err != nil {
			log.Warn("an analysed position does not read; its experience is not filed", zap.String("fen", m.Before),
				zap.Error(err))
			continue
		}
		if i == rep.Mistake {
			a.Mistake = &memory.Mistake{Ply: m.Ply, FEN: m.Before, Move: m.Played, Value: m.Value, Best: m.Best,
				BestValue: m.BestValue, Depth: m.Depth}
		}
		a.Experience = append(a.Experience, memory.Experience{FEN: m.Before, Hash: before.Hash(), Move: m.Best,
			Value: m.BestValue, Depth: m.Depth, Bound: memory.BoundLower})
		if (i != rep.Mistake && m.Drop() <= threshold) || m.Played == m.Best || m.Depth < 2 {
			continue
		}
		played, err := before.ParseMove(m.Played)
		if err != nil {
			continue
		}
		before.Play(played)
		a.Experience = append(a.Experience, memory.Experience{FEN: before.FEN(), Hash: before.Hash(),
			Value: oneMoveOn(-m.Value), Depth: m.Depth - 1, Bound: memory.BoundExact})
	}
	return a
}

// oneMoveOn returns a value of the position one move later (negated by the caller): a mate counted in plies
// from the earlier position is one ply nearer.
func oneMoveOn(v float64) float64 {
	switch {
	case v >= engine.MateBound:
		return v + 1
	case v <= -engine.MateBound:
		return v - 1
	}
	return v
}

// deeperThan returns the depth of the analysis of a game whose searches reached gameDepth (the median):
// analysisDeeper plies more, at least analysisDepth and at most maxAnalysisDepth. At a fast clock the game's own
// searches can go deeper than a fixed depth would, and an analysis no deeper than the game learns nothing the
// game did not know, and files experience too shallow to settle the positions it was about.
func deeperThan(gameDepth int) int {
	return max(analysisDepth, min(gameDepth+analysisDeeper, maxAnalysisDepth))
}

// analyseAfterGame starts the analysis of the game that just ended when its result is known (p.mu held; the
// analysis itself runs in the background).
func (p *Engine) analyseAfterGame(end play.GameEnd, score float64, start games.Position, gameID string) {
	if score < 0 || start == nil || gameID == "" || p.filer.memory() == nil || p.analysisOff {
		return
	}
	our, err := learnedPreset(p.game, p.cfg)
	if err != nil {
		return
	}
	lg := lostGame{game: p.game, preset: our.Name, start: start, moves: append([]games.Move(nil), end.Moves...),
		ourSide: p.current.OurSide, key: p.learnerKey(), gameID: gameID, drawn: score == 0.5, won: score == 1,
		depth: p.analysisDepth, prepare: p.background.prepare, nice: p.background.nice}
	if weak, _ := p.cfg.Weakens(); !weak {
		lg.book, lg.bookDepth = p.book.choosing()
	}
	if lg.depth == 0 {
		lg.depth = deeperThan(p.use.depth())
	}
	if score == 0 {
		lg.from = p.use.lostFrom(presets.Strength(p.game).Lost, lostWindow)
	}
	p.analyst.start(lg, p.filer, analysisBudget)
}
