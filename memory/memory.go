// The memory's public face: Open, the asynchronous Record with its Pending, and the reads, whether this process
// owns the store or reaches it through the process that does.
package memory

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
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

// Errors the memory returns, wrapped with the directory and the cause; test them with errors.Is.
var (
	// ErrUnknownOpponent says no opponent has the key.
	ErrUnknownOpponent = errors.New("unknown opponent")
	// ErrNewerSchema says the store was written by a newer dossier.
	ErrNewerSchema = errors.New("store written by a newer dossier")
	// ErrNotAStore says the directory holds files that are not a dossier memory.
	ErrNotAStore = errors.New("not a dossier memory directory")
	// ErrCorrupt says the store could not be read.
	ErrCorrupt = errors.New("memory store is damaged")
	// ErrBadEvent says an event or a request was malformed; the store is unchanged.
	ErrBadEvent = errors.New("malformed event")
	// ErrBadImport says an import was malformed; nothing of it was imported.
	ErrBadImport = errors.New("malformed import")
	// ErrUnavailable says no process could serve the store in time (events stay queued).
	ErrUnavailable = errors.New("memory store unavailable")
	// ErrClosed says the Memory was closed.
	ErrClosed = errors.New("memory closed")
	// ErrMerge says a merge was refused (the unnamed opponent, or an opponent into itself).
	ErrMerge = errors.New("merge refused")
)

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

// Memory is an open memory store, owned by this process or reached through the process that owns it. It is safe
// for concurrent use by many goroutines.
type Memory struct {
	dir string
	log *zap.Logger
}

// Open opens the memory directory (creating it, owner-only, when absent), as the store's owner when no other
// process owns it and as a client of the owner otherwise.
func Open(opts Options) (*Memory, error) { return nil, errors.New("memory: not implemented yet") }

// Dir returns the memory directory.
func (m *Memory) Dir() string { return m.dir }

// Owner reports whether this process holds the store now (a client becomes the owner when the owner exits).
func (m *Memory) Owner() bool { return false }

// Close flushes (waiting at most 5 s for every event to be acknowledged) and releases the store.
func (m *Memory) Close() error { return nil }

// Pending is an event on its way into the store.
type Pending struct {
	done chan struct{}
	err  error
}

// Done returns a channel closed when the event is committed durably or has failed.
func (p *Pending) Done() <-chan struct{} { return p.done }

// Err returns the event's error after Done is closed: nil when it was committed.
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

// Record queues an event and returns at once; a background goroutine sends events, in order, to the store.
func (m *Memory) Record(ev Event) *Pending { return nil }

// Flush waits until every event recorded so far is committed or has failed, or ctx ends.
func (m *Memory) Flush(ctx context.Context) error { return nil }

// Profile returns an opponent's profile by its key (or a name, which is normalised), following aliases.
func (m *Memory) Profile(key string) (*Profile, error) { return nil, nil }

// Opponents lists every opponent, for `dossier memory ls`.
func (m *Memory) Opponents() ([]Summary, error) { return nil, nil }

// Games returns an opponent's games with their move records, oldest first.
func (m *Memory) Games(key string) ([]Game, error) { return nil, nil }

// Dump writes the whole store as JSON lines (the format is in the package comment).
func (m *Memory) Dump(w io.Writer) error { return nil }

// Import merges a dump into the store; importing the same dump twice changes nothing. Malformed input is
// refused whole, naming the line at fault.
func (m *Memory) Import(r io.Reader) (ImportStats, error) { return ImportStats{}, nil }

// Forget removes an opponent with its games, models and aliases.
func (m *Memory) Forget(key string) error { return nil }

// Merge makes the opponent alias an alias of into: its names, games and models move to into. The unnamed
// opponent is never merged.
func (m *Memory) Merge(alias, into string) error { return nil }

// Compact runs badger's value-log garbage collection now.
func (m *Memory) Compact() error { return nil }
