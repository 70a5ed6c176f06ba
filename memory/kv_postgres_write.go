// The PostgreSQL backend's write transactions: each key read is locked first, and statements are pipelined so
// that a move's commit costs one round trip to the server (BEGIN, the upsert, COMMIT), a profile's two.

package memory

import (
	"context"
	"errors"
	"hash/fnv"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// pgWriteTxn is a read-committed transaction on one connection of the pool. It sends BEGIN with its first
// statements, and keeps its writes until it next talks to the server (a read of a key it has not written, a
// scan, the commit), then sends them ahead of what it sends then, in order; a read of a key it wrote answers
// from the writes it keeps.
type pgWriteTxn struct {
	ctx     context.Context
	conn    *pgxpool.Conn
	kv      *pgKV
	begun   bool
	pending []pgWrite         // writes not sent yet, in order
	written map[string][]byte // every key written (nil: deleted), for reads of this transaction's writes
	deleted map[string]bool   // keys deleted
}

// pgWrite is one write not sent yet: a value to put, or a key to delete.
type pgWrite struct {
	key, value []byte
	del        bool
}

// lockID is the advisory lock of a key of this table: a 64-bit FNV-1a hash (two keys sharing one only wait
// for each other).
func (kv *pgKV) lockID(key []byte) int64 {
	h := fnv.New64a()
	h.Write([]byte(kv.table))
	h.Write([]byte{0})
	h.Write(key)
	return int64(h.Sum64())
}

// send sends BEGIN (the first time), the writes kept, then the queries add queues, in one round trip; it
// returns the results of add's queries (the caller closes them) after reading those of the rest.
func (t *pgWriteTxn) send(add func(b *pgx.Batch)) (pgx.BatchResults, error) {
	b := &pgx.Batch{}
	head := 0
	if !t.begun {
		b.Queue("BEGIN ISOLATION LEVEL READ COMMITTED")
		head++
	}
	for _, w := range t.pending {
		if w.del {
			b.Queue("DELETE FROM "+t.kv.table+" WHERE key = $1", w.key)
		} else {
			b.Queue("INSERT INTO "+t.kv.table+" (key, value) VALUES ($1, $2) "+
				"ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value", w.key, w.value)
		}
		head++
	}
	t.begun, t.pending = true, nil
	if add != nil {
		add(b)
	}
	if b.Len() == 0 {
		return nil, nil
	}
	br := t.conn.SendBatch(t.ctx, b)
	for range head {
		if _, err := br.Exec(); err != nil {
			br.Close()
			return nil, err
		}
	}
	return br, nil
}

// flush sends the writes kept.
func (t *pgWriteTxn) flush() error {
	if len(t.pending) == 0 && t.begun {
		return nil
	}
	br, err := t.send(nil)
	if br != nil {
		err = br.Close()
	}
	return err
}

// get locks key until the transaction ends and reads it (in the round trip that sends the writes kept), so
// that two writers' read-modify-writes of one record (a profile both name) follow one another.
func (t *pgWriteTxn) get(key []byte) ([]byte, bool, error) {
	if v, ok := t.written[string(key)]; ok {
		if t.deleted[string(key)] {
			return nil, false, nil
		}
		return v, true, nil
	}
	br, err := t.send(func(b *pgx.Batch) {
		b.Queue("SELECT pg_advisory_xact_lock($1)", t.kv.lockID(key))
		b.Queue("SELECT value FROM "+t.kv.table+" WHERE key = $1", key)
	})
	if err != nil {
		return nil, false, err
	}
	var v []byte
	if _, err = br.Exec(); err == nil {
		err = br.QueryRow().Scan(&v)
	}
	if cerr := br.Close(); cerr != nil && (err == nil || errors.Is(err, pgx.ErrNoRows)) {
		err = cerr
	}
	return found(v, err)
}

func (t *pgWriteTxn) set(key, value []byte) error {
	if value == nil {
		value = []byte{}
	}
	k := string(key)
	t.pending = append(t.pending, pgWrite{key: []byte(k), value: value})
	t.written[k] = value
	delete(t.deleted, k)
	return nil
}

// setBlind is set: the write is sent with the transaction's next round trip, without a read or a lock.
func (t *pgWriteTxn) setBlind(key, value []byte) error { return t.set(key, value) }

func (t *pgWriteTxn) del(key []byte) error {
	k := string(key)
	t.pending = append(t.pending, pgWrite{key: []byte(k), del: true})
	t.written[k] = nil
	t.deleted[k] = true
	return nil
}

// scan sends the writes kept, then scans as a read does, seeing them.
func (t *pgWriteTxn) scan(prefix, from []byte, values bool, f func(key, value []byte) error) error {
	if err := t.flush(); err != nil {
		return err
	}
	return pgTxn{ctx: t.ctx, tx: t.conn, kv: t.kv}.scan(prefix, from, values, f)
}

// do runs one step: PostgreSQL has no size limit that needs a batch split.
func (t *pgWriteTxn) do(step func(txn kvTxn) error) error { return step(t) }

// commit sends the writes kept and COMMIT in one round trip.
func (t *pgWriteTxn) commit() error {
	if !t.begun && len(t.pending) == 0 {
		return nil // nothing was read or written
	}
	br, err := t.send(func(b *pgx.Batch) { b.Queue("COMMIT") })
	if err != nil {
		return err
	}
	if _, err = br.Exec(); err == nil {
		err = br.Close()
	} else {
		br.Close()
	}
	return err
}

// try runs f in one write transaction and commits it; on an error the transaction is rolled back (or its
// connection, if broken, closed by the pool).
func (kv *pgKV) try(f func(b batcher) error) error {
	ctx, cancel := context.WithTimeout(context.Background(), pgTxnTimeout)
	defer cancel()
	conn, err := kv.pool.Acquire(ctx)
	if err != nil {
		return err
	}
	defer conn.Release() // the pool closes a connection left in a transaction
	t := &pgWriteTxn{ctx: ctx, conn: conn, kv: kv, written: map[string][]byte{}, deleted: map[string]bool{}}
	if err := f(t); err != nil {
		if t.begun {
			_, _ = conn.Exec(ctx, "ROLLBACK")
		}
		return err
	}
	if err := t.commit(); err != nil {
		if t.begun {
			_, _ = conn.Exec(ctx, "ROLLBACK")
		}
		return err
	}
	return nil
}
