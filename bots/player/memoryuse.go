// What the memory did in one game, counted search by search and logged when the game ends: how often the
// experience settled nodes, how often a prepared move or a won game's move replaced the search's, and the
// longest our search waited for the analysis of an earlier game to stop.

package player

import (
	"slices"
	"sync"
	"time"

	"go.uber.org/zap"

	"dossier/engine"
	"dossier/games"
)

// memoryUse counts, for the game in progress, what the memory changed in our searches.
type memoryUse struct {
	mu sync.Mutex
	// searches counts our searches; settled those in which the experience settled nodes, nodes how many.
	searches, settled int
	nodes             uint64
	// prepared and recalled count the moves a prepared entry or the game memory gave instead of the search's;
	// drawsLeft those of recalled that left a repeated draw (the others replayed a won game).
	prepared, recalled, drawsLeft int
	// waitMax is the longest our search waited for the analysis of an earlier game to stop.
	waitMax time.Duration
	// onClock is the time our searches spent outside the search proper (the searcher taken, the wait for the
	// background, the experience handed over, the game memory and the preparation consulted, the move filed):
	// the memory's cost on our clock; onClockMax the longest of one search.
	onClock, onClockMax time.Duration
	// cpuAtStart is backgroundCPU at the game's start: the game's line gives what the background spent since.
	cpuAtStart time.Duration
	// reached are our searches that reached a depth, in order.
	reached []reachedSearch
}

// reachedSearch is the ply of a position we searched, the depth the search reached and the value it found for us.
type reachedSearch struct {
	ply, depth int
	score      float64
}

// waited counts how long a search of ours waited for the background work to stop.
func (u *memoryUse) waited(d time.Duration) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.waitMax = max(u.waitMax, d)
}

// spentOnClock counts the time a search of ours spent outside its search proper, and says which parts took it when
// it took more than slowOnClock.
func (u *memoryUse) spentOnClock(c onClock, ply int, log *zap.Logger) {
	total := c.total()
	u.mu.Lock()
	u.onClock += total
	u.onClockMax = max(u.onClockMax, total)
	u.mu.Unlock()
	if total > slowOnClock && log != nil {
		log.Warn("a search of ours spent long outside its search", zap.Int("ply", ply), zap.Duration("total", total),
			zap.Duration("searcher", c.parts[partSearcher]), zap.Duration("hold", c.parts[partHold]),
			zap.Duration("experience", c.parts[partExperience]), zap.Duration("consult", c.parts[partConsult]),
			zap.Duration("report", c.parts[partReport]), zap.Duration("filer_lock", c.parts[partFilerLock]),
			zap.Duration("commit", c.parts[partCommit]))
	}
}

// slowOnClock is the time outside the search proper past which a search is logged with its parts: on a
// scramble clock (0.1 s and 0.1 s a move) a move has about 100 ms to spare, and every search in session 21's
// matches but two (68 and 80 ms) spent below 3 ms.
const slowOnClock = 20 * time.Millisecond

// The parts of a search of ours outside its search proper, in order.
const (
	partSearcher   = iota // the searcher taken (p.mu), the notices said
	partHold              // the background told to stop (the gate)
	partExperience        // the experience handed to the searcher
	partConsult           // the game memory and the preparation consulted on the search's result
	partReport            // what the search found counted and said
	partFilerLock         // the filer's lock taken to keep the expected reply
	partCommit            // the wait for what was filed to be committed (at most commitWait)
	partCount
)

// onClock times the parts of a search of ours outside its search proper.
type onClock struct {
	last  time.Time
	parts [partCount]time.Duration
}

// begin starts the clock.
func (c *onClock) begin() { c.last = time.Now() }

// mark counts the time since the last mark (or begin, or skip) as part.
func (c *onClock) mark(part int) {
	now := time.Now()
	c.parts[part] += now.Sub(c.last)
	c.last = now
}

// skip leaves the time since the last mark uncounted (the search proper).
func (c *onClock) skip() { c.last = time.Now() }

// total is the time counted in all parts.
func (c *onClock) total() time.Duration {
	var t time.Duration
	for _, d := range c.parts {
		t += d
	}
	return t
}

// reset starts the count of a new game.
func (u *memoryUse) reset() {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.searches, u.settled, u.nodes, u.prepared, u.recalled, u.drawsLeft, u.waitMax = 0, 0, 0, 0, 0, 0, 0
	u.onClock, u.onClockMax, u.cpuAtStart = 0, 0, time.Duration(backgroundCPU.Load())
	u.reached = u.reached[:0]
}

// search counts one search at ply of the game: what the experience settled (hits nodes), and the moves of the
// search itself, after the game memory and after the prepared entries.
func (u *memoryUse) search(ply int, hits uint64, searched, recalled, prepared engine.Result) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.searches++
	if searched.Depth > 0 {
		u.reached = append(u.reached, reachedSearch{ply: ply, depth: searched.Depth, score: searched.Score})
	}
	if hits > 0 {
		u.settled++
		u.nodes += hits
	}
	if recalled.Move != searched.Move && recalled.Move != games.NoMove {
		u.recalled++
	}
	if prepared.Move != recalled.Move && prepared.Move != games.NoMove {
		u.prepared++
	}
}

// leftDraw counts a move the game memory played to leave a repeated draw.
func (u *memoryUse) leftDraw() {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.drawsLeft++
}

// depth returns the median depth our searches of the game reached (0 when none).
func (u *memoryUse) depth() int {
	u.mu.Lock()
	defer u.mu.Unlock()
	if len(u.reached) == 0 {
		return 0
	}
	d := make([]int, len(u.reached))
	for i, r := range u.reached {
		d[i] = r.depth
	}
	slices.Sort(d)
	return d[len(d)/2]
}

// lostFrom returns the ply from which the analysis of a lost game looks for the mistake: window of our moves
// before the last stretch of the game in which our own searches saw it lost (a value of -losing or less), or
// before the game's end when they never did; 0 when the game has fewer of our moves than that.
func (u *memoryUse) lostFrom(losing float64, window int) int {
	u.mu.Lock()
	defer u.mu.Unlock()
	k := len(u.reached) // the first search of the last lost stretch
	for k > 0 && u.reached[k-1].score <= -losing {
		k--
	}
	if k-window <= 0 {
		return 0
	}
	return u.reached[k-window].ply
}

// log says what the memory did in the game that ended (info level: one line a game), with the contempt the
// game was played with.
func (u *memoryUse) log(log *zap.Logger, gameID string, score, contempt float64) {
	u.mu.Lock()
	defer u.mu.Unlock()
	log.Info("memory in the game", zap.String("game", gameID), zap.Float64("score", score), zap.Float64("contempt", contempt),
		zap.Int("searches", u.searches), zap.Int("experience_searches", u.settled),
		zap.Uint64("experience_nodes", u.nodes), zap.Int("prepared_moves", u.prepared),
		zap.Int("recalled_moves", u.recalled-u.drawsLeft), zap.Int("draws_left", u.drawsLeft), zap.Duration("background_wait_max", u.waitMax),
		zap.Duration("memory_on_clock", u.onClock), zap.Duration("memory_on_clock_max", u.onClockMax),
		zap.Duration("background_cpu", time.Duration(backgroundCPU.Load())-u.cpuAtStart))
}
