// A memory in a PostgreSQL database: opening it by URL, and its writer, which commits events while the server
// answers, keeps them in a local spool file while it does not, and replays them (and spools a killed process
// left) when it is back.

package memory

import (
	"bufio"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"go.uber.org/zap"
)

// Spool limits.
const (
	defaultSpoolLimit = 100000 // events one process keeps while the server is away
	spoolMaxBackoff   = 2 * time.Second
	spoolMinBackoff   = 100 * time.Millisecond
)

// DefaultSpoolDir returns where a PostgreSQL memory's spool files go when Options.SpoolDir is empty:
// $XDG_STATE_HOME/dossier/spool, else ~/.local/state/dossier/spool.
func DefaultSpoolDir() (string, error) {
	if xdg := os.Getenv("XDG_STATE_HOME"); filepath.IsAbs(xdg) {
		return filepath.Join(xdg, "dossier", "spool"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(home, ".local", "state", "dossier", "spool"), nil
}

// openPostgresMemory opens the memory in the PostgreSQL database of opts.Dir, a URL. Each process talks to the
// server itself: there is no owner to share. A server that cannot be reached fails the open, unless
// opts.SpoolWhenUnreachable: then the memory opens with its server away (see spool.connect).
func openPostgresMemory(opts Options) (*Memory, error) {
	loc := RedactURL(opts.Dir)
	kv, err := newPostgres(opts.Dir, opts.Schema)
	if err != nil {
		return nil, err
	}
	st := &store{kv: kv, dir: loc, log: opts.Logger, experienceLimit: opts.ExperienceLimit, readPause: opts.ReadPause}
	connect := func() error {
		if err := kv.prepare(opts.Logger); err != nil {
			return err
		}
		return st.checkSchema()
	}
	unreachable := connect()
	if unreachable != nil && (!opts.SpoolWhenUnreachable || !errors.Is(unreachable, ErrUnavailable)) {
		kv.close()
		return nil, unreachable
	}
	sp, err := newSpool(opts, loc)
	if err != nil {
		kv.close()
		return nil, err
	}
	if unreachable != nil {
		sp.connect = connect
		sp.goDown(unreachable)
		resetPool(st)
	}
	o := &owner{st: st, log: opts.Logger, conns: map[net.Conn]struct{}{}, writes: make(chan *writeItem, writeQueue),
		stopGC: make(chan struct{}), spool: sp}
	o.stopped.Add(1)
	go o.pgWriteLoop()
	m := &Memory{dir: loc, log: opts.Logger, opts: opts, inflight: map[uint64]*request{}, own: o,
		wake: make(chan struct{}, 1), stop: make(chan struct{}), stopped: make(chan struct{})}
	m.isOwner.Store(true)
	go m.run(&localLink{o: o, complete: m.complete})
	opts.Logger.Info("memory open in PostgreSQL", zap.String("store", loc), zap.String("spool", sp.dir),
		zap.Bool("reached", unreachable == nil))
	return m, nil
}

// spool keeps the events of a PostgreSQL memory while its server cannot be reached, in order, in a file (JSON
// lines of events, one file a process, flock'd while it lives) and in memory. An event is acknowledged once it
// is in the file: like a badger commit, the write is in the kernel's page cache and outlives the process, and
// the engine's answer never waits for a server that is away. This process writes them to the server when it is
// back; the next process to open the same database writes the files nobody holds (their process was killed).
type spool struct {
	dir    string // the spool directory
	prefix string // the file name prefix of this database and schema
	path   string // this process's file, "" until the first outage
	f      *os.File
	held   []*eventRec // the events in the file, in order, that the server has not committed yet
	limit  int

	down     atomic.Bool // read by reads, which fail at once while the server is away
	since    time.Time
	backoff  time.Duration
	nextTry  time.Time // when the writer tries the server again
	dropped  int
	replayed int
	loc      string
	notify   func(string)
	log      *zap.Logger

	// connect, set while the server was never reached (the memory opened with it away), checks the server
	// and creates the table when absent; the writer calls it before it writes anything there.
	connect     func() error
	connectErrs string // the last error of connect logged, so that one that repeats is logged once
}

func newSpool(opts Options, loc string) (*spool, error) {
	dir := opts.SpoolDir
	if dir == "" {
		var err error
		if dir, err = DefaultSpoolDir(); err != nil {
			return nil, &Error{Dir: loc, Doing: "no spool directory", Err: err}
		}
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, errStorage(loc, "creating the spool directory", err)
	}
	_, schema := schemaOf(opts.Dir, opts.Schema)
	if schema == "" {
		schema = DefaultSchema
	}
	sum := sha256.Sum256([]byte(loc + "\x00" + schema))
	limit := opts.SpoolLimit
	if limit <= 0 {
		limit = defaultSpoolLimit
	}
	notify := opts.Notify
	if notify == nil {
		notify = func(string) {}
	}
	return &spool{dir: dir, prefix: "pg-" + hex.EncodeToString(sum[:8]), limit: limit, loc: loc, notify: notify,
		log: opts.Logger}, nil
}

// pgWriteLoop is the writer of a PostgreSQL memory: like writeLoop it commits the events waiting in groups,
// but an event the server cannot take goes to the spool, and while the spool holds events new ones join it
// and the writer tries the server again, backing off, until they are all in.
func (o *owner) pgWriteLoop() {
	defer o.stopped.Done()
	sp := o.spool
	if sp.connect == nil {
		sp.replayOrphans(o.st)
	}
	var held *writeItem
	for {
		it := held
		held = nil
		if it == nil {
			var retry <-chan time.Time
			var t *time.Timer
			if sp.down.Load() {
				// The next try is due at its time however many events arrive meanwhile.
				t = time.NewTimer(time.Until(sp.nextTry))
				retry = t.C
			}
			ok := true
			select {
			case it, ok = <-o.writes:
			case <-retry:
			}
			if t != nil {
				t.Stop()
			}
			if !ok {
				sp.close()
				return
			}
			if it == nil {
				sp.replay(o.st)
				continue
			}
		}
		if it.op != nil {
			data, err := it.op()
			it.reply(newReply(it.seq, data, err))
			continue
		}
		group := []*writeItem{it}
		group, held = gatherWrites(o.writes, group)
		if sp.down.Load() {
			sp.add(group)
			continue
		}
		if failed, cause := commitGroup(o.st, group, o.log); len(failed) > 0 {
			sp.add(failed)
			sp.goDown(cause)
			resetPool(o.st)
		}
	}
}

// commitGroup commits a group of events and answers each, but those the server could not be reached for,
// which it returns with the first such error.
func commitGroup(st *store, group []*writeItem, log *zap.Logger) ([]*writeItem, error) {
	evs := make([]*eventRec, len(group))
	for i, g := range group {
		evs[i] = g.ev
	}
	errs := st.commitEvents(evs)
	var failed []*writeItem
	var cause error
	for i, g := range group {
		if errors.Is(errs[i], ErrUnavailable) {
			failed = append(failed, g)
			if cause == nil {
				cause = errs[i]
			}
			continue
		}
		if errs[i] != nil {
			log.Error("memory write failed", zap.Error(errs[i]))
		}
		g.reply(newReply(g.seq, nil, errs[i]))
	}
	return failed, cause
}

// goDown notes that the server went away, once.
func (sp *spool) goDown(cause error) {
	sp.down.Store(true)
	sp.since = time.Now()
	sp.backoff = spoolMinBackoff
	sp.nextTry = sp.since.Add(sp.backoff)
	sp.log.Error("memory: the database is unreachable; playing on and spooling events", zap.String("store", sp.loc),
		zap.Error(cause))
	sp.notify(fmt.Sprintf("memory %s unreachable (%v); playing on, events kept in %s until it is back", sp.loc,
		causeOf(cause), sp.dir))
}

// causeOf is an error's innermost cause's message, for a one-line notice.
func causeOf(err error) string {
	var memErr *Error
	if errors.As(err, &memErr) && memErr.Err != nil {
		return memErr.Err.Error()
	}
	return err.Error()
}

// add keeps events in the spool, refusing (and counting) those past the limit.
func (sp *spool) add(items []*writeItem) {
	var buf []byte
	var kept []*eventRec
	for _, it := range items {
		if len(sp.held)+len(kept) >= sp.limit {
			if sp.dropped == 0 {
				sp.log.Error("memory: the spool is full; dropping events", zap.String("store", sp.loc), zap.Int("limit", sp.limit))
			}
			sp.dropped++
			it.reply(newReply(it.seq, nil, fail(sp.loc, ErrUnavailable,
				fmt.Errorf("the database is unreachable and the spool holds %d events already; event dropped", sp.limit))))
			continue
		}
		buf = append(encodeValue(it.ev), '\n')
		if err := sp.write(buf); err != nil {
			sp.log.Error("memory: cannot write the spool", zap.String("file", sp.path), zap.Error(err))
			it.reply(newReply(it.seq, nil, fail(sp.loc, ErrUnavailable, fmt.Errorf("spooling the event: %v", err))))
			continue
		}
		kept = append(kept, it.ev)
		it.reply(newReply(it.seq, nil, nil))
	}
	sp.held = append(sp.held, kept...)
}

// write appends to this process's spool file, creating and locking it first.
func (sp *spool) write(b []byte) error {
	if sp.f == nil {
		var r [4]byte
		_, _ = rand.Read(r[:])
		path := filepath.Join(sp.dir, fmt.Sprintf("%s-%d-%s.spool", sp.prefix, os.Getpid(), hex.EncodeToString(r[:])))
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o600)
		if err != nil {
			return err
		}
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
			f.Close()
			return err
		}
		sp.f, sp.path = f, path
	}
	_, err := sp.f.Write(b) // in the kernel's page cache once written: it outlives the process
	return err
}

