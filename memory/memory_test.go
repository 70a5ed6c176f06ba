// Tests of the memory in one process: what reads return after events, idempotence, take-backs, merges,
// forgetting, dumps and imports, bad events, and a second Memory on the same directory as a client.

package memory

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"

	"dossier/play/opponent"
)

func TestSecondMemoryIsAClientAndTakesOver(t *testing.T) {
	dir := t.TempDir()
	a, b := openTwice(t, dir)
	defer b.Close()
	if !a.Owner() || b.Owner() {
		t.Fatalf("owner: a %v b %v, want a only", a.Owner(), b.Owner())
	}
	idA := playGame(t, a, "alpha", t0, 2, 1)
	idB := playGame(t, b, "beta", t0, 2, 0)
	if p, err := b.Profile("alpha"); err != nil || p.Games[0].ID != idA {
		t.Errorf("the client reads the owner's game: %+v %v", p, err)
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, socketFile)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the closed owner left its socket: %v", err)
	}
	mustRecord(t, b, Event{Sighting: &Sighting{Opponent: opponent.Opponent{Name: "gamma"}}})
	if !b.Owner() {
		t.Error("the client did not take the store over")
	}
	sums, err := b.Opponents()
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, s := range sums {
		keys = append(keys, s.Key)
	}
	if want := []string{"alpha", "beta", "gamma"}; !slices.Equal(keys, want) {
		t.Errorf("opponents %q, want %q", keys, want)
	}
	if g, err := b.Games("beta"); err != nil || g[0].ID != idB {
		t.Errorf("beta's game %+v %v", g, err)
	}
}

