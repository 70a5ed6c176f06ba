package player

import (
	"runtime"
	"sync"
	"syscall"
	"testing"
	"time"

	"dossier/bots/presets"
	"dossier/games"
	"dossier/games/checkers"
	"dossier/memory/learn"

	"golang.org/x/sys/unix"
)

// TestBackgroundThreadRunsAtIdlePriority checks what makes the background free on a shared core: its thread's
// policy is the normal one at the niceness BackgroundNice gives (never SCHED_IDLE, whose starved threads keep
// the runtime from stopping the world for a collection: session 22), and the runtime
// keeps a P for it beside the search's even where GOMAXPROCS was 1 (taskset, a one-CPU container).
func TestBackgroundThreadRunsAtIdlePriority(t *testing.T) {
	if processors.fixed {
		t.Skip("GOMAXPROCS is set in the environment")
	}
	setGOMAXPROCS(t, 1)
	for _, tc := range []struct {
		nice   int
		policy uint32
	}{{19, unix.SCHED_NORMAL}, {10, unix.SCHED_NORMAL}} {
		type seen struct {
			policy uint32
			nice   int
			err    error
		}
		got := make(chan seen, 1)
		runAtLowPriority("dossier-test", tc.nice, func() {
			attr, err := unix.SchedGetAttr(0, 0)
			if err != nil {
				got <- seen{err: err}
				return
			}
			// getpriority returns 20 - nice for a thread (the raw system call's convention).
			prio, err := syscall.Getpriority(syscall.PRIO_PROCESS, syscall.Gettid())
			got <- seen{policy: attr.Policy, nice: 20 - prio, err: err}
		})
		s := <-got
		if s.err != nil {
			t.Fatal(s.err)
		}
		if s.policy != tc.policy || s.nice != tc.nice {
			t.Errorf("nice %d: the background thread has policy %d and nice %d, want policy %d", tc.nice, s.policy, s.nice, tc.policy)
		}
	}
	if n := runtime.GOMAXPROCS(0); n < 2 {
		t.Errorf("GOMAXPROCS %d after a background thread started from 1; want a P for it beside the search's", n)
	}
	if !backgroundHasOwnP() {
		t.Error("backgroundHasOwnP is false with a P reserved")
	}
}

// TestLearningWaitsForOurSearch checks that the learning worker learns an opponent move only between our
// searches: the move arrives just before our search of the reply, and is learned once that search is over.
func TestLearningWaitsForOurSearch(t *testing.T) {
	g := checkers.Game{}
	our, err := presets.Lookup(g, presets.Default)
	if err != nil {
		t.Fatal(err)
	}
	l, err := newLearners("x", g, our, nil)
	if err != nil {
		t.Fatal(err)
	}
	fg := newForeground()
	var mu sync.Mutex
	learned := 0
	w := newLearning(g, l, nil, "game", learn.MinimaxModelName, func(*learning, learnItem, float64) {
		mu.Lock()
		learned++
		mu.Unlock()
	}, background{fg: fg, nice: 19})
	count := func() int {
		mu.Lock()
		defer mu.Unlock()
		return learned
	}
	fg.hold()     // our search begins
	settle(t, fg) // the gate marked (hold leaves it to the bookkeeper)
	pos := g.Start()
	var buf [games.MaxMoves]games.Move
	w.add(learnItem{pos: pos.Clone(), move: pos.AppendMoves(buf[:0])[0], ply: 0})
	time.Sleep(200 * time.Millisecond)
	if n := count(); n != 0 {
		t.Fatalf("%d moves learned during our search, want 0", n)
	}
	fg.release() // our search is over
	deadline := time.Now().Add(10 * time.Second)
	for count() == 0 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if n := count(); n != 1 {
		t.Fatalf("%d moves learned after our search, want 1", n)
	}
	if _, _, err := w.finish(time.Minute); err != nil {
		t.Fatal(err)
	}
}

// TestHoldDoesNotWaitForTheBackgroundWithItsOwnP checks that our search starts at once when background work
// is running and has a P of its own: it waits for nothing an idle-priority thread has to do.
func TestHoldDoesNotWaitForTheBackgroundWithItsOwnP(t *testing.T) {
	if processors.fixed {
		t.Skip("GOMAXPROCS is set in the environment")
	}
	reserveBackgroundP(1)
	fg := newForeground()
	leave := background{fg: fg}.enter() // a step of background work that never sees the stop in time
	defer leave()
	if waited := fg.hold(); waited >= maxHoldWait {
		t.Errorf("our search waited %v for the background", waited)
	}
	fg.release()
}
