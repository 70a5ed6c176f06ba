// The store: the records of the memory over a backend (badger or PostgreSQL), its schema version, and reading
// and writing records in the backend's transactions.

package memory

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"

	"go.uber.org/zap"
)

// store is the memory's records over a backend: the badger store this process owns, or a PostgreSQL database.
type store struct {
	kv  backend
	dir string // the memory's location (its directory, or its URL without the password), named in every error
	log *zap.Logger
	// experienceLimit bounds each experience table (Options.ExperienceLimit; 0: defaultExperienceLimit).
	experienceLimit int
	// readPause is Options.ReadPause: the reads of read call it between records (see pause.go).
	readPause func()
}

// readSchema reads the store's schema version: 0 for an empty store. A newer version, a store with keys but no
// version (not ours) and a damaged version are errors.
func (s *store) readSchema() (int, error) {
	var version int
	err := s.kv.view(func(txn kvTxn) error {
		v, found, err := txn.get([]byte(keySchema))
		if err != nil {
			return fail(s.dir, ErrCorrupt, err)
		}
		if !found {
			any := false
			if err := txn.scan(nil, nil, false, func([]byte, []byte) error { any = true; return errStopScan }); err != nil {
				return fail(s.dir, ErrCorrupt, err)
			}
			if any {
				return fail(s.dir, ErrNotAStore, errors.New("the store has no dossier schema version"))
			}
			return nil
		}
		version, err = strconv.Atoi(string(v))
		if err != nil || version < 1 {
			return fail(s.dir, ErrCorrupt, fmt.Errorf("schema version %q", v))
		}
		return nil
	})
	if err == nil && version > schemaVersion {
		err = fail(s.dir, ErrNewerSchema, fmt.Errorf("its schema version is %d, this dossier reads versions up to %d; "+
			"use a newer dossier or another store", version, schemaVersion))
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
		return s.update(func(txn kvTxn) error {
			return txn.set([]byte(keySchema), []byte(strconv.Itoa(schemaVersion)))
		})
	}
	s.log.Info("migrating the memory store", zap.String("store", s.dir), zap.Int("from", version), zap.Int("to", schemaVersion))
	return s.migrate(version)
}

// update runs f in one read-write transaction and commits it.
func (s *store) update(f func(txn kvTxn) error) error {
	return s.kv.batch(func(b batcher) error { return b.do(f) })
}

// batch runs f over the backend's batch and commits what it leaves.
func (s *store) batch(f func(b batcher) error) error { return s.kv.batch(f) }

// close closes the backend.
func (s *store) close() error { return s.kv.close() }

// compact reclaims the backend's free space.
func (s *store) compact() (int64, error) { return s.kv.compact() }

// get reads and decodes the record under key; nil when absent.
func (s *store) get(txn kvTxn, key []byte) (any, error) {
	v, found, err := txn.get(key)
	if err != nil {
		return nil, errStorage(s.dir, "reading the store", err)
	}
	if !found {
		return nil, nil
	}
	rec, err := decodeValue(key, v)
	if err != nil {
		return nil, fail(s.dir, ErrCorrupt, err)
	}
	return rec, nil
}

func (s *store) getProfile(txn kvTxn, key string) (*opponentRec, error) {
	rec, err := s.get(txn, profileKey(key))
	if rec == nil || err != nil {
		return nil, err
	}
	return rec.(*opponentRec), nil
}

func (s *store) getGame(txn kvTxn, id string) (*gameRec, error) {
	rec, err := s.get(txn, gameKey(id))
	if rec == nil || err != nil {
		return nil, err
	}
	return rec.(*gameRec), nil
}

// put stores rec under key unless the same bytes are there already; it reports whether it wrote.
func (s *store) put(txn kvTxn, key []byte, rec any) (bool, error) {
	value := encodeValue(rec)
	old, found, err := txn.get(key)
	if err != nil {
		return false, errStorage(s.dir, "reading the store", err)
	}
	if found && bytes.Equal(old, value) {
		return false, nil
	}
	return true, txn.set(key, value)
}

// resolve follows an alias to the key it was merged into.
func (s *store) resolve(txn kvTxn, key string) (string, error) {
	rec, err := s.get(txn, aliasKey(key))
	if rec == nil || err != nil {
		return key, err
	}
	return rec.(*aliasRec).Key, nil
}

// scan calls f with every key (and, when values is set, the decoded record) under prefix, in key order.
func (s *store) scan(txn kvTxn, prefix []byte, values bool, f func(key []byte, rec any) error) error {
	scan := func(f func(k, v []byte) error) error { return txn.scan(prefix, nil, values, f) }
	if ts, ok := txn.(transientScanner); ok && values {
		scan = func(f func(k, v []byte) error) error { return ts.scanTransient(prefix, f) } // decoded at once: no copy
	}
	return scan(func(k, v []byte) error {
		var rec any
		if values {
			var err error
			if rec, err = decodeValue(k, v); err != nil {
				return fail(s.dir, ErrCorrupt, err)
			}
		}
		return f(k, rec)
	})
}

// scanRaw calls f with every key and raw value under prefix.
func (s *store) scanRaw(txn kvTxn, prefix []byte, f func(key, value []byte) error) error {
	return txn.scan(prefix, nil, true, f)
}
