// The memory's errors: the sentinels that classify them and Error, which names the directory they concern.

package memory

import (
	"errors"
	"strings"
)

// Errors the memory returns, wrapped in an *Error with the directory and the cause; test them with errors.Is.
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
	// ErrBadLocation says the memory's location cannot be used as given: a malformed PostgreSQL URL, a server
	// that refused the connection (authentication, a missing database) or one too old.
	ErrBadLocation = errors.New("bad memory location")
	// ErrDiskFull says the disk holding the store has too little space left to write safely.
	ErrDiskFull = errors.New("disk full")
	// ErrJobLost says a worker no longer holds a job: it was finished, given up or forgotten, or claimed by
	// another worker after this one's lease ran out.
	ErrJobLost = errors.New("job lost")
)

// Error is an error of the memory; its message is "memory DIR: KIND: DOING: CAUSE", leaving out the parts that
// are empty. errors.As finds it and errors.Is sees its Kind and its cause through it, also when it came from
// the owning process over the socket.
type Error struct {
	// Dir is the memory directory, or the PostgreSQL URL without its password; "" only before there is one
	// (no default directory).
	Dir string
	// Kind is the sentinel that classifies the error (ErrCorrupt, ErrUnknownOpponent, ...), or nil when none
	// does (a failed write of the storage itself).
	Kind error
	// Doing says what the memory was doing when it failed ("writing the store"), or "".
	Doing string
	// Err is the cause, or nil.
	Err error
	// remote is the whole message of an error the owner sent over the socket, which Error returns as it came.
	remote string
}

// Error returns the message, which names the directory.
func (e *Error) Error() string {
	if e.remote != "" {
		return e.remote
	}
	var b strings.Builder
	b.WriteString("memory")
	if e.Dir != "" {
		b.WriteString(" " + e.Dir)
	}
	if e.Kind != nil {
		b.WriteString(": " + e.Kind.Error())
	}
	if e.Doing != "" {
		b.WriteString(": " + e.Doing)
	}
	if e.Err != nil {
		b.WriteString(": " + e.Err.Error())
	}
	return b.String()
}

// Unwrap returns the kind and the cause, so that errors.Is and errors.As see both.
func (e *Error) Unwrap() []error {
	var wrapped []error
	for _, err := range []error{e.Kind, e.Err} {
		if err != nil {
			wrapped = append(wrapped, err)
		}
	}
	return wrapped
}

// fail wraps a sentinel error and its cause (nil when the sentinel says all) with the memory directory.
func fail(dir string, sentinel error, cause error) error {
	return &Error{Dir: dir, Kind: sentinel, Err: cause}
}

// errStorage wraps an error of the storage itself (a failed write or read) with the directory.
func errStorage(dir, doing string, cause error) error {
	return &Error{Dir: dir, Doing: doing, Err: cause}
}

// isMemoryError reports whether err is already an error of the memory, which names the directory.
func isMemoryError(err error) bool {
	var memErr *Error
	return errors.As(err, &memErr)
}
