// The memory's public face: Options, Open, the link to the store's owner (this process or another), and Close.

package memory

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"go.uber.org/zap"
)

// Options configure Open; their zero values are usable.
type Options struct {
	// Dir is the memory's location: a directory (DefaultDir() when empty), or a PostgreSQL URL,
	// postgres://user@host:port/database?sslmode=..., whose password comes from PGPASSWORD or ~/.pgpass
	// (PGPASSFILE) as libpq finds it, and is never shown.
	Dir string
	// Schema is the PostgreSQL schema the memory's table lives in (DefaultSchema when empty); the URL's
	// schema parameter, when it has one, takes its place. Unused for a directory.
	Schema string
	// SpoolDir is where a PostgreSQL memory keeps events while the server cannot be reached
	// (DefaultSpoolDir() when empty); SpoolLimit bounds how many one process keeps (0: 100,000), later ones
	// are dropped and counted.
	SpoolDir   string
	SpoolLimit int
	// SpoolWhenUnreachable opens a PostgreSQL memory whose server cannot be reached at Open as if the server
	// had gone away just after: events go to the spool, the writer tries the server (backing off) until it
	// answers, then creates the table if need be and writes them, and reads fail at once meanwhile. For an
	// engine, whose games must not be lost to a server that is down when it starts; without it Open fails
	// with ErrUnavailable, which suits a command that reads. A server that refuses the connection (a wrong
	// password, a missing database) fails Open either way.
	SpoolWhenUnreachable bool
	// Notify, when set, is told (once each) that a PostgreSQL memory became unreachable and that it is back,
	// for the front end to say; it must not block.
	Notify func(message string)
	// Logger receives the store's and badger's messages; nil discards them.
	Logger *zap.Logger
	// SyncWrites makes every commit fsync, so acknowledged events survive a power loss and not only a crash
	// of the process; it costs latency (see the package comment).
	SyncWrites bool
	// GCInterval is how often the owner runs badger's value-log garbage collection: 0 means every 10 minutes,
	// a negative interval never (Compact still works).
	GCInterval time.Duration
	// ExperienceLimit bounds the entries of each experience table (an opponent's of a game, and every
	// opponent's of a game): once an analysis takes a table past it, the shallowest entries (the oldest among
	// equally deep) go until a tenth of the room is free again. 0 means 20,000; the Player reads both tables at
	// every game's start, so their size is the start's cost.
	ExperienceLimit int
	// ConnectTimeout bounds how long Open, and a read, wait for an owner to answer or the store to free; 0
	// means 5 s. Events are never dropped when it passes: they stay queued and are resent.
	ConnectTimeout time.Duration
	// ReadPause, when set, is called between the records a read takes when this process's store answers it
	// (every few records; see pause.go): a caller that reads in the background blocks in it while something
	// more urgent runs. It must return at once for a caller that must not wait (it is called on the reading
	// caller's goroutine, whatever that is), and must not read or write the memory itself.
	ReadPause func()
}

