// The storage backend interface the store's records live in (ordered keys and values in transactions), which
// the badger store and the PostgreSQL database both implement.

package memory

import "errors"

// kvTxn is one transaction of a backend: it reads its own writes and, for a read, one consistent snapshot.
type kvTxn interface {
	// get returns the value under key and whether there is one (a key may hold an empty value).
	get(key []byte) (value []byte, found bool, err error)
	// set puts value under key.
	set(key, value []byte) error
	// del removes key; removing an absent key is no error.
	del(key []byte) error
	// scan calls f with every key under prefix at or after from (nil: from the prefix's start) in byte order,
	// with its value when values is set. f may read with get during the scan, and ends it early by returning
	// errStopScan (scan then returns nil). The key and value passed to f are f's to keep.
	scan(prefix, from []byte, values bool, f func(key, value []byte) error) error
}

// transientScanner is a kvTxn that scans values without copying each: the value passed to f is f's only until f
// returns (badger hands out a buffer it reuses). The store decodes most values it scans at once and keeps none
// of their bytes, and a copy of each was a seventh of what reading a memory of 1,000 games allocated.
type transientScanner interface {
	scanTransient(prefix []byte, f func(key, value []byte) error) error
}

// blindWriter is a kvTxn that writes a value cheaper without reading the key first (PostgreSQL: an upsert sent
// with the commit, so a move's commit is one round trip); the store uses it for records no other merges into.
type blindWriter interface {
	setBlind(key, value []byte) error
}

// batcher runs the steps of one batch (see backend.batch).
type batcher interface {
	// do runs one step; a backend whose transactions have a size limit (badger) commits and starts a new
	// transaction before a step that does not fit, so a batch must be made of idempotent steps.
	do(step func(txn kvTxn) error) error
}

// backend is where a store keeps its records: the badger store of a memory directory, or a PostgreSQL
// database. Both keep the same keys and values (see the package comment), so every operation of the store
// (events, reads, dump, import, forget, merge, migrations) is written once, over this interface, and means the
// same on both.
type backend interface {
	// view runs f in a read-only transaction that sees one snapshot.
	view(f func(txn kvTxn) error) error
	// batch runs f and commits what its steps wrote; when it returns an error nothing of the step that failed
	// is kept. A backend may run f again from the start (PostgreSQL does when a concurrent writer's transaction
	// conflicts with it), so f must reset whatever it accumulates.
	batch(f func(b batcher) error) error
	// compact reclaims the space of deleted and overwritten values and returns how many bytes it freed.
	compact() (int64, error)
	// close releases the backend.
	close() error
}

// errStopScan ends a scan early without an error.
var errStopScan = errors.New("stop the scan")

// prefixEnd returns the first key after every key that starts with prefix, nil when there is none (an empty
// prefix, or one made of 0xff bytes).
func prefixEnd(prefix []byte) []byte {
	end := append([]byte(nil), prefix...)
	for i := len(end) - 1; i >= 0; i-- {
		if end[i] < 0xff {
			end[i]++
			return end[:i+1]
		}
	}
	return nil
}
