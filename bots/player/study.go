// Study: the memory's analysis jobs done by a process of their own, `dossier memory study`, which an operator runs
// beside an engine that plays one process per game (lichess-bot) or between matches: every job is done once,
// whichever process takes it, and the learners are folded over the games of the opponents it studied.

package player

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"time"

	"dossier/games/catalog"
	"dossier/memory"

	"go.uber.org/zap"
)

// StudyOptions are how long and how a study runs.
type StudyOptions struct {
	// Follow keeps the study waiting for new jobs when the queue is empty, looking again every Poll (2 s when
	// 0), until the context ends or Time has passed.
	Follow bool
	Poll   time.Duration
	// Time bounds the study (0: none); the job in progress is given back when it ends.
	Time time.Duration
	// Nice is the priority of the study's thread (19: SCHED_IDLE, only the CPU nothing else wants).
	Nice int
	// Progress receives a line per job begun and ended (nil: none); Logger the memory's messages.
	Progress io.Writer
	Logger   *zap.Logger
}

// StudyReport says what a study did.
type StudyReport struct {
	Done      int      `json:"done"`       // jobs done
	GivenBack int      `json:"given_back"` // jobs handed back unfinished (the time was up, or an interrupt)
	Failed    int      `json:"failed"`     // jobs that failed and were given back for another try
	Folded    []string `json:"folded"`     // the opponents whose learners were folded over their games
}

// Study does the memory's analysis jobs one at a time, the best first, then folds the learners of the opponents
// whose jobs it did; with Follow it goes on as new jobs come. It ends when the context ends, Time has passed, or
// (without Follow) no job is left.
func Study(ctx context.Context, mem *memory.Memory, o StudyOptions) (StudyReport, error) {
	if o.Time > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, o.Time)
		defer cancel()
	}
	if o.Poll <= 0 {
		o.Poll = 2 * time.Second
	}
	log := o.Logger
	if log == nil {
		log = zap.NewNop()
	}
	say := func(format string, args ...any) {
		if o.Progress != nil {
			fmt.Fprintf(o.Progress, "study: "+format+"\n", args...)
		}
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	setStudyPriority(o.Nice)
	defer unmarkBackgroundThread()
	f := openedFiler(mem, log)
	fg := newForeground() // never held: nothing here searches on a clock
	worker := workerName()
	var rep StudyReport
	touched := map[string]map[string]bool{} // opponent key -> games
	for ctx.Err() == nil {
		job, err := mem.ClaimJob(ctx, worker, jobLease, analysisKinds...)
		if err != nil {
			if ctx.Err() != nil {
				break
			}
			return rep, err
		}
		if job == nil {
			rep.Folded = append(rep.Folded, foldTouched(mem, touched, say, log)...)
			if !o.Follow {
				break
			}
			select {
			case <-ctx.Done():
			case <-time.After(o.Poll):
			}
			continue
		}
		say("%s of game %s against %s (%s, filed %s)", job.Kind, job.GameID, job.OpponentKey, job.Game,
			job.Created.Local().Format("2006-01-02 15:04:05"))
		began := time.Now()
		done, err := runAnalysisJob(ctx, f, fg, job, worker, nil)
		switch {
		case err != nil:
			rep.Failed++
			say("  failed after %v: %v", time.Since(began).Round(time.Millisecond), err)
		case done:
			rep.Done++
			say("  done in %v", time.Since(began).Round(time.Millisecond))
			if touched[job.OpponentKey] == nil {
				touched[job.OpponentKey] = map[string]bool{}
			}
			touched[job.OpponentKey][job.Game] = true
		default:
			rep.GivenBack++
			say("  given back after %v", time.Since(began).Round(time.Millisecond))
		}
	}
	// The fold takes seconds, not the job's minutes: it runs even when the time is up.
	rep.Folded = append(rep.Folded, foldTouched(mem, touched, say, log)...)
	return rep, nil
}

// foldTouched folds the learners of every opponent and game studied (and forgets them), saying so.
func foldTouched(mem *memory.Memory, touched map[string]map[string]bool, say func(string, ...any), log *zap.Logger) []string {
	var folded []string
	for key, gamesOf := range touched {
		for name := range gamesOf {
			g, err := catalog.Lookup(name)
			if err != nil {
				continue
			}
			began := time.Now()
			if err := FoldLearners(mem, key, g); err != nil {
				log.Warn("cannot fold the learners", zap.String("opponent", key), zap.Error(err))
				continue
			}
			say("learners of %s in %s folded over its games in %v", key, name, time.Since(began).Round(time.Millisecond))
			folded = append(folded, key)
		}
		delete(touched, key)
	}
	return folded
}
