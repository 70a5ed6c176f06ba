// Reading the memory for the next game in the background: NewGame and SetOpponent hand the parts' reading
// (the game memory and experience, the learners and auto's choice, the identifier, the even-game ledger) to
// one goroutine at the background's priority and return at once. A GUI that asks isready (cutechess-cli, most
// arenas) waits for it off the clock (WaitPrepared); one that sends go at once (python-chess after ucinewgame
// and UCI_Opponent, as lichess-bot plays) starts searching without waiting, with what was read before, and the
// game picks up what the reading finds as it lands.

package player

import (
	"context"
	"sync"
	"time"
)

// readingQuiet is how long a request to read waits for another before the reading begins: front ends send
// ucinewgame and UCI_Opponent (CECP: new and name) one after the other, and a reading begun at the first would
// read the memory for an unnamed opponent (every opponent's games, for the identifier) only to read it again
// for the named one. isready does not wait for it.
const readingQuiet = 20 * time.Millisecond

// reading runs the parts' reading of the memory one at a time; a request made while one runs is done after it
// (once, however many were made meanwhile), so the last state of the Player is always the one read.
type reading struct {
	mu sync.Mutex
	// urgent is cancelled by wait: a front end waits (isready), so the parts no longer wait for our searches
	// to end (see gate).
	urgent  context.Context
	hurry   context.CancelFunc
	running bool // a reading runs, or waits for readingQuiet to begin
	again   bool // another was asked for meanwhile
	begin   chan struct{}
	idle    *sync.Cond // signalled when running turns false
}

// start reads with read in the background at the priority nice gives (see lowerThreadPriority), after
// readingQuiet without another request (or at once when wait asks for it).
func (r *reading) start(nice int, read func()) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.idle == nil {
		r.idle = sync.NewCond(&r.mu)
	}
	if r.running {
		r.again = true
		return
	}
	r.running = true
	begin := make(chan struct{})
	r.begin = begin
	r.urgent, r.hurry = context.WithCancel(context.Background())
	runAtLowPriority("dossier-read", nice, func() {
		for {
			select {
			case <-begin:
			case <-time.After(readingQuiet):
			}
			r.mu.Lock()
			r.again = false
			r.mu.Unlock()
			stopCounting := countBackgroundCPU()
			read()
			stopCounting()
			r.mu.Lock()
			if !r.again {
				r.running = false
				r.begin = nil
				r.hurry()
				r.idle.Broadcast()
				r.mu.Unlock()
				return
			}
			r.mu.Unlock()
		}
	})
}

// wait returns when no reading runs or is asked for, beginning a waiting one at once.
func (r *reading) wait() {
	r.mu.Lock()
	defer r.mu.Unlock()
	for r.running {
		if r.begin != nil {
			close(r.begin)
			r.begin = nil
		}
		r.hurry()
		r.idle.Wait()
	}
}

// waitDone returns when no reading runs or is asked for, without hurrying it: for a waiter in the background
// (the learning worker), which must not make the reading run beside our searches as a front end's wait does.
func (r *reading) waitDone() {
	r.mu.Lock()
	defer r.mu.Unlock()
	for r.running {
		r.idle.Wait()
	}
}

// gate returns the context a part of the reading waits between our searches under: done once a front end
// waits for the reading (never done while no reading runs).
func (r *reading) gate() context.Context {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.urgent == nil || !r.running {
		return context.Background()
	}
	return r.urgent
}

// WaitPrepared implements play.Preparer: it returns when the memory's reading for the game is done, or at once
// while a search of ours runs (pondering, go infinite): the reading waits for our searches, and a front end's
// isready must be answered while one runs.
func (p *Engine) WaitPrepared() {
	if p.analyst.foreground().busy() {
		return
	}
	p.reading.wait()
}

// pauseReading is the memory's ReadPause (memory.Options): a read of the memory made on one of the background's
// threads (the reading for the next game, the learners' fold, an analysis) stops between two records while a
// search of ours runs, unless a front end waits for the reading (isready), so that it neither takes the CPU
// from our search nor wakes the garbage collector's workers, which run at the search's priority, with what it
// allocates. A read made on any other thread goes on.
func (p *Engine) pauseReading() {
	if !backgroundThreads.holdsCaller() {
		return
	}
	p.analyst.foreground().park(p.reading.gate())
}
