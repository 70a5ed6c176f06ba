// Bad storage: a foreign directory, a damaged store, a directory that cannot be read or written, a full disk.
// Each gives an error naming the directory and its cause, and leaves what is there as it was.

package memory

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	badger "github.com/dgraph-io/badger/v4"

	"dossier/play/opponent"
)

// checkUnchanged compares the files under dir with a snapshot taken before, but badger's LOCK (its pid) and
// the memory's lock file, which Open takes before it looks into a directory laid out as a memory.
func checkUnchanged(t *testing.T, dir string, before map[string]string) {
	t.Helper()
	after := snapshot(t, dir)
	for path, data := range before {
		if filepath.Base(path) != "LOCK" && after[path] != data {
			t.Errorf("%s changed or went", path)
		}
	}
	for path := range after {
		if _, ok := before[path]; !ok && filepath.Base(path) != "LOCK" && filepath.Base(path) != lockFile {
			t.Errorf("%s was written", path)
		}
	}
}

// closedStore makes a memory directory holding one game and closes it.
func closedStore(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	m, err := Open(Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	playGame(t, m, "someone", t0, 2, 1)
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestBadDirectoriesAreRefusedUntouched(t *testing.T) {
	cases := []struct {
		name     string
		setup    func(t *testing.T) string // returns the memory directory
		sentinel error
		want     string
	}{
		{"foreign files", func(t *testing.T) string {
			dir := t.TempDir()
			os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("mine"), 0o600)
			return dir
		}, ErrNotAStore, `"notes.txt"`},
		{"foreign badger store", func(t *testing.T) string {
			dir := t.TempDir()
			db, err := badger.Open(badger.DefaultOptions(filepath.Join(dir, storeDir)).WithLogger(nil))
			if err != nil {
				t.Fatal(err)
			}
			db.Update(func(txn *badger.Txn) error { return txn.Set([]byte("k"), []byte("v")) })
			db.Close()
			return dir
		}, ErrNotAStore, "no dossier schema version"},
		{"damaged manifest", func(t *testing.T) string {
			dir := closedStore(t)
			os.WriteFile(filepath.Join(dir, storeDir, "MANIFEST"), []byte("garbage, not a manifest"), 0o600)
			return dir
		}, ErrCorrupt, "manifest has bad magic"},
		{"lost manifest", func(t *testing.T) string {
			dir := closedStore(t)
			os.Remove(filepath.Join(dir, storeDir, "MANIFEST"))
			return dir
		}, ErrCorrupt, "no badger MANIFEST"},
		{"damaged schema version", func(t *testing.T) string {
			dir := closedStore(t)
			db, err := badger.Open(badgerOptions(filepath.Join(dir, storeDir), false, nopLogger()))
			if err != nil {
				t.Fatal(err)
			}
			db.Update(func(txn *badger.Txn) error { return txn.Set([]byte(keySchema), []byte("two")) })
			db.Close()
			return dir
		}, ErrCorrupt, `schema version "two"`},
		{"a file, not a directory", func(t *testing.T) string {
			path := filepath.Join(t.TempDir(), "file")
			os.WriteFile(path, []byte("x"), 0o600)
			return path
		}, nil, "not a directory"},
		{"under a file", func(t *testing.T) string {
			path := filepath.Join(t.TempDir(), "file")
			os.WriteFile(path, []byte("x"), 0o600)
			return filepath.Join(path, "dossier")
		}, nil, "not a directory"},
	}
	if os.Geteuid() != 0 { // root reads and writes whatever the modes say
		cases = append(cases, struct {
			name     string
			setup    func(t *testing.T) string
			sentinel error
			want     string
		}{"unreadable", func(t *testing.T) string {
			dir := closedStore(t)
			os.Chmod(dir, 0o000)
			t.Cleanup(func() { os.Chmod(dir, 0o700) })
			return dir
		}, nil, "permission denied"}, struct {
			name     string
			setup    func(t *testing.T) string
			sentinel error
			want     string
		}{"read-only", func(t *testing.T) string {
			dir := closedStore(t)
			os.Chmod(dir, 0o500)
			t.Cleanup(func() { os.Chmod(dir, 0o700) })
			return dir
		}, nil, "not writable"})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := c.setup(t)
			before := snapshot(t, filepath.Dir(dir))
			_, err := Open(Options{Dir: dir, ConnectTimeout: time.Second})
			if err == nil {
				t.Fatal("opened")
			}
			if c.sentinel != nil && !errors.Is(err, c.sentinel) {
				t.Errorf("got %v, want %v", err, c.sentinel)
			}
			if !strings.Contains(err.Error(), dir) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%q does not name %s and %q", err, dir, c.want)
			}
			checkUnchanged(t, filepath.Dir(dir), before)
		})
	}
}

