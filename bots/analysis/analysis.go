// Package analysis finds our mistakes in a finished game off the clock: each of our moves is searched again,
// deeper than the game could, beside the best move the deeper search finds, and the move after which the
// deep value fell by more than a threshold is blamed (the first that turned a position that was not lost
// into a lost one, where several fell).
package analysis

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"dossier/engine"
	"dossier/games"
)

// Options bound an analysis and say what counts as a mistake.
type Options struct {
	// Depth is the depth, in plies, each position is searched to.
	Depth int
	// Threshold is how far, in the game's evaluation units, the played move's deep value must fall below
	// the best move's for the move to be a mistake.
	Threshold float64
	// Losing is the deficit from which a position counts as lost (as the even mode's rules call it).
	Losing float64
	// FromPly says where to look first: our moves from this ply (of the position's ply count) on are analysed
	// before the earlier ones, which a move of the later ones that StopAtLoss stops at leaves out.
	FromPly int
	// StopAtLoss ends the analysis at the first move that turned a position that was not lost into a lost
	// one by more than the threshold: the move blamed in a lost game, after which nothing else is.
	StopAtLoss bool
	// Gate, when set, is entered before every search of the analysis, so that it runs only while the engine
	// is not searching itself: a search it cuts short is searched again when it lets the analysis go on.
	Gate Gate
	// Done are the moves an earlier run of the same analysis (same game, side, depth and options) analysed
	// before it was cut short, as its Found received them: they are not searched again and count as found, so
	// that an analysis spread over the idle time of several processes (one engine process per game) ends.
	Done []Move
	// Found, when set, is called with each of our moves as its analysis ends: a caller keeps it to give back
	// as Done if this run is cut short.
	Found func(Move)
}

// Gate lets background work run only between the engine's own searches.
type Gate interface {
	// Enter waits until the engine is not searching, or ctx ends, and returns the context of one search of
	// the background work: it ends with ctx and when the engine starts a search. leave is called when the
	// search is over.
	Enter(ctx context.Context) (run context.Context, leave func())
}

// Move is the deep analysis of one of our moves.
type Move struct {
	// Ply is the move's index in the game since its start position; Before the position it was played in
	// (the game's position notation).
	Ply    int
	Before string
	// Played is our move, Value its deep value for us; Best the move the deep search found best, BestValue
	// its value (Best is Played when they agree).
	Played, Best     string
	Value, BestValue float64
	// Depth is the depth both were searched to.
	Depth int
}

// String says the move as memory show does: "ply 4: h5f7? -815 at depth 8, better b1c3 +35".
func (m Move) String() string {
	return fmt.Sprintf("ply %d: %s? %+.0f at depth %d, better %s %+.0f", m.Ply, m.Played, m.Value, m.Depth, m.Best,
		m.BestValue)
}

// Drop is how much the played move gave up against the best one.
func (m Move) Drop() float64 { return m.BestValue - m.Value }

// Report is the analysis of a game: every one of our moves analysed, in order, and the mistake blamed.
type Report struct {
	Moves []Move
	// Mistake indexes Moves: the move blamed, or -1 when no move fell by the threshold (nothing is blamed).
	Mistake int
	// Complete is false when the context ended the analysis before our last move.
	Complete bool
}

// Blamed returns the move blamed and whether there is one.
func (r Report) Blamed() (Move, bool) {
	if r.Mistake < 0 {
		return Move{}, false
	}
	return r.Moves[r.Mistake], true
}

