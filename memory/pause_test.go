package memory

import (
	"reflect"
	"sync/atomic"
	"testing"
	"time"
)

// A read the store answers in this process pauses between the records it takes: reading 40 games (each a
// game, a summary and its moves' records) calls the pause at least once every readPauseEvery records, and the
// result is the one a memory without a pause reads.
func TestReadsPauseBetweenRecords(t *testing.T) {
	var pauses atomic.Int64
	dir := t.TempDir()
	m, err := Open(Options{Dir: dir, GCInterval: -1, ReadPause: func() { pauses.Add(1) }})
	if err != nil {
		t.Fatal(err)
	}
	const games = 40
	for i := range games {
		playGame(t, m, "pauser", t0.Add(time.Duration(i)*time.Hour), 6, 1)
	}
	pauses.Store(0)
	got, err := m.GamesBrief("pauser")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != games {
		t.Fatalf("read %d games, want %d", len(got), games)
	}
	if n := pauses.Load(); n < games/readPauseEvery {
		t.Fatalf("the read of %d games paused %d times, want at least %d", games, n, games/readPauseEvery)
	}
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	plain, err := Open(Options{Dir: dir, GCInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer plain.Close()
	want, err := plain.GamesBrief("pauser")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatal("a read that paused differs from the same read without pauses")
	}
}

// A pause that blocks holds the read until it returns: the reading stops while something more urgent runs.
func TestAReadWaitsInItsPause(t *testing.T) {
	release := make(chan struct{})
	var held atomic.Bool
	m := openTemp(t, func(o *Options) {
		o.ReadPause = func() {
			if held.Load() {
				<-release
			}
		}
	})
	for i := range 16 {
		playGame(t, m, "waiter", t0.Add(time.Duration(i)*time.Hour), 4, 0)
	}
	held.Store(true)
	done := make(chan error, 1)
	go func() {
		_, err := m.GamesBrief("waiter")
		done <- err
	}()
	select {
	case err := <-done:
		t.Fatalf("the read ended (%v) while its pause held it", err)
	case <-time.After(200 * time.Millisecond):
	}
	held.Store(false)
	close(release)
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the read did not end after its pause returned")
	}
}

// The owner's reads hand their result over without the wire's encoding when the caller asks for its type,
// and only then; the value is the one the encoding would give.
func TestAssignRead(t *testing.T) {
	p := &Profile{Key: "k", Names: []string{"K"}}
	var out Profile
	if !assignRead(p, &out) || !reflect.DeepEqual(out, *p) {
		t.Fatalf("a profile was not handed over: %+v", out)
	}
	games := []gameData{{}}
	var gout []gameData
	if !assignRead(games, &gout) || len(gout) != 1 {
		t.Fatal("a slice of games was not handed over")
	}
	var wrong []Experience
	if assignRead(games, &wrong) {
		t.Fatal("a result of another type was handed over")
	}
	if assignRead(nil, &out) || assignRead(p, nil) || assignRead(p, out) {
		t.Fatal("a nil result, a nil or non-pointer destination was handed over")
	}
}
