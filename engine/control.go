// Search limits, time management, and the handle through which stop and ponderhit reach a running search.

package engine

import (
	"math"
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
	// MoveOverhead is kept back from the move time and from the clock for the GUI's and the operating
	// system's delays (UCI's "Move Overhead"); zero keeps nothing back.
	MoveOverhead time.Duration
	// SearchMoves restricts the root to these moves when not empty.
	SearchMoves []games.Move
	// MultiPV asks alpha-beta for the exact values of this many best root moves (UCI's MultiPV option); 0
	// and 1 search for the best move alone, at no extra cost.
	MultiPV int
}

// MaxDepth is the deepest iteration any of the engine's searches runs.
const MaxDepth = maxPly - 1

// DefaultMoveOverhead is the Move Overhead a UCI session and a match start with.
const DefaultMoveOverhead = 30 * time.Millisecond

// suddenDeathMoves is the share of the clock a move gets when the GUI gives no movestogo: a 20th of what is left
// (plus most of the increment). A 40th used about a third of the clock in a game of 60 moves and ended the
// games against CounterGo at 10+0.1 with half of it unused; a 25th won its clocked SPRT against a 40th
// (session 33: H1 at 3+0.03 after 527 pairs, +28.4 [+12.5, +44.4]) and a 20th its own against a 25th
// (sessions 33-34: H1 at 3+0.03 after 505 pairs in three runs, +28.6 [+13.0, +44.4]). maxMovesToGo bounds a
// movestogo given: more moves than that to the next time control are budgeted as that many.
const (
	suddenDeathMoves = 20
	maxMovesToGo     = 40
)

// DefaultMoveTime is what a move may take when the go command gives clocks but none that is the searching
// side's (only the opponent's time): a GUI that sends them expects a move, and would wait forever for an
// engine that searched until stop.
const DefaultMoveTime = time.Second

// clocked reports whether the limits give any clock time or increment, of either side.
func (lim Limits) clocked() bool {
	return lim.Time[0] > 0 || lim.Time[1] > 0 || lim.Inc[0] > 0 || lim.Inc[1] > 0
}

// Control is shared by a running search and the goroutine that started it: the search polls it (Stopped,
// Check) or blocks on it (Done, Released), the protocol calls Stop and PonderHit on it. It works like a
// context.Context whose deadline is the move's hard time limit. All its methods are safe for concurrent use.
type Control struct {
	limits Limits
	// share is the part of the move's time this control's search gets (WithTimeShare, SetTimeShare); nil is
	// all of it. Shared with the controls WithDepth and WithMultiPV derive, so that a change reaches them.
	share  *timeShare
	*clock // shared with the controls WithDepth derives
}

// clock is the state a Control shares with the controls derived from it: the move's time budget, the
// stop and release signals, and the timer of the hard limit.
type clock struct {
	soft time.Duration // do not start an iteration after half of it (0: no such limit)
	hard time.Duration // stop the search then (0: no such limit)

	stopped atomic.Bool // cheap for the node loops; set just before done is closed
	ponder  atomic.Bool
	// deadline is the hard limit's moment in Unix nanoseconds once the timer is armed (0: none): Check stops the
	// search there itself. The timer alone is not enough: Go runs a timer on the P it was set on, and a P held
	// by a thread of the lowest priority (the memory's work beside the search, on a busy core) may not run it for
	// a second or more, which a search that waited for it would pay on its clock.
	deadline atomic.Int64
	done     chan struct{} // closed at Stop, at the hard limit or at the node limit
	released chan struct{} // closed once the search may report its move (not pondering or infinite any more)
	idle     chan struct{} // closed once the search has nothing left to search (WaitRelease)
	stopOnce sync.Once
	relOnce  sync.Once
	idleOnce sync.Once

	mu       sync.Mutex
	start    time.Time     // when the clock for this move started (reset by PonderHit)
	handover time.Duration // the part of the move's time spent before HandOver, by an earlier searcher
	timer    *time.Timer   // fires at the hard limit; nil before it runs (pondering) or without one
}

// NewControl starts the clock for a search by side under the given limits.
func NewControl(lim Limits, side games.Side) *Control {
	c := &Control{limits: lim, clock: &clock{start: time.Now(), done: make(chan struct{}), released: make(chan struct{}),
		idle: make(chan struct{})}}
	c.soft, c.hard = budget(lim, side)
	c.ponder.Store(lim.Ponder)
	if !lim.Ponder {
		c.armTimer()
		if !lim.Infinite {
			c.release()
		}
	}
	return c
}

