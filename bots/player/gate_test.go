// The gate between our searches and the analysis: background searches wait while ours run and are cut short
// when one begins; an analysis's budget counts only the time its searches ran.

package player

import (
	"context"
	"path/filepath"
	"slices"

	"dossier/games/chess"
	"dossier/memory"
	"runtime"
	"testing"
	"time"
)

// setGOMAXPROCS sets the runtime's GOMAXPROCS to n for the test, and forgets backgroundHasOwnP's answer for
// as long (reserveBackgroundP gives it again), so that the gate sees the processors the test set.
func setGOMAXPROCS(t *testing.T, n int) {
	prev := runtime.GOMAXPROCS(n)
	processors.ownP.Store(ownPUnknown)
	t.Cleanup(func() {
		runtime.GOMAXPROCS(prev)
		processors.ownP.Store(ownPUnknown)
	})
}

func TestForegroundHoldsBackgroundSearches(t *testing.T) {
	// The background without a P of its own (GOMAXPROCS 1 set by the user): ours waits for it a little, since
	// both share the one P (with a P of its own ours waits for nothing: lowpriority_test.go).
	setGOMAXPROCS(t, 1)
	fg := newForeground()
	run, leave := fg.enter(context.Background())
	if run.Err() != nil {
		t.Fatal("a background search was refused while no search of ours ran")
	}
	stopped := make(chan struct{})
	go func() { // a background search slow to stop: ours waits for it no longer than maxHoldWait
		<-run.Done()
		time.Sleep(20 * time.Millisecond)
		leave()
		close(stopped)
	}()
	if waited := fg.hold(); waited < maxHoldWait || waited > 15*time.Millisecond {
		t.Errorf("our search began after %v, want after about %v", waited, maxHoldWait)
	}
	<-stopped
	fg.release()
	// One that stops at once: when ours began before maxHoldWait, it had stopped.
	run, leave = fg.enter(context.Background())
	go func() {
		<-run.Done()
		leave()
	}()
	waited := fg.hold()
	fg.mu.Lock()
	running := len(fg.running)
	fg.mu.Unlock()
	if waited < maxHoldWait && running != 0 {
		t.Errorf("our search began after %v with the background search still running", waited)
	}
	entered := backgroundEnters(fg)
	select {
	case <-entered:
		t.Fatal("a background search began while ours ran")
	case <-time.After(50 * time.Millisecond):
	}
	fg.hold() // a second search of ours (pondering and a search together)
	fg.release()
	select {
	case <-entered:
		t.Fatal("a background search began while one search of ours still ran")
	case <-time.After(20 * time.Millisecond):
	}
	fg.release()
	select {
	case <-entered:
	case <-time.After(time.Second):
		t.Fatal("the background search never began after ours ended")
	}
	// A waiting background search ends with its context.
	fg.hold()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if run, _ := fg.enter(ctx); run.Err() == nil {
		t.Error("a background search with an ended context began")
	}
	fg.release()
}

// TestBudgetGateCountsOnlyTheTimeItRan: searches of up to 10 ms with our searches of 30 ms between them; a budget
// of 50 ms ends the analysis after about 50 ms of its own searching, not after 50 ms of the clock.
func TestBudgetGateCountsOnlyTheTimeItRan(t *testing.T) {
	fg := newForeground()
	ctx, end := context.WithCancel(context.Background())
	gate := &budgetGate{fg: fg, budget: 50 * time.Millisecond, end: end}
	stopOurs := make(chan struct{})
	go func() { // our searches
		for {
			select {
			case <-stopOurs:
				return
			case <-time.After(10 * time.Millisecond):
			}
			fg.hold()
			time.Sleep(30 * time.Millisecond)
			fg.release()
		}
	}()
	defer close(stopOurs)
	begun := time.Now()
	var ran time.Duration
	for ctx.Err() == nil {
		run, leave := gate.Enter(ctx)
		searched := time.Now()
		select {
		case <-run.Done():
		case <-time.After(10 * time.Millisecond):
		}
		ran += time.Since(searched)
		leave()
	}
	if ran < 45*time.Millisecond || ran > 150*time.Millisecond {
		t.Errorf("the background searches ran %v in all within a budget of 50 ms", ran)
	}
	if took := time.Since(begun); took < ran+30*time.Millisecond {
		t.Errorf("the analysis ended after %v of the clock, %v of it searching: the time our searches took counted against its budget", took, ran)
	}
}

