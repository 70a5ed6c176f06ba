// Opening the badger store of a memory directory: checking the directory, refusing a store that is not ours,
// damaged or newer before writing anything, and repairing what a killed process leaves.

package memory

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	badger "github.com/dgraph-io/badger/v4"
	"go.uber.org/zap"
)

// Badger's sizes for a per-user store: its defaults (64 MB memtables, five of them, 1 GB value-log files, a
// 256 MB block cache) suit a server, not a file in a home directory.
const (
	memTableSize     = 4 << 20
	numMemtables     = 2
	valueLogFileSize = 16 << 20
	blockCacheSize   = 8 << 20
	// diskReserve is the free space below which the store refuses writes: badger writes its memtables and
	// tables through memory maps of sparse files, so running out of space in one kills the process (SIGBUS)
	// instead of returning an error.
	diskReserve = 3*memTableSize + 4<<20
)

// storeDir is the badger directory inside the memory directory.
const storeDir = "store"

// badgerLogger passes badger's messages to zap.
type badgerLogger struct{ s *zap.SugaredLogger }

// Errorf logs one of badger's errors (badger ends its formats with a newline, which zap does not want).
func (l badgerLogger) Errorf(f string, a ...any) { l.s.Errorf(strings.TrimSpace(f), a...) }

// Warningf logs one of badger's warnings.
func (l badgerLogger) Warningf(f string, a ...any) { l.s.Warnf(strings.TrimSpace(f), a...) }

// Infof logs one of badger's messages.
func (l badgerLogger) Infof(f string, a ...any) { l.s.Infof(strings.TrimSpace(f), a...) }

// Debugf logs one of badger's debugging messages.
func (l badgerLogger) Debugf(f string, a ...any) { l.s.Debugf(strings.TrimSpace(f), a...) }

// badgerOptions are the options every open of the store uses.
func badgerOptions(path string, sync bool, log *zap.Logger) badger.Options {
	return badger.DefaultOptions(path).
		WithLogger(badgerLogger{log.Named("badger").Sugar()}).
		WithSyncWrites(sync).
		WithMemTableSize(memTableSize).
		WithNumMemtables(numMemtables).
		WithNumLevelZeroTables(2).
		WithNumLevelZeroTablesStall(8).
		WithValueLogFileSize(valueLogFileSize).
		WithValueThreshold(64 << 10).
		WithBlockCacheSize(blockCacheSize).
		WithNumVersionsToKeep(1).
		WithNumCompactors(2).
		WithNumGoroutines(2).
		WithMetricsEnabled(false).
		WithDetectConflicts(false) // one goroutine writes
}

// checkDir checks that dir can be the memory directory, creating it owner-only when absent. A directory that
// holds anything but the memory's own files is refused untouched.
func checkDir(dir string) error {
	entries, err := os.ReadDir(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return errStorage(dir, "creating the directory", err)
		}
		return nil
	case err != nil:
		return errStorage(dir, "reading the directory", err)
	}
	for _, e := range entries {
		fileName := e.Name()
		switch fileName {
		case storeDir, lockFile, socketFile, socketPathFile:
		default:
			return fail(dir, ErrNotAStore, fmt.Errorf("it holds %q, which the memory did not write; "+
				"choose an empty or new directory", fileName))
		}
	}
	return nil
}

// openStore opens the badger store of the memory directory dir (whose lock the caller holds), creating it when
// new, migrating an older schema and refusing a newer one.
func openStore(dir string, sync bool, log *zap.Logger) (*store, error) {
	path := filepath.Join(dir, storeDir)
	entries, err := os.ReadDir(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
	case err != nil:
		return nil, errStorage(dir, "reading the store", err)
	default:
		if err := checkManifest(path, entries); err != nil {
			return nil, fail(dir, ErrCorrupt, err)
		}
	}
	if err := unwritable(dir); err != nil {
		return nil, err
	}
	if err := removeEmptyLogs(dir, path, log); err != nil {
		return nil, err
	}
	if err := inspect(dir, path, log); err != nil {
		return nil, err
	}
	db, err := badger.Open(badgerOptions(path, sync, log))
	if err != nil {
		return nil, fail(dir, ErrCorrupt, err)
	}
	s := &store{kv: &badgerKV{db: db, dir: dir}, dir: dir, log: log}
	if err := s.checkSchema(); err != nil {
		_ = db.Close()
		return nil, err
	}
	return s, nil
}

