package player

import (
	"os"
	"runtime/debug"
	"testing"
	"time"

	"dossier/bots/searchers"
	"dossier/games/chess"
)

// A read of the memory made on one of the background's threads waits while a search of ours runs, and goes on
// when it ends; one made on any other thread (the front end's) never waits.
func TestPauseReadingHoldsOnlyTheBackground(t *testing.T) {
	p := New(chess.Game{}, searchers.Config{HashMB: 1})
	fg := p.analyst.foreground()
	fg.hold()
	settle(t, fg)
	released := false
	defer func() {
		if !released {
			fg.release()
		}
	}()
	front := make(chan struct{})
	go func() {
		p.pauseReading()
		close(front)
	}()
	select {
	case <-front:
	case <-time.After(5 * time.Second):
		t.Fatal("a read on the front end's thread waited for our search")
	}
	back := make(chan struct{})
	runAtLowPriority("dossier-test", 19, func() {
		p.pauseReading()
		close(back)
	})
	select {
	case <-back:
		t.Fatal("a read on a background thread went on while our search ran")
	case <-time.After(100 * time.Millisecond):
	}
	fg.release()
	released = true
	select {
	case <-back:
	case <-time.After(5 * time.Second):
		t.Fatal("a background read did not go on after our search ended")
	}
}

// The learning worker waits for the reading without hurrying it: only a front end's wait (isready) lets the
// reading's parts go on beside our searches.
func TestWaitDoneDoesNotHurryTheReading(t *testing.T) {
	var r reading
	started := make(chan struct{})
	finish := make(chan struct{})
	r.start(19, func() {
		close(started)
		<-finish
	})
	<-started // after readingQuiet
	waited := make(chan struct{})
	go func() {
		r.waitDone()
		close(waited)
	}()
	time.Sleep(50 * time.Millisecond)
	if r.gate().Err() != nil {
		t.Fatal("the learning worker's wait hurried the reading")
	}
	select {
	case <-waited:
		t.Fatal("waitDone returned while the reading ran")
	default:
	}
	close(finish)
	select {
	case <-waited:
	case <-time.After(5 * time.Second):
		t.Fatal("waitDone did not return when the reading ended")
	}
	if r.gate().Err() != nil {
		t.Fatal("the gate of no reading is done")
	}
}

// Opening the memory makes the collector run less often (memoryGCPercent), unless the user set GOGC; closing it
// restores the percent.
func TestMemoryOpenCollectsLessOften(t *testing.T) {
	if _, set := os.LookupEnv("GOGC"); set {
		t.Skip("GOGC is set: the Player leaves it")
	}
	prev := debug.SetGCPercent(100)
	defer debug.SetGCPercent(prev)
	p := New(chess.Game{}, searchers.Config{HashMB: 1})
	if err := p.UseMemory(MemoryConfig{Enabled: true, Dir: t.TempDir()}); err != nil {
		t.Fatal(err)
	}
	p.NewGame(chess.Game{}) // opens the memory
	if got := debug.SetGCPercent(100); got != memoryGCPercent {
		t.Fatalf("GOGC with the memory open: %d, want %d", got, memoryGCPercent)
	}
	debug.SetGCPercent(memoryGCPercent)
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if got := debug.SetGCPercent(100); got != 100 {
		t.Fatalf("GOGC after the memory closed: %d, want 100", got)
	}
}
