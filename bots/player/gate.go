// The gate between our searches and the work between games: the analysis of finished games runs only while
// the Player is not searching (the opponent's turn, between games), is cut short when a search of ours begins
// (which waits at most maxHoldWait for it to stop), and counts only the time it ran against its budget.

package player

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// foreground knows whether the Player is searching. Search holds it; background work enters it (analysis.Gate)
// and is cancelled when a search begins.
type foreground struct {
	mu        sync.Mutex
	searching int
	idle      chan struct{}           // closed while no search runs
	running   map[*int]backgroundStep // the background's steps running, cancelled by hold
	parked    map[int]int             // threads whose steps wait in a pause of their own (pauseReading), by thread id
	began     int                     // background steps begun so far
	drained   chan struct{}           // closed when no background step runs but parked ones; nil when none waits

	// With a P for the background, our searches never wait for mu or the background's contexts (see hold):
	// what hold and release do waits in deferred, in order, for bookkeeper, and queued counts it.
	deferred   chan func()
	queued     atomic.Int32
	bookkeeper sync.Once
}

// backgroundStep is a step of background work that entered the foreground: its cancel, and the thread it runs on.
type backgroundStep struct {
	cancel context.CancelFunc
	thread int
}

// maxHoldWait bounds how long a search of ours waits for the background search it cut short to stop. On an idle
// core that takes microseconds; on a machine whose cores are all busy the niced thread may wait tens of
// milliseconds for its turn to see the stop (a median 7 ms, at most 61 ms, in the arena runs of docs/log/experiments.md), which
// our clock would pay. After this wait ours begins anyway, and the background search ends beside it at the
// lowest priority.
const maxHoldWait = time.Millisecond

func newForeground() *foreground {
	idle := make(chan struct{})
	close(idle)
	return &foreground{idle: idle, running: map[*int]backgroundStep{}, parked: map[int]int{}}
}

// hold marks a search of ours as running: background work waits, and what of it runs is cut short. With a P of
// its own for the background (lowpriority.go) hold returns at once: the bookkeeping is done beside our search
// (later). Otherwise it returns when what ran has stopped (a search stops within a few thousand nodes) or after
// maxHoldWait. It says how long it waited.
func (f *foreground) hold() time.Duration {
	begun := time.Now()
	if backgroundHasOwnP() {
		// Our search touches nothing a background thread may hold: not mu, and not the contexts of the steps it
		// cancels (a background step reading its context's Err holds that context's lock). A thread at niceness 19
		// that holds either may wait long for the core that our search and others want: in session 21's matches a search waited 80 ms for mu, and,
		// with mu never waited for, 68 ms in holdLocked. At the lowest priority the background cannot keep our
		// search from the CPU, so the search need not wait for it to see the stop either.
		f.later(f.holdLocked)
		return time.Since(begun)
	}
	f.lockInOrder()
	f.holdLocked()
	if f.drainedLocked() {
		f.mu.Unlock()
		return time.Since(begun)
	}
	if f.drained == nil {
		f.drained = make(chan struct{})
	}
	drained := f.drained
	f.mu.Unlock()
	timer := time.NewTimer(maxHoldWait)
	defer timer.Stop()
	select {
	case <-drained:
	case <-timer.C:
	}
	return time.Since(begun)
}

// holdLocked marks a search of ours as running and cuts the background's steps short (f.mu held).
func (f *foreground) holdLocked() {
	f.searching++
	if f.searching == 1 {
		f.idle = make(chan struct{})
	}
	for _, step := range f.running {
		step.cancel()
	}
}

// deferredOps is how many holds and releases may wait for the bookkeeper before a search of ours waits too:
// two a search, while a background thread holds mu (it holds it for microseconds once it runs).
const deferredOps = 1024

// later has the bookkeeper do op under f.mu, after everything deferred before it.
func (f *foreground) later(op func()) {
	f.bookkeeper.Do(func() {
		f.deferred = make(chan func(), deferredOps)
		go func() {
			for op := range f.deferred {
				f.mu.Lock()
				op()
				f.queued.Add(-1)
				f.mu.Unlock()
			}
		}()
	})
	f.queued.Add(1)
	f.deferred <- op
}

// drainedLocked reports whether every background step running waits in a pause (none runs). f.mu is held.
func (f *foreground) drainedLocked() bool {
	for _, step := range f.running {
		if f.parked[step.thread] == 0 {
			return false
		}
	}
	return true
}