// inspect reads an existing store's schema version in badger's read-only mode, which writes nothing, so that a
// store that is not ours, damaged or newer is refused before badger opens it for writing (which starts a new
// value-log file). Badger refuses a read-only open of a store whose last process was killed (its memtable log
// needs truncating); such a store is opened for writing and checked then.
func inspect(dir, path string, log *zap.Logger) error {
	if _, err := os.Stat(filepath.Join(path, "MANIFEST")); err != nil {
		return nil // a new store
	}
	db, err := badger.Open(badgerOptions(path, false, log).WithReadOnly(true))
	// Badger wraps the error in its own text (y.Wrapf), which errors.Is does not see through.
	if err != nil && strings.Contains(err.Error(), badger.ErrTruncateNeeded.Error()) {
		return nil
	}
	if err != nil {
		return fail(dir, ErrCorrupt, err)
	}
	s := &store{kv: &badgerKV{db: db, dir: dir}, dir: dir, log: log}
	_, err = s.readSchema()
	if cerr := db.Close(); err == nil && cerr != nil {
		err = fail(dir, ErrCorrupt, cerr)
	}
	return err
}

// checkManifest refuses a store that has data files but no MANIFEST: badger would start a new one and
// remove the tables it does not list. Badger writes its LOCK file and then the MANIFEST (through
// MANIFEST-REWRITE and a rename) before any data, so a process killed while creating the store leaves those
// two at most, and badger completes such a store.
func checkManifest(path string, entries []os.DirEntry) error {
	hasManifest := false
	var others []string
	for _, e := range entries {
		fileName := e.Name()
		switch fileName {
		case "MANIFEST":
			hasManifest = true
		case "LOCK", "MANIFEST-REWRITE":
		default:
			others = append(others, fileName)
		}
	}
	if !hasManifest && len(others) > 0 {
		return fmt.Errorf("%s has data files (%s) but no badger MANIFEST", path, strings.Join(others, ", "))
	}
	return nil
}

// removeEmptyLogs removes the empty value-log and memtable files a process killed while creating one leaves:
// badger 4.9.6 creates them empty and sizes them next, and refuses to open a store with an empty one ("Open
// existing file ... Create a new file"). An empty file holds no data, so removing it loses nothing.
func removeEmptyLogs(dir, path string, log *zap.Logger) error {
	entries, err := os.ReadDir(path)
	if err != nil {
		return nil // a new store
	}
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".vlog") && !strings.HasSuffix(name, ".mem") {
			continue
		}
		info, err := e.Info()
		if err != nil || info.Size() != 0 || !info.Mode().IsRegular() {
			continue
		}
		log.Warn("memory: removing an empty log file left by a crash", zap.String("file", filepath.Join(path, name)))
		if err := os.Remove(filepath.Join(path, name)); err != nil {
			return errStorage(dir, "removing an empty log file a crash left", err)
		}
	}
	return nil
}

// unwritable refuses a read-only directory before badger tries to write into it (it would fail half-way).
func unwritable(dir string) error {
	path := filepath.Join(dir, storeDir)
	if err := syscall.Access(dir, 2 /* W_OK */); err != nil {
		return errStorage(dir, "the directory is not writable", err)
	}
	if _, err := os.Stat(path); err == nil {
		if err := syscall.Access(path, 2); err != nil {
			return errStorage(dir, "the store is not writable", err)
		}
	}
	return nil
}