// TestDamagedRecordIsReportedAndTheStoreServesOn damages one stored value: reading it reports the record, and
// the memory goes on recording and reading other opponents.
func TestDamagedRecordIsReportedAndTheStoreServesOn(t *testing.T) {
	m := openTemp(t)
	playGame(t, m, "damaged", t0, 2, 1)
	if err := m.own.st.update(func(txn kvTxn) error {
		return txn.set(profileKey("damaged"), []byte(`{"key":"damaged","names":[7]}`))
	}); err != nil {
		t.Fatal(err)
	}
	_, err := m.Profile("damaged")
	if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), m.Dir()) || !strings.Contains(err.Error(), `"o/damaged"`) {
		t.Errorf("reading the damaged profile: %v", err)
	}
	if err := m.Dump(&strings.Builder{}); !errors.Is(err, ErrCorrupt) {
		t.Errorf("dumping: %v, want ErrCorrupt", err)
	}
	playGame(t, m, "fine", t0, 2, 1)
	if _, err := m.Profile("fine"); err != nil {
		t.Error(err)
	}
}

// mountTmpfs mounts a tmpfs of the size at a new directory, or skips the test when it cannot.
func mountTmpfs(t *testing.T, size string) string {
	t.Helper()
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+size, "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs (needs root): %v %s", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", "-l", dir).Run() })
	return dir
}

func TestReadOnlyFileSystemIsRefused(t *testing.T) {
	mnt := mountTmpfs(t, "32m")
	dir := filepath.Join(mnt, "dossier")
	m, err := Open(Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	playGame(t, m, "kept", t0, 2, 1)
	m.Close()
	if out, err := exec.Command("mount", "-o", "remount,ro", mnt).CombinedOutput(); err != nil {
		t.Skipf("cannot remount read-only: %v %s", err, out)
	}
	before := snapshot(t, dir)
	_, err = Open(Options{Dir: dir})
	if err == nil || !strings.Contains(err.Error(), dir) || !strings.Contains(err.Error(), "read-only file system") {
		t.Errorf("opening on a read-only file system: %v", err)
	}
	checkUnchanged(t, dir, before)
}

func TestFullDiskFailsWritesAndRecovers(t *testing.T) {
	mnt := mountTmpfs(t, "40m")
	dir := filepath.Join(mnt, "dossier")
	m, err := Open(Options{Dir: dir, GCInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	kept := playGame(t, m, "before", t0, 4, 1)
	// Fill the disk but 8 MB, less than the store needs to write safely.
	filler := filepath.Join(mnt, "filler")
	var st statfs
	free := st.free(t, mnt)
	if err := os.WriteFile(filler, make([]byte, free-8<<20), 0o600); err != nil {
		t.Fatal(err)
	}
	err = m.Record(Event{Sighting: &Sighting{Opponent: opponent.Opponent{Name: "during"}}}).Wait(context.Background())
	if !errors.Is(err, ErrDiskFull) || !strings.Contains(err.Error(), dir) || !strings.Contains(err.Error(), "KiB free") {
		t.Fatalf("recording on a full disk: %v, want ErrDiskFull naming %s", err, dir)
	}
	if p, err := m.Profile("before"); err != nil || p.Games[0].ID != kept {
		t.Errorf("reading on a full disk: %+v %v", p, err)
	}
	os.Remove(filler)
	mustRecord(t, m, Event{Sighting: &Sighting{Opponent: opponent.Opponent{Name: "after"}}})
	sums, err := m.Opponents()
	if err != nil || len(sums) != 2 || sums[0].Key != "after" || sums[1].Key != "before" {
		t.Errorf("opponents after the disk was freed: %+v %v", sums, err)
	}
}