// TestAnalystTakesLostGamesFirst: of the analysis jobs waiting in the memory, lost games come first, the latest
// first, then drawn ones, then won ones; none is dropped (each is done once, by some process).
func TestAnalystTakesLostGamesFirst(t *testing.T) {
	g := chess.Game{}
	mem, err := memory.Open(memory.Options{Dir: filepath.Join(t.TempDir(), "memory")})
	if err != nil {
		t.Fatal(err)
	}
	defer mem.Close()
	at := time.Now().Add(-time.Hour)
	for i, j := range []struct {
		id         string
		won, drawn bool
	}{{"won 1", true, false}, {"lost 2", false, false}, {"drawn 3", false, true}, {"lost 4", false, false}, {"won 5", true, false}} {
		lg := lostGame{game: g, preset: "strongest", start: g.Start(), key: "rival", gameID: j.id, won: j.won, drawn: j.drawn,
			depth: analysisDepth}
		if err := mem.Record(memory.Event{Job: analysisJobOf(lg, time.Second, at.Add(time.Duration(i)*time.Minute))}).
			Wait(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	var order []string
	for {
		job, err := mem.ClaimJob(context.Background(), "tester", time.Minute, analysisKinds...)
		if err != nil {
			t.Fatal(err)
		}
		if job == nil {
			break
		}
		order = append(order, job.GameID)
		if err := mem.FinishJob(context.Background(), job.ID, "tester"); err != nil {
			t.Fatal(err)
		}
	}
	if want := []string{"lost 4", "lost 2", "drawn 3", "won 5", "won 1"}; !slices.Equal(order, want) {
		t.Errorf("the jobs were taken in the order %q, want %q", order, want)
	}
}

// settle waits until the bookkeeper did what hold and release left to it.
func settle(t *testing.T, fg *foreground) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Second)
	for fg.queued.Load() != 0 {
		if time.Now().After(deadline) {
			t.Fatal("the gate's bookkeeping did not end")
		}
		time.Sleep(time.Millisecond)
	}
}

// TestOurSearchNeverWaitsForTheGatesLock: a background thread that holds the gate's lock (and that the operating
// system, at the lowest priority, may not run again for a long while) does not keep our search waiting when the
// background has a P of its own: hold and release return at once, and what they mark is marked, in order, once
// the lock is free. Before, hold waited for the lock (80 ms once in session 21's scramble match).
func TestOurSearchNeverWaitsForTheGatesLock(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		setGOMAXPROCS(t, 2)
	}
	if !backgroundHasOwnP() {
		t.Skip("no P for the background on this machine")
	}
	fg := newForeground()
	fg.mu.Lock() // the background thread that holds the lock and does not run
	returned := make(chan time.Duration)
	go func() {
		waited := fg.hold()
		fg.release()
		waited2 := fg.hold() // the next search, before the lock was ever free
		returned <- max(waited, waited2)
	}()
	select {
	case waited := <-returned:
		if waited > 5*time.Millisecond {
			t.Errorf("hold took %v with the lock held", waited)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("our search waited for the lock a background thread holds")
	}
	fg.mu.Unlock() // the background thread runs again
	settle(t, fg)
	if !fg.busy() {
		t.Error("after hold, release and hold, no search is marked as running")
	}
	fg.release()
	settle(t, fg)
	if fg.busy() {
		t.Error("a search is still marked as running after every hold was released")
	}
	// The background enters again now that no search of ours runs.
	select {
	case <-backgroundEnters(fg):
	case <-time.After(2 * time.Second):
		t.Error("the background could not enter after our searches ended")
	}
}

// backgroundEnters has a background step enter fg and leave at once; the channel is closed once it entered.
func backgroundEnters(fg *foreground) <-chan struct{} {
	entered := make(chan struct{})
	go func() {
		_, leave := fg.enter(context.Background())
		leave()
		close(entered)
	}()
	return entered
}
