package player

import (
	"context"
	"runtime"
	"runtime/metrics"
	"testing"
	"time"
)

// forcedCollections counts the collections runtime.GC made.
func forcedCollections() uint64 {
	sample := []metrics.Sample{{Name: "/gc/cycles/forced:gc-cycles"}}
	metrics.Read(sample)
	return sample[0].Value.Uint64()
}

var collectSink [][]byte

// allocate allocates n bytes of garbage.
func allocate(n int) {
	for range n >> 20 {
		collectSink = append(collectSink, make([]byte, 1<<20))
	}
	collectSink = nil
}

func TestCollectBetweenSearchesWaitsForOurSearch(t *testing.T) {
	setGOMAXPROCS(t, 1) // the gate's bookkeeping done at once (see foreground.hold)
	fg := newForeground()
	collector.last.Store(heapAllocated()) // from a known start: nothing allocated since a collection
	before := forcedCollections()
	allocate(collectAfterBytes / 2)
	collectBetweenSearches(context.Background(), fg)
	if n := forcedCollections(); n != before {
		t.Fatalf("%d collections after half of collectAfterBytes allocated, want none", n-before)
	}
	allocate(collectAfterBytes)
	fg.hold() // a search of ours runs
	done := make(chan struct{})
	go func() {
		collectBetweenSearches(context.Background(), fg)
		close(done)
	}()
	select {
	case <-done:
		t.Fatal("the background collected while a search of ours ran")
	case <-time.After(50 * time.Millisecond):
	}
	if n := forcedCollections(); n != before {
		t.Fatalf("%d collections while a search of ours ran, want none", n-before)
	}
	fg.release()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("no collection after our search ended")
	}
	if n := forcedCollections(); n != before+1 {
		t.Fatalf("%d collections after our search ended, want 1", n-before)
	}
	// A waiter whose context ends (a front end waits for the reading) collects without waiting.
	allocate(collectAfterBytes)
	fg.hold()
	defer fg.release()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	collectBetweenSearches(ctx, fg)
	if n := forcedCollections(); n != before+2 {
		t.Fatalf("%d collections in all, want 2", n-before)
	}
	runtime.KeepAlive(collectSink)
}
