// The badger backend: the store's keys and values in a badger database, in transactions that commit and start
// anew when one grows too big, with the free-space check that keeps badger from writing into a full disk.

package memory

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"syscall"

	badger "github.com/dgraph-io/badger/v4"
)

// badgerKV is an open badger database; one process holds it.
type badgerKV struct {
	db  *badger.DB
	dir string // the memory directory, named in every error
}

// badgerTxn is a badger transaction seen as a kvTxn.
type badgerTxn struct{ txn *badger.Txn }

func (t badgerTxn) get(key []byte) ([]byte, bool, error) {
	item, err := t.txn.Get(key)
	if errors.Is(err, badger.ErrKeyNotFound) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	v, err := item.ValueCopy(nil)
	return v, err == nil, err
}

func (t badgerTxn) set(key, value []byte) error { return t.txn.Set(key, value) }
func (t badgerTxn) del(key []byte) error        { return t.txn.Delete(key) }

func (t badgerTxn) scan(prefix, from []byte, values bool, f func(key, value []byte) error) error {
	return t.iterate(prefix, from, values, false, f)
}

// scanTransient implements transientScanner: every value under prefix is read into one buffer, grown as needed.
func (t badgerTxn) scanTransient(prefix []byte, f func(key, value []byte) error) error {
	return t.iterate(prefix, nil, true, true, f)
}

// iterate is scan, each value in a buffer of its own or, reusing one, in the same buffer.
func (t badgerTxn) iterate(prefix, from []byte, values, reuse bool, f func(key, value []byte) error) error {
	it := t.txn.NewIterator(badger.IteratorOptions{Prefix: prefix, PrefetchValues: values, PrefetchSize: 64})
	defer it.Close()
	start := prefix
	if bytes.Compare(from, prefix) > 0 {
		start = from
	}
	var buf []byte
	for it.Seek(start); it.Valid(); it.Next() {
		item := it.Item()
		var v []byte
		if values {
			var err error
			if v, err = item.ValueCopy(buf[:0]); err != nil {
				return err
			}
			if reuse {
				buf = v
			}
		}
		if err := f(item.KeyCopy(nil), v); err != nil {
			if errors.Is(err, errStopScan) {
				return nil
			}
			return err
		}
	}
	return nil
}

func (b *badgerKV) view(f func(txn kvTxn) error) error {
	return b.db.View(func(txn *badger.Txn) error { return f(badgerTxn{txn}) })
}

// badgerBatch is a series of transactions that commits and starts anew when one grows too big for badger.
type badgerBatch struct {
	b   *badgerKV
	txn *badger.Txn
}

func (b *badgerKV) batch(f func(b batcher) error) error {
	if err := b.checkSpace(); err != nil {
		return err
	}
	bb := &badgerBatch{b: b, txn: b.db.NewTransaction(true)}
	defer func() { bb.txn.Discard() }()
	if err := f(bb); err != nil {
		if !isMemoryError(err) {
			err = errStorage(b.dir, "writing the store", err)
		}
		return err
	}
	return bb.commit()
}

// do runs one step in the current transaction, or in a new one when the current is full.
func (bb *badgerBatch) do(step func(txn kvTxn) error) error {
	err := step(badgerTxn{bb.txn})
	if errors.Is(err, badger.ErrTxnTooBig) {
		if err := bb.commit(); err != nil {
			return err
		}
		bb.txn.Discard()
		bb.txn = bb.b.db.NewTransaction(true)
		err = step(badgerTxn{bb.txn})
	}
	return err
}

func (bb *badgerBatch) commit() error {
	if err := bb.txn.Commit(); err != nil {
		return errStorage(bb.b.dir, "writing the store", err)
	}
	return nil
}

// checkSpace refuses a write when the file system is nearly full (see diskReserve).
func (b *badgerKV) checkSpace() error {
	var st syscall.Statfs_t
	if err := syscall.Statfs(filepath.Join(b.dir, storeDir), &st); err != nil {
		return nil // a file system that cannot say is written to; badger reports what fails
	}
	free := st.Bavail * uint64(st.Bsize)
	if free < diskReserve {
		return fail(b.dir, ErrDiskFull, fmt.Errorf("%d KiB free, the store needs %d KiB to write safely; nothing was written",
			free>>10, diskReserve>>10))
	}
	return nil
}

// compact runs badger's value-log garbage collection until it finds nothing to rewrite, and returns how many
// bytes the value log shrank by.
func (b *badgerKV) compact() (int64, error) {
	_, before := b.db.Size()
	for {
		err := b.db.RunValueLogGC(0.5)
		if errors.Is(err, badger.ErrNoRewrite) || errors.Is(err, badger.ErrRejected) {
			break
		}
		if err != nil {
			return 0, errStorage(b.dir, "compacting the store", err)
		}
	}
	_, after := b.db.Size()
	return before - after, nil
}

func (b *badgerKV) close() error {
	if err := b.db.Close(); err != nil {
		return errStorage(b.dir, "closing the store", err)
	}
	return nil
}
