// The owning process's side: the directory lock, the unix socket server, the writer goroutine that commits
// events in groups, and the background value-log collection.

package memory

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	"go.uber.org/zap"

	"dossier/play/opponent"
)

// Bounds of the owner's queues.
const (
	writeQueue   = 4096 // events waiting for the writer
	maxGroup     = 512  // events one commit takes at most
	replyQueue   = 8192 // replies waiting to go to one client; a client that lets more pile up is dropped
	maxRequest   = 16 << 20
	helloTimeout = 2 * time.Second
	defaultGC    = 10 * time.Minute
)

// codeOwnerClosing marks the reply to a request that reached an owner already closing: it is not sent; the
// connection is dropped instead, so that the client sends the request again to the next owner.
const codeOwnerClosing = "owner_closing"

// writeItem is one thing for the writer: an event to commit, or a write operation to run alone.
type writeItem struct {
	ev    *eventRec
	op    func() (any, error)
	seq   uint64
	reply func(wireReply)
}

// owner holds the store for every process using the directory.
type owner struct {
	st   *store
	log  *zap.Logger
	lock *os.File
	ln   net.Listener
	sock string

	mu      sync.RWMutex // guards closing, conns and sends on writes
	closing bool
	conns   map[net.Conn]struct{}
	writes  chan *writeItem

	spool   *spool         // a PostgreSQL store's events kept while the server cannot be reached; nil for badger
	reads   sync.WaitGroup // reads and connections in progress
	stopGC  chan struct{}
	stopped sync.WaitGroup // the writer and the collector
}

// becomeOwner takes the directory's lock, opens the store and starts serving the socket. It returns errLocked
// when another process holds the lock.
func becomeOwner(dir, sock string, opts Options, log *zap.Logger) (*owner, error) {
	lock, err := os.OpenFile(filepath.Join(dir, lockFile), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, errStorage(dir, "opening the lock file", err)
	}
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		lock.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, errLocked
		}
		return nil, errStorage(dir, "locking the store", err)
	}
	st, err := openStore(dir, opts.SyncWrites, log)
	if err != nil {
		lock.Close()
		return nil, err
	}
	st.experienceLimit = opts.ExperienceLimit
	st.readPause = opts.ReadPause
	o := &owner{st: st, log: log, lock: lock, sock: sock, conns: map[net.Conn]struct{}{},
		writes: make(chan *writeItem, writeQueue), stopGC: make(chan struct{})}
	if err := o.listen(dir); err != nil {
		st.close()
		lock.Close()
		return nil, err
	}
	o.stopped.Add(1)
	go o.writeLoop()
	if opts.GCInterval >= 0 {
		interval := opts.GCInterval
		if interval == 0 {
			interval = defaultGC
		}
		o.stopped.Add(1)
		go o.collect(interval)
	}
	go o.accept()
	log.Info("memory store opened; serving other processes", zap.String("dir", dir), zap.String("socket", sock))
	return o, nil
}

// listen opens the socket, replacing one a killed owner left (only the lock holder gets here, so no live
// owner listens on it), owner-only.
func (o *owner) listen(dir string) error {
	if err := os.Remove(o.sock); err != nil && !errors.Is(err, os.ErrNotExist) {
		return errStorage(dir, "removing the stale socket "+o.sock, err)
	}
	ln, err := net.Listen("unix", o.sock)
	if err != nil {
		return errStorage(dir, "listening on "+o.sock, err)
	}
	if err := os.Chmod(o.sock, 0o600); err != nil {
		ln.Close()
		return errStorage(dir, "making the socket owner-only", err)
	}
	o.ln = ln
	pathFile := filepath.Join(dir, socketPathFile)
	if filepath.Dir(o.sock) != dir {
		if err := os.WriteFile(pathFile, []byte(o.sock+"\n"), 0o600); err != nil {
			o.log.Warn("cannot write the socket's path", zap.String("file", pathFile), zap.Error(err))
		}
	}
	return nil
}

// accept serves each client connection in its own goroutine until the listener closes.
func (o *owner) accept() {
	for {
		c, err := o.ln.Accept()
		if err != nil {
			return
		}
		o.mu.Lock()
		if o.closing {
			o.mu.Unlock()
			c.Close()
			return
		}
		o.conns[c] = struct{}{}
		o.reads.Add(1)
		o.mu.Unlock()
		go o.serve(c)
	}
}

