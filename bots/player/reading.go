// Reading the memory for the next game in the background: NewGame and SetOpponent hand the parts' reading
// (the game memory and experience, the learners and auto's choice, the identifier, the even-game ledger) to
// one goroutine at the background's priority and return at once. A GUI that asks isready (cutechess-cli, most
// arenas) waits for it off the clock (WaitPrepared); one that sends go at once (python-chess after ucinewgame
// and UCI_Opponent, as lichess-bot plays) starts searching without waiting, with what was read before, and the
// game picks up what the reading finds as it lands.

package player

import "sync"

// reading runs the parts' reading of the memory one at a time; a request made while one runs is done after it
// (once, however many were made meanwhile), so the last state of the Player is always the one read.
type reading struct {
	mu      sync.Mutex
	running bool
	again   bool
	idle    *sync.Cond // signalled when running turns false
}

// start reads with read in the background at the priority nice gives (see lowerThreadPriority).
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
	runAtLowPriority(nice, func() {
		for {
			stopCounting := countBackgroundCPU()
			read()
			stopCounting()
			r.mu.Lock()
			if !r.again {
				r.running = false
				r.idle.Broadcast()
				r.mu.Unlock()
				return
			}
			r.again = false
			r.mu.Unlock()
		}
	})
}

// wait returns when no reading runs or is asked for.
func (r *reading) wait() {
	r.mu.Lock()
	defer r.mu.Unlock()
	for r.running {
		r.idle.Wait()
	}
}

// WaitPrepared implements play.Preparer: it returns when the memory's reading for the game is done.
func (p *Engine) WaitPrepared() { p.reading.wait() }