func TestLongDirectoryUsesATempSocket(t *testing.T) {
	dir := filepath.Join(t.TempDir(), strings.Repeat("d", 60), strings.Repeat("e", 60))
	a, err := Open(Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := Open(Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	sock, err := os.ReadFile(filepath.Join(dir, socketPathFile))
	if err != nil {
		t.Fatal(err)
	}
	path := strings.TrimSpace(string(sock))
	if filepath.Dir(path) != filepath.Clean(os.TempDir()) || len(path) > maxSocketPath {
		t.Errorf("socket at %s, want one under %s", path, os.TempDir())
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 || fi.Mode()&os.ModeSocket == 0 {
		t.Errorf("socket %s: %v %v, want an owner-only socket", path, fi.Mode(), err)
	}
	if b.Owner() {
		t.Error("the second Memory owns the store too")
	}
	mustRecord(t, b, Event{Sighting: &Sighting{Opponent: opponent.Opponent{Name: "far"}}})
	if _, err := a.Profile("far"); err != nil {
		t.Error(err)
	}
}

func TestStaleSocketIsReplaced(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, socketFile), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	m, err := Open(Options{Dir: dir, ConnectTimeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if !m.Owner() {
		t.Error("not the owner")
	}
	fi, err := os.Stat(filepath.Join(dir, socketFile))
	if err != nil || fi.Mode()&os.ModeSocket == 0 || fi.Mode().Perm() != 0o600 {
		t.Errorf("socket: %v %v", fi, err)
	}
}

func TestNewDirectoryIsOwnerOnly(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a", "dossier")
	m, err := Open(Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if fi, err := os.Stat(dir); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("%s: %v %v, want mode 0700", dir, fi.Mode(), err)
	}
}

func TestDefaultDir(t *testing.T) {
	t.Setenv("XDG_DATA_HOME", "/data")
	if d, err := DefaultDir(); err != nil || d != "/data/dossier" {
		t.Errorf("with XDG_DATA_HOME: %q %v", d, err)
	}
	t.Setenv("XDG_DATA_HOME", "")
	t.Setenv("HOME", "/home/u")
	if d, err := DefaultDir(); err != nil || d != "/home/u/.local/share/dossier" {
		t.Errorf("without XDG_DATA_HOME: %q %v", d, err)
	}
	t.Setenv("XDG_DATA_HOME", "relative") // the XDG spec says to ignore a relative path
	if d, err := DefaultDir(); err != nil || d != "/home/u/.local/share/dossier" {
		t.Errorf("with a relative XDG_DATA_HOME: %q %v", d, err)
	}
}

func TestNewGameIDsSortByTimeAndDiffer(t *testing.T) {
	ids := make([]string, 1000)
	for i := range ids {
		ids[i] = NewGameID()
		if i%100 == 0 {
			time.Sleep(time.Millisecond)
		}
	}
	if !slices.IsSortedFunc(ids, func(a, b string) int {
		return strings.Compare(a[:len(gameIDTime)], b[:len(gameIDTime)])
	}) {
		t.Error("game ids do not sort by time")
	}
	if len(slices.Compact(slices.Sorted(slices.Values(ids)))) != len(ids) {
		t.Error("two game ids are equal")
	}
	if ids[0] >= ids[len(ids)-1] {
		t.Errorf("%s sorts after %s", ids[0], ids[len(ids)-1])
	}
}

func TestClosedMemoryRefusesEvents(t *testing.T) {
	m, err := Open(Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	p := m.Record(Event{Sighting: &Sighting{Opponent: opponent.Opponent{Name: "late"}}})
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	if err := p.Err(); err != nil {
		t.Errorf("an event recorded before Close: %v, want it committed", err)
	}
	if err := m.Record(Event{Sighting: &Sighting{Opponent: opponent.Opponent{Name: "later"}}}).Err(); !errors.Is(err, ErrClosed) {
		t.Errorf("after Close: %v, want ErrClosed", err)
	}
	if _, err := m.Profile("late"); !errors.Is(err, ErrClosed) {
		t.Errorf("profile after Close: %v, want ErrClosed", err)
	}
}

// TestOwnerCloseWhileClientWrites closes the owner while a client records moves: the client's events reach
// the store through whoever owns it next, none fails.
func TestOwnerCloseWhileClientWrites(t *testing.T) {
	dir := t.TempDir()
	a, b := openTwice(t, dir)
	defer b.Close()
	id := NewGameID()
	var pendings []*Pending
	for ply := range 2000 {
		pendings = append(pendings, b.Record(Event{Move: &MoveRecord{GameID: id, Ply: ply, Move: "e2e4", TimeMS: -1,
			Probability: -1}}))
		if ply == 500 {
			if err := a.Close(); err != nil {
				t.Fatal(err)
			}
		}
	}
	waitAll(t, pendings, "")
	if !b.Owner() {
		t.Error("the client did not take over")
	}
	n := storedMoves(b, id)
	if n != 2000 {
		t.Errorf("%d moves in the store, want 2000", n)
	}
}

// TestOpenWaitsBoundedForASilentOwner holds the store's lock without serving the socket, as an owner that
// hangs does: Open gives up after its connect timeout with an error naming the directory.
func TestOpenWaitsBoundedForASilentOwner(t *testing.T) {
	dir := t.TempDir()
	lock, err := os.OpenFile(filepath.Join(dir, lockFile), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, err = Open(Options{Dir: dir, ConnectTimeout: 300 * time.Millisecond})
	if !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), dir) {
		t.Errorf("got %v, want ErrUnavailable naming %s", err, dir)
	}
	if waited := time.Since(start); waited > 5*time.Second {
		t.Errorf("Open waited %v", waited)
	}
}

// TestLogsGoThroughZap checks the memory's messages and badger's own reach the logger given in Options.
func TestLogsGoThroughZap(t *testing.T) {
	core, logs := observer.New(zap.DebugLevel)
	m, err := Open(Options{Dir: t.TempDir(), Logger: zap.New(core)})
	if err != nil {
		t.Fatal(err)
	}
	m.Close()
	if logs.FilterMessageSnippet("serving other processes").Len() != 1 {
		t.Error("no message of the memory's ownership")
	}
	if logs.FilterLoggerName("badger").Len() == 0 {
		t.Errorf("no message from badger in %d entries", logs.Len())
	}
}