// replay tries the server with the spooled events, in order; when they are all in, the spool file goes, the
// files killed processes left are replayed, and the memory is back.
func (sp *spool) replay(st *store) {
	if !sp.reach() {
		sp.later(st)
		return
	}
	for len(sp.held) > 0 {
		n := min(len(sp.held), maxGroup)
		if !commitSpooled(st, sp.held[:n], sp.path, sp.log) {
			sp.later(st)
			return
		}
		sp.replayed += n
		sp.held = sp.held[n:]
	}
	sp.removeFile()
	sp.replayOrphans(st)
	sp.down.Store(false)
	msg := fmt.Sprintf("memory %s is back after %v; %d spooled events written", sp.loc,
		time.Since(sp.since).Round(time.Second), sp.replayed)
	if sp.dropped > 0 {
		msg += fmt.Sprintf(", %d dropped (the spool was full)", sp.dropped)
	}
	sp.log.Info("memory: the database is back", zap.String("store", sp.loc), zap.Int("replayed", sp.replayed),
		zap.Int("dropped", sp.dropped))
	sp.notify(msg)
	sp.replayed, sp.dropped = 0, 0
}

// later backs off before the next try of the server.
func (sp *spool) later(st *store) {
	sp.backoff = min(2*sp.backoff, spoolMaxBackoff)
	sp.nextTry = time.Now().Add(sp.backoff)
	resetPool(st)
}