// budget turns the limits into a soft limit (do not start another iteration after half of it) and a hard
// limit (abort the iteration); zero means no such limit. Every budget keeps the move overhead back. The
// rule, first match wins:
//   - movetime: search until the move time, less the overhead; no soft limit, as UCI asks for exactly
//     that time.
//   - the side's own clock: a share of what is left (movestogo moves, at most maxMovesToGo, else
//     suddenDeathMoves) plus most of the increment,
//     and at most a third of it (with the increment) when an iteration runs long; never more than half of
//     what is left less the overhead, whatever the increment, since the increment is added only after
//     the move (a clock below the increment would otherwise be overspent and the game lost on time).
//   - only an increment for the side: the increment is the move's time, as under movetime.
//   - clocks of the opponent only, and neither depth nor nodes: DefaultMoveTime, as under movetime.
func budget(lim Limits, side games.Side) (soft, hard time.Duration) {
	keep := func(t time.Duration) time.Duration { return max(t-lim.MoveOverhead, time.Millisecond) }
	left, inc := lim.Time[side], lim.Inc[side]
	switch {
	case lim.MoveTime > 0:
		return 0, keep(lim.MoveTime)
	case left > 0:
		movesToGo := lim.MovesToGo
		if movesToGo <= 0 {
			movesToGo = suddenDeathMoves
		}
		movesToGo = min(movesToGo, maxMovesToGo)
		usable := keep(left)
		soft = usable/time.Duration(movesToGo) + inc*3/4
		hard = min(soft*4, usable/3+inc*3/4, usable/2)
		soft = min(soft, hard)
		return max(soft, time.Millisecond), max(hard, time.Millisecond)
	case inc > 0:
		return 0, keep(inc)
	case lim.clocked() && lim.Depth == 0 && lim.Nodes == 0:
		return 0, keep(DefaultMoveTime)
	}
	return 0, 0
}

// TimeBudget returns the soft and hard time limits a search under lim by side gets (see budget); zero means
// no such limit. A front end that measures time in nodes (CECP's nps) converts them.
func TimeBudget(lim Limits, side games.Side) (soft, hard time.Duration) { return budget(lim, side) }

// Limits returns the limits the search was started with.
func (c *Control) Limits() Limits { return c.limits }

// WithDepth returns a control that limits iterations to depth plies as well, the smaller depth winning,
// and shares everything else with c: its clock, stop, ponderhit and release.
func (c *Control) WithDepth(depth int) *Control {
	d := &Control{limits: c.limits, share: c.share, clock: c.clock}
	if depth > 0 && (d.limits.Depth == 0 || depth < d.limits.Depth) {
		d.limits.Depth = depth
	}
	return d
}

// WithMultiPV returns a control that asks for lines best root moves (see Limits.MultiPV) and shares
// everything else with c.
func (c *Control) WithMultiPV(lines int) *Control {
	d := &Control{limits: c.limits, share: c.share, clock: c.clock}
	d.limits.MultiPV = lines
	return d
}

// WithTimeShare returns a control whose search gets share (in (0, 1]) of the move's time, its soft and hard
// limits both cut to that share of the move's and counted from the same start, and that shares everything
// else with c; reaching its own hard limit stops c too (the move's search is over). The rest of the move's time
// is the caller's: a decision after the search that needs a search of its own (the game memory's check of a
// won game's move) then fits in the move's time instead of being added to it.
func (c *Control) WithTimeShare(share float64) *Control {
	d := &Control{limits: c.limits, share: &timeShare{of: c.shareOfMove()}, clock: c.clock}
	d.share.set(share)
	return d
}

// SetTimeShare changes the share of the control WithTimeShare made (and of the controls derived from it) while
// its search runs: the next time check reads it. A caller that needs the rest of the move only when the
// search's best move is not the one it expects gives the search the whole move (1) while it is. Without a
// share of its own (a control WithTimeShare did not make) it does nothing.
func (c *Control) SetTimeShare(share float64) {
	if c.share != nil {
		c.share.set(share)
	}
}

// timeShare is a control's part of the move's time: own (a float64's bits, in (0, 1]) of the part of the
// control it was derived from.
type timeShare struct {
	of  float64
	own atomic.Uint64
}

// set sets the share; outside (0, 1) it is the whole.
func (t *timeShare) set(share float64) {
	if share <= 0 || share >= 1 {
		share = 1
	}
	t.own.Store(math.Float64bits(share))
}

