// The badger store the owning process holds: opening and checking it, its schema, and reading and writing its
// records in transactions.

package memory

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
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

// store is the open badger database; one process holds it.
type store struct {
	db  *badger.DB
	dir string // the memory directory, named in every error
	log *zap.Logger
}

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
	s := &store{db: db, dir: dir, log: log}
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
	s := &store{db: db, dir: dir, log: log}
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

// readSchema reads the store's schema version: 0 for an empty store. A newer version, a store with keys but no
// version (not ours) and a damaged version are errors.
func (s *store) readSchema() (int, error) {
	var version int
	err := s.db.View(func(txn *badger.Txn) error {
		item, err := txn.Get([]byte(keySchema))
		if errors.Is(err, badger.ErrKeyNotFound) {
			it := txn.NewIterator(badger.IteratorOptions{})
			defer it.Close()
			if it.Rewind(); it.Valid() {
				return fail(s.dir, ErrNotAStore, errors.New("the badger store has no dossier schema version"))
			}
			return nil
		}
		if err != nil {
			return fail(s.dir, ErrCorrupt, err)
		}
		return item.Value(func(v []byte) error {
			version, err = strconv.Atoi(string(v))
			if err != nil || version < 1 {
				return fail(s.dir, ErrCorrupt, fmt.Errorf("schema version %q", v))
			}
			return nil
		})
	})
	if err == nil && version > schemaVersion {
		err = fail(s.dir, ErrNewerSchema, fmt.Errorf("its schema version is %d, this dossier reads versions up to %d; "+
			"use a newer dossier or another directory", version, schemaVersion))
	}
	return version, err
}

// checkSchema gives a new store the current schema version and migrates an older one.
func (s *store) checkSchema() error {
	version, err := s.readSchema()
	switch {
	case err != nil:
		return err
	case version == schemaVersion:
		return nil
	case version == 0:
		return s.update(func(txn *badger.Txn) error {
			return txn.Set([]byte(keySchema), []byte(strconv.Itoa(schemaVersion)))
		})
	}
	s.log.Info("migrating the memory store", zap.String("dir", s.dir), zap.Int("from", version), zap.Int("to", schemaVersion))
	return s.migrate(version)
}

// update runs f in one read-write transaction and commits it, wrapping a storage error with the directory.
func (s *store) update(f func(txn *badger.Txn) error) error {
	if err := s.checkSpace(); err != nil {
		return err
	}
	err := s.db.Update(f)
	if err != nil && !isMemoryError(err) {
		return errStorage(s.dir, "writing the store", err)
	}
	return err
}

// checkSpace refuses a write when the file system is nearly full (see diskReserve).
func (s *store) checkSpace() error {
	var st syscall.Statfs_t
	if err := syscall.Statfs(filepath.Join(s.dir, storeDir), &st); err != nil {
		return nil // a file system that cannot say is written to; badger reports what fails
	}
	free := st.Bavail * uint64(st.Bsize)
	if free < diskReserve {
		return fail(s.dir, ErrDiskFull, fmt.Errorf("%d KiB free, the store needs %d KiB to write safely; nothing was written",
			free>>10, diskReserve>>10))
	}
	return nil
}

// close closes badger.
func (s *store) close() error {
	if err := s.db.Close(); err != nil {
		return errStorage(s.dir, "closing the store", err)
	}
	return nil
}

// get reads and decodes the record under key; nil when absent.
func (s *store) get(txn *badger.Txn, key []byte) (any, error) {
	item, err := txn.Get(key)
	if errors.Is(err, badger.ErrKeyNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, errStorage(s.dir, "reading the store", err)
	}
	var rec any
	err = item.Value(func(v []byte) error {
		rec, err = decodeValue(key, v)
		return err
	})
	if err != nil {
		return nil, fail(s.dir, ErrCorrupt, err)
	}
	return rec, nil
}

func (s *store) getProfile(txn *badger.Txn, key string) (*opponentRec, error) {
	rec, err := s.get(txn, profileKey(key))
	if rec == nil || err != nil {
		return nil, err
	}
	return rec.(*opponentRec), nil
}

func (s *store) getGame(txn *badger.Txn, id string) (*gameRec, error) {
	rec, err := s.get(txn, gameKey(id))
	if rec == nil || err != nil {
		return nil, err
	}
	return rec.(*gameRec), nil
}

// put stores rec under key unless the same bytes are there already; it reports whether it wrote.
func (s *store) put(txn *badger.Txn, key []byte, rec any) (bool, error) {
	value := encodeValue(rec)
	item, err := txn.Get(key)
	if err == nil {
		same := false
		if err := item.Value(func(v []byte) error { same = bytes.Equal(v, value); return nil }); err != nil {
			return false, errStorage(s.dir, "reading the store", err)
		}
		if same {
			return false, nil
		}
	} else if !errors.Is(err, badger.ErrKeyNotFound) {
		return false, errStorage(s.dir, "reading the store", err)
	}
	return true, txn.Set(key, value)
}

// resolve follows an alias to the key it was merged into.
func (s *store) resolve(txn *badger.Txn, key string) (string, error) {
	rec, err := s.get(txn, aliasKey(key))
	if rec == nil || err != nil {
		return key, err
	}
	return rec.(*aliasRec).Key, nil
}

// scan calls f with every key (and, when values is set, the decoded record) under prefix, in key order.
func (s *store) scan(txn *badger.Txn, prefix []byte, values bool, f func(key []byte, rec any) error) error {
	opts := badger.IteratorOptions{Prefix: prefix, PrefetchValues: values, PrefetchSize: 64}
	it := txn.NewIterator(opts)
	defer it.Close()
	for it.Rewind(); it.Valid(); it.Next() {
		item := it.Item()
		var rec any
		if values {
			err := item.Value(func(v []byte) error {
				var err error
				rec, err = decodeValue(item.Key(), v)
				return err
			})
			if err != nil {
				return fail(s.dir, ErrCorrupt, err)
			}
		}
		if err := f(item.Key(), rec); err != nil {
			return err
		}
	}
	return nil
}

// scanRaw calls f with every key and raw value under prefix.
func (s *store) scanRaw(txn *badger.Txn, prefix []byte, f func(key, value []byte) error) error {
	it := txn.NewIterator(badger.IteratorOptions{Prefix: prefix, PrefetchValues: true, PrefetchSize: 64})
	defer it.Close()
	for it.Rewind(); it.Valid(); it.Next() {
		item := it.Item()
		if err := item.Value(func(v []byte) error { return f(item.Key(), v) }); err != nil {
			return err
		}
	}
	return nil
}
