// The analysis of a finished game as a job in the memory's durable queue (memory.Job): filed when the game ends,
// taken by whichever process on the memory has idle time first (the one that played it, the engine of a later
// game under one process per game, or `dossier memory study`), done once, and given back at quit, so that learning
// that needs time after a game survives the process that played it.

package player

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"time"

	"dossier/bots/analysis"
	"dossier/bots/prepare"
	"dossier/games"
	"dossier/games/catalog"
	"dossier/memory"

	"go.uber.org/zap"
)

// The job kinds the Player files and takes: the analysis of a game (its quick pass) and the deep pass after it.
// They are kinds of their own so that filing the deep pass of a game is not taken for filing its quick pass again
// (the queue keeps one job per kind, game and opponent).
const (
	jobAnalysis     = "analysis"
	jobAnalysisDeep = "analysis-deep"
)

// analysisKinds are the kinds the analyst takes.
var analysisKinds = []string{jobAnalysis, jobAnalysisDeep}

// The lease of a job taken: renewed while the work goes on, so that a process killed in the middle gives its job
// back to the others within jobLease.
var (
	jobLease       = time.Minute
	jobRenewPeriod = 20 * time.Second
)

// jobDone is called with every job this process marked done (tests count them: every job done exactly once).
var jobDone func(job *memory.Job)

// moveAnalysed is called with every move an analysis job found, after its progress was saved (tests cut the
// analysis short there, as a process that quits does).
var moveAnalysed func(job *memory.Job, m analysis.Move)

// analysisOrderVersion is the form of analysisOrder this dossier writes; an order of another form is given up.
const analysisOrderVersion = 1

// analysisOrder is an analysis job's payload: everything the analysis of a game needs, in the memory's notation.
type analysisOrder struct {
	Version  int      `json:"version"`
	Game     string   `json:"game"`
	Preset   string   `json:"preset"`
	StartFEN string   `json:"start_fen"`
	Moves    []string `json:"moves"`
	OurSide  int      `json:"our_side"`
	Drawn    bool     `json:"drawn,omitempty"`
	Won      bool     `json:"won,omitempty"`
	Depth    int      `json:"depth"`
	Deep     bool     `json:"deep,omitempty"`
	From     int      `json:"from,omitempty"`
	// Done is the progress of the analysis: the moves analysed by the workers that held the job before and
	// were cut short (saved with memory.SaveJobProgress as each move is found).
	Done []analysis.Move `json:"done,omitempty"`
	// BudgetMS bounds the analysis's searches, PrepareMS the preparation after it (0: none); Nice is the
	// priority it runs at.
	BudgetMS  int64 `json:"budget_ms"`
	PrepareMS int64 `json:"prepare_ms,omitempty"`
	Nice      int   `json:"nice"`
	// Book and BookDepth are the book the preparation steers by (see lostGame.book; "": none).
	Book      string `json:"book,omitempty"`
	BookDepth int    `json:"book_depth,omitempty"`
}

// analysisJobOf returns the job of lg's analysis, its searches bounded by budget, filed at at.
func analysisJobOf(lg lostGame, budget time.Duration, at time.Time) *memory.Job {
	o := analysisOrder{Version: analysisOrderVersion, Game: lg.game.Name(), Preset: lg.preset, StartFEN: lg.start.FEN(),
		OurSide: int(lg.ourSide), Drawn: lg.drawn, Won: lg.won, Depth: lg.depth, Deep: lg.deep, From: lg.from,
		BudgetMS: budget.Milliseconds(), PrepareMS: lg.prepare.Milliseconds(), Nice: lg.nice, Book: lg.book,
		BookDepth: lg.bookDepth}
	p := lg.start.Clone()
	for _, m := range lg.moves {
		o.Moves = append(o.Moves, p.FormatMove(m))
		p.Play(m)
	}
	payload, _ := json.Marshal(o) // plain data: it always encodes
	kind := jobAnalysis
	if lg.deep {
		kind = jobAnalysisDeep
	}
	return &memory.Job{Kind: kind, OpponentKey: lg.key, Game: lg.game.Name(), GameID: lg.gameID,
		Priority: analysisPriority(analysisJob{lg: lg}.rank(), at), Payload: payload, Created: at}
}