// shareOfMove is the part of the move's time this control's search gets.
func (c *Control) shareOfMove() float64 {
	if c.share == nil {
		return 1
	}
	return c.share.of * math.Float64frombits(c.share.own.Load())
}

// scaled cuts t to the control's share of the move's time.
func (c *Control) scaled(t time.Duration) time.Duration {
	return time.Duration(float64(t) * c.shareOfMove())
}

// Stop asks the search to finish as soon as possible and report its best move.
func (c *Control) Stop() {
	c.halt()
	c.release()
}

// PonderHit tells a pondering search that the opponent played the expected move: from now on it runs
// under its normal limits, with the clock started now.
func (c *Control) PonderHit() {
	c.mu.Lock()
	c.start = time.Now()
	c.mu.Unlock()
	if c.ponder.Swap(false) {
		c.armTimer()
	}
	if !c.limits.Infinite {
		c.release()
	}
}

// armTimer starts the timer of the hard limit, from the clock's start.
func (c *clock) armTimer() {
	if c.hard <= 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.timer == nil && !c.stopped.Load() {
		c.deadline.Store(c.start.Add(c.hard).UnixNano())
		c.timer = time.AfterFunc(c.hard-time.Since(c.start), c.halt)
	}
}

// halt latches Stopped and closes Done, without releasing a pondering or infinite search.
func (c *clock) halt() {
	c.stopOnce.Do(func() {
		c.stopped.Store(true)
		close(c.done)
		c.mu.Lock()
		if c.timer != nil {
			c.timer.Stop()
		}
		c.mu.Unlock()
	})
}

func (c *clock) release() { c.relOnce.Do(func() { close(c.released) }) }

// Done is closed once the search must stop: at Stop, at the hard time limit or when Check saw the node
// limit. A searcher that has nothing left to search may block on it.
func (c *Control) Done() <-chan struct{} { return c.done }

// Released is closed once the search may report its move: immediately for a normal search, at PonderHit
// for a ponder search, at Stop for an infinite one. UCI forbids "bestmove" before that.
func (c *Control) Released() <-chan struct{} { return c.released }

// WaitRelease is how a search that has nothing left to search (its depth limit reached, a proven result,
// the last iteration done) waits for Released before it returns: it marks the search idle (Idle), then
// blocks until the search may report its move.
func (c *Control) WaitRelease() {
	c.idleOnce.Do(func() { close(c.idle) })
	<-c.released
}

// Idle is closed once the search has stopped searching and waits for Released (WaitRelease): an infinite
// search (CECP's analysis) that proved its result posts nothing more, and its front end may say so.
func (c *Control) Idle() <-chan struct{} { return c.idle }

// Stopped reports whether Stop was called, the hard time limit passed or Check saw the node limit; it
// is one atomic load, cheap enough for any node loop.
func (c *Control) Stopped() bool { return c.stopped.Load() }

// Elapsed returns the time since the clock for this move started.
func (c *Control) Elapsed() time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return time.Since(c.start)
}

// Budget returns the move's soft limit (no iteration starts after half of it) and hard limit (the search
// stops then), cut to the control's share of the move (WithTimeShare) and counted from the clock's start;
// zero means no such limit.
func (c *Control) Budget() (soft, hard time.Duration) { return c.scaled(c.soft), c.scaled(c.hard) }

// Check is polled by the search every few thousand nodes with its node count: it returns true (and stops
// the search) once the node limit is reached, or after a stop or the hard time limit.
func (c *Control) Check(nodes uint64) bool {
	if c.stopped.Load() {
		return true
	}
	if d := c.deadline.Load(); d != 0 && time.Now().UnixNano() >= d-int64(c.hard-c.scaled(c.hard)) {
		c.halt()
		return true
	}
	if c.limits.Nodes > 0 && nodes >= c.limits.Nodes {
		c.halt()
		return true
	}
	return false
}

// NextIteration reports whether the search should start iteration depth (1 always is, so that a move is
// always found): not after a stop, beyond the depth limit, or once half the soft time limit has passed.
func (c *Control) NextIteration(depth int) bool {
	if depth <= 1 {
		return true
	}
	if c.stopped.Load() || (c.limits.Depth > 0 && depth > c.limits.Depth) {
		return false
	}
	if c.soft > 0 && !c.ponder.Load() {
		c.mu.Lock()
		spent, own := time.Since(c.start), c.scaled(c.soft)-c.handover
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
	c.handover = min(time.Since(c.start), c.scaled(c.soft))
}