// signalDrainedLocked tells a search waiting in hold that the background's steps have stopped or parked. f.mu
// is held.
func (f *foreground) signalDrainedLocked() {
	if f.drained != nil && f.drainedLocked() {
		close(f.drained)
		f.drained = nil
	}
}

// park waits, on a background thread, while a search of ours runs (or until ctx ends), the thread counted as
// parked meanwhile: a search beginning does not wait for it (see hold).
func (f *foreground) park(ctx context.Context) {
	f.mu.Lock()
	if f.searching == 0 {
		f.mu.Unlock()
		return
	}
	tid := syscall.Gettid()
	f.parked[tid]++
	f.signalDrainedLocked()
	f.mu.Unlock()
	f.waitIdle(ctx)
	f.mu.Lock()
	if f.parked[tid]--; f.parked[tid] == 0 {
		delete(f.parked, tid)
	}
	f.mu.Unlock()
}

// waitIdle returns when no search of ours runs, or ctx ends.
func (f *foreground) waitIdle(ctx context.Context) {
	for {
		f.mu.Lock()
		if f.searching == 0 {
			f.mu.Unlock()
			return
		}
		idle := f.idle
		f.mu.Unlock()
		select {
		case <-idle:
		case <-ctx.Done():
			return
		}
	}
}

// busy reports whether a search of ours runs, once the bookkeeper did what hold and release left to it (it is
// asked on the front end's goroutine, never on our search's).
func (f *foreground) busy() bool {
	f.lockInOrder()
	defer f.mu.Unlock()
	return f.searching > 0
}

// release marks a search of ours as over; background work goes on when none runs. Like hold, it never waits
// for a background thread that holds f.mu.
func (f *foreground) release() {
	if backgroundHasOwnP() {
		f.later(f.releaseLocked)
		return
	}
	f.lockInOrder()
	defer f.mu.Unlock()
	f.releaseLocked()
}

// lockInOrder takes f.mu once nothing deferred waits (a search without a P of its own for the background
// waits for mu as it always did).
func (f *foreground) lockInOrder() {
	for {
		f.mu.Lock()
		if f.queued.Load() == 0 {
			return
		}
		f.mu.Unlock()
		runtime.Gosched()
	}
}

// releaseLocked is release with f.mu held.
func (f *foreground) releaseLocked() {
	f.searching--
	if f.searching == 0 {
		close(f.idle)
	}
}

// enter waits until no search of ours runs, or ctx ends, and returns the context of one background search,
// cancelled when ctx ends or a search of ours begins, and the function that ends it.
func (f *foreground) enter(ctx context.Context) (context.Context, func()) {
	for {
		f.mu.Lock()
		if f.searching == 0 {
			run, cancel := context.WithCancel(ctx)
			id := new(int)
			f.running[id] = backgroundStep{cancel: cancel, thread: syscall.Gettid()}
			f.began++
			f.mu.Unlock()
			return run, func() {
				cancel()
				f.mu.Lock()
				delete(f.running, id)
				f.signalDrainedLocked()
				f.mu.Unlock()
			}
		}
		idle := f.idle
		f.mu.Unlock()
		select {
		case <-idle:
		case <-ctx.Done():
			return ctx, func() {}
		}
	}
}

// budgetGate is one analysis's way through the foreground: it counts the time its searches ran, and when that
// reaches the budget it ends the analysis (end cancels the analysis's context), so that waiting for the
// opponent or for the next game costs nothing of the budget.
type budgetGate struct {
	fg     *foreground
	budget time.Duration
	end    context.CancelFunc
	mu     sync.Mutex
	spent  time.Duration
}

// Enter implements analysis.Gate.
func (g *budgetGate) Enter(ctx context.Context) (context.Context, func()) {
	run, leave := g.fg.enter(ctx)
	g.mu.Lock()
	left := g.budget - g.spent
	g.mu.Unlock()
	if left <= 0 {
		leave()
		g.end()
		return ctx, func() {}
	}
	begun := time.Now()
	run, stop := context.WithTimeout(run, left)
	return run, func() {
		stop()
		leave()
		g.mu.Lock()
		g.spent += time.Since(begun)
		over := g.spent >= g.budget
		g.mu.Unlock()
		if over {
			g.end()
		}
	}
}

// spentTime returns the time the searches through the gate ran so far.
func (g *budgetGate) spentTime() time.Duration {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.spent
}
