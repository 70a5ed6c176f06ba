// The badger store the owning process holds: opening and checking it, applying events in transactions, and the
// reads, merges and deletions behind Memory's methods.
package memory

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	badger "github.com/dgraph-io/badger/v4"
	"go.uber.org/zap"

	"dossier/play/opponent"
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
		switch e.Name() {
		case storeDir, lockFile, socketFile, socketPathFile:
		default:
			return fail(dir, ErrNotAStore, fmt.Errorf("it holds %q, which the memory did not write; "+
				"choose an empty or new directory", e.Name()))
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
		switch e.Name() {
		case "MANIFEST":
			hasManifest = true
		case "LOCK", "MANIFEST-REWRITE":
		default:
			others = append(others, e.Name())
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

// mergeInto adds what rec knows to the profile under rec.Key, creating it when absent.
func (s *store) mergeInto(txn *badger.Txn, rec *opponentRec) (bool, error) {
	cur, err := s.getProfile(txn, rec.Key)
	if err != nil {
		return false, err
	}
	if cur == nil {
		cur = &opponentRec{Key: rec.Key}
	}
	mergeProfile(cur, rec)
	return s.put(txn, profileKey(cur.Key), cur)
}

// apply applies one checked event in txn. Every event is idempotent: applying it twice leaves what applying it
// once left, so a client may resend any event it has no acknowledgement for.
func (s *store) apply(txn *badger.Txn, ev *eventRec) error {
	switch ev.Type {
	case typeSighting:
		return s.applySighting(txn, ev.Sighting)
	case eventStart:
		return s.applyStart(txn, ev.Sighting, ev.Game)
	case eventEnd:
		return s.applyEnd(txn, ev.Game)
	case typeMove:
		_, err := s.put(txn, moveKey(ev.Move.Game, ev.Move.Ply, ev.Move.Opp), ev.Move)
		return err
	case typeTakeBack:
		return s.takeBack(txn, ev.TakeBack)
	case typeModel:
		_, err := s.putModel(txn, ev.Model)
		return err
	}
	return fail(s.dir, ErrBadEvent, fmt.Errorf("event type %q", ev.Type))
}

func (s *store) applySighting(txn *badger.Txn, r *sightingRec) error {
	key, err := s.resolve(txn, r.Key)
	if err != nil {
		return err
	}
	cur, err := s.getProfile(txn, key)
	if err != nil {
		return err
	}
	if cur == nil {
		cur = &opponentRec{Key: key}
	}
	seen := &opponentRec{Key: key, Title: r.Title, Kind: r.Kind, First: r.At, Last: r.At}
	if name := strings.TrimSpace(r.Name); name != "" {
		seen.Names = []string{name}
	}
	// A rating is history when it changes; the same rating named at every game is kept once.
	if r.Elo > 0 && latestElo(cur.Ratings, r.Source) != r.Elo {
		seen.Ratings = []ratingRec{{Elo: r.Elo, Source: r.Source, At: r.At}}
	}
	mergeProfile(cur, seen)
	_, err = s.put(txn, profileKey(key), cur)
	return err
}

// latestElo returns the latest rating from source, 0 when none.
func latestElo(ratings []ratingRec, source string) int {
	for i := len(ratings) - 1; i >= 0; i-- {
		if ratings[i].Source == source {
			return ratings[i].Elo
		}
	}
	return 0
}

func (s *store) applyStart(txn *badger.Txn, who *sightingRec, start *gameRec) error {
	key, err := s.resolve(txn, start.Key)
	if err != nil {
		return err
	}
	seen := *who
	seen.Key = key
	if err := s.applySighting(txn, &seen); err != nil {
		return err
	}
	cur, err := s.getGame(txn, start.ID)
	if err != nil {
		return err
	}
	if cur == nil {
		cur = &gameRec{ID: start.ID}
	}
	if cur.Key != "" && cur.Key != key {
		if err := txn.Delete(indexKey(cur.Key, cur.ID)); err != nil {
			return err
		}
	}
	cur.Key, cur.Game, cur.Variant, cur.Side, cur.TC = key, start.Game, start.Variant, start.Side, start.TC
	cur.StartFEN, cur.Start = start.StartFEN, start.Start
	if _, err := s.put(txn, gameKey(cur.ID), cur); err != nil {
		return err
	}
	return txn.Set(indexKey(key, cur.ID), nil)
}

func (s *store) applyEnd(txn *badger.Txn, end *gameRec) error {
	cur, err := s.getGame(txn, end.ID)
	if err != nil {
		return err
	}
	if cur == nil {
		cur = &gameRec{ID: end.ID}
	}
	cur.Result, cur.Reason, cur.Score, cur.Moves, cur.FinalFEN, cur.End =
		end.Result, end.Reason, end.Score, end.Moves, end.FinalFEN, end.End
	_, err = s.put(txn, gameKey(cur.ID), cur)
	return err
}

func (s *store) takeBack(txn *badger.Txn, tb *takeBackRec) error {
	prefix := movePrefix(tb.Game)
	it := txn.NewIterator(badger.IteratorOptions{Prefix: prefix})
	var doomed [][]byte
	for it.Seek(fmt.Appendf(bytes.Clone(prefix), "%05d", tb.ToPly)); it.Valid(); it.Next() {
		doomed = append(doomed, it.Item().KeyCopy(nil))
	}
	it.Close()
	for _, k := range doomed {
		if err := txn.Delete(k); err != nil {
			return err
		}
	}
	return nil
}

// putModel stores a model state under the opponent it resolves to, creating a bare profile when the opponent
// was never named.
func (s *store) putModel(txn *badger.Txn, m *modelRec) (bool, error) {
	key, err := s.resolve(txn, m.Key)
	if err != nil {
		return false, err
	}
	if _, err := s.mergeInto(txn, &opponentRec{Key: key}); err != nil {
		return false, err
	}
	rec := *m
	rec.Key, rec.Type = key, ""
	return s.put(txn, modelKey(key, rec.Model, rec.At, rec.Game), &rec)
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

// lookup resolves a key or a name given by a user to the profile key it is filed under.
func (s *store) lookup(txn *badger.Txn, keyOrName string) (string, *opponentRec, error) {
	key := keyOrName
	if key != opponent.UnknownKey {
		key = opponent.NameKey(key)
	}
	key, err := s.resolve(txn, key)
	if err != nil {
		return "", nil, err
	}
	p, err := s.getProfile(txn, key)
	if err != nil {
		return "", nil, err
	}
	if p == nil {
		return "", nil, fail(s.dir, ErrUnknownOpponent, fmt.Errorf("no opponent is filed as %q", key))
	}
	return key, p, nil
}

// gamesOf returns the headers of an opponent's games, oldest first.
func (s *store) gamesOf(txn *badger.Txn, key string) ([]*gameRec, error) {
	prefix := indexPrefix(key)
	var out []*gameRec
	err := s.scan(txn, prefix, false, func(k []byte, _ any) error {
		g, err := s.getGame(txn, unescape(string(k[len(prefix):])))
		if err != nil || g == nil {
			return err
		}
		out = append(out, g)
		return nil
	})
	sort.SliceStable(out, func(i, j int) bool { return gameTime(out[i]).Before(gameTime(out[j])) })
	return out, err
}

// gameTime is when a game began, or ended when its start is unknown.
func gameTime(g *gameRec) time.Time {
	if g.Start.IsZero() {
		return g.End
	}
	return g.Start
}

// movesOf returns a game's move records in key order: by ply, ours before the opponent's.
func (s *store) movesOf(txn *badger.Txn, id string) ([]*moveRec, error) {
	var out []*moveRec
	err := s.scan(txn, movePrefix(id), true, func(_ []byte, rec any) error {
		out = append(out, rec.(*moveRec))
		return nil
	})
	return out, err
}

// plies counts a game's moves: its final move list when the end gave one, else its recorded plies.
func (s *store) plies(txn *badger.Txn, g *gameRec) (int, error) {
	if len(g.Moves) > 0 {
		return len(g.Moves), nil
	}
	prefix := movePrefix(g.ID)
	n, last := 0, ""
	err := s.scan(txn, prefix, false, func(k []byte, _ any) error {
		if ply := string(k[len(prefix) : len(prefix)+5]); ply != last {
			n, last = n+1, ply
		}
		return nil
	})
	return n, err
}

func (s *store) summary(txn *badger.Txn, g *gameRec) (GameSummary, error) {
	n, err := s.plies(txn, g)
	sum := GameSummary{ID: g.ID, OpponentKey: g.Key, Game: g.Game, Variant: g.Variant, OurSide: g.Side,
		TimeControl: g.TC, Result: g.Result, Reason: g.Reason, OurScore: -1, Plies: n, Start: g.Start, End: g.End}
	if sum.Result == "" {
		sum.Result = "*"
	}
	if g.Score != nil {
		sum.OurScore = *g.Score
	}
	return sum, err
}

// models returns an opponent's model histories.
func (s *store) models(txn *badger.Txn, key string) (map[string][]ModelPoint, error) {
	out := map[string][]ModelPoint{}
	err := s.scan(txn, modelPrefix(key), true, func(_ []byte, rec any) error {
		m := rec.(*modelRec)
		out[m.Model] = append(out[m.Model], ModelPoint{At: m.At, GameID: m.Game, State: m.State})
		return nil
	})
	return out, err
}

func (s *store) profile(keyOrName string) (*Profile, error) {
	var p *Profile
	err := s.db.View(func(txn *badger.Txn) error {
		key, rec, err := s.lookup(txn, keyOrName)
		if err != nil {
			return err
		}
		p = &Profile{Key: key, Names: rec.Names, Aliases: rec.Aliases, Title: rec.Title, Kind: rec.Kind,
			FirstSeen: rec.First, LastSeen: rec.Last}
		for _, r := range rec.Ratings {
			p.Ratings = append(p.Ratings, Rating{Elo: r.Elo, Source: r.Source, At: r.At})
		}
		games, err := s.gamesOf(txn, key)
		if err != nil {
			return err
		}
		for _, g := range games {
			sum, err := s.summary(txn, g)
			if err != nil {
				return err
			}
			p.Games = append(p.Games, sum)
			p.LastSeen = latest(p.LastSeen, g.Start, g.End)
		}
		p.Models, err = s.models(txn, key)
		return err
	})
	return p, err
}

// latest returns the latest of the times.
func latest(ts ...time.Time) time.Time {
	var out time.Time
	for _, t := range ts {
		if t.After(out) {
			out = t
		}
	}
	return out
}

// opponents lists every opponent in four passes over the store (profiles, games, model keys), not one lookup
// per opponent, so that listing ten thousand stays quick.
func (s *store) opponents() ([]Summary, error) {
	var out []Summary
	err := s.db.View(func(txn *badger.Txn) error {
		index := map[string]int{}
		err := s.scan(txn, []byte(prefProfile), true, func(_ []byte, rec any) error {
			p := rec.(*opponentRec)
			sum := Summary{Key: p.Key, Name: p.Key, Kind: p.Kind, LastSeen: p.Last}
			if len(p.Names) > 0 {
				sum.Name = p.Names[0]
			}
			if len(p.Ratings) > 0 {
				sum.Elo = p.Ratings[len(p.Ratings)-1].Elo
			}
			index[p.Key] = len(out)
			out = append(out, sum)
			return nil
		})
		if err != nil {
			return err
		}
		err = s.scanRaw(txn, []byte(prefGame), func(k, v []byte) error {
			// Only the result and the times: decoding each game's move list would take most of the time.
			var g struct {
				Key        string
				Score      *float64
				Start, End time.Time
			}
			if err := json.Unmarshal(v, &g); err != nil {
				return fail(s.dir, ErrCorrupt, fmt.Errorf("record %q: %v", k, err))
			}
			i, ok := index[g.Key]
			if !ok {
				return nil // a game whose start was never recorded
			}
			sum := &out[i]
			sum.Games++
			if g.Score != nil {
				switch *g.Score {
				case 1:
					sum.Wins++
				case 0:
					sum.Losses++
				case 0.5:
					sum.Draws++
				}
			}
			sum.LastSeen = latest(sum.LastSeen, g.Start, g.End)
			return nil
		})
		if err != nil {
			return err
		}
		return s.scan(txn, []byte(prefModel), false, func(k []byte, _ any) error {
			parts := strings.SplitN(string(k[len(prefModel):]), "/", 3)
			i, ok := index[unescape(parts[0])]
			if !ok || len(parts) < 3 {
				return nil
			}
			sum := &out[i]
			if name := unescape(parts[1]); len(sum.Models) == 0 || sum.Models[len(sum.Models)-1] != name {
				sum.Models = append(sum.Models, name)
			}
			return nil
		})
	})
	return out, err
}

// gameData is a Game as it crosses the socket: its move records in their stored form, which JSON can carry
// (an absent evaluation is no NaN there).
type gameData struct {
	Summary  GameSummary `json:"summary"`
	StartFEN string      `json:"fen,omitempty"`
	FinalFEN string      `json:"final,omitempty"`
	Moves    []string    `json:"moves,omitempty"`
	Records  []*moveRec  `json:"records,omitempty"`
}

// public turns the socket form back into a Game.
func (g *gameData) public() Game {
	out := Game{GameSummary: g.Summary, StartFEN: g.StartFEN, FinalFEN: g.FinalFEN, Moves: g.Moves}
	for _, r := range g.Records {
		out.Records = append(out.Records, r.public())
	}
	return out
}

func (s *store) games(keyOrName string) ([]gameData, error) {
	var out []gameData
	err := s.db.View(func(txn *badger.Txn) error {
		key, _, err := s.lookup(txn, keyOrName)
		if err != nil {
			return err
		}
		headers, err := s.gamesOf(txn, key)
		if err != nil {
			return err
		}
		for _, h := range headers {
			sum, err := s.summary(txn, h)
			if err != nil {
				return err
			}
			g := gameData{Summary: sum, StartFEN: h.StartFEN, FinalFEN: h.FinalFEN, Moves: h.Moves}
			recs, err := s.movesOf(txn, h.ID)
			if err != nil {
				return err
			}
			g.Records = recs
			fromRecords := len(g.Moves) == 0
			for i, r := range recs {
				if fromRecords && (i == 0 || recs[i-1].Ply != r.Ply) {
					g.Moves = append(g.Moves, r.Move)
				}
			}
			out = append(out, g)
		}
		return nil
	})
	return out, err
}

// public turns a stored move record back into the MoveRecord it was recorded as.
func (r *moveRec) public() MoveRecord {
	m := MoveRecord{GameID: r.Game, Ply: r.Ply, ByOpponent: r.Opp, FEN: r.FEN, Move: r.Move, TimeMS: -1,
		Predicted: r.Pred, Probability: -1, Eval: nan, At: r.At}
	m.PositionKey, _ = parseHash(r.Hash)
	if r.MS != nil {
		m.TimeMS = *r.MS
	}
	if r.Prob != nil {
		m.Probability = *r.Prob
	}
	if r.Eval != nil {
		m.Eval = *r.Eval
	}
	return m
}

// forget deletes an opponent with everything filed under it, in as many transactions as it takes.
func (s *store) forget(keyOrName string) error {
	var doomed [][]byte
	err := s.db.View(func(txn *badger.Txn) error {
		key, p, err := s.lookup(txn, keyOrName)
		if err != nil {
			return err
		}
		for _, a := range p.Aliases {
			doomed = append(doomed, aliasKey(a))
		}
		games, err := s.gamesOf(txn, key)
		if err != nil {
			return err
		}
		for _, g := range games {
			if err := s.scan(txn, movePrefix(g.ID), false, func(k []byte, _ any) error {
				doomed = append(doomed, bytes.Clone(k))
				return nil
			}); err != nil {
				return err
			}
			doomed = append(doomed, gameKey(g.ID), indexKey(key, g.ID))
		}
		if err := s.scan(txn, modelPrefix(key), false, func(k []byte, _ any) error {
			doomed = append(doomed, bytes.Clone(k))
			return nil
		}); err != nil {
			return err
		}
		// The profile goes last, so an interrupted forget can be run again.
		doomed = append(doomed, profileKey(key))
		return nil
	})
	if err != nil {
		return err
	}
	return s.batch(func(b *batchTxn) error {
		for _, k := range doomed {
			if err := b.do(func(txn *badger.Txn) error { return txn.Delete(k) }); err != nil {
				return err
			}
		}
		return nil
	})
}

// merge makes alias an alias of into: its names, aliases, games and models move to into. Merging an opponent
// into the one it is already an alias of changes nothing.
func (s *store) merge(b *batchTxn, alias, into string) (bool, error) {
	if alias == opponent.UnknownKey || into == opponent.UnknownKey {
		return false, fail(s.dir, ErrMerge, errors.New("the unnamed opponent is never merged"))
	}
	var src *opponentRec
	var games [][]byte
	var models []*modelRec
	err := b.do(func(txn *badger.Txn) error {
		target, err := s.resolve(txn, into)
		if err != nil {
			return err
		}
		from, err := s.resolve(txn, alias)
		if err != nil {
			return err
		}
		if from == target {
			if alias == target {
				return fail(s.dir, ErrMerge, fmt.Errorf("%q cannot be merged into itself", alias))
			}
			return nil // already merged
		}
		into = target
		if src, err = s.getProfile(txn, alias); err != nil {
			return err
		}
		if src == nil {
			src = &opponentRec{Key: alias}
		}
		games, models = nil, nil
		if err := s.scan(txn, indexPrefix(alias), false, func(k []byte, _ any) error {
			games = append(games, bytes.Clone(k[len(indexPrefix(alias)):]))
			return nil
		}); err != nil {
			return err
		}
		return s.scan(txn, modelPrefix(alias), true, func(_ []byte, rec any) error {
			models = append(models, rec.(*modelRec))
			return nil
		})
	})
	if err != nil || src == nil {
		return false, err
	}
	for _, id := range games {
		id := unescape(string(id))
		if err := b.do(func(txn *badger.Txn) error {
			g, err := s.getGame(txn, id)
			if err != nil {
				return err
			}
			if g != nil {
				g.Key = into
				if _, err := s.put(txn, gameKey(id), g); err != nil {
					return err
				}
			}
			if err := txn.Set(indexKey(into, id), nil); err != nil {
				return err
			}
			return txn.Delete(indexKey(alias, id))
		}); err != nil {
			return false, err
		}
	}
	for _, m := range models {
		if err := b.do(func(txn *badger.Txn) error {
			moved := *m
			moved.Key = into
			if err := txn.Set(modelKey(into, m.Model, m.At, m.Game), encodeValue(&moved)); err != nil {
				return err
			}
			return txn.Delete(modelKey(alias, m.Model, m.At, m.Game))
		}); err != nil {
			return false, err
		}
	}
	err = b.do(func(txn *badger.Txn) error {
		moved := *src
		moved.Key = into
		moved.Aliases = append([]string{alias}, src.Aliases...)
		if _, err := s.mergeInto(txn, &moved); err != nil {
			return err
		}
		for _, a := range moved.Aliases {
			if _, err := s.put(txn, aliasKey(a), &aliasRec{Alias: a, Key: into}); err != nil {
				return err
			}
		}
		return txn.Delete(profileKey(alias))
	})
	return err == nil, err
}

// batchTxn is a series of transactions that commits and starts anew when one grows too big for badger, for
// work made of idempotent steps that need not be atomic as a whole.
type batchTxn struct {
	s   *store
	txn *badger.Txn
}

// batch runs f over a batchTxn and commits what it leaves.
func (s *store) batch(f func(b *batchTxn) error) error {
	if err := s.checkSpace(); err != nil {
		return err
	}
	b := &batchTxn{s: s, txn: s.db.NewTransaction(true)}
	defer func() { b.txn.Discard() }()
	if err := f(b); err != nil {
		return err
	}
	return b.commit()
}

// do runs one step in the current transaction, or in a new one when the current is full.
func (b *batchTxn) do(step func(txn *badger.Txn) error) error {
	err := step(b.txn)
	if errors.Is(err, badger.ErrTxnTooBig) {
		if err := b.commit(); err != nil {
			return err
		}
		b.txn.Discard()
		b.txn = b.s.db.NewTransaction(true)
		err = step(b.txn)
	}
	return err
}

func (b *batchTxn) commit() error {
	if err := b.txn.Commit(); err != nil {
		return errStorage(b.s.dir, "writing the store", err)
	}
	return nil
}

// commitEvents applies a group of events and commits them together (group commit), returning each event's
// error. When one fails, the others are applied again one transaction each, so one bad event fails alone.
func (s *store) commitEvents(evs []*eventRec) []error {
	errs := make([]error, len(evs))
	fillAll := func(err error) []error {
		for i := range errs {
			errs[i] = err
		}
		return errs
	}
	err := s.batch(func(b *batchTxn) error {
		for _, ev := range evs {
			if err := b.do(func(txn *badger.Txn) error { return s.apply(txn, ev) }); err != nil {
				return err
			}
		}
		return nil
	})
	switch {
	case err == nil:
		return errs
	case errors.Is(err, ErrDiskFull) || len(evs) == 1:
		return fillAll(err)
	}
	for i, ev := range evs {
		errs[i] = s.batch(func(b *batchTxn) error {
			return b.do(func(txn *badger.Txn) error { return s.apply(txn, ev) })
		})
	}
	return errs
}

// compact runs badger's value-log garbage collection until it finds nothing to rewrite, and returns how many
// bytes the value log shrank by.
func (s *store) compact() (int64, error) {
	_, before := s.db.Size()
	for {
		err := s.db.RunValueLogGC(0.5)
		if errors.Is(err, badger.ErrNoRewrite) || errors.Is(err, badger.ErrRejected) {
			break
		}
		if err != nil {
			return 0, errStorage(s.dir, "compacting the store", err)
		}
	}
	_, after := s.db.Size()
	return before - after, nil
}