// Find analyses our moves (those of side ours) in the game from start through moves with s, a fixed-depth
// searcher of our own evaluation, and returns what it found. It stops when ctx ends (a new game, the
// budget spent), with what it had; start is not changed. An illegal move in the game is an error.
func Find(ctx context.Context, s engine.Searcher, start games.Position, moves []games.Move, ours games.Side,
	opts Options) (Report, error) {
	if opts.Depth < 1 {
		return Report{Mistake: -1}, errors.New("analysis: the depth must be at least 1")
	}
	rep := Report{Mistake: -1}
	// Our moves with their positions, in the game's order, those from FromPly first.
	type ourMove struct {
		before games.Position
		move   games.Move
	}
	var late, early []ourMove
	p := start.Clone()
	for i, m := range moves {
		if !games.IsLegal(p, m) {
			return rep, fmt.Errorf("analysis: move %d of the game (%s) is not legal in %s", i+1, p.FormatMove(m), p.FEN())
		}
		if p.ToMove() == ours {
			if p.Ply() >= opts.FromPly {
				late = append(late, ourMove{p.Clone(), m})
			} else {
				early = append(early, ourMove{p.Clone(), m})
			}
		}
		p.Play(m)
	}
	finish := func(complete bool) (Report, error) {
		slices.SortFunc(rep.Moves, func(a, b Move) int { return a.Ply - b.Ply })
		rep.Complete = complete
		rep.Mistake = blame(rep.Moves, opts)
		return rep, nil
	}
	// An earlier run's move counts only where it is ours in this game, as played: a Done of another game (a
	// damaged job) is searched anew rather than believed.
	order := append(late, early...)
	played := map[int]string{}
	for _, om := range order {
		played[om.before.Ply()] = om.before.FormatMove(om.move)
	}
	done := map[int]bool{}
	for _, a := range opts.Done {
		if played[a.Ply] != a.Played || a.Played == "" || done[a.Ply] {
			continue
		}
		done[a.Ply] = true
		rep.Moves = append(rep.Moves, a)
		if opts.StopAtLoss && turnedLost(a, opts) {
			return finish(false) // the earlier run found the move that lost, and would have stopped there
		}
	}
	for _, om := range order {
		if done[om.before.Ply()] {
			continue
		}
		a, ok := analyseMove(ctx, s, om.before, om.move, opts.Depth, opts.Gate)
		if !ok {
			return finish(false)
		}
		a.Ply = om.before.Ply()
		rep.Moves = append(rep.Moves, a)
		if opts.Found != nil {
			opts.Found(a)
		}
		if opts.StopAtLoss && turnedLost(a, opts) {
			return finish(false)
		}
	}
	return finish(true)
}

// analyseMove searches p to depth for its best move and, when that is not the played move m, for m's value
// alone, each search through gate (nil: at once). It reports false when ctx ended first.
func analyseMove(ctx context.Context, s engine.Searcher, p games.Position, m games.Move, depth int,
	gate Gate) (Move, bool) {
	a := Move{Before: p.FEN(), Played: p.FormatMove(m), Depth: depth}
	best, ok := gatedSearch(ctx, gate, s, p, engine.Limits{Depth: depth})
	if !ok || best.Move == games.NoMove {
		return a, false
	}
	a.Best, a.BestValue = p.FormatMove(best.Move), best.Score
	if best.Move == m {
		a.Value = best.Score
		return a, true
	}
	played, ok := gatedSearch(ctx, gate, s, p, engine.Limits{Depth: depth, SearchMoves: []games.Move{m}})
	if !ok {
		return a, false
	}
	a.Value = played.Score
	return a, true
}

// gatedSearch runs one search of p under lim through gate (nil: at once), again from the start each time the
// gate cuts it short, until it ends or ctx does; false when ctx ended first.
func gatedSearch(ctx context.Context, gate Gate, s engine.Searcher, p games.Position,
	lim engine.Limits) (engine.Result, bool) {
	if gate == nil {
		return search(ctx, s, p, lim)
	}
	for {
		run, leave := gate.Enter(ctx)
		res, ok := search(run, s, p, lim)
		leave()
		if ok {
			return res, true
		}
		if ctx.Err() != nil {
			return engine.Result{}, false
		}
	}
}

// search runs one search of p under lim, stopped when ctx ends; false when it was.
func search(ctx context.Context, s engine.Searcher, p games.Position, lim engine.Limits) (engine.Result, bool) {
	if ctx.Err() != nil {
		return engine.Result{}, false
	}
	ctl := engine.NewControl(lim, p.ToMove())
	done := make(chan struct{})
	go func() {
		select {
		case <-ctx.Done():
			ctl.Stop()
		case <-done:
		}
	}()
	res := s.Search(p.Clone(), ctl, nil)
	close(done)
	return res, ctx.Err() == nil
}

// turnedLost reports whether m fell by more than the threshold from a position that was not lost into a lost one.
func turnedLost(m Move, opts Options) bool {
	return m.Drop() > opts.Threshold && m.BestValue > -opts.Losing && m.Value <= -opts.Losing
}

// blame picks the mistake among the analysed moves: of those whose value fell below the best by more than
// the threshold, the first that turned a position that was not lost into a lost one, else the first; -1
// when none fell that far. The fallback may blame a move in a position the deep search already rates lost:
// blaming nothing there would repeat the lost game against an opponent that repeats its moves, while leaving
// the line at that move costs nothing the deep search can see (TestLostGameIsLeftWhereTheAnalysisFoundTheMistake
// against depth 6: the next game leaves at ply 50, rated -1.78 before it, and still loses).
func blame(moves []Move, opts Options) int {
	first := -1
	for i, m := range moves {
		if m.Drop() <= opts.Threshold {
			continue
		}
		if turnedLost(m, opts) {
			return i
		}
		if first < 0 {
			first = i
		}
	}
	return first
}