// analysisPriority orders the jobs as the analyst always took the games: lost games first, then drawn ones, then
// won ones, every deep pass after every quick one (rank), and within a rank the latest game first, since the next
// game most likely repeats the latest one.
func analysisPriority(rank int, at time.Time) int {
	const rankSpan = 1 << 40 // more seconds than the Unix time will count for a long while
	return rank*rankSpan - int(at.Unix())
}

// lostGameOf reads a job's order back into the analysis it asks for.
func lostGameOf(job *memory.Job) (lostGame, time.Duration, error) {
	var o analysisOrder
	if err := json.Unmarshal(job.Payload, &o); err != nil {
		return lostGame{}, 0, fmt.Errorf("job %s: %w", job.ID, err)
	}
	if o.Version != analysisOrderVersion {
		return lostGame{}, 0, fmt.Errorf("job %s: an order of form %d (this dossier reads %d)", job.ID, o.Version, analysisOrderVersion)
	}
	g, err := catalog.Lookup(o.Game)
	if err != nil {
		return lostGame{}, 0, fmt.Errorf("job %s: %w", job.ID, err)
	}
	start, err := g.ParsePosition(o.StartFEN)
	if err != nil {
		return lostGame{}, 0, fmt.Errorf("job %s: the start position: %w", job.ID, err)
	}
	lg := lostGame{game: g, preset: o.Preset, start: start, ourSide: games.Side(o.OurSide), key: job.OpponentKey,
		gameID: job.GameID, drawn: o.Drawn, won: o.Won, depth: o.Depth, deep: o.Deep, from: o.From,
		prepare: time.Duration(o.PrepareMS) * time.Millisecond, nice: o.Nice, done: o.Done, book: o.Book,
		bookDepth: o.BookDepth}
	p := start.Clone()
	for i, text := range o.Moves {
		m, err := p.ParseMove(text)
		if err != nil || !games.IsLegal(p, m) {
			return lostGame{}, 0, fmt.Errorf("job %s: move %d %q does not play", job.ID, i+1, text)
		}
		lg.moves = append(lg.moves, m)
		p.Play(m)
	}
	return lg, time.Duration(o.BudgetMS) * time.Millisecond, nil
}

// workerName names this process as a job worker: unique to it, and telling an operator which it is.
func workerName() string {
	host, _ := os.Hostname()
	return fmt.Sprintf("%s:%d:%s", host, os.Getpid(), memory.NewJobID())
}

// jobRun is one claimed job being worked on: its lease is renewed until end, and end hands it back or marks
// it done.
type jobRun struct {
	mem    *memory.Memory
	job    *memory.Job
	worker string
	stop   chan struct{}
	lost   chan struct{} // closed when the lease could not be renewed: another process may have the job now
}

// holdJob starts renewing job's lease in the background.
func holdJob(mem *memory.Memory, job *memory.Job, worker string) *jobRun {
	r := &jobRun{mem: mem, job: job, worker: worker, stop: make(chan struct{}), lost: make(chan struct{})}
	go func() {
		t := time.NewTicker(jobRenewPeriod)
		defer t.Stop()
		for {
			select {
			case <-r.stop:
				return
			case <-t.C:
				ctx, cancel := context.WithTimeout(context.Background(), jobRenewPeriod)
				err := mem.RenewJob(ctx, job.ID, worker, jobLease)
				cancel()
				if err != nil {
					close(r.lost)
					return
				}
			}
		}
	}()
	return r
}

// end stops renewing and marks the job done (finished) or hands it back for another worker (released).
func (r *jobRun) end(finished bool) error {
	close(r.stop)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if finished {
		return r.mem.FinishJob(ctx, r.job.ID, r.worker)
	}
	return r.mem.ReleaseJob(ctx, r.job.ID, r.worker)
}

