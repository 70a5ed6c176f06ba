// The Player's analyst: after every finished game, off the clock, it searches our moves again deeper
// (bots/analysis), niced and within a time budget, abandoned when a new game starts, and files what it blamed
// (in a lost game, or a drawn one we stood better in; a won game is only re-checked) and every deep value it
// learned in the memory, as one event (a mistake record and experience entries).
package player

import (
	"context"
	"runtime"
	"sync"
	"syscall"
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

// Bounds of an analysis: the depth it searches each of our moves to, and how long it may take in all; the
// niceness its thread runs at.
const (
	analysisDepth  = 8
	analysisBudget = 30 * time.Second
	// standBetterUnits is the lead, in the game's units (pawns, men), from which a drawn game counts as one
	// we stood better in: only then is a move of a drawn game blamed.
	standBetterUnits = 1.5
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
	drawn   bool // a draw: a move is blamed only where we stood better
	won     bool // a win: its moves are re-checked, none is blamed
	depth   int  // the depth each move is searched to
	// prepare is the time of the preparation for the next game after the analysis (0: none); nice the
	// niceness of the thread both run on.
	prepare time.Duration
	nice    int
}

// start cancels the analysis running, if any, and analyses lg in the background, filing what it blames
// through f; budget bounds it. Then, when lg asks for it, it prepares for the next game against the opponent
// within lg.prepare (see prepareAfterGame). A new game cancels both.
func (a *analyst) start(lg lostGame, f *filer, budget time.Duration) {
	a.stop()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	a.mu.Lock()
	a.cancel, a.done = cancel, done
	a.mu.Unlock()
	go func() {
		defer close(done)
		defer cancel()
		runtime.LockOSThread() // the niceness below is this thread's alone; the thread ends with the goroutine
		_ = syscall.Setpriority(syscall.PRIO_PROCESS, syscall.Gettid(), lg.nice)
		actx, acancel := context.WithTimeout(ctx, budget)
		analyse(actx, lg, f)
		acancel()
		if lg.prepare > 0 && ctx.Err() == nil {
			pctx, pcancel := context.WithTimeout(ctx, lg.prepare)
			prepareAfterGame(pctx, lg, f)
			pcancel()
		}
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

// analyse runs the analysis of lg and files it whole, in one event: the move blamed (if any) and the deep value
// of every move analysed as experience.
func analyse(ctx context.Context, lg lostGame, f *filer) {
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
		Threshold: rules.Bound, Losing: rules.Lost})
	if err != nil {
		log.Warn("no analysis of the game", zap.Error(err))
		return
	}
	if lg.won || lg.drawn && !stoodBetter(rep, standBetterUnits*rules.Unit) {
		rep.Mistake = -1
	}
	a := analysisEvent(lg, rep, rules.Bound, log)
	if len(a.Experience) == 0 && a.Mistake == nil {
		return
	}
	f.record(memory.Event{Analysis: a})
	if m, ok := rep.Blamed(); ok {
		log.Info("the game's mistake", zap.String("move", m.Played), zap.Int("ply", m.Ply),
			zap.Float64("value", m.Value), zap.String("better", m.Best), zap.Float64("better_value", m.BestValue))
	}
}

// prepareAfterGame searches the opponent's repertoire (bots/prepare) within ctx, on the analyst's niced thread,
// and files what it found, also when a new game ended it early (every finding is a finished search).
func prepareAfterGame(ctx context.Context, lg lostGame, f *filer) {
	mem, log := f.memory(), f.logger()
	if mem == nil {
		return
	}
	// The game that just ended is among the opponent's games once the memory has filed its end.
	if err := mem.Flush(ctx); err != nil {
		return
	}
	stored, err := mem.Games(lg.key)
	if err != nil {
		log.Debug("no preparation: the games do not read", zap.Error(err))
		return
	}
	// The run's own budget ends a little before ctx does, so that its last search finishes rather than being
	// cut off by ctx (an interrupted search is no finding).
	deadline, _ := ctx.Deadline()
	repertoire, found, err := prepare.Games(ctx, lg.game, stored, prepare.OpponentOptions{
		Options: prepare.Options{Budget: time.Until(deadline) * 9 / 10}, HashMB: 16, Preset: lg.preset}, nil)
	if err != nil && len(found) == 0 && ctx.Err() == nil {
		log.Warn("no preparation", zap.Error(err))
	}
	if len(found) == 0 {
		return
	}
	f.record(memory.Event{Analysis: prepare.Event(lg.key, lg.game, found, time.Now())})
	log.Info("prepared for the next game", zap.Int("positions", len(found)), zap.Int("repertoire", repertoire))
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

// analyseAfterGame starts the analysis of the game that just ended when its result is known (p.mu held; the
// analysis itself runs in the background).
func (p *Engine) analyseAfterGame(end play.GameEnd, score float64, start games.Position, gameID string) {
	if score < 0 || start == nil || gameID == "" || p.filer.memory() == nil {
		return
	}
	our, err := learnedPreset(p.game, p.cfg)
	if err != nil {
		return
	}
	lg := lostGame{game: p.game, preset: our.Name, start: start, moves: append([]games.Move(nil), end.Moves...),
		ourSide: p.current.OurSide, key: p.learnerKey(), gameID: gameID, drawn: score == 0.5, won: score == 1,
		depth: p.analysisDepth, prepare: p.background.prepare, nice: p.background.nice}
	p.analyst.start(lg, p.filer, analysisBudget)
}
