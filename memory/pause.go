package memory

// Reads that pause: a caller that reads in the background (the engine's reading of an opponent's memory for the
// next game, its analyses) gives Options.ReadPause, and a read this process's store answers itself calls it
// between the records it reads, so that reading a large memory stops within a few records when something more
// urgent runs (our search), and allocates nothing meanwhile. A read answered by another process (the owner of
// the store) runs there and does not pause here.

// readPauseEvery is how many records a read takes between two calls of the pause: a record costs a few
// microseconds to decode, a pause that does not wait a few tens of nanoseconds.
const readPauseEvery = 8

// pausingBackend is a store's backend whose read transactions call pause every readPauseEvery records.
type pausingBackend struct {
	backend
	pause func()
}

func (b pausingBackend) view(f func(txn kvTxn) error) error {
	return b.backend.view(func(txn kvTxn) error { return f(&pausingTxn{kvTxn: txn, pause: b.pause}) })
}

// pausingTxn counts the records a read transaction takes and pauses every readPauseEvery.
type pausingTxn struct {
	kvTxn
	pause func()
	taken int
}

func (t *pausingTxn) step() {
	t.taken++
	if t.taken%readPauseEvery == 0 {
		t.pause()
	}
}

func (t *pausingTxn) get(key []byte) ([]byte, bool, error) {
	t.step()
	return t.kvTxn.get(key)
}

func (t *pausingTxn) scan(prefix, from []byte, values bool, f func(key, value []byte) error) error {
	return t.kvTxn.scan(prefix, from, values, func(key, value []byte) error {
		t.step()
		return f(key, value)
	})
}

// scanTransient implements transientScanner over a backend that may not: then its copying scan serves.
func (t *pausingTxn) scanTransient(prefix []byte, f func(key, value []byte) error) error {
	step := func(key, value []byte) error {
		t.step()
		return f(key, value)
	}
	if ts, ok := t.kvTxn.(transientScanner); ok {
		return ts.scanTransient(prefix, step)
	}
	return t.kvTxn.scan(prefix, nil, true, step)
}

// pausing returns the store whose reads call pause (s itself when pause is nil).
func (s *store) pausing(pause func()) *store {
	if pause == nil {
		return s
	}
	ps := *s
	ps.kv = pausingBackend{backend: s.kv, pause: pause}
	return &ps
}
