// The calls the store answers: the reads Profile, Opponents, Games and Dump; Import, Forget, Merge and Compact.

package memory

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
)

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
	if o := m.ownerForRead(); o != nil {
		down := o.spool != nil && o.spool.down.Load()
		o.reads.Done()
		if down { // a PostgreSQL server away: say so at once rather than wait for the spooled events
			return fail(m.dir, ErrUnavailable, errors.New("the database is unreachable; events are spooled until it is back"))
		}
	}
	if err := m.flush(ctx); err != nil && ctx.Err() != nil {
		return fail(m.dir, ErrUnavailable, fmt.Errorf("earlier events are still unacknowledged after %v", limit))
	}
	if isRead(req.Op) {
		// The owner reads its store at once: the events before are committed, and the queue would only add
		// hand-offs between goroutines.
		if o := m.ownerForRead(); o != nil {
			data, err := o.st.read(&req)
			o.reads.Done()
			if err == nil && assignRead(data, out) {
				return nil
			}
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

// assignRead stores a read's result in out without the wire's encoding when out points to the result's type
// (or to what the result points to), and says whether it did: the owner's store builds a new value for every
// read, so the caller may keep it, and a memory of a thousand games is read at a fraction of the cost.
func assignRead(data, out any) bool {
	to := reflect.ValueOf(out)
	if data == nil || to.Kind() != reflect.Pointer || to.IsNil() {
		return false
	}
	from := reflect.ValueOf(data)
	if from.Kind() == reflect.Pointer && !from.IsNil() && !from.Type().AssignableTo(to.Elem().Type()) {
		from = from.Elem()
	}
	if !from.Type().AssignableTo(to.Elem().Type()) {
		return false
	}
	to.Elem().Set(from)
	return true
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
	return m.profile(ctx, key, false)
}

// ProfileBrief is Profile without the games and the models: the names, ratings and the mistakes found, for a
// reader that needs no more (the game memory at every game's start), at a fraction of the cost where the
// opponent has many games. Its LastSeen is the profile's own, not the latest of its games'.
func (m *Memory) ProfileBrief(key string) (*Profile, error) {
	return m.profile(context.Background(), key, true)
}

func (m *Memory) profile(ctx context.Context, key string, brief bool) (*Profile, error) {
	var p Profile
	if err := m.call(ctx, wireRequest{Op: opProfile, Key: key, Brief: brief}, &p); err != nil {
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
func (m *Memory) Games(key string) ([]Game, error) { return m.games(key, false) }

// GamesBrief is Games without the move records (Game.Records) of the games whose end filed their moves: their
// moves, start and final positions and results, read at a fraction of the cost. A game cut off before its end
// still has the moves its records give.
func (m *Memory) GamesBrief(key string) ([]Game, error) { return m.games(key, true) }

func (m *Memory) games(key string, brief bool) ([]Game, error) {
	var wire []gameData
	if err := m.call(context.Background(), wireRequest{Op: opGames, Key: key, Brief: brief}, &wire); err != nil {
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

// Forget removes an opponent with its games, models, aliases, analyses and jobs (a forgotten opponent's work
// is not to be done; a worker holding one of them gets ErrJobLost).
func (m *Memory) Forget(key string) error {
	return m.call(context.Background(), wireRequest{Op: opForget, Key: key}, nil)
}

// Merge makes the opponent alias an alias of into: its names, games, models and jobs move to into (where into
// has a job of the same kind about the same game, alias's is dropped), and later sightings of alias are filed
// under into. The unnamed opponent is never merged.
func (m *Memory) Merge(alias, into string) error {
	return m.call(context.Background(), wireRequest{Op: opMerge, Key: alias, Into: into}, nil)
}

// Compact runs badger's value-log garbage collection now; what it freed is logged.
func (m *Memory) Compact() error {
	return m.call(context.Background(), wireRequest{Op: opCompact}, nil)
}