// serve reads one client's requests; replies go out through their own goroutine so that a slow client never
// holds up the writer.
func (o *owner) serve(c net.Conn) {
	defer o.reads.Done()
	out := make(chan wireReply, replyQueue)
	var once sync.Once
	drop := func() { once.Do(func() { c.Close() }) }
	defer func() {
		drop()
		o.mu.Lock()
		delete(o.conns, c)
		o.mu.Unlock()
	}()
	go func() {
		w := bufio.NewWriter(c)
		enc := json.NewEncoder(w)
		for r := range out {
			if enc.Encode(r) != nil {
				drop()
				return
			}
			if len(out) == 0 && w.Flush() != nil {
				drop()
				return
			}
		}
	}()
	var replies sync.WaitGroup // requests whose replies are still to come
	defer func() {
		go func() { replies.Wait(); close(out) }()
	}()
	reply := func(r wireReply) {
		defer replies.Done()
		if r.Code == codeOwnerClosing {
			drop() // the client sends the request again to the next owner
			return
		}
		select {
		case out <- r:
		default:
			o.log.Warn("dropping a memory client that reads no replies")
			drop()
		}
	}
	sc := bufio.NewScanner(c)
	sc.Buffer(make([]byte, 64<<10), maxRequest)
	hello := false
	for sc.Scan() {
		var req wireRequest
		if err := json.Unmarshal(sc.Bytes(), &req); err != nil {
			replies.Add(1)
			reply(newReply(0, nil, fail(o.st.dir, ErrBadEvent, fmt.Errorf("request: %v", err))))
			return
		}
		replies.Add(1)
		if !hello {
			if req.Op != opHello || req.Version != protocolVersion {
				refusal := fmt.Errorf("the owner speaks protocol %d; got %s version %d", protocolVersion, req.Op, req.Version)
				reply(newReply(req.Seq, nil, &Error{Dir: o.st.dir, Err: refusal}))
				return
			}
			hello = true
		}
		o.handle(&req, reply)
	}
}

// handle answers one request, from the socket or from this process: events and writes go to the writer, reads
// run at once in their own goroutine. reply is called exactly once.
func (o *owner) handle(req *wireRequest, reply func(wireReply)) {
	seq := req.Seq
	st := o.st
	switch req.Op {
	case opHello:
		reply(newReply(seq, protocolVersion, nil))
	case opEvent:
		if req.Event == nil {
			reply(newReply(seq, nil, fail(st.dir, ErrBadEvent, errors.New("no event"))))
			return
		}
		if err := req.Event.check(); err != nil {
			reply(newReply(seq, nil, fail(st.dir, ErrBadEvent, err)))
			return
		}
		o.submit(&writeItem{ev: req.Event, seq: seq, reply: reply})
	case opProfile, opOpponents, opGames, opDump, opExperience, opJobs:
		o.read(seq, reply, func() (any, error) { return st.read(req) })
	case opCompact:
		o.read(seq, reply, func() (any, error) {
			freed, err := st.compact()
			o.log.Info("memory value log collected", zap.String("dir", st.dir), zap.Int64("bytes freed", freed))
			return freed, err
		})
	case opImport:
		o.submit(&writeItem{seq: seq, reply: reply, op: func() (any, error) { return st.importRecords(req.Records) }})
	case opForget:
		o.submit(&writeItem{seq: seq, reply: reply, op: func() (any, error) { return nil, st.forget(req.Key) }})
	case opMerge:
		o.submit(&writeItem{seq: seq, reply: reply, op: func() (any, error) { return nil, st.mergeOp(req.Key, req.Into) }})
	case opClaimJob, opRenewJob, opFinishJob, opReleaseJob, opProgressJob:
		o.submit(&writeItem{seq: seq, reply: reply, op: func() (any, error) { return st.jobOp(req.Op, req.Job) }})
	default:
		reply(newReply(seq, nil, fail(st.dir, ErrBadEvent, fmt.Errorf("unknown operation %q", req.Op))))
	}
}

// isRead reports whether an operation only reads the store.
func isRead(op string) bool {
	switch op {
	case opProfile, opOpponents, opGames, opDump, opExperience, opJobs:
		return true
	}
	return false
}

// read runs a read operation.
func (s *store) read(req *wireRequest) (any, error) {
	s = s.pausing(s.readPause)
	switch req.Op {
	case opProfile:
		return s.profile(req.Key, req.Brief)
	case opOpponents:
		return s.opponents()
	case opGames:
		return s.gamesRead(req.Key, req.Brief)
	case opDump:
		return s.page(req.After)
	case opExperience:
		return s.experience(req.Key, req.Game)
	case opJobs:
		return s.jobs()
	}
	return nil, fail(s.dir, ErrBadEvent, fmt.Errorf("%q is not a read", req.Op))
}

