// Collecting the background's garbage between our searches. The memory's work beside the search (the reading
// for a game, the learners' fold after it, an analysis) allocates hundreds of megabytes against a large memory,
// and the collections that this wakes run on the runtime's own threads at our search's priority: the marking
// workers, and the background sweeper, which spins while one of our niced threads holds a span it sweeps (Go
// issue 73499) and then takes half of a single core from our search until that thread's turn comes. Measured in
// session 30 on one core (bots/memorycost, a Player kept for two games, go at once after ucinewgame): our
// searches kept 0.81-0.89 of the nodes per second of no memory, the searches after the reading a third. A
// collection made by the background itself at the end of each burst, once no search of ours runs, does that
// work in the opponent's time (or, where the front end waits for the reading, before the clock starts) and
// leaves the heap swept, with its next collection a whole heap's growth away.

package player

import (
	"context"
	"runtime"
	"runtime/metrics"
	"sync"
	"sync/atomic"
)

// collectAfterBytes is how much the process must have allocated since the last collection made here for the
// background to make another: less than a burst of the memory's work (a game's start read 221 MB with a memory
// of 1,000 games in session 29), more than a few moves learned.
const collectAfterBytes = 32 << 20

var collector struct {
	mu   sync.Mutex    // one collection at a time
	last atomic.Uint64 // the heap's allocations counted at the last collection made here
}

// collectBetweenSearches ends a burst of background work: when the process has allocated collectAfterBytes
// since the last, it waits until no search of ours runs (fg nil: does not wait; ctx ended: waits no longer)
// and runs a collection on the calling thread, which the background's priority keeps off our search's CPU.
func collectBetweenSearches(ctx context.Context, fg *foreground) {
	if heapAllocated()-collector.last.Load() < collectAfterBytes {
		return
	}
	if fg != nil { // waited for without the lock: another thread's collection never waits for our search
		_, leave := fg.enter(ctx)
		defer leave()
	}
	collector.mu.Lock()
	defer collector.mu.Unlock()
	if heapAllocated()-collector.last.Load() < collectAfterBytes {
		return // another thread collected meanwhile
	}
	runtime.GC()
	collector.last.Store(heapAllocated())
}

// heapAllocated is the bytes the process has allocated on the heap since it started.
func heapAllocated() uint64 {
	sample := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	metrics.Read(sample)
	if sample[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return sample[0].Value.Uint64()
}
