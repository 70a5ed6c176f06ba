// The Player's analyst: after a lost game, off the clock, it searches our moves again deeper (bots/analysis),
// niced and within a time budget, abandoned when a new game starts, and files what it blamed in the memory.
package player

import (
	"context"
	"encoding/json"
	"runtime"
	"sync"
	"syscall"
	"time"

	"dossier/bots/analysis"
	"dossier/bots/presets"
	"dossier/bots/searchers"
	"dossier/games"
	"dossier/play"

	"go.uber.org/zap"
)

// Bounds of an analysis: how much deeper than the game it searches each of our moves, and how long it may
// take in all; the niceness its thread runs at.
const (
	analysisDepth  = 8
	analysisBudget = 30 * time.Second
	analysisNice   = 19
)

// analyst runs one analysis at a time, with its own lock; a new game, or Close, cancels the one running.
type analyst struct {
	mu     sync.Mutex
	cancel context.CancelFunc // of the analysis running, nil when none
	done   chan struct{}      // closed when it has ended
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
}

// start cancels the analysis running, if any, and analyses lg in the background, filing what it blames
// through f; budget bounds it.
func (a *analyst) start(lg lostGame, f *filer, budget time.Duration) {
	a.stop()
	ctx, cancel := context.WithTimeout(context.Background(), budget)
	done := make(chan struct{})
	a.mu.Lock()
	a.cancel, a.done = cancel, done
	a.mu.Unlock()
	go func() {
		defer close(done)
		defer cancel()
		runtime.LockOSThread() // the niceness below is this thread's alone; the thread ends with the goroutine
		_ = syscall.Setpriority(syscall.PRIO_PROCESS, syscall.Gettid(), analysisNice)
		analyse(ctx, lg, f)
	}()
}

// stop cancels the analysis running and waits for it to end.
func (a *analyst) stop() {
	a.mu.Lock()
	cancel, done := a.cancel, a.done
	a.cancel, a.done = nil, nil
	a.mu.Unlock()
	if cancel != nil {
		cancel()
		<-done
	}
}

// wait waits for the analysis running, if any, to end by itself (for tests).
func (a *analyst) wait() {
	a.mu.Lock()
	done := a.done
	a.mu.Unlock()
	if done != nil {
		<-done
	}
}

// analyse runs the analysis of lg and files it: the move blamed (if any) and every move analysed.
func analyse(ctx context.Context, lg lostGame, f *filer) {
	log := f.logger()
	s, err := searchers.New(lg.game, searchers.Config{Preset: lg.preset, HashMB: 16, Threads: 1})
	if err != nil {
		log.Warn("no analysis of the lost game", zap.Error(err))
		return
	}
	rules := presets.Strength(lg.game)
	rep, err := analysis.Find(ctx, s, lg.start, lg.moves, lg.ourSide, analysis.Options{Depth: analysisDepth,
		Threshold: rules.Bound, Losing: rules.Lost})
	if err != nil {
		log.Warn("no analysis of the lost game", zap.Error(err))
		return
	}
	state, err := json.Marshal(rep)
	if err != nil {
		return
	}
	f.recordModel(lg.key, analysis.ModelName, state, lg.gameID)
	if m, ok := rep.Blamed(); ok {
		log.Info("the lost game's mistake", zap.String("move", m.Played), zap.Int("ply", m.Ply),
			zap.Float64("value", m.Value), zap.String("better", m.Best), zap.Float64("better_value", m.BestValue))
	}
}

// analyseIfLost starts the analysis of the game that just ended when we lost it (p.mu held; the analysis
// itself runs in the background).
func (p *Engine) analyseIfLost(end play.GameEnd, score float64, start games.Position, gameID string) {
	if score != 0 || start == nil || gameID == "" || p.filer.memory() == nil {
		return
	}
	our, err := learnedPreset(p.game, p.cfg)
	if err != nil {
		return
	}
	lg := lostGame{game: p.game, preset: our.Name, start: start, moves: append([]games.Move(nil), end.Moves...),
		ourSide: p.current.OurSide, key: p.learnerKey(), gameID: gameID}
	p.analyst.start(lg, p.filer, analysisBudget)
}