// DefaultDir returns the memory directory used when Options.Dir is empty: $XDG_DATA_HOME/dossier, else
// ~/.local/share/dossier.
func DefaultDir() (string, error) {
	if xdg := os.Getenv("XDG_DATA_HOME"); filepath.IsAbs(xdg) {
		return filepath.Join(xdg, "dossier"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(home, ".local", "share", "dossier"), nil
}

// Timeouts of a Memory.
const (
	defaultConnectTimeout = 5 * time.Second
	closeTimeout          = 5 * time.Second
	// opTimeout bounds a read or a write operation (Forget, Merge, an import batch) once the owner is reached.
	opTimeout  = 30 * time.Second
	maxBackoff = 200 * time.Millisecond
)

// Memory is an open memory store, owned by this process or reached through the process that owns it. It is safe
// for concurrent use by many goroutines.
type Memory struct {
	dir  string
	sock string
	log  *zap.Logger
	opts Options

	mu       sync.Mutex
	seq      uint64
	queue    []*request          // requests not yet sent on the current link
	inflight map[uint64]*request // requests sent and not yet answered
	closing  bool
	own      *owner // set while this process owns the store
	isOwner  atomic.Bool

	wake    chan struct{} // tells run there are requests in the queue
	stop    chan struct{} // closed by Close to end run
	stopped chan struct{} // closed when run has ended
}

// request is one request of this process with what waits for its reply.
type request struct {
	wire    wireRequest
	pending *Pending       // an event's
	reply   chan wireReply // an operation's (buffered)
}

// Open opens the memory directory (creating it, owner-only, when absent), as the store's owner when no other
// process owns it and as a client of the owner otherwise. A directory that is not a memory, a damaged store,
// one of a newer schema or one that cannot be written is refused with an error naming the directory; nothing in
// it is changed. A location that looks like a URL but is none (see CheckLocation) is refused before anything
// is created.
func Open(opts Options) (*Memory, error) {
	if opts.Logger == nil {
		opts.Logger = zap.NewNop()
	}
	if opts.ConnectTimeout <= 0 {
		opts.ConnectTimeout = defaultConnectTimeout
	}
	if err := CheckLocation(opts.Dir); err != nil {
		return nil, err
	}
	if IsURL(opts.Dir) {
		return openPostgresMemory(opts)
	}
	if opts.Dir == "" {
		dir, err := DefaultDir()
		if err != nil {
			return nil, &Error{Doing: "no default directory", Err: err}
		}
		opts.Dir = dir
	}
	dir, err := filepath.Abs(opts.Dir)
	if err != nil {
		return nil, &Error{Dir: opts.Dir, Err: err}
	}
	if err := checkDir(dir); err != nil {
		return nil, err
	}
	sock, err := socketPath(dir)
	if err != nil {
		return nil, &Error{Dir: dir, Err: err}
	}
	m := &Memory{dir: dir, sock: sock, log: opts.Logger, opts: opts, inflight: map[uint64]*request{},
		wake: make(chan struct{}, 1), stop: make(chan struct{}), stopped: make(chan struct{})}
	l, err := m.connect(true)
	if err != nil {
		return nil, err
	}
	go m.run(l)
	return m, nil
}

// Dir returns the memory directory, or the PostgreSQL URL without its password.
func (m *Memory) Dir() string { return m.dir }

// Owner reports whether this process holds the store now (a client becomes the owner when the owner exits);
// a PostgreSQL memory, which every process reaches itself, is always its own owner.
func (m *Memory) Owner() bool { return m.isOwner.Load() }

// connect reaches the store: through the owner's socket when one answers, else by becoming the owner. A
// process that finds the store locked and no socket answering (an owner starting or exiting) tries again,
// backing off. At Open (first) errors of the store are returned and the wait is bounded; later it goes on until
// Close, logging once when it has waited longer than the connect timeout (the queued events are kept).
func (m *Memory) connect(first bool) (link, error) {
	start := time.Now()
	backoff := 2 * time.Millisecond
	var lastErr error
	warned := false
	for {
		if l, err := dial(m.sock, m.complete); err == nil {
			m.log.Debug("memory: connected to the owner", zap.String("socket", m.sock))
			return l, nil
		}
		o, err := becomeOwner(m.dir, m.sock, m.opts, m.log)
		if err == nil {
			m.mu.Lock()
			m.own = o
			m.mu.Unlock()
			m.isOwner.Store(true)
			return &localLink{o: o, complete: m.complete}, nil
		}
		if !errors.Is(err, errLocked) {
			if first {
				return nil, err
			}
			if lastErr == nil || lastErr.Error() != err.Error() {
				m.log.Error("memory: cannot take the store over", zap.Error(err))
			}
		}
		lastErr = err
		waited := time.Since(start)
		if first && waited > m.opts.ConnectTimeout {
			return nil, fail(m.dir, ErrUnavailable, fmt.Errorf("another process holds the store and does not answer on %s: %w", m.sock, err))
		}
		if !first && !warned && waited > m.opts.ConnectTimeout {
			m.log.Error("memory: no process serves the store; events stay queued", zap.String("dir", m.dir),
				zap.Duration("waited", waited), zap.Error(err))
			warned = true
		}
		select {
		case <-m.stop:
			return nil, fail(m.dir, ErrClosed, nil)
		case <-time.After(backoff + rand.N(backoff)):
		}
		backoff = min(2*backoff, maxBackoff)
	}
}

// run sends the queued requests over the link, and when the link breaks reaches the store again and sends
// every unanswered request anew, in order.
func (m *Memory) run(l link) {
	defer close(m.stopped)
	for {
		if !m.pump(l) {
			l.close()
			return
		}
		l.close()
		m.log.Info("memory: lost the owner; reconnecting", zap.String("dir", m.dir))
		var err error
		if l, err = m.connect(false); err != nil {
			return
		}
	}
}

// pump sends on l until it breaks (true) or the Memory stops (false).
func (m *Memory) pump(l link) bool {
	m.mu.Lock()
	resend := make([]*request, 0, len(m.inflight))
	for _, r := range m.inflight {
		resend = append(resend, r)
	}
	m.mu.Unlock()
	slices.SortFunc(resend, func(a, b *request) int { return cmp.Compare(a.wire.Seq, b.wire.Seq) })
	for _, r := range resend {
		if l.send(&r.wire) != nil {
			return true
		}
	}
	for {
		m.mu.Lock()
		batch := m.queue
		m.queue = nil
		for _, r := range batch {
			m.inflight[r.wire.Seq] = r
		}
		m.mu.Unlock()
		for _, r := range batch {
			if l.send(&r.wire) != nil {
				return true
			}
		}
		select {
		case <-m.wake:
		case <-l.broken():
			return true
		case <-m.stop:
			return false
		}
	}
}

// complete takes a reply: it finishes the event or hands the reply to the waiting operation.
func (m *Memory) complete(r wireReply) {
	m.mu.Lock()
	req := m.inflight[r.Seq]
	delete(m.inflight, r.Seq)
	m.mu.Unlock()
	switch {
	case req == nil: // answered already, before a resend
	case req.pending != nil:
		req.pending.finish(r.err(m.dir))
	default:
		req.reply <- r
	}
}

// enqueue queues a request for run.
func (m *Memory) enqueue(r *request) error {
	m.mu.Lock()
	if m.closing {
		m.mu.Unlock()
		return fail(m.dir, ErrClosed, nil)
	}
	m.seq++
	r.wire.Seq = m.seq
	m.queue = append(m.queue, r)
	m.mu.Unlock()
	select {
	case m.wake <- struct{}{}:
	default:
	}
	return nil
}

// abandon forgets a request whose caller stopped waiting.
func (m *Memory) abandon(r *request) {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.inflight, r.wire.Seq)
	m.queue = slices.DeleteFunc(m.queue, func(q *request) bool { return q == r })
}

// Close flushes (waiting at most 5 s for every event to be acknowledged) and releases the store; a process
// that owned it hands it over to the next process that needs it.
func (m *Memory) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), closeTimeout)
	defer cancel()
	flushErr := m.flush(ctx)
	m.mu.Lock()
	if m.closing {
		m.mu.Unlock()
		return nil
	}
	m.closing = true
	m.mu.Unlock()
	if flushErr != nil && ctx.Err() != nil {
		m.log.Error("memory: closing with events not acknowledged", zap.String("dir", m.dir), zap.Error(flushErr))
	}
	close(m.stop)
	<-m.stopped
	m.mu.Lock()
	o := m.own
	m.own = nil
	unsent := make([]*request, 0, len(m.queue)+len(m.inflight))
	unsent = append(unsent, m.queue...)
	for _, r := range m.inflight {
		unsent = append(unsent, r)
	}
	m.queue, m.inflight = nil, map[uint64]*request{}
	m.mu.Unlock()
	for _, r := range unsent {
		err := fail(m.dir, ErrClosed, errors.New("closed before the store acknowledged it"))
		if r.pending != nil {
			r.pending.finish(err)
		} else {
			r.reply <- newReply(r.wire.Seq, nil, err)
		}
	}
	m.isOwner.Store(false)
	var closeErr error
	if o != nil {
		closeErr = o.close()
	}
	if ctx.Err() != nil {
		return fail(m.dir, ErrUnavailable, fmt.Errorf("%d events were not acknowledged within %v", len(unsent), closeTimeout))
	}
	return closeErr
}