// reach reports whether the server can take the spooled events: true at once when it was reached before;
// else it tries to reach it and prepare the table (see openPostgresMemory). An error other than an
// unreachable server (the password changed, the database dropped, a newer schema) is logged, once while it
// repeats, and the events stay spooled: they are not lost, and the next process to reach the database
// writes them.
func (sp *spool) reach() bool {
	if sp.connect == nil {
		return true
	}
	err := sp.connect()
	if err == nil {
		sp.connect, sp.connectErrs = nil, ""
		sp.log.Info("memory: reached the database for the first time", zap.String("store", sp.loc))
		return true
	}
	if !errors.Is(err, ErrUnavailable) && err.Error() != sp.connectErrs {
		sp.connectErrs = err.Error()
		sp.log.Error("memory: the database answers but cannot take the events; they stay spooled",
			zap.String("store", sp.loc), zap.Error(err))
	}
	return false
}

// resetPool drops a PostgreSQL store's broken connections.
func resetPool(st *store) {
	if kv, ok := st.kv.(*pgKV); ok {
		kv.reset()
	}
}

// commitSpooled commits spooled events; false when the server could not be reached (nothing is lost: the
// events that were committed are committed again next time, which changes nothing).
func commitSpooled(st *store, evs []*eventRec, path string, log *zap.Logger) bool {
	for _, err := range st.commitEvents(evs) {
		if errors.Is(err, ErrUnavailable) {
			return false
		}
		if err != nil {
			log.Error("memory: a spooled event failed", zap.String("file", path), zap.Error(err))
		}
	}
	return true
}

// removeFile removes this process's spool file once everything in it is in the database.
func (sp *spool) removeFile() {
	if sp.f == nil {
		return
	}
	os.Remove(sp.path)
	sp.f.Close()
	sp.f, sp.path = nil, ""
}

// replayOrphans writes the events of spool files of this database that no live process holds (their process
// was killed or closed while the server was away) and removes each file once it is in.
func (sp *spool) replayOrphans(st *store) {
	paths, _ := filepath.Glob(filepath.Join(sp.dir, sp.prefix+"-*.spool"))
	for _, path := range paths {
		if path == sp.path {
			continue
		}
		if !sp.replayFile(st, path) {
			return
		}
	}
}

// replayFile replays one orphaned spool file; false when the server failed (the file stays for later).
func (sp *spool) replayFile(st *store, path string) bool {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return true // another process took it
	}
	defer f.Close()
	if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) != nil {
		return true // its process lives
	}
	var evs []*eventRec
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), maxRequest)
	for sc.Scan() {
		ev := &eventRec{}
		if err := json.Unmarshal(sc.Bytes(), ev); err != nil || ev.check() != nil {
			continue // a line cut short by a crash
		}
		evs = append(evs, ev)
	}
	for len(evs) > 0 {
		n := min(len(evs), maxGroup)
		if !commitSpooled(st, evs[:n], path, sp.log) {
			return false
		}
		evs = evs[n:]
	}
	sp.log.Info("memory: replayed a spool file left by another process", zap.String("file", path))
	os.Remove(path)
	return true
}

// close ends the spool when the memory closes: a file still holding events stays (unlocked) for the next
// process to replay.
func (sp *spool) close() {
	if len(sp.held) > 0 {
		sp.log.Error("memory: closing with events spooled; the next process to open the memory writes them",
			zap.String("store", sp.loc), zap.String("file", sp.path), zap.Int("events", len(sp.held)))
		sp.f.Close()
		return
	}
	sp.removeFile()
}

// spoolFiles lists the spool files of the directory, for tests and `dossier memory` to tell what waits.
func spoolFiles(dir string) []string {
	entries, _ := os.ReadDir(dir)
	var out []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".spool") {
			out = append(out, e.Name())
		}
	}
	return out
}
