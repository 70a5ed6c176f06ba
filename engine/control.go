// Search limits, time management, and the handle through which stop and ponderhit reach a running search.
package engine

import (
	"sync"
	"sync/atomic"
	"time"

	"dossier/games"
)

// Limits are the limits of one search, as UCI's "go" gives them; zero values mean "no such limit".
type Limits struct {
	Depth     int
	Nodes     uint64
	MoveTime  time.Duration
	Time      [2]time.Duration // remaining clock time, indexed by games.Side
	Inc       [2]time.Duration // increment per move, indexed by games.Side
	MovesToGo int
	Infinite  bool
	Ponder    bool
	// SearchMoves restricts the root to these moves when not empty.
	SearchMoves []games.Move
}

// MoveOverhead is kept back from every clock-based budget for the GUI's and the operating system's delays.
const MoveOverhead = 30 * time.Millisecond

// Control is shared by a running search and the goroutine that started it: the search polls it, the
// protocol calls Stop and PonderHit on it. All its methods are safe for concurrent use.
type Control struct {
	limits  Limits
	side    games.Side
	stopped atomic.Bool
	ponder  atomic.Bool

	mu       sync.Mutex
	start    time.Time     // when the clock for this move started (reset by PonderHit)
	handover time.Duration // the part of the move's time spent before HandOver, by an earlier searcher
	soft     time.Duration
	hard     time.Duration
	released chan struct{} // closed once the search may report its move (not pondering or infinite any more)
	once     sync.Once
}

// NewControl starts the clock for a search by side under the given limits.
func NewControl(lim Limits, side games.Side) *Control {
	c := &Control{limits: lim, side: side, start: time.Now(), released: make(chan struct{})}
	c.soft, c.hard = budget(lim, side)
	c.ponder.Store(lim.Ponder)
	if !lim.Ponder && !lim.Infinite {
		c.release()
	}
	return c
}

// budget turns the limits into a soft limit (do not start another iteration after it) and a hard limit
// (abort the iteration); zero means unlimited.
func budget(lim Limits, side games.Side) (soft, hard time.Duration) {
	if lim.MoveTime > 0 {
		t := max(lim.MoveTime-MoveOverhead/3, time.Millisecond)
		return t, t
	}
	left, inc := lim.Time[side], lim.Inc[side]
	if left <= 0 {
		return 0, 0
	}
	movesToGo := lim.MovesToGo
	if movesToGo <= 0 || movesToGo > 40 {
		movesToGo = 40
	}
	usable := max(left-MoveOverhead, time.Millisecond)
	soft = usable/time.Duration(movesToGo) + inc*3/4
	hard = min(soft*4, usable/3+inc*3/4)
	soft = min(soft, hard)
	return max(soft, time.Millisecond), max(hard, time.Millisecond)
}

// Limits returns the limits the search was started with.
func (c *Control) Limits() Limits { return c.limits }

// Stop asks the search to finish as soon as possible and report its best move.
func (c *Control) Stop() {
	c.stopped.Store(true)
	c.release()
}

// PonderHit tells a pondering search that the opponent played the expected move: from now on it runs
// under its normal limits, with the clock started now.
func (c *Control) PonderHit() {
	c.mu.Lock()
	c.start = time.Now()
	c.mu.Unlock()
	c.ponder.Store(false)
	if !c.limits.Infinite {
		c.release()
	}
}

func (c *Control) release() { c.once.Do(func() { close(c.released) }) }

// Released is closed once the search may report its move: immediately for a normal search, at PonderHit
// for a ponder search, at Stop for an infinite one. UCI forbids "bestmove" before that.
func (c *Control) Released() <-chan struct{} { return c.released }

// Stopped reports whether Stop was called or a hard limit was reached.
func (c *Control) Stopped() bool { return c.stopped.Load() }

// Elapsed returns the time since the clock for this move started.
func (c *Control) Elapsed() time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return time.Since(c.start)
}

// Check is polled by the search every few thousand nodes: it returns true (and latches Stopped) once the
// node limit or the hard time limit is reached.
func (c *Control) Check(nodes uint64) bool {
	if c.stopped.Load() {
		return true
	}
	if c.limits.Nodes > 0 && nodes >= c.limits.Nodes {
		c.stopped.Store(true)
		return true
	}
	if c.hard > 0 && !c.ponder.Load() && c.Elapsed() >= c.hard {
		c.stopped.Store(true)
		return true
	}
	return false
}

// NextIteration reports whether the search should start iteration depth (1 always is, so that a move is
// always found): not after
// a stop, beyond the depth limit, or once the soft time limit has passed.
func (c *Control) NextIteration(depth int) bool {
	if depth <= 1 {
		return true
	}
	if c.stopped.Load() || (c.limits.Depth > 0 && depth > c.limits.Depth) {
		return false
	}
	if c.soft > 0 && !c.ponder.Load() {
		c.mu.Lock()
		spent, own := time.Since(c.start), c.soft-c.handover
		c.mu.Unlock()
		// An iteration usually costs more than all the previous ones together: starting one after half
		// the soft budget (what is left of it after a hand-over) would mostly be wasted.
		if spent-c.handover >= own/2 {
			return false
		}
	}
	return true
}

// HandOver is called by a searcher that takes over a move from another one (the Connect-Four solver hands
// over to alpha-beta when it cannot finish): from now on, iteration decisions weigh the time left instead
// of the whole move's budget, so that the second searcher does not stop after one iteration. The hard
// limit stays as it was.
func (c *Control) HandOver() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.handover = min(time.Since(c.start), c.soft)
}