// runAnalysisJob does one claimed analysis job: the quick pass files its deep pass as a job first (when the game
// asks for one), the analysis runs through the gate gateFor makes for its budget, then the preparation when the
// order asks for it. It returns whether the job is done (false: ctx ended first, and the job is given back).
// prepared receives each finding of the preparation (nil: none).
func runAnalysisJob(ctx context.Context, f *filer, fg *foreground, job *memory.Job, worker string,
	prepared func(key string, g games.Game, fd prepare.Finding)) (bool, error) {
	mem := f.memory()
	run := holdJob(mem, job, worker)
	lg, budget, err := lostGameOf(job)
	if err != nil {
		// An order that does not read is never done by anyone: it is finished here, with the error said.
		return true, firstError(err, run.end(true))
	}
	setThreadPriority(lg.nice)
	stopCounting := countBackgroundCPU()
	defer stopCounting()
	if quick, deep, ok := (analysisJob{lg: lg}).quickPass(); ok {
		deep.lg.done = nil // the deep pass's progress is its own
		if err := f.recordAndWait(ctx, memory.Event{Job: analysisJobOf(deep.lg, budget, job.Created)}); err != nil {
			return false, firstError(err, run.end(false))
		}
		lg = quick.lg
	}
	lg.found = saveProgress(f, job, worker)
	if prepared != nil {
		key, g := lg.key, lg.game
		lg.prepared = func(fd prepare.Finding) { prepared(key, g, fd) }
	}
	work, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		select {
		case <-run.lost: // another process may hold the job now: leave it to that one
			cancel()
		case <-work.Done():
		}
	}()
	actx, end := context.WithTimeout(work, analysisWait)
	analyse(actx, lg, f, &budgetGate{fg: fg, budget: budget, end: end})
	end()
	if lg.prepare > 0 && !lg.deep && work.Err() == nil {
		pctx, pcancel := context.WithTimeout(work, analysisWait)
		prepareAfterGame(pctx, lg, f, &budgetGate{fg: fg, budget: lg.prepare, end: pcancel})
		pcancel()
	}
	if work.Err() != nil {
		return false, run.end(false)
	}
	// What the analysis filed is acknowledged before the job is marked done: a kill between the two leaves the
	// job to be done again, never done and lost.
	if err := f.flush(ctx); err != nil {
		return false, firstError(err, run.end(false))
	}
	if err := run.end(true); err != nil {
		return false, err
	}
	if jobDone != nil {
		jobDone(job)
	}
	return true, nil
}

// saveProgress returns what keeps the progress of job's analysis in the memory as each move is found: the job's
// order with the moves found so far, so that the worker that takes the job after this one (this process quits
// at its game's end under one process per game) goes on from there. Without it an analysis longer than a game's
// idle time began again in every process and never ended (session 21: against Stockfish at UCI_Elo 1900 on
// 2+0.05 under restart=on, 80 games left 104 jobs and no analysis done). A progress not saved (an owner from
// before progress_job, a server away) only costs the work again.
func saveProgress(f *filer, job *memory.Job, worker string) func(analysis.Move) {
	var o analysisOrder
	if err := json.Unmarshal(job.Payload, &o); err != nil {
		return nil
	}
	return func(m analysis.Move) {
		mem := f.memory()
		if mem == nil {
			return
		}
		o.Done = append(o.Done, m)
		payload, err := json.Marshal(o)
		if err != nil {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := mem.SaveJobProgress(ctx, job.ID, worker, payload); err != nil {
			f.logger().Debug("analysis progress not saved", zap.String("job", job.ID), zap.Error(err))
		}
		if moveAnalysed != nil {
			moveAnalysed(job, m)
		}
	}
}

// firstError returns the first error that is not nil.
func firstError(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// recordAndWait files ev and waits until the memory acknowledged it.
func (f *filer) recordAndWait(ctx context.Context, ev memory.Event) error {
	mem := f.memory()
	if mem == nil {
		return errNoMemory
	}
	return mem.Record(ev).Wait(ctx)
}

// flush waits until everything this process filed was acknowledged.
func (f *filer) flush(ctx context.Context) error {
	mem := f.memory()
	if mem == nil {
		return errNoMemory
	}
	return mem.Flush(ctx)
}

// errNoMemory says the work needs a memory and the Player has none open.
var errNoMemory = errors.New("no memory open")
