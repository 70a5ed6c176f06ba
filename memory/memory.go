// The memory's public face: Open, the asynchronous Record with its Pending, and the reads, whether this process
// owns the store or reaches it through the process that does.
package memory

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
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
	// Dir is the memory directory (DefaultDir() when empty).
	Dir string
	// Logger receives the store's and badger's messages; nil discards them.
	Logger *zap.Logger
	// SyncWrites makes every commit fsync, so acknowledged events survive a power loss and not only a crash
	// of the process; it costs latency (see the package comment).
	SyncWrites bool
	// GCInterval is how often the owner runs badger's value-log garbage collection: 0 means every 10 minutes,
	// a negative interval never (Compact still works).
	GCInterval time.Duration
	// ConnectTimeout bounds how long Open, and a read, wait for an owner to answer or the store to free; 0
	// means 5 s. Events are never dropped when it passes: they stay queued and are resent.
	ConnectTimeout time.Duration
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
// it is changed.
func Open(opts Options) (*Memory, error) {
	if opts.Dir == "" {
		dir, err := DefaultDir()
		if err != nil {
			return nil, &Error{Doing: "no default directory", Err: err}
		}
		opts.Dir = dir
	}
	if opts.Logger == nil {
		opts.Logger = zap.NewNop()
	}
	if opts.ConnectTimeout <= 0 {
		opts.ConnectTimeout = defaultConnectTimeout
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

// Dir returns the memory directory.
func (m *Memory) Dir() string { return m.dir }

// Owner reports whether this process holds the store now (a client becomes the owner when the owner exits).
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
	slices.SortFunc(resend, func(a, b *request) int { return compareSeq(a.wire.Seq, b.wire.Seq) })
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

func compareSeq(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
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

// Pending is an event on its way into the store.
type Pending struct {
	done chan struct{}
	err  error
}

func newPending() *Pending { return &Pending{done: make(chan struct{})} }

// finish records the outcome; only the first call counts.
func (p *Pending) finish(err error) {
	select {
	case <-p.done:
	default:
		p.err = err
		close(p.done)
	}
}

// Done returns a channel closed when the event is committed durably or has failed.
func (p *Pending) Done() <-chan struct{} { return p.done }

// Err returns the event's error after Done is closed: nil when it was committed (and before Done).
func (p *Pending) Err() error {
	select {
	case <-p.done:
		return p.err
	default:
		return nil
	}
}

// Wait waits until the event is committed or has failed, or ctx ends.
func (p *Pending) Wait(ctx context.Context) error {
	select {
	case <-p.done:
		return p.err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Record queues an event and returns at once, never blocking on the disk or the owner; a background
// goroutine sends events, in order, to the store. A malformed event fails its Pending at once.
func (m *Memory) Record(ev Event) *Pending {
	p := newPending()
	rec, err := ev.record(time.Now())
	if err != nil {
		p.finish(fail(m.dir, ErrBadEvent, err))
		return p
	}
	if err := m.enqueue(&request{wire: wireRequest{Op: opEvent, Event: rec}, pending: p}); err != nil {
		p.finish(err)
	}
	return p
}

// Flush waits until every event recorded so far is committed or has failed, or ctx ends; it returns ctx's
// error, or the first failed event's.
func (m *Memory) Flush(ctx context.Context) error { return m.flush(ctx) }

func (m *Memory) flush(ctx context.Context) error {
	m.mu.Lock()
	var waits []*Pending
	for _, r := range m.queue {
		if r.pending != nil {
			waits = append(waits, r.pending)
		}
	}
	for _, r := range m.inflight {
		if r.pending != nil {
			waits = append(waits, r.pending)
		}
	}
	m.mu.Unlock()
	var first error
	for _, p := range waits {
		if err := p.Wait(ctx); err != nil {
			if ctx.Err() != nil {
				return err
			}
			if first == nil {
				first = err
			}
		}
	}
	return first
}

// call sends an operation after the events recorded before it (so reads see them) and decodes its result
// into out. A profile, which the engine reads while it plays, is bounded by the connect timeout, the rest by
// opTimeout, and all by ctx.
func (m *Memory) call(ctx context.Context, req wireRequest, out any) error {
	limit := opTimeout
	if req.Op == opProfile {
		limit = m.opts.ConnectTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	if err := m.flush(ctx); err != nil && ctx.Err() != nil {
		return fail(m.dir, ErrUnavailable, fmt.Errorf("earlier events are still unacknowledged after %v", limit))
	}
	if isRead(req.Op) {
		// The owner reads its store at once: the events before are committed, and the queue would only add
		// hand-offs between goroutines.
		if o := m.ownerForRead(); o != nil {
			data, err := o.st.read(&req)
			o.reads.Done()
			return decodeReply(m.dir, newReply(0, data, err), out)
		}
	}
	r := &request{wire: req, reply: make(chan wireReply, 1)}
	if err := m.enqueue(r); err != nil {
		return err
	}
	select {
	case rep := <-r.reply:
		return decodeReply(m.dir, rep, out)
	case <-ctx.Done():
		m.abandon(r)
		return fail(m.dir, ErrUnavailable, fmt.Errorf("no answer to %s: %w", req.Op, ctx.Err()))
	}
}

// ownerForRead returns the owner when this process owns the store and is not closing, counting a read in
// progress that the owner's close waits for (the caller calls o.reads.Done).
func (m *Memory) ownerForRead() *owner {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.own == nil || m.closing {
		return nil
	}
	m.own.reads.Add(1)
	return m.own
}

// decodeReply returns a reply's error, or decodes its result into out. Every reply goes through JSON, the
// owner's own too, so a client and the owner see the same values.
func decodeReply(dir string, rep wireReply, out any) error {
	if err := rep.err(dir); err != nil {
		return err
	}
	if out == nil || rep.Data == nil {
		return nil
	}
	if err := json.Unmarshal(rep.Data, out); err != nil {
		return errStorage(dir, "decoding the owner's reply", err)
	}
	return nil
}

// Profile returns an opponent's profile by its key (or a name, which is normalised), following aliases;
// ErrUnknownOpponent when there is none.
func (m *Memory) Profile(key string) (*Profile, error) {
	return m.ProfileContext(context.Background(), key)
}

// ProfileContext is Profile bounded by ctx as well as by the connect timeout, for a caller that must not wait
// long (the engine at UCI_Opponent time).
func (m *Memory) ProfileContext(ctx context.Context, key string) (*Profile, error) {
	var p Profile
	if err := m.call(ctx, wireRequest{Op: opProfile, Key: key}, &p); err != nil {
		return nil, err
	}
	return &p, nil
}

// Opponents lists every opponent, for `dossier memory ls`.
func (m *Memory) Opponents() ([]Summary, error) {
	var out []Summary
	err := m.call(context.Background(), wireRequest{Op: opOpponents}, &out)
	return out, err
}

// Games returns an opponent's games with their move records, oldest first.
func (m *Memory) Games(key string) ([]Game, error) {
	var wire []gameData
	if err := m.call(context.Background(), wireRequest{Op: opGames, Key: key}, &wire); err != nil {
		return nil, err
	}
	out := make([]Game, len(wire))
	for i, g := range wire {
		out[i] = g.public()
	}
	return out, nil
}

// Dump writes the whole store as JSON lines, the schema line first (the format is in the package comment).
// Pages are read one at a time, so a dump taken while games are played may hold some of their moves only.
func (m *Memory) Dump(w io.Writer) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "{\"type\":%q,\"version\":%d}\n", typeSchema, schemaVersion)
	after := ""
	for {
		var page dumpPage
		if err := m.call(context.Background(), wireRequest{Op: opDump, After: after}, &page); err != nil {
			return err
		}
		for _, line := range page.Lines {
			bw.Write(line)
			bw.WriteByte('\n')
		}
		if page.Done {
			break
		}
		after = page.Next
	}
	if err := bw.Flush(); err != nil {
		return errStorage(m.dir, "writing the dump", err)
	}
	return nil
}

// Import merges a dump into the store; importing the same dump twice changes nothing. The whole input is
// read and checked first: malformed input is refused whole, naming the line at fault.
func (m *Memory) Import(r io.Reader) (ImportStats, error) {
	lines, records, err := readDump(r)
	if err != nil {
		return ImportStats{}, fail(m.dir, ErrBadImport, err)
	}
	stats := ImportStats{Records: 1, Unchanged: 1} // the schema line
	if records == 0 {
		return ImportStats{}, fail(m.dir, ErrBadImport, errors.New("the input is empty"))
	}
	for len(lines) > 0 {
		var batch []json.RawMessage
		size := 0
		for len(lines) > 0 && len(batch) < pageRecords && size < pageBytes {
			batch = append(batch, lines[0])
			size += len(lines[0])
			lines = lines[1:]
		}
		var got ImportStats
		if err := m.call(context.Background(), wireRequest{Op: opImport, Records: batch}, &got); err != nil {
			return stats, err
		}
		stats.Records += got.Records
		stats.Added += got.Added
		stats.Unchanged += got.Unchanged
	}
	return stats, nil
}

// Forget removes an opponent with its games, models and aliases.
func (m *Memory) Forget(key string) error {
	return m.call(context.Background(), wireRequest{Op: opForget, Key: key}, nil)
}

// Merge makes the opponent alias an alias of into: its names, games and models move to into, and later
// sightings of alias are filed under into. The unnamed opponent is never merged.
func (m *Memory) Merge(alias, into string) error {
	return m.call(context.Background(), wireRequest{Op: opMerge, Key: alias, Into: into}, nil)
}

// Compact runs badger's value-log garbage collection now; what it freed is logged.
func (m *Memory) Compact() error {
	return m.call(context.Background(), wireRequest{Op: opCompact}, nil)
}
