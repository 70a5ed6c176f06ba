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
	// onClock is the time our searches spent on the memory's side before the search proper began (the wait
	// for the background, the experience handed over): the memory's cost on our clock.
	onClock time.Duration
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

// beforeSearch counts the time a search of ours spent on the memory's side before its search proper began.
func (u *memoryUse) beforeSearch(d time.Duration) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.onClock += d
}

// reset starts the count of a new game.
func (u *memoryUse) reset() {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.searches, u.settled, u.nodes, u.prepared, u.recalled, u.drawsLeft, u.waitMax = 0, 0, 0, 0, 0, 0, 0
	u.onClock, u.cpuAtStart = 0, time.Duration(backgroundCPU.Load())
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
		zap.Duration("memory_on_clock", u.onClock),
		zap.Duration("background_cpu", time.Duration(backgroundCPU.Load())-u.cpuAtStart))
}