// submit queues an item for the writer, or fails it when the owner is closing.
func (o *owner) submit(it *writeItem) {
	o.mu.RLock()
	defer o.mu.RUnlock()
	if o.closing {
		it.reply(wireReply{Seq: it.seq, Err: "the owner is closing", Code: codeOwnerClosing})
		return
	}
	o.writes <- it
}

// read runs a read in its own goroutine, unless the owner is closing.
func (o *owner) read(seq uint64, reply func(wireReply), f func() (any, error)) {
	o.mu.RLock()
	defer o.mu.RUnlock()
	if o.closing {
		reply(wireReply{Seq: seq, Err: "the owner is closing", Code: codeOwnerClosing})
		return
	}
	o.reads.Add(1)
	go func() {
		defer o.reads.Done()
		data, err := f()
		reply(newReply(seq, data, err))
	}()
}

// gatherWrites adds to group the events already waiting on writes, up to maxGroup, and returns it with the
// write operation it met (nil: none), which runs alone after the group.
func gatherWrites(writes <-chan *writeItem, group []*writeItem) ([]*writeItem, *writeItem) {
	for len(group) < maxGroup {
		select {
		case next, ok := <-writes:
			if !ok {
				return group, nil
			}
			if next.op != nil {
				return group, next
			}
			group = append(group, next)
		default:
			return group, nil
		}
	}
	return group, nil
}

// writeLoop is the one writer: it takes whatever events are waiting (up to maxGroup) and commits them in one
// transaction, so many clients share each commit; write operations run alone between groups.
func (o *owner) writeLoop() {
	defer o.stopped.Done()
	var group []*writeItem
	var held *writeItem
	for {
		it := held
		held = nil
		if it == nil {
			var ok bool
			if it, ok = <-o.writes; !ok {
				return
			}
		}
		if it.op != nil {
			data, err := it.op()
			it.reply(newReply(it.seq, data, err))
			continue
		}
		group = append(group[:0], it)
		group, held = gatherWrites(o.writes, group)
		evs := make([]*eventRec, len(group))
		for i, g := range group {
			evs[i] = g.ev
		}
		errs := o.st.commitEvents(evs)
		for i, g := range group {
			if errs[i] != nil {
				o.log.Error("memory write failed", zap.Error(errs[i]))
			}
			g.reply(newReply(g.seq, nil, errs[i]))
		}
	}
}

// collect runs the value-log collection every interval.
func (o *owner) collect(interval time.Duration) {
	defer o.stopped.Done()
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-o.stopGC:
			return
		case <-t.C:
			freed, err := o.st.compact()
			if err != nil {
				o.log.Warn("memory value-log collection failed", zap.Error(err))
			} else if freed > 0 {
				o.log.Info("memory value log collected", zap.String("dir", o.st.dir), zap.Int64("bytes freed", freed))
			}
		}
	}
}

// close stops serving, lets the writer finish what it was given, closes the store and releases the lock, in
// that order: the lock goes last, so no other process listens or opens the store before this one is done.
func (o *owner) close() error {
	if o.ln != nil {
		o.ln.Close() // removes the socket file
	}
	o.mu.Lock()
	o.closing = true
	for c := range o.conns {
		c.Close()
	}
	close(o.writes)
	o.mu.Unlock()
	close(o.stopGC)
	o.stopped.Wait()
	o.reads.Wait()
	err := o.st.close()
	if o.lock != nil {
		o.lock.Close()
	}
	return err
}

// mergeOp is Merge on the owner: both opponents must exist and neither be the unnamed one.
func (s *store) mergeOp(alias, into string) error {
	for _, k := range []*string{&alias, &into} {
		if *k != opponent.UnknownKey {
			*k = opponent.NameKey(*k)
		}
		if *k == opponent.UnknownKey {
			return fail(s.dir, ErrMerge, errors.New("the unnamed opponent is never merged"))
		}
	}
	var err error
	if err := s.kv.view(func(txn kvTxn) error {
		if _, _, err := s.lookup(txn, into); err != nil {
			return err
		}
		if _, _, err := s.lookup(txn, alias); err != nil {
			return err
		}
		target, err := s.resolve(txn, alias)
		if err == nil && target != alias && target != into {
			return fail(s.dir, ErrMerge, fmt.Errorf("%q is already an alias of %q; merge %q instead", alias, target, target))
		}
		return err
	}); err != nil {
		return err
	}
	err = s.batch(func(b batcher) error {
		_, err := s.merge(b, alias, into)
		return err
	})
	return err
}
